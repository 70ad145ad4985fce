package fiscal

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"posbox/store"
)

// request decodes a body as the server does (numbers kept as literals,
// unknown members refused).
func request(t *testing.T, body string) *Request {
	t.Helper()
	var r Request
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// fieldErrors is "field code" of each field error of err, in order.
func fieldErrors(t *testing.T, err error) []string {
	t.Helper()
	var e *store.Error
	if !errors.As(err, &e) || e.Code != store.EValidation {
		t.Fatalf("want a validation error, got %v", err)
	}
	var out []string
	for _, f := range e.Fields {
		out = append(out, f.Field+" "+f.Code.String())
	}
	return out
}

// receipt is a valid cash receipt at the NORMAL rate with more members.
func receipt(amount, more string) string {
	return `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",` +
		`"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":` + amount + `}],` +
		`"amounts_per_payment_type":[{"payment_type":"CASH","amount":` + amount + `}]` + more + `}`
}

func line(text, qty, price, rate string) string {
	return `{"text":"` + text + `","quantity":` + qty + `,"unit_price":` + price + `,"vat_rate":"` + rate + `"}`
}

// Bodies that break a rule name the field (and only it).
func TestValidateRules(t *testing.T) {
	const discount = `"discount_id":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"`
	for _, c := range []struct{ name, body, want string }{
		{"lines do not add up", receipt("7.80", `,"line_items":[`+line("Bier", "2", "3.89", "NORMAL")+`]`), "line_items sum_mismatch"},
		{"line at a rate without amount", receipt("7.80", `,"line_items":[`+line("Bier", "2", "3.90", "NORMAL")+","+line("Wasser", "1", "1.00", "REDUCED_1")+`]`), "line_items sum_mismatch"},
		{"quantity with four decimals", receipt("7.80", `,"line_items":[`+line("Käse", "0.3333", "10.00", "NORMAL")+`]`), "line_items[0].quantity too_many_decimals"},
		{"quantity zero", receipt("7.80", `,"line_items":[`+line("Bier", "0", "3.90", "NORMAL")+`]`), "line_items[0].quantity zero"},
		{"price with three decimals", receipt("7.80", `,"line_items":[`+line("Bier", "2", "3.901", "NORMAL")+`]`), "line_items[0].unit_price too_many_decimals"},
		{"no text", receipt("7.80", `,"line_items":[{"quantity":1,"unit_price":7.80,"vat_rate":"NORMAL"}]`), "line_items[0].text required"},
		{"bad vat rate", receipt("7.80", `,"line_items":[`+line("Bier", "2", "3.90", "19")+`]`), "line_items[0].vat_rate one_of"},
		{"line total beyond any amount", receipt("7.80", `,"line_items":[`+line("Bier", "99999.999", "999999999.99", "NORMAL")+`]`), "line_items[0] too_large"},
		{"discount adds", receipt("7.80", `,"line_items":[{"text":"Rabatt","quantity":1,"unit_price":7.80,"vat_rate":"NORMAL",`+discount+`}]`), "line_items[0] discount_adds"},
		{"storno's discount takes off", receipt("-7.80", `,"cancels":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01","line_items":[{"text":"Rabatt","quantity":1,"unit_price":-7.80,"vat_rate":"NORMAL",`+discount+`}]`), "line_items[0] discount_adds"},
		{"redemption without discount", receipt("-7.80", `,"line_items":[{"text":"Rabatt","quantity":1,"unit_price":-7.80,"vat_rate":"NORMAL","redemption_id":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a02"}]`), "line_items[0].redemption_id requires_field"},
		{"malformed redemption", receipt("-7.80", `,"line_items":[{"text":"Rabatt","quantity":1,"unit_price":-7.80,"vat_rate":"NORMAL",`+discount+`,"redemption_id":"r1"}]`), "line_items[0].redemption_id not_uuid"},
		{"unknown business case", receipt("1", `,"business_case":"Verkauf"`), "business_case one_of"},
		{"unknown kind", receipt("1", `,"kind":"invoice"`), "kind one_of"},
		{"payments differ", `{"client_serial":"K","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":1}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":2}]}`, "amounts_per_payment_type sum_mismatch"},
		{"storno as a cancellation", strings.Replace(receipt("-1", `,"cancels":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"`), "RECEIPT", "CANCELLATION", 1), "receipt_type one_of"},
		{"padded serial", strings.Replace(receipt("1", ""), "KASSE-01", " KASSE", 1), "client_serial bad_format"},
		{"too many lines", receipt("1", `,"line_items":[`+strings.Repeat(line("a", "1", "0", "NORMAL")+",", 500)+line("a", "1", "1", "NORMAL")+`]`), "line_items too_many"},
		{"order without lines", `{"client_serial":"KASSE-01","kind":"order"}`, "line_items too_few"},
		{"order with payments", `{"client_serial":"KASSE-01","kind":"order","line_items":[` + line("Bier", "1", "3.90", "NORMAL") + `],"amounts_per_payment_type":[{"payment_type":"CASH","amount":3.90}]}`, "amounts_per_payment_type not_allowed"},
		{"order amounts disagree", `{"client_serial":"KASSE-01","kind":"order","line_items":[` + line("Bier", "1", "3.90", "NORMAL") + `],"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":3.80}]}`, "line_items sum_mismatch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := request(t, c.body).Validate()
			if got := fieldErrors(t, err); len(got) != 1 || got[0] != c.want {
				t.Fatalf("errors %v, want [%s]", got, c.want)
			}
		})
	}
}

