package seed

import (
	"context"
	"runtime"
	"sync"
	"time"

	"posbox/fiscal/queue"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

// sign numbers the day's sales in order and signs them: a day before
// today with tsesim.SignHistory (both cores at once: two ECDSA
// signatures a sale are most of the seeding's time), today through the
// simulator itself at each sale's instant. It returns the rows to store
// and a history day's revisions as signed.
func (g *gen) sign(ctx context.Context, list []*sale, today bool) ([]store.SeedSale, []tse.Tx, error) {
	out := make([]store.SeedSale, len(list))
	hist := make([]tsesim.HistorySale, len(list))
	for i, s := range list {
		w := queue.WireSale(&s.s)
		start, err := tse.UpsertBody(tse.TxActive, s.till.clientID, nil, nil)
		if err != nil {
			return nil, nil, err
		}
		finish, err := tse.FinishBody(s.till.clientID, &w)
		if err != nil {
			return nil, nil, err
		}
		out[i] = store.SeedSale{RecordedAt: s.at, NewTSESale: store.NewTSESale{RestaurantID: g.r.ID, TSSID: g.sim.TSSID(), TxID: s.txID,
			ClientSerial: s.till.serial, ClientID: s.till.clientID, ReceiptType: s.s.ReceiptType, TotalCents: s.s.TotalCents,
			StartBody: start, FinishBody: finish, Detail: queue.SaleDetail(&s.s)}}
		if !today {
			g.number++
			hist[i] = tsesim.HistorySale{TxID: s.txID, ClientID: s.till.clientID, Number: g.number, Counter: g.counter + 1,
				Start: s.at.Add(signingTime), End: s.at.Add(2 * signingTime), FinishBody: finish}
			g.counter += 2
		}
	}
	if today {
		return out, nil, g.signLive(ctx, out, list)
	}
	revs := make([]tse.Tx, 2*len(hist))
	return out, revs, signHistory(g.sim, hist, out, revs)
}

// signingTime is how long after the till's request each revision is
// signed (the TSE's clock has whole seconds).
const signingTime = time.Second

// signHistory signs hist into out (and each revision into revs) on
// every core.
func signHistory(sim *tsesim.Simulator, hist []tsesim.HistorySale, out []store.SeedSale, revs []tse.Tx) error {
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w := range errs {
		wg.Go(func() {
			for i := w; i < len(hist); i += len(errs) {
				start, finish, err := sim.SignHistory(hist[i])
				if err != nil {
					errs[w] = err
					return
				}
				out[i].Start, out[i].Finish = signedOf(start), signedOf(finish)
				revs[2*i], revs[2*i+1] = start, finish
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// signLive signs today's sales through the simulator, as the queue's
// worker sends them, at each sale's instant.
func (g *gen) signLive(ctx context.Context, out []store.SeedSale, list []*sale) error {
	for i := range out {
		for rev, body := range [][]byte{out[i].StartBody, out[i].FinishBody} {
			g.clock.Set(list[i].at.Add(time.Duration(rev+1) * signingTime))
			tx, err := g.sim.Upsert(ctx, tse.UpsertRequest{TxID: out[i].TxID, Revision: rev + 1, Body: body})
			if err != nil {
				return err
			}
			if rev == 0 {
				out[i].Start = signedOf(tx)
			} else {
				out[i].Finish = signedOf(tx)
			}
		}
	}
	return nil
}

// signedOf is the TSE's answer as the store keeps it.
func signedOf(t tse.Tx) store.TSESigned {
	return store.TSESigned{Number: int64(t.Number), State: t.State, Revision: t.Revision, TimeStart: t.TimeStart, TimeEnd: t.TimeEnd,
		SignatureCounter: int64(t.Signature.Counter), SignatureValue: t.Signature.Value, LogTime: t.LogTime,
		QRCodeData: t.QRCodeData, TSSSerialNumber: t.TSSSerialNumber}
}
