package console_test

import (
	"net/http"
	"strings"
	"testing"
)

// A receipt paid in francs shows the francs and their euro value, in
// German, in the receipts list and in the day's closing, whose cash is in
// euro with the francs at their euro value; at a phone's width and a
// desktop's.
func TestConsoleForeignCurrencyPayments(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":10.00}],
		"amounts_per_payment_type":[{"payment_type":"CASH","amount":9.50,"currency_code":"CHF","amount_eur":10.00}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	francs := jsonField(t, body, "id")
	code, body = a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":5.00}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":5.00}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	if code, body := a.call(t, "POST", "/api/tse/closings", admin, `{"client_serial":"KASSE-01"}`); code != http.StatusCreated {
		t.Fatalf("closing: %d %s", code, body)
	}

	b := newBrowser(t, a)
	b.open("/tse")
	b.login("chef@linde.test", adminPassword)
	b.wait("the receipts", `document.querySelectorAll('#tse-transactions tbody tr[data-id]').length === 2`)
	if r := b.text(`#tse-transactions tr[data-id="` + francs + `"]`); !strings.Contains(r, "Bar 9,50\u00a0CHF (entspricht 10,00\u00a0€)") {
		t.Fatalf("the franc receipt's row %q", r)
	}
	b.screenshot("tse-foreign-currency")

	b.open("/fiscal")
	b.wait("the closing", `document.querySelector('#closing-list tbody tr[data-register="KASSE-01"][data-z="1"]')`)
	row := b.text(`#closing-list tbody tr[data-register="KASSE-01"]`)
	for _, want := range []string{"15,00\u00a0€", "Bar 5,00\u00a0€", "Bar 9,50\u00a0CHF (entspricht 10,00\u00a0€)"} {
		if !strings.Contains(row, want) {
			t.Fatalf("closing row %q lacks %q", row, want)
		}
	}
	if strings.Contains(row, "CASH") || strings.Contains(row, "amount") {
		t.Fatalf("closing row shows an API word: %q", row)
	}
	b.screenshot("fiscal-foreign-currency")
}
