package console_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// The TSE page: the health, a self-test watched from RUNNING to PASSED,
// the device with its certificate, and the till's receipts one row per
// sale with what they contained: type, amount, payment, state, and the
// items and signature when opened; a storno marks its receipt.
func TestConsoleTSE(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":7.80},{"vat_rate":"REDUCED_1","amount":12.90}],
		"amounts_per_payment_type":[{"payment_type":"CASH","amount":20.70}],
		"line_items":[{"text":"Bier 0,5 l","quantity":2,"unit_price":3.90,"vat_rate":"NORMAL"},
		              {"text":"Schnitzel","quantity":1,"unit_price":12.90,"vat_rate":"REDUCED_1"}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	saleID := jsonField(t, body, "id")
	code, body = a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-02","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":21.42}],"amounts_per_payment_type":[{"payment_type":"NON_CASH","amount":21.42}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	cardID := jsonField(t, body, "id")
	code, body = a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-02","receipt_type":"RECEIPT","cancels":"`+cardID+`",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":-21.42}],"amounts_per_payment_type":[{"payment_type":"NON_CASH","amount":-21.42}]}`)
	if code != http.StatusCreated {
		t.Fatalf("storno: %d %s", code, body)
	}
	stornoID := jsonField(t, body, "id")

	b := newBrowser(t, a)
	b.open("/tse")
	b.login("chef@linde.test", adminPassword)
	b.wait("the TSE page", `location.pathname === '/tse' && document.querySelector('#tse-health')`)
	b.wait("the certificate expiry", `document.querySelector('#cert-expiry').innerText.match(/\d{2}\.\d{2}\.\d{4}/)`)
	b.wait("the receipts", `document.querySelectorAll('#tse-transactions tbody tr[data-id]').length === 3`)

	row := func(id string) string { return b.text(`#tse-transactions tr[data-id="` + id + `"]`) }
	for _, want := range []string{"KASSE-01", "Beleg", "20,70\u00a0€", "Bar 20,70\u00a0€", "signiert", "Positionen und Signatur"} {
		if !strings.Contains(row(saleID), want) {
			t.Fatalf("the sale's row %q lacks %q", row(saleID), want)
		}
	}
	if r := row(cardID); !strings.Contains(r, "storniert") || !strings.Contains(r, "Karte/unbar 21,42\u00a0€") {
		t.Fatalf("the cancelled sale's row %q", r)
	}
	if r := row(stornoID); !strings.Contains(r, "Storno") || !strings.Contains(r, "-21,42\u00a0€") || strings.Contains(r, "storniert") {
		t.Fatalf("the storno's row %q", r)
	}
	// Its content: the items, the VAT rates and the TSE's signature.
	b.click(`#tse-transactions tr[data-id="` + saleID + `"] details summary`)
	detail := b.text(`#tse-transactions tr[data-id="` + saleID + `"] details`)
	for _, want := range []string{"Schnitzel", "Bier 0,5 l", "7,80\u00a0€", "19 %: 7,80\u00a0€ · 7 %: 12,90\u00a0€", "Signaturzähler", "TSE-Vorgangsnummer"} {
		if !strings.Contains(detail, want) {
			t.Fatalf("the sale's content %q lacks %q", detail, want)
		}
	}
	// No code the API speaks is shown as such.
	page := b.text("main")
	for _, bad := range []string{"RECEIPT", "CANCELLATION", "FINISHED", "NON_CASH", "NORMAL", "E_"} {
		if strings.Contains(page, bad) {
			t.Fatalf("the TSE page shows %q: %s", bad, page)
		}
	}

	b.click("#run-self-test")
	b.wait("the self-test passed", `document.querySelector('#self-test').innerText.includes('bestanden')`)
	code, body = a.call(t, "GET", "/api/tse/status", admin, "")
	if code != http.StatusOK || !strings.Contains(body, `"state":"PASSED"`) {
		t.Fatalf("status after the console's self-test: %d %s", code, body)
	}
	b.screenshot("tse")
}

