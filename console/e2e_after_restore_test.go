package console_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"posbox/fiscal/afterrestore"
	"posbox/store"
	"posbox/tse"
)

// downList is the TSE unreachable for the comparison's list.
type downList struct{ tse.Provider }

func (downList) ListTx(context.Context, tse.ListQuery) (tse.TxPage, error) {
	return tse.TxPage{}, tse.NewError(0, "E_NETWORK", "TSE provider unreachable (network error)")
}

// signLost signs a sale at the simulator as the old box did in its last
// seconds: the restored database never saw it.
func signLost(t *testing.T, p tse.Provider, clientID string, r *tse.Receipt) {
	t.Helper()
	ctx := context.Background()
	id := store.NewID()
	for i, st := range []string{tse.TxActive, tse.TxFinished} {
		var rr *tse.Receipt
		if st == tse.TxFinished {
			rr = r
		}
		body, err := tse.UpsertBody(st, clientID, rr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: i + 1, Body: body}); err != nil {
			t.Fatal(err)
		}
	}
}

// A box restored from the replica: the dashboard says the comparison
// waits while the TSE cannot be reached, then names the two sales the TSE
// signed that the box lacks; the page lists them in plain German with
// the amounts per rate as the receipt said, and the owner marks one, then
// the rest, as re-entered; the card goes away; in English too.
func TestConsoleAfterRestore(t *testing.T) {
	ctx := context.Background()
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	// The restored database holds this sale.
	code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":4.50}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":4.50}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	through := time.Now()
	// The old box's last seconds, on a till it had just registered.
	till := store.NewID()
	if _, err := a.sim.EnsureClient(ctx, till, "KASSE-02"); err != nil {
		t.Fatal(err)
	}
	signLost(t, a.sim, till, &tse.Receipt{ReceiptType: "RECEIPT",
		AmountsPerVATRate:     []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "23.80"}, {VATRate: "REDUCED_1", Amount: "5.35"}},
		AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "CASH", Amount: "10.00"}, {PaymentType: "NON_CASH", Amount: "19.15"}}})
	signLost(t, a.sim, till, &tse.Receipt{ReceiptType: "RECEIPT",
		AmountsPerVATRate:     []tse.AmountPerVATRate{{VATRate: "REDUCED_1", Amount: "7.99"}},
		AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "NON_CASH", Amount: "7.99"}}})

	// posbox restore --from marks the data dir; the first start begins the
	// comparison, the TSE does not answer yet.
	dir := t.TempDir()
	if err := afterrestore.MarkRestored(dir, through); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	down := afterrestore.New(downList{a.sim}, a.st, a.restaurant.ID, log)
	if _, err := down.Begin(ctx, dir); err != nil {
		t.Fatal(err)
	}
	if pending, _ := down.Attempt(ctx); !pending {
		t.Fatal("compared without the TSE")
	}

	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	b.wait("the waiting card", `document.querySelector('#after-restore')?.dataset.state === 'pending'`)
	if got := b.text("#after-restore"); !strings.Contains(got, "wartet noch") || !strings.Contains(got, "verkaufen währenddessen normal") {
		t.Errorf("pending card: %q", got)
	}
	b.screenshot("dashboard-after-restore-pending")
	b.clickText("#after-restore a", "Anzeigen")
	b.wait("the page", `document.querySelector('#after-restore-pending')`)
	if got := b.text("main"); !strings.Contains(got, "Versuche bisher: 1") || !strings.Contains(got, "nicht erreichbar") {
		t.Errorf("pending page: %q", got)
	}

	// The TSE answers.
	if pending, err := afterrestore.New(a.sim, a.st, a.restaurant.ID, log).Attempt(ctx); pending || err != nil {
		t.Fatalf("compare: %v %v", pending, err)
	}
	b.open("/")
	b.wait("the card with the missing sales", `document.querySelector('#after-restore')?.dataset.state === 'done'`)
	if got := b.text("#after-restore"); !strings.Contains(got, "2 Verkäufe signiert") || !strings.Contains(got, "nachtragen") {
		t.Errorf("card: %q", got)
	}
	b.screenshot("dashboard-after-restore")
	b.clickText("#after-restore a", "Anzeigen")
	b.wait("the list", `document.querySelectorAll('#missing-sales li').length === 2`)
	got := strings.ReplaceAll(b.text("#missing-sales"), "\u00a0", " ")
	for _, want := range []string{"TSE-Vorgang Nr. 2", "TSE-Vorgang Nr. 3", "KASSE-02", "Beleg", "abgeschlossen", "19 %: 23,80 €", "7 %: 5,35 €",
		"29,15 €", "Bar: 10,00 €", "Karte/unbar: 19,15 €", "7 %: 7,99 €", "nachzutragen"} {
		if !strings.Contains(got, want) {
			t.Errorf("list lacks %q: %q", want, got)
		}
	}
	for _, never := range []string{"NORMAL", "NON_CASH", "FINISHED", "Kassenbeleg", "4,50"} {
		if strings.Contains(got, never) {
			t.Errorf("list shows %q: %q", never, got)
		}
	}
	if intro := b.text("#after-restore-intro"); !strings.Contains(intro, "wiederhergestellt") || !strings.Contains(intro, "Sicherung reichte bis") {
		t.Errorf("intro: %q", intro)
	}
	b.screenshot("after-restore-list")

	// One re-entered, then the rest.
	b.click(`#missing-sales li[data-number="2"] button.mark`)
	b.wait("the first marked", `document.querySelector('#missing-sales li[data-number="2"]')?.dataset.open === 'false'`)
	if got := b.text(`#missing-sales li[data-number="2"]`); !strings.Contains(got, "Nachgetragen am") || !strings.Contains(got, "Clara Chef") {
		t.Errorf("marked: %q", got)
	}
	if got := b.text("#after-restore-status"); !strings.Contains(got, "Noch nachzutragen: 1") {
		t.Errorf("status: %q", got)
	}
	b.click("#mark-all")
	b.wait("the confirmation", `document.querySelector('dialog.confirm[open]')`)
	b.click("dialog.confirm button.danger")
	b.wait("all marked", `document.querySelectorAll('#missing-sales li[data-open="false"]').length === 2`)
	if got := b.text("#after-restore-status"); !strings.Contains(got, "Alle fehlenden Verkäufe sind nachgetragen") {
		t.Errorf("status after all: %q", got)
	}
	b.screenshot("after-restore-done")

	// Recorded: the dashboard has nothing left to say; English reads the same.
	b.open("/")
	b.wait("the dashboard", `document.querySelector('#clocked-in')`)
	if eval[bool](b, `!!document.querySelector('#after-restore')`) {
		t.Error("the card stays after everything was re-entered")
	}
	b.open("/tse/after-restore")
	b.wait("the page again", `document.querySelector('#missing-sales')`)
	b.clickText(".lang button", "EN")
	b.wait("the English page", `document.querySelector('#missing-sales')?.innerText.includes('Re-entered on')`)
	if got := strings.ReplaceAll(b.text("main"), "\u00a0", " "); !strings.Contains(got, "After the restore") || !strings.Contains(got, "Card/non-cash: €19.15") {
		t.Errorf("English page: %q", got)
	}
}
