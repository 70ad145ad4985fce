package console_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The procedure document as the owner keeps it: the version in force
// with the TSE and the register posbox knows (and the simulator called
// one), her own section saved as a new version while the first stays in
// the list, a section too long refused beside its field, the printable
// page with her text; at a phone's and a desktop's width.
func TestConsoleProcedureDocument(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":12.50}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":12.50}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	_, body = a.call(t, "GET", "/api/tse/info", admin, "")
	var info struct {
		Info struct {
			SerialNumber string `json:"serial_number"`
		} `json:"info"`
	}
	if err := json.Unmarshal([]byte(body), &info); err != nil || info.Info.SerialNumber == "" {
		t.Fatalf("tse info %s %v", body, err)
	}

	b := newBrowser(t, a)
	b.open("/procedure-document")
	b.login("chef@linde.test", adminPassword)
	b.wait("the document", `location.pathname === '/procedure-document' && document.querySelector('#procdoc-current li') &&
		document.querySelector('#procdoc-versions tbody tr')`)
	if got := strings.ReplaceAll(b.text("nav a[aria-current=page]"), "\u00ad", ""); got != "Verfahrensdokumentation" {
		t.Fatalf("menu entry %q", got)
	}
	// The menu's column is narrower than the word: it breaks, never cut.
	if !eval[bool](b, `(() => { const a = document.querySelector('nav a[aria-current=page]'); return a.scrollWidth <= a.clientWidth; })()`) {
		t.Fatal("the menu entry is cut off")
	}
	cur := b.text("#procdoc-current")
	for _, want := range []string{"Fassung 1", "Gültig ab", info.Info.SerialNumber, "KASSE-01", "Es signiert der Simulator, keine TSE"} {
		if !strings.Contains(cur, want) {
			t.Fatalf("the version in force lacks %q: %s", want, cur)
		}
	}
	if got := b.text("#procdoc-owner-state"); got != "Noch nicht gespeichert." {
		t.Fatalf("owner state %q", got)
	}
	b.screenshot("procdoc")

	// A section too long: refused beside its field, nothing saved.
	if !eval[bool](b, `(() => { const el = document.querySelector('#procdoc-owner [name=internal_control]'); el.value = 'x'.repeat(20001); return true; })()`) {
		t.Fatal("no field")
	}
	b.click(`#procdoc-owner button[type=submit]`)
	b.wait("the error beside the field", `document.querySelector('[data-field=internal_control] .error')?.textContent !== ''`)
	if got := b.text("[data-field=internal_control] .error"); !strings.Contains(got, "20000") && !strings.Contains(got, "20.000") {
		t.Fatalf("error %q", got)
	}
	b.fill(`#procdoc-owner [name=internal_control]`, "")
	b.fill(`#procdoc-owner [name=cash_counting]`, "Jeden Abend zählt die Schichtleitung mit Zählprotokoll.")
	b.click(`#procdoc-owner button[type=submit]`)
	b.wait("version 2", `document.querySelector('#procdoc-current')?.textContent.includes('Fassung 2') &&
		document.querySelectorAll('#procdoc-versions tbody tr').length === 2`)
	if got := b.text("#procdoc-owner-state"); !strings.Contains(got, "Clara Chef") {
		t.Fatalf("owner state %q", got)
	}
	if got := b.text("#procdoc-owner-texts"); !strings.Contains(got, "Clara Chef") {
		t.Fatalf("saved sections %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll('#procdoc-versions button[data-version="1"]').length`); n != 1 {
		t.Fatalf("version 1 has %d print buttons", n)
	}
	b.screenshot("procdoc-saved")

	b.click(`#procdoc-print`)
	page, styled := b.newWindowText()
	for _, want := range []string{"Verfahrensdokumentation zum Kassensystem", "Fassung 2", "Jeden Abend zählt die Schichtleitung mit Zählprotokoll.",
		info.Info.SerialNumber, "KASSE-01", "Keine zertifizierte TSE", "Clara Chef", "Vom Unternehmer auszufüllen"} {
		if !strings.Contains(page, want) {
			t.Fatalf("the page lacks %q: %s", want, page)
		}
	}
	if !styled {
		t.Fatal("the page's style sheet did not apply")
	}
}
