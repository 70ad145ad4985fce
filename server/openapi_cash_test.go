package server

import (
	"slices"

	"posbox/fiscal"
	"posbox/fiscal/cashbook"
)

// The cash book's part of the OpenAPI document (docs/CASHDESK.md): its
// component schemas and its operations. The kinds and business cases
// come from fiscal/cashbook, so the document names what the server books.

// cashKinds are the kinds of movement an answer may carry: every kind,
// a count's difference included.
func cashKinds() []string {
	out := make([]string, 0, len(cashbook.Kinds))
	for _, k := range cashbook.Kinds {
		out = append(out, k.Name)
	}
	return out
}

// cashBusinessCases are the DSFinV-K business cases of the kinds.
func cashBusinessCases() []string {
	var out []string
	for _, k := range cashbook.Kinds {
		if !slices.Contains(out, k.BusinessCase) {
			out = append(out, k.BusinessCase)
		}
	}
	return out
}

// cashDenominations are the euro notes and coins a count lists.
func cashDenominations() []string {
	out := make([]string, 0, len(cashbook.Denominations))
	for _, d := range cashbook.Denominations {
		out = append(out, fiscal.Amount(d))
	}
	return out
}

// cashSchemas are the cash book's component schemas.
func cashSchemas() jobj {
	serial := sStr("The register (the terminal serial its sales name), as a sale's `client_serial`.", "pattern", clientSerialPattern)
	who := func(desc string) jobj {
		return sAnswer(desc, pr("id", sNullable(sID("Null once the user's data was erased."))), pr("name", sStr("As it was then.")))
	}
	text := func(desc string, max int) jobj {
		return sStr(joinDesc(desc, "One line without leading or trailing spaces."), "maxLength", max)
	}
	required := func(kind string, members ...string) jobj {
		ps := jobj{}
		for _, m := range members {
			ps = append(ps, jmember{m, jo("minLength", 1)})
		}
		return sIfThen("kind", kind, jo("required", members, "properties", ps), nil)
	}
	pieces := jo("type", "object", "description", "Euro note or coin (its value: `50.00`, `0.2`; one of "+
		"`"+cashDenominations()[0]+"` … `"+cashDenominations()[len(cashDenominations())-1]+"`) → how many, 0-100000.",
		"propertyNames", jo("pattern", `^[0-9]+(\.[0-9]{1,2})?$`), "additionalProperties", sInt("", "minimum", 0, "maximum", 100000))
	kinds := make([]string, 0, len(cashbook.Kinds))
	var staff []string
	for _, k := range cashbook.Kinds {
		if k.Sign != 0 {
			kinds = append(kinds, k.Name)
		}
		if k.StaffMay {
			staff = append(staff, "`"+k.Name+"`")
		}
	}
	create := sBody("A movement to book as a signed receipt of its register (docs/CASHDESK.md).",
		prReq("client_serial", serial),
		prReq("kind", sEnum("What the cash is for; its business case and sign follow from it. Staff book "+joinList(staff)+
			" only (else 403 `forbidden`); a `difference` is booked by a count only.", kinds...)),
		prReq("amount", sMoney("How much, greater than 0: the kind says which way the cash moves.", "exclusiveMinimum", 0, "maximum", maxMoney)),
		pr("reason", text("At most 200 characters; required for `wage` and `expense`.", 200)),
		pr("voucher_no", text("The voucher's (receipt's) number; at most 50 characters; required for `expense`.", 50)),
		pr("for_user_id", sID("Whose float or tip payout it is (`opening_float`, `tip_payout` only), when not the one who books it: "+
			"an active user of the restaurant; staff name only themselves (else 403 `forbidden`).")))
	create = append(create, jmember{"allOf", []any{required("wage", "reason"), required("expense", "reason", "voucher_no")}})
	count := sBody("A count of the register's euro cash: the counted sum, or the notes and coins (exactly one of the two).",
		prReq("client_serial", serial),
		pr("counted", sMoney("The counted sum.", "minimum", 0, "maximum", maxMoney)),
		pr("denominations", pieces))
	count = append(count, jmember{"oneOf", []any{jo("required", []string{"counted"}), jo("required", []string{"denominations"})}})
	return jo(
		"CashRegister", sAnswer("A register's cash book now.",
			pr("client_serial", sStr("")),
			pr("book_started", sBool("A movement was booked: the cash book begins with the register's first movement (its opening float).")),
			pr("expected", sNullable(sMoney("The expected euro cash (Soll-Bestand): the movements and the cash of the sales since the book began; "+
				"null before it began."))),
			pr("as_of", sNullable(sInstant("When it last changed; null before the book began."))),
			pr("last_count", sNullable(sRef("CashCount").with("description", "The register's latest count; null before the first.")))),
		"CashMovement", sAnswer("A cash movement that is not a sale, booked as a signed receipt of its register (docs/CASHDESK.md).",
			pr("id", sID("The receipt's transaction (`GET /api/tse/transactions/{id}`).")),
			pr("client_serial", sStr("")),
			pr("number", sInt("Gap-free per register, from 1.", "minimum", 1)),
			pr("kind", sEnum("", cashKinds()...)),
			pr("business_case", sEnum("The DSFinV-K business case (GV_TYP) of the receipt's line.", cashBusinessCases()...)),
			pr("amount", sMoney("Signed: into the drawer > 0, out of it < 0.")),
			pr("reason", sStr("Empty when none was given; a count's difference names counted and expected cash.")),
			pr("voucher_no", sStr("Empty when none was given.")),
			pr("reverses", sNullable(sID("A counter-entry: the movement it reverses."))),
			pr("reversed_by", sNullable(sID("The counter-entry that reversed this movement; null while none did."))),
			pr("count_id", sNullable(sID("A count's difference: the count that booked it."))),
			pr("booked_by", who("Who booked it.")),
			pr("for_user", sNullable(who("Whose float or tip payout it is; null: the one who booked it."))),
			pr("created_at", sInstant("")),
			pr("signed", sBool("The TSE signed its receipt.")),
			pr("receipt_without_tse", sBool("Its receipt went out without TSE data (202); signed later, like a sale's."))),
		"CashMovementCreate", create,
		"CashCountCreate", count,
		"CashReverse", sBody("", prReq("reason", sStr("Why it is reversed: 1-200 characters, one line without leading or trailing spaces.",
			"minLength", 1, "maxLength", 200))),
		"CashCount", sAnswer("A count of a register's euro cash (Kassensturz), compared with the expected cash when it was booked.",
			pr("id", sID("")), pr("client_serial", sStr("")),
			pr("number", sInt("Gap-free per register, from 1.", "minimum", 1)),
			pr("expected", sMoney("The expected cash the count was compared with.")),
			pr("counted", sMoney("", "minimum", 0)),
			pr("difference", sMoney("`counted` − `expected`: negative when cash is missing.")),
			pr("denominations", sNullable(jo("type", "object", "description", "The notes and coins counted (their value → how many, "+
				"those counted at least once); null for a count given as one sum.", "additionalProperties", sInt("", "minimum", 1)))),
			pr("difference_movement", sNullable(sID("The `difference` movement that booked it; null when the count matched."))),
			pr("counted_by", who("Who counted.")),
			pr("created_at", sInstant(""))),
	)
}

