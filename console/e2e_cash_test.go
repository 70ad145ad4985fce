package console_test

import (
	"net/http"
	"strings"
	"testing"
)

// The cash page as an owner uses it on a day: the first float of a new
// register, a sale at the till, an expense (refused without its receipt
// number, then booked), the expected cash, a count by notes and coins
// that comes up short, the reversal of the expense, and the day's
// closing with its Z-report; in German throughout, with no internal name
// or id, at 375 and 1280 px.
func TestConsoleCash(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)

	b := newBrowser(t, a)
	// Money reads with a no-break space before the euro sign.
	text := func(sel string) string { return strings.ReplaceAll(b.text(sel), "\u00a0", " ") }
	// A form's button stays disabled while the page reloads after a
	// booking; a click then would be lost, as a user's would.
	submit := func(sel string) {
		b.wait("the button ready", `!document.querySelector('`+sel+`').disabled`)
		b.click(sel)
	}
	b.open("/cash")
	b.login("chef@linde.test", adminPassword)
	b.wait("the cash page", `document.querySelector('#cash-register-list .empty') && document.querySelector('#cash-book [name=other_serial]')`)
	if got := text(`nav a[href="/cash"]`); got != "Kasse" {
		t.Fatalf("menu entry %q", got)
	}

	// The first float: the register has not sold yet, so it is named.
	b.fill(`#cash-book [name=other_serial]`, "KASSE-01")
	b.fill(`#cash-book [name=kind]`, "opening_float")
	if got := text("#cash-direction"); !strings.Contains(got, "kommt in die Kasse") {
		t.Fatalf("direction of a float %q", got)
	}
	b.fill(`#cash-book [name=amount]`, "150,00")
	submit(`#cash-book button[type=submit]`)
	b.wait("the float booked", `!document.querySelector('#cash-book-result').hidden && document.querySelector('#cash-register-list [data-register="KASSE-01"]')`)
	if got := text("#cash-book-result"); !strings.Contains(got, "Gebucht: Nr. 1 an KASSE-01, Anfangsbestand (Wechselgeld), +150,00 €.") ||
		!strings.Contains(got, "von der TSE signiert") {
		t.Fatalf("float result %q", got)
	}

	// A cash sale at the till.
	if code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":21.40}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":21.40}]}`); code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}

	// An expense needs what it was for and the receipt number.
	b.wait("the register offered", `document.querySelector('#cash-book select[name=client_serial] option[value="KASSE-01"]')`)
	b.fill(`#cash-book [name=client_serial]`, "KASSE-01")
	b.fill(`#cash-book [name=kind]`, "expense")
	if got := text("#cash-direction"); !strings.Contains(got, "aus der Kasse genommen") {
		t.Fatalf("direction of an expense %q", got)
	}
	b.fill(`#cash-book [name=amount]`, "12,50")
	submit(`#cash-book button[type=submit]`)
	b.wait("the refusal", `document.querySelector('#cash-book [data-field=voucher_no] .error').innerText !== ''`)
	if got := text(`#cash-book [data-field=voucher_no] .error`); got != "Bitte ausfüllen." {
		t.Errorf("voucher's error %q", got)
	}
	noInternalText(t, shownErrors(b, "#cash-book"))
	b.fill(`#cash-book [name=reason]`, "Zitronen")
	b.fill(`#cash-book [name=voucher_no]`, "R-77")
	submit(`#cash-book button[type=submit]`)
	b.wait("the expense booked", `document.querySelector('#cash-book-result').innerText.includes('Nr. 2')`)
	if got := text("#cash-book-result"); !strings.Contains(got, "Auszahlung (Ausgabe), -12,50 €") {
		t.Fatalf("expense result %q", got)
	}
	reg := `#cash-register-list [data-register="KASSE-01"]`
	b.wait("the expected cash", `document.querySelector('`+reg+`').innerText.includes('158,90\u00a0€')`)
	if got := text(reg); !strings.Contains(got, "Soll-Bestand") || !strings.Contains(got, "Noch kein Kassensturz.") {
		t.Fatalf("register %q", got)
	}

	// The count by notes and coins: 158,70 € where 158,90 € should be.
	b.wait("the count form", `document.querySelector('#cash-count-form select[name=client_serial] option[value="KASSE-01"]')`)
	for k, v := range map[string]string{"100.00": "1", "50.00": "1", "5.00": "1", "2.00": "1", "1.00": "1", "0.50": "1", "0.20": "1"} {
		b.fill(`#cash-count-form [name="denominations.`+k+`"]`, v)
	}
	if got := text("#cash-count-sum"); got != "Gezählt: 158,70 €" {
		t.Fatalf("live sum %q", got)
	}
	submit(`#cash-count-form button[type=submit]`)
	b.wait("the count's result", `!document.querySelector('#cash-count-result').hidden`)
	got := text("#cash-count-result")
	for _, want := range []string{"Kassensturz Nr. 1 an KASSE-01 gebucht.", "Ist (gezählt)\n158,70 €", "Soll\n158,90 €", "Fehlbetrag 0,20 €"} {
		if !strings.Contains(got, want) {
			t.Errorf("count result lacks %q: %q", want, got)
		}
	}
	b.wait("the count in the day's list", `document.querySelector('#cash-count-list tbody tr[data-no="1"]')`)
	if got := text(`#cash-count-list tbody tr[data-no="1"]`); !strings.Contains(got, "nach Scheinen und Münzen") || !strings.Contains(got, "Clara Chef") {
		t.Errorf("count row %q", got)
	}
	b.screenshot("cash")
	if !eval[bool](b, `document.querySelector('#cash-count-form [name=how][value=pieces]').checked`) {
		t.Errorf("after a count the form does not count by pieces again")
	}
	// Counted as one sum, the drawer matches; a count whose balance moved
	// is refused in German.
	b.click(`#cash-count-form [name=how][value=sum]`)
	b.fill(`#cash-count-form [name=counted]`, "158,70")
	submit(`#cash-count-form button[type=submit]`)
	b.wait("the second count", `document.querySelector('#cash-count-result').innerText.includes('Nr. 2')`)
	if got := text("#cash-count-result"); !strings.Contains(got, "keine Differenz") {
		t.Errorf("matching count %q", got)
	}
	if got := eval[string](b, `import('/assets/js/errors.js').then((m) => m.problemText({ status: 409, code: 'cash_changed' }))`); got != "Während des Zählens hat sich der Kassenbestand geändert – bitte neu zählen." {
		t.Errorf("cash_changed %q", got)
	}

	// The day's movements: the difference is not reversed, the expense is.
	rows := `#cash-movement-list [data-register="KASSE-01"] tbody tr`
	b.wait("three movements", `document.querySelectorAll('`+rows+`').length === 3`)
	if eval[bool](b, `!!document.querySelector('`+rows+`[data-no="3"] button.reverse')`) {
		t.Fatalf("the count's difference offers a reversal: %q", text(rows+`[data-no="3"]`))
	}
	if got := text(rows + `[data-no="3"]`); !strings.Contains(got, "Kassendifferenz") || !strings.Contains(got, "-0,20 €") {
		t.Errorf("difference row %q", got)
	}
	if got := text(rows + `[data-no="2"]`); !strings.Contains(got, "R-77") || !strings.Contains(got, "Zitronen") || !strings.Contains(got, "Clara Chef") {
		t.Errorf("expense row %q", got)
	}
	b.click(rows + `[data-no="2"] button.reverse`)
	b.wait("the reversal dialog", `document.querySelector('dialog.reverse-dialog[open] [name=reason]')`)
	b.click(`dialog.reverse-dialog button[type=submit]`)
	b.wait("the reason required", `document.querySelector('dialog.reverse-dialog [data-field=reason] .error').innerText !== ''`)
	b.fill(`dialog.reverse-dialog [name=reason]`, "Doppelt gebucht")
	b.screenshot("cash-reverse")
	b.click(`dialog.reverse-dialog button[type=submit]`)
	b.wait("the counter-entry", `document.querySelectorAll('`+rows+`').length === 4 && !document.querySelector('dialog.reverse-dialog')`)
	if got := text(rows + `[data-no="2"]`); !strings.Contains(got, "storniert durch Nr. 4") {
		t.Errorf("reversed row %q", got)
	}
	if got := text(rows + `[data-no="4"]`); !strings.Contains(got, "Gegenbuchung zu Nr. 2") || !strings.Contains(got, "+12,50 €") {
		t.Errorf("counter-entry row %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll('`+rows+` button.reverse').length`); n != 1 {
		t.Errorf("%d reversal buttons; only the float is left to reverse", n)
	}
	b.wait("the expected cash after the reversal", `document.querySelector('`+reg+`').innerText.includes('171,20\u00a0€')`)

	// The day's closing, with its Z-report, and the DATEV file's month.
	if code, body := a.call(t, "POST", "/api/tse/closings", admin, `{"client_serial":"KASSE-01"}`); code != http.StatusCreated {
		t.Fatalf("closing: %d %s", code, body)
	}
	b.clickText("main .page-head button", "Aktualisieren")
	b.wait("the closing's Z-report", `document.querySelector('#cash-closing-list tbody tr[data-register="KASSE-01"] .z-print button[data-layout=receipt]')`)
	if got := text(`#cash-closing-list .z-print`); !strings.Contains(got, "Z-Bon drucken") || !strings.Contains(got, "Bon 80 mm") {
		t.Errorf("print buttons %q", got)
	}
	if got := text("#cash-datev"); !strings.Contains(got, "DATEV-Datei herunterladen") || !strings.Contains(got, "Steuerdaten") {
		t.Errorf("DATEV card %q", got)
	}
	// The waiter settlement of the admin, who booked the float and sold
	// 21,40 in cash: 150,00 + 21,40 to hand over.
	b.wait("the settlement form", `document.querySelector('#settlement-form [name=user_id] option')`)
	eval[bool](b, `(() => { const s = document.querySelector('#settlement-form [name=user_id]');
		s.value = [...s.options].find((o) => o.text === 'Clara Chef').value; return true; })()`)
	submit(`#settlement-form button[type=submit]`)
	b.wait("the settlement", `document.querySelector('#settlement-result .settlement')`)
	if got := text("#settlement-result"); !strings.Contains(got, "Abrechnung von Clara Chef") || !strings.Contains(got, "Bar\t21,40 €") ||
		!strings.Contains(got, "Wechselgeld (Anfangsbestand)\t150,00 €") || !strings.Contains(got, "Abzugeben\t171,40 €") {
		t.Errorf("settlement %q", got)
	}
	if got := text("#settlement-result .buttons"); !strings.Contains(got, "Drucken (A4)") || !strings.Contains(got, "Bon 80 mm") {
		t.Errorf("settlement print buttons %q", got)
	}
	// A receipt that went out without TSE signature is said plainly.
	if got := eval[string](b, `import('/assets/js/pages/cash_booking.js').then((m) => m.signedText({ signed: false, receipt_without_tse: true }))`); !strings.HasPrefix(got, "Beleg ohne TSE-Signatur ausgegeben – die TSE war nicht erreichbar") {
		t.Errorf("without TSE %q", got)
	}
	noInternalText(t, text("main"))
	b.screenshot("cash-day")
	fitsWidth(b, "cash")
}
