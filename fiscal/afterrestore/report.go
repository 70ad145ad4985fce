package afterrestore

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Report compares the TSE's transactions with the restored database st
// now and prints what the TSE signed that it lacks, for posbox restore
// when the TSE answers at restore time. It records nothing: the first
// start compares again and keeps the list for the console.
func Report(ctx context.Context, w io.Writer, p tse.Provider, st *store.Store, replicatedThrough time.Time) ([]store.TSEMissingTx, error) {
	var through *time.Time
	if !replicatedThrough.IsZero() {
		through = &replicatedThrough
	}
	newest, err := st.LatestTSESaleStart(ctx, p.TSSID())
	if err != nil {
		return nil, err
	}
	missing, err := Compare(ctx, p, st, readBackTo(through, newest))
	if err != nil {
		return nil, err
	}
	Print(w, missing)
	return missing, nil
}

// Print writes the list, one transaction a line with its amounts.
func Print(w io.Writer, missing []store.TSEMissingTx) {
	if len(missing) == 0 {
		fmt.Fprintln(w, "The TSE signed nothing that the restored database lacks.")
		return
	}
	fmt.Fprintf(w, "The TSE signed %d transaction(s) the restored database lacks; re-enter them at the till:\n", len(missing))
	for _, m := range missing {
		fmt.Fprintf(w, "  no. %d (signature counter %d) %s, till %s, %s", m.Number, m.SignatureCounter,
			m.TimeStart.UTC().Format(time.RFC3339), m.ClientSerial, m.State)
		if m.ReceiptKind == "" {
			fmt.Fprintf(w, ": %s %q\n", m.ProcessType, m.ProcessData)
			continue
		}
		var parts []string
		for _, v := range m.VAT {
			parts = append(parts, v.VATRate+" "+v.Amount)
		}
		for _, p := range m.Payments {
			parts = append(parts, p.PaymentType+" "+p.Amount+" "+p.CurrencyCode)
		}
		fmt.Fprintf(w, ": %s, %s\n", m.ReceiptKind, strings.Join(parts, ", "))
	}
	fmt.Fprintln(w, "The console lists them too after the first start (Dashboard) until each is marked as re-entered.")
}