// joinList writes "a, b and c".
func joinList(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	out := xs[0]
	for _, x := range xs[1 : len(xs)-1] {
		out += ", " + x
	}
	return out + " and " + xs[len(xs)-1]
}

// cashOps are the cash book's operations.
func cashOps() []apiOp {
	const invalid = "validation_failed"
	bad := []string{eMalformedJSON, eUnknownField}
	rangeParams := []any{
		qParam("from", "The first local date; default today.", sDate(""), false),
		qParam("to", "The last local date; default today; not before `from`, at most 366 days after it.", sDate(""), false),
		qParam("client_serial", "Only this register's.", sStr(""), false)}
	booked := sObject("", []string{"movement", "transaction"}, []prop{pr("movement", sRef("CashMovement")),
		pr("transaction", sRef("TSETransaction").with("description", "The movement's receipt, as a sale's."))})
	return []apiOp{
		{method: "GET", path: "/api/cash/registers", id: "listCashRegisters", tag: "Cash", access: fiscalRead,
			summary: "The expected cash of each register now and its last count",
			desc:    "Every register with a sale or a cash book, by serial. Staff never read the expected cash: they count blind.",
			ok:      []apiOK{okJSON(200, "The registers.", sWrap("registers", sArray(sRef("CashRegister"), "By serial.")))}},
		{method: "GET", path: "/api/cash/movements", id: "listCashMovements", tag: "Cash", access: fiscalRead,
			summary: "The cash movements of a range of local dates, by register and number",
			params:  rangeParams,
			ok:      []apiOK{okJSON(200, "The movements.", sWrap("movements", sArray(sRef("CashMovement"), "")))},
			errs:    map[int][]string{422: {invalid}}},
		{method: "POST", path: "/api/cash/movements", id: "createCashMovement", tag: "Cash", access: anyUser,
			summary: "Book a cash movement (opening float, tip payout, money to or from the bank, deposit, withdrawal, wage, expense)",
			desc: "A signed receipt of the register with one line of the kind's business case, not taxable, paid in euro cash: it is in the " +
				"closing and the DSFinV-K export like any receipt. Staff book `opening_float` and `tip_payout` only (403 `forbidden`). " +
				"201 with the signature; 202 when its receipt went out without TSE data, as a sale's.",
			params: []any{idempotencyKeyParam}, reqBody: "CashMovementCreate",
			ok: []apiOK{okJSON(201, "Booked and signed.", booked),
				okJSON(202, "Booked and queued: the receipt goes out without TSE data.", booked)},
			errs: map[int][]string{400: bad, 403: {eForbidden}, 409: {"tse_not_configured"}, 422: {invalid, "idempotency_key_reused"},
				503: {"tse_unavailable", "tse_replacing"}}},
		{method: "POST", path: "/api/cash/movements/:id/reverse", id: "reverseCashMovement", tag: "Cash", access: adminOnly,
			summary: "Reverse a movement: its counter-entry, the same kind for the opposite amount (a movement is never changed)",
			desc: "A storno of the movement's receipt. A movement is reversed once (409 `already_cancelled`); a counter-entry and a count's " +
				"difference are not reversed (409 `conflict`: book the movement again, or count again).",
			params: []any{idempotencyKeyParam}, reqBody: "CashReverse",
			ok: []apiOK{okJSON(201, "The counter-entry, signed.", booked),
				okJSON(202, "The counter-entry, queued: its receipt goes out without TSE data.", booked)},
			errs: map[int][]string{400: bad, 404: {"not_found"}, 409: {"already_cancelled", "conflict", "tse_not_configured"},
				422: {invalid, "idempotency_key_reused"}, 503: {"tse_unavailable", "tse_replacing"}}},
		{method: "GET", path: "/api/cash/counts", id: "listCashCounts", tag: "Cash", access: fiscalRead,
			summary: "The cash counts of a range of local dates, by register and number",
			params:  rangeParams,
			ok:      []apiOK{okJSON(200, "The counts.", sWrap("counts", sArray(sRef("CashCount"), "")))},
			errs:    map[int][]string{422: {invalid}}},
		{method: "POST", path: "/api/cash/counts", id: "createCashCount", tag: "Cash", access: anyUser,
			summary: "Count a register's cash (Kassensturz): a difference to the expected cash is booked with it",
			desc: "Blind: the answer shows the expected cash and the difference only after the count is booked. A difference is a " +
				"`difference` movement (DifferenzSollIst) in the count's own signed receipt; a count that matches books none. " +
				"Refused before the register's first movement (409 `cash_book_not_started`) and when the cash moved while counting " +
				"(409 `cash_changed`: count again).",
			reqBody: "CashCountCreate", ok: []apiOK{okJSON(201, "Booked.", sWrap("count", sRef("CashCount")))},
			errs: map[int][]string{400: bad, 409: {"cash_book_not_started", "cash_changed", "tse_not_configured"}, 422: {invalid},
				503: {"tse_unavailable", "tse_replacing"}}},
	}
}