// Every bad field is named at once, in the order the API has always
// listed them (the problem+json's errors array).
func TestValidateNamesEveryField(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"order", `{"kind":"order","receipt_type":"RECEIPT","cancels":"x","amounts_per_payment_type":[{"payment_type":"CASH","amount":1}]}`,
			"client_serial required;receipt_type one_of;amounts_per_payment_type not_allowed;cancels not_allowed;line_items too_few;cancels not_uuid"},
		{"receipt amounts", `{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"19","amount":1},{},{"vat_rate":"NORMAL","amount":1e2},{"vat_rate":"NORMAL","amount":1.005},{"vat_rate":"REDUCED_1","amount":99999999999999}],"amounts_per_payment_type":[{"payment_type":"CARD","amount":1},{},{"payment_type":"CASH","amount":1,"currency_code":"eur"}]}`,
			"amounts_per_vat_rate[0].vat_rate one_of;amounts_per_vat_rate[1].vat_rate required;amounts_per_vat_rate[1].amount required;" +
				"amounts_per_vat_rate[2].amount not_decimal;amounts_per_vat_rate[3].vat_rate duplicate;amounts_per_vat_rate[3].amount too_many_decimals;" +
				"amounts_per_vat_rate[4].amount too_large;amounts_per_payment_type[0].payment_type one_of;amounts_per_payment_type[1].payment_type required;" +
				"amounts_per_payment_type[1].amount required;amounts_per_payment_type[2].currency_code not_currency"},
		{"line items", `{"client_serial":"KASSE-01","receipt_type":"RECEIPT","business_case":"Verkauf","allocation_group":" x","cancels":"ABC","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":1}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":1}],"line_items":[{},{"text":"  ","quantity":0,"unit_price":1.001,"vat_rate":"19","item_number":"","discount_id":"nope","business_case":"X"},{"text":"a","quantity":0.3333,"unit_price":1e3,"vat_rate":"NORMAL"},{"text":"a","quantity":100000,"unit_price":1000000000,"vat_rate":"NORMAL"},{"text":"a","quantity":1,"unit_price":7.80,"vat_rate":"NORMAL","discount_id":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"},{"text":"a","quantity":1e1,"unit_price":-999999999999,"vat_rate":"NORMAL"}]}`,
			"business_case one_of;allocation_group bad_format;cancels not_uuid;line_items[0].text required;line_items[0].quantity required;" +
				"line_items[0].unit_price required;line_items[0].vat_rate required;line_items[1].text length;line_items[1].quantity zero;" +
				"line_items[1].unit_price too_many_decimals;line_items[1].vat_rate one_of;line_items[1].item_number length;" +
				"line_items[1].discount_id not_uuid;line_items[1].business_case one_of;line_items[2].quantity too_many_decimals;" +
				"line_items[2].unit_price not_decimal;line_items[3].quantity too_large;line_items[3].unit_price too_large;" +
				"line_items[4] discount_adds;line_items[5].quantity not_decimal;line_items[5].unit_price too_large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := request(t, c.body).Validate()
			if got := strings.Join(fieldErrors(t, err), ";"); got != c.want {
				t.Fatalf("errors\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// The messages of the sum rules name the amounts as the till sent them.
func TestValidateSumMessages(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{receipt("7.80", `,"line_items":[`+line("Bier", "2", "3.89", "NORMAL")+`]`), "the lines at NORMAL add up to 7.78, but its amount is 7.80"},
		{`{"client_serial":"K","kind":"order","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":3.90},{"vat_rate":"NULL","amount":1}],"line_items":[` + line("Bier", "1", "3.90", "NORMAL") + `]}`,
			"no line has vat_rate NULL, but its amount is 1.00"},
		{receipt("7.80", `,"line_items":[`+line("Bier", "2", "3.90", "NORMAL")+","+line("Wasser", "1", "1", "REDUCED_1")+`]`),
			"the lines at REDUCED_1 add up to 1.00, but amounts_per_vat_rate has no line for it"},
		{`{"client_serial":"K","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":1}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":-0.5}]}`,
			"payments add up to -0.50 but the VAT lines to 1.00"},
	} {
		_, err := request(t, c.body).Validate()
		var e *store.Error
		if !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Message != c.want {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}

// A valid receipt keeps its amounts in cents as sent, its lines with
// their totals, and the business cases the lines fall under.
func TestValidateReceipt(t *testing.T) {
	s, err := request(t, strings.Replace(`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","allocation_group":"Tisch 4",
		"amounts_per_vat_rate":[{"vat_rate":"REDUCED_1","amount":9.33},{"vat_rate":"NORMAL","amount":7.8}],
		"amounts_per_payment_type":[{"payment_type":"NON_CASH","amount":10},{"payment_type":"CASH","amount":7.13,"currency_code":"EUR"}],
		"line_items":[LINES]}`, "LINES", line("Bier", "2", "3.90", "NORMAL")+","+line("Schnitzel", "1", "12.90", "REDUCED_1")+","+line("Käse", "0.333", "10.00", "REDUCED_1")+
		`,{"text":"Stammgast","quantity":1,"unit_price":-6.90,"vat_rate":"REDUCED_1","discount_id":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"}`, 1)).Validate()
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != KindReceipt || s.ReceiptType != "RECEIPT" || s.TotalCents != 1713 || s.AllocationGroup != "Tisch 4" || s.BusinessCase != "" ||
		len(s.VAT) != 2 || s.VAT[0] != (VATAmount{"REDUCED_1", 933}) || s.VAT[1] != (VATAmount{"NORMAL", 780}) ||
		len(s.Payments) != 2 || s.Payments[0] != (Payment{"NON_CASH", "", 1000, 1000}) || s.Payments[1] != (Payment{"CASH", "EUR", 713, 713}) {
		t.Fatalf("sale %+v", s)
	}
	want := []Line{
		{Text: "Bier", QuantityMilli: 2000, UnitPriceCents: 390, TotalCents: 780, VATRate: "NORMAL", BusinessCase: "Umsatz"},
		{Text: "Schnitzel", QuantityMilli: 1000, UnitPriceCents: 1290, TotalCents: 1290, VATRate: "REDUCED_1", BusinessCase: "Umsatz"},
		{Text: "Käse", QuantityMilli: 333, UnitPriceCents: 1000, TotalCents: 333, VATRate: "REDUCED_1", BusinessCase: "Umsatz"},
		{Text: "Stammgast", QuantityMilli: 1000, UnitPriceCents: -690, TotalCents: -690, VATRate: "REDUCED_1",
			DiscountID: "0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01", BusinessCase: "Rabatt"},
	}
	if len(s.Lines) != len(want) {
		t.Fatalf("lines %+v", s.Lines)
	}
	for i := range want {
		if s.Lines[i] != want[i] {
			t.Errorf("line %d %+v, want %+v", i, s.Lines[i], want[i])
		}
	}
}

// An order's amounts are its lines' sums in rate order, whatever order
// the lines and a given amounts_per_vat_rate come in.
func TestValidateOrder(t *testing.T) {
	s, err := request(t, `{"client_serial":"KASSE-01","kind":"order","business_case":"Pfand",
		"amounts_per_vat_rate":[{"vat_rate":"REDUCED_1","amount":19.35},{"vat_rate":"NORMAL","amount":7.55}],
		"line_items":[`+line("Schnitzel", "1.5", "12.90", "REDUCED_1")+","+line("Bier", "2", "3.90", "NORMAL")+","+line("Wasser", "-0.25", "1", "NORMAL")+`]}`).Validate()
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != KindOrder || s.ReceiptType != "ORDER" || s.TotalCents != 2690 || s.Payments != nil ||
		len(s.VAT) != 2 || s.VAT[0] != (VATAmount{"NORMAL", 755}) || s.VAT[1] != (VATAmount{"REDUCED_1", 1935}) ||
		len(s.Lines) != 3 || s.Lines[0].TotalCents != 1935 || s.Lines[2].TotalCents != -25 || s.Lines[1].BusinessCase != "Pfand" {
		t.Fatalf("order %+v", s)
	}
}

// foreignSale is 10.00 EUR at the NORMAL rate paid with pay (payment
// lines).
func foreignSale(pay string) string {
	return `{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":10.00}],` +
		`"amounts_per_payment_type":[` + pay + `]}`
}

// A payment in a foreign currency carries its euro value, amount_eur:
// the euro values add up to the gross, and the sale keeps both amounts.
func TestValidateForeignCurrency(t *testing.T) {
	s, err := request(t, foreignSale(`{"payment_type":"CASH","amount":4.75,"currency_code":"CHF","amount_eur":5.00},`+
		`{"payment_type":"NON_CASH","amount":5}`)).Validate()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Payments) != 2 || s.Payments[0] != (Payment{"CASH", "CHF", 475, 500}) || s.Payments[1] != (Payment{"NON_CASH", "", 500, 500}) {
		t.Fatalf("payments %+v", s.Payments)
	}
	for _, c := range []struct{ name, pay, want string }{
		{"no euro value", `{"payment_type":"CASH","amount":9.50,"currency_code":"CHF"}`, "amounts_per_payment_type[0].amount_eur required"},
		{"euro value for EUR", `{"payment_type":"CASH","amount":10,"currency_code":"EUR","amount_eur":10}`, "amounts_per_payment_type[0].amount_eur not_allowed"},
		{"euro value without a currency", `{"payment_type":"CASH","amount":10,"amount_eur":10}`, "amounts_per_payment_type[0].amount_eur not_allowed"},
		{"three decimals", `{"payment_type":"CASH","amount":9.50,"currency_code":"CHF","amount_eur":10.001}`, "amounts_per_payment_type[0].amount_eur too_many_decimals"},
		{"a string", `{"payment_type":"CASH","amount":9.50,"currency_code":"CHF","amount_eur":1e1}`, "amounts_per_payment_type[0].amount_eur not_decimal"},
		{"other sign", `{"payment_type":"CASH","amount":9.50,"currency_code":"CHF","amount_eur":-10}`, "amounts_per_payment_type[0].amount_eur sign_of_field"},
		{"zero for an amount", `{"payment_type":"CASH","amount":9.50,"currency_code":"CHF","amount_eur":0}`, "amounts_per_payment_type[0].amount_eur sign_of_field"},
		// Before amount_eur, a foreign payment skipped the sum rule; its
		// euro value now has to add up like any euro amount.
		{"euro values do not add up", `{"payment_type":"CASH","amount":9.50,"currency_code":"CHF","amount_eur":9.99}`, "amounts_per_payment_type sum_mismatch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := request(t, foreignSale(c.pay)).Validate()
			if got := fieldErrors(t, err); len(got) != 1 || got[0] != c.want {
				t.Fatalf("errors %v, want [%s]", got, c.want)
			}
		})
	}
}

// Line totals round half away from zero; the bounds keep them in int64.
func TestLineTotal(t *testing.T) {
	for _, c := range []struct{ q, p, want int64 }{
		{333, 1000, 333}, {333, 99, 33}, {5, 100, 1}, {-5, 100, -1}, {4, 100, 0}, {1500, 1290, 1935}, {-250, 100, -25},
	} {
		if got, ok := LineTotal(c.q, c.p); !ok || got != c.want {
			t.Errorf("LineTotal(%d, %d) = %d %v, want %d", c.q, c.p, got, ok, c.want)
		}
	}
	if _, ok := LineTotal(1<<40, 1<<40); ok {
		t.Error("an overflow passed")
	}
}

func TestAmountAndQuantity(t *testing.T) {
	for c, want := range map[int64]string{0: "0.00", 2142: "21.42", -50: "-0.50", 5: "0.05", 100000: "1000.00"} {
		if got := Amount(c); got != want {
			t.Errorf("Amount(%d) = %s, want %s", c, got, want)
		}
	}
	for m, want := range map[int64]string{2000: "2", 1500: "1.5", 333: "0.333", -250: "-0.25", 10: "0.01"} {
		if got := Quantity(m); got != want {
			t.Errorf("Quantity(%d) = %s, want %s", m, got, want)
		}
	}
}

// A Decimal takes only a JSON number, as its literal.
func TestDecimalIsANumber(t *testing.T) {
	var d struct{ A *Decimal }
	if err := json.Unmarshal([]byte(`{"A":"1.5"}`), &d); err == nil {
		t.Fatal("a string passed")
	}
	if err := json.Unmarshal([]byte(`{"A":-12.50}`), &d); err != nil || *d.A != "-12.50" {
		t.Fatalf("%v %v", d.A, err)
	}
	var f store.Fields
	if c := d.A.Cents(&f, "a"); c != -1250 || len(f) != 0 {
		t.Fatalf("cents %d %v", c, f)
	}
}