// While the built-in simulator signs, every page says, where she cannot
// miss it, that receipts are not valid for tax purposes and what to do;
// the dashboard's TSE card and the TSE page are never "in order", and the
// §146a section says the simulator is not to be registered.
func TestConsoleSimulatorIsNoTSE(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	for _, path := range []string{"/", "/shifts", "/time", "/discounts", "/tse", "/fiscal", "/notifications", "/users", "/settings", "/account"} {
		b.open(path)
		b.wait("the page "+path, `document.querySelector('main h1')`)
		got := b.text("#sim-banner")
		if !strings.Contains(got, "Keine zertifizierte TSE: Belege sind steuerlich nicht gültig") ||
			!strings.Contains(got, "docs/TSE.md") || !strings.Contains(got, "posbox tse setup") {
			t.Fatalf("%s: banner %q", path, got)
		}
	}
	b.open("/")
	b.wait("the TSE card", `document.querySelector('#tse-state')`)
	if st, card := eval[string](b, `document.querySelector('#tse-state').dataset.state`), b.text("#tse"); st != "simulated" ||
		!strings.Contains(card, "Simulator – keine echte TSE") || strings.Contains(card, "in Ordnung") {
		t.Fatalf("dashboard TSE card %s: %q", st, card)
	}
	if eval[int](b, `document.querySelectorAll('#tse .badge.ok').length`) != 0 {
		t.Fatal("a green badge on the simulator's card")
	}
	b.screenshot("dashboard-simulator")
	b.open("/tse")
	b.wait("the TSE health", `document.querySelector('#tse-health')`)
	if got := b.text("#tse-status"); !strings.Contains(got, "Simulator – keine echte TSE") || !strings.Contains(got, "Simulator (keine echte TSE)") ||
		strings.Contains(got, "in Ordnung") {
		t.Fatalf("TSE page %q", got)
	}
	b.open("/fiscal")
	b.wait("the registration", `document.querySelector('#registration-simulated')`)
	if got := b.text("#registration-simulated"); !strings.Contains(got, "darf nicht gemeldet werden") {
		t.Fatalf("§146a section %q", got)
	}
	// In English too.
	b.clickText("header .lang button", "EN")
	b.wait("English banner", `document.querySelector('#sim-banner').innerText.includes('No certified TSE: receipts are not valid for tax purposes')`)
	b.clickText("header .lang button", "DE")
}

// With a real provider (the fiskaly client, here against a served
// simulator) no page shows the banner and the card is green. Then the
// provider goes away while the tills sell: the dashboard and the TSE
// page say so in words, with what happens to the receipts, and neither
// scrolls sideways at 375 or 1280 px (the screenshots check it).
func TestConsoleRealTSEAndOutage(t *testing.T) {
	proc := simtest.Start(t, time.Now)
	client, err := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: "http://" + proc.Addr, APIKey: simtest.Key, APISecret: simtest.Secret,
		TSSID: proc.Sim.TSSID(), AdminPIN: tsesim.DefaultAdminPIN})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	a := newApplianceWith(t, client)
	admin := a.token(t, "chef@linde.test", adminPassword)
	sale := `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":9.50}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":9.50}]}`
	if code, body := a.call(t, "POST", "/api/tse/transactions", admin, sale); code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	b.wait("the TSE card", `document.querySelector('#tse-state')`)
	for _, path := range []string{"/", "/tse", "/fiscal"} {
		b.open(path)
		b.wait("the page "+path, `document.querySelector('main h1')`)
		if b.text("#sim-banner") != "" {
			t.Fatalf("%s: a simulator banner with fiskaly", path)
		}
	}
	b.open("/")
	b.wait("the TSE card", `document.querySelector('#tse-state')`)
	if st := eval[string](b, `document.querySelector('#tse-state').dataset.state`); st != "ok" || !strings.Contains(b.text("#tse"), "in Ordnung") {
		t.Fatalf("dashboard TSE card %s: %q", st, b.text("#tse"))
	}

	// The TSE goes away; the tills keep selling.
	proc.Stop()
	for range 3 {
		if code, body := a.call(t, "POST", "/api/tse/transactions", admin, sale); code != http.StatusAccepted {
			t.Fatalf("sale during the outage: %d %s", code, body)
		}
	}
	b.open("/")
	b.wait("the outage on the dashboard", `document.querySelector('#tse-state').dataset.state === 'bad' && document.querySelector('#tse').innerText.includes('Ausfall seit')`)
	card := b.text("#tse")
	for _, want := range []string{"Achtung", "TSE-Anbieter nicht erreichbar (Netzwerkfehler)", "TSE ausgefallen"} {
		if !strings.Contains(card, want) {
			t.Fatalf("dashboard during the outage lacks %q: %q", want, card)
		}
	}
	b.screenshot("dashboard-outage")
	b.open("/tse")
	b.wait("the queue in words", `document.querySelector('#tse-queue tbody tr') && document.querySelector('#queue-outage')`)
	q := b.text("#tse-queue")
	if !strings.Contains(q, "Wartet auf die TSE – die Kasse arbeitet weiter") || !strings.Contains(q, "Die Kassen verkaufen weiter") {
		t.Fatalf("queue during the outage %q", q)
	}
	if n := eval[int](b, `document.querySelectorAll('#tse-queue tbody tr').length`); n != 3 {
		t.Fatalf("%d queue rows for 3 waiting sales", n)
	}
	page := b.text("main")
	for _, bad := range []string{"pending", "in_flight", "ACTIVE", "FINISHED", "E_NETWORK", "network error", "provider not answering"} {
		if strings.Contains(page, bad) {
			t.Fatalf("the TSE page shows %q during the outage: %s", bad, page)
		}
	}
	b.screenshot("tse-outage")
}

// jsonField is a string member of an API answer's one wrapped object.
func jsonField(tb testing.TB, body, name string) string {
	tb.Helper()
	var m map[string]map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		tb.Fatalf("%s: %v", body, err)
	}
	for _, v := range m {
		if s, ok := v[name].(string); ok {
			return s
		}
	}
	tb.Fatalf("no %s in %s", name, body)
	return ""
}
