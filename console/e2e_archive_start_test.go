package console_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// A TSS that counted to 100 before this box: the owner declares on the
// fiscal page that the archive starts at counter 101, with a reason. A
// missing reason is said beside the field and declares nothing; the
// declaration asks first, then shows the start, who set it and why, and
// the chain from there; at a phone's width and a desktop's.
func TestConsoleArchiveStart(t *testing.T) {
	a := newAppliance(t)
	if err := a.sim.ForgetHistory(100, 40); err != nil {
		t.Fatal(err)
	}
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":7.80}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":7.80}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	if err := a.archive.Run(context.Background()); err != nil { // the first range fails: counters 1-100 are gone
		t.Fatal(err)
	}
	b := newBrowser(t, a)
	b.open("/fiscal")
	b.login("chef@linde.test", adminPassword)
	b.wait("the archive's start", `document.querySelector('#archive-start-current')`)
	if got := b.text("#archive-start-current"); !strings.Contains(got, "beginnt beim ersten Signaturzähler") {
		t.Fatalf("start before: %q", got)
	}
	b.click("#archive-start-details summary")
	b.fill(`#archive-start-form input[name=first_signature_counter]`, "101")
	b.click(`#archive-start-form button[type=submit]`)
	b.wait("the missing reason", `document.querySelector('#archive-start-form [data-field=reason] .error').innerText !== ''`)
	var n int
	if err := a.st.ReadDB().QueryRow(`SELECT count(*) FROM tse_archive_starts`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d starts without a reason (%v)", n, err)
	}
	const why = "Die TSE hat vor posbox signiert; fiskaly hat die ersten Zähler gelöscht."
	b.fill(`#archive-start-form textarea[name=reason]`, why)
	b.click(`#archive-start-form button[type=submit]`)
	b.wait("the confirmation", `document.querySelector('dialog.confirm[open]')`)
	if got := b.text("dialog.confirm"); !strings.Contains(got, "vor 101 werden nicht mehr archiviert") {
		t.Fatalf("confirmation %q", got)
	}
	b.click("dialog.confirm button.danger")
	b.wait("the declared start", `document.querySelector('#archive-start-current').innerText.includes('Signaturzähler 101')`)
	got := b.text("#archive-start-current")
	for _, want := range []string{"Clara Chef", why} {
		if !strings.Contains(got, want) {
			t.Fatalf("start %q lacks %q", got, want)
		}
	}
	b.wait("the chain from the start", `document.querySelector('#archive-chain').innerText.includes('noch keine')`)
	if got := b.text("#fiscal-archive"); !strings.Contains(got, "ab dem festgelegten Beginn") {
		t.Fatalf("archive card %q", got)
	}
	b.screenshot("fiscal-archive-start")
}
