package console_test

import (
	"net/http"
	"strings"
	"testing"
)

// The TSE page: the health, a self-test watched from RUNNING to PASSED,
// the device with its certificate, and a sale from the till in the
// transaction list.
func TestConsoleTSE(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":21.42}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":21.42}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	b := newBrowser(t, a)
	b.open("/tse")
	b.login("chef@linde.test", adminPassword)
	b.wait("the TSE page", `location.pathname === '/tse' && document.querySelector('#tse-health')`)
	if got := b.text("#tse-health"); !strings.Contains(got, "in Ordnung") {
		t.Fatalf("health %q", got)
	}
	b.wait("the certificate expiry", `document.querySelector('#cert-expiry').innerText.match(/\d{2}\.\d{2}\.\d{4}/)`)
	b.wait("the sale in the list", `document.querySelector('#tse-transactions tbody') && document.querySelector('#tse-transactions tbody').innerText.includes('KASSE-01')`)

	b.click("#run-self-test")
	b.wait("the self-test passed", `document.querySelector('#self-test').innerText.includes('bestanden')`)
	code, body = a.call(t, "GET", "/api/tse/status", admin, "")
	if code != http.StatusOK || !strings.Contains(body, `"state":"PASSED"`) {
		t.Fatalf("status after the console's self-test: %d %s", code, body)
	}
	b.screenshot("tse")
}
