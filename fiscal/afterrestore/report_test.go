package afterrestore

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/fiscal"
	"posbox/tse/simtest"
)

// At restore time, over fiskaly's HTTP API (the simulator served): the
// restore command prints the sales the TSE signed after the copy, with
// their amounts, and records nothing.
func TestReportPrintsTheLostSalesOverHTTP(t *testing.T) {
	ctx := context.Background()
	h := simtest.NewHTTP(t)
	old := openBox(t, t.TempDir(), h.Client(t), h.Clk)
	old.sell(t, cash(450))
	h.Clk.Add(time.Minute)
	through := h.Clk.Now()
	restoredDir := t.TempDir()
	if err := old.st.Backup(ctx, filepath.Join(restoredDir, "posbox.db")); err != nil {
		t.Fatal(err)
	}
	h.Clk.Add(time.Second)
	lost := old.sell(t, receiptSale([]fiscal.VATAmount{{VATRate: "NORMAL", Cents: 2380}, {VATRate: "REDUCED_1", Cents: 535}},
		[]fiscal.Payment{{PaymentType: "NON_CASH", Cents: 2915}}))
	old.close()

	nb := openBox(t, restoredDir, h.Client(t), h.Clk)
	var out strings.Builder
	missing, err := Report(ctx, &out, h.Client(t), nb.st, through)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 1 || missing[0].TxID != lost.TxID {
		t.Fatalf("missing: %+v", missing)
	}
	want := "The TSE signed 1 transaction(s) the restored database lacks; re-enter them at the till:\n" +
		"  no. 2 (signature counter " + strconv.FormatInt(*lost.SignatureCounter, 10) + ") " + lost.TimeStart.UTC().Format(time.RFC3339) +
		", till KASSE-01, FINISHED: Beleg, NORMAL 23.80, REDUCED_1 5.35, NON_CASH 29.15 EUR\n"
	if !strings.HasPrefix(out.String(), want) {
		t.Fatalf("printed:\n%s\nwant it to begin:\n%s", out.String(), want)
	}
	if _, err := nb.st.LatestTSEAfterRestore(ctx, nb.rest.ID); err == nil {
		t.Fatal("Report recorded a comparison")
	}
}
