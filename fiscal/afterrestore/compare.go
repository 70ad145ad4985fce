package afterrestore

import (
	"context"
	"errors"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Margin is how far before what the replica held the TSE's list is read:
// a sale is started at the TSE before its row is final, the replica's
// word is the box's clock and the TSE's times are whole seconds; ten
// minutes cover all of that with room.
const Margin = 10 * time.Minute

// maxPages bounds one comparison's list calls: 20,000 transactions, two
// months of a busy restaurant's sales, for a replica that stood still for
// weeks before the card died. fiskaly allows 20 list calls a minute
// (the reconciler takes up to 10 every 5 minutes): a 429 is waited out
// (listPage), so a long list takes minutes, not a refusal.
const maxPages = 200

// maxRateWait bounds one wait for the provider's rate limit.
const maxRateWait = 2 * time.Minute

// readBackTo is where the comparison starts reading: Margin before the
// earlier of what the replica held and the newest sale the restored
// database has (nil when neither is known: as far as maxPages reach).
func readBackTo(through, newestSale *time.Time) *time.Time {
	var t *time.Time
	for _, c := range []*time.Time{through, newestSale} {
		if c != nil && (t == nil || c.Before(*t)) {
			t = c
		}
	}
	if t == nil {
		return nil
	}
	from := t.Add(-Margin)
	return &from
}

// Compare pages the TSS's transactions newest first back to those started
// before from (nil, or more than maxPages back: as far as maxPages reach)
// and returns, by number,
// those started at or after from that the box has no sale for, with what
// their receipts said. The appliance's TSS is its own (docs/TSE.md, one
// TSS per box), so every client on it is one of the box's tills; a till
// registered in the lost seconds is on the list too.
func Compare(ctx context.Context, p tse.Provider, st *store.Store, from *time.Time) ([]store.TSEMissingTx, error) {
	clients, err := st.TSEClients(ctx, p.TSSID())
	if err != nil {
		return nil, err
	}
	serials := map[string]string{}
	for _, c := range clients {
		serials[c.ClientID] = c.Serial
	}
	var missing []store.TSEMissingTx
	seen := map[string]bool{} // a sale made while paging shifts the pages by one
	for page := 0; page < maxPages; page++ {
		res, err := listPage(ctx, p, page)
		if err != nil {
			return nil, err
		}
		ids := make([]string, 0, len(res.Data))
		for _, tx := range res.Data {
			ids = append(ids, tx.ID)
		}
		have, err := st.TSESaleTxIDs(ctx, p.TSSID(), ids)
		if err != nil {
			return nil, err
		}
		reached := len(res.Data) < 100
		for _, tx := range res.Data {
			if from != nil && tx.TimeStart.Before(*from) {
				reached = true
				continue
			}
			if !have[tx.ID] && !seen[tx.ID] {
				seen[tx.ID] = true
				missing = append(missing, missingTx(tx, serials))
			}
		}
		if reached {
			break
		}
	}
	// newest first from the list; the owner reads them in the order sold
	for i, j := 0, len(missing)-1; i < j; i, j = i+1, j-1 {
		missing[i], missing[j] = missing[j], missing[i]
	}
	return missing, nil
}

// missingTx is the list's entry of a transaction the box lacks.
func missingTx(tx tse.Tx, serials map[string]string) store.TSEMissingTx {
	serial := tx.ClientSerialNumber
	if serial == "" {
		serial = serials[tx.ClientID]
	}
	kind, vat, pay := receipt(tx.ProcessType, tx.ProcessData)
	return store.TSEMissingTx{
		TxID: tx.ID, Number: int64(tx.Number), SignatureCounter: int64(tx.Signature.Counter), State: tx.State,
		TimeStart: tx.TimeStart, TimeEnd: tx.TimeEnd, ClientID: tx.ClientID, ClientSerial: serial,
		ProcessType: tx.ProcessType, ProcessData: tx.ProcessData, ReceiptKind: kind, VAT: vat, Payments: pay,
	}
}

// listPage reads one page of 100, newest first, waiting out the
// provider's rate limit (429 with Retry-After) a few times.
func listPage(ctx context.Context, p tse.Provider, page int) (tse.TxPage, error) {
	for try := 0; ; try++ {
		res, err := p.ListTx(ctx, tse.ListQuery{OrderBy: "number", Order: "desc", Limit: 100, Offset: page * 100})
		var te *tse.Error
		if err == nil || try == 3 || !errors.As(err, &te) || te.RetryAfter <= 0 {
			return res, err
		}
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-time.After(min(te.RetryAfter, maxRateWait)):
		}
	}
}
