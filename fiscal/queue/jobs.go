package queue

import (
	"context"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Reconciler limits: fiskaly allows 20 list calls per minute per TSS; one
// run makes at most tseReconcilePages calls and runs at most every few
// minutes, so it stays far below that even next to a self-test.
const tseReconcilePages = 10

// cancelStale cancels transactions that are ACTIVE at the provider with
// nothing left to finish them and older than 30 minutes, so the TSS's
// 2000 open-transaction limit is never reached. It returns how many.
func (q *Queue) cancelStale(ctx context.Context) (int, error) {
	stale, err := q.st.StaleActiveTSETx(ctx, q.tssID, q.now().Add(-staleActive))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range stale {
		if err := q.cancelAtTSE(ctx, s.RestaurantID, s.TxID); err != nil {
			q.log.Warn("cancel stale transaction", "tx_id", s.TxID, "err", err)
			continue
		}
		q.log.Warn("cancelling stale ACTIVE transaction", "tx_id", s.TxID)
		n++
	}
	if n > 0 {
		q.Wake()
	}
	return n, nil
}

// checkCertificate raises tse_certificate_expiring once per certificate
// and threshold: 90, 30 and 7 days before it expires (docs/TSE.md, "The
// certificate's expiry").
func (q *Queue) checkCertificate(ctx context.Context) (raised bool, err error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	info, err := q.p.TSS(cctx)
	cancel()
	if err != nil {
		return false, err
	}
	q.cacheInfo(ctx, info)
	if info.CertNotAfter.IsZero() {
		return false, nil
	}
	days := tse.DaysUntil(info.CertNotAfter, q.now())
	return q.st.RecordTSECertificateExpiring(ctx, q.restaurantID, q.tssID, info.CertNotAfter, days)
}

// reconcileMirror pages the provider's list newest first down to the highest
// finished number already mirrored and copies what the mirror lacks
// (source 'reconciled') or has older. It returns the rows added.
func (q *Queue) reconcileMirror(ctx context.Context) (added int, err error) {
	floor, err := q.st.MaxTSENumber(ctx, q.tssID)
	if err != nil {
		return 0, err
	}
	clients, err := q.st.TSEClients(ctx, q.tssID)
	if err != nil {
		return 0, err
	}
	serials := map[string]string{}
	for _, c := range clients {
		serials[c.ClientID] = c.Serial
	}
	for page := 0; page < tseReconcilePages; page++ {
		res, err := q.p.ListTx(ctx, tse.ListQuery{OrderBy: "number", Order: "desc", Limit: 100, Offset: page * 100})
		if err != nil {
			return added, err
		}
		reached := len(res.Data) < 100
		for _, tx := range res.Data {
			if int64(tx.Number) <= floor && tx.State != tse.TxActive {
				reached = true
				continue
			}
			serial := tx.ClientSerialNumber
			if serial == "" {
				serial = serials[tx.ClientID]
			}
			ok, err := q.st.ReconcileTSETx(ctx, q.restaurantID, q.tssID, store.TSEProviderTx{
				TxID: tx.ID, ClientID: tx.ClientID, ClientSerial: serial, TSESigned: signedOf(tx),
			})
			if err != nil {
				return added, err
			}
			if ok {
				added++
			}
		}
		if reached {
			break
		}
	}
	return added, nil
}

// SelfTestJob is the daily self-test (02:00 UTC): it runs to its end.
func (q *Queue) SelfTestJob(ctx context.Context) error {
	_, err := q.runSelfTestNow(ctx)
	return err
}

// CertificateJob is the daily certificate check.
func (q *Queue) CertificateJob(ctx context.Context) error {
	_, err := q.checkCertificate(ctx)
	return err
}

// ReconcileJob keeps the mirror in step with the provider and cancels
// stale ACTIVE transactions.
func (q *Queue) ReconcileJob(ctx context.Context) error {
	if _, err := q.cancelStale(ctx); err != nil {
		return err
	}
	if q.state().Open {
		return nil // the provider is down; the next run catches up
	}
	if _, err := q.reconcileMirror(ctx); err != nil {
		return err
	}
	// The provider answered: a self-test that failed while it did not is
	// run again, at most every recheckAfter.
	if last, err := q.st.LatestTSESelfTest(ctx, q.restaurantID); err == nil && last.State == store.SelfTestFailed &&
		last.FinishedAt != nil && q.now().Sub(*last.FinishedAt) >= recheckAfter {
		q.recheck(ctx)
	}
	return nil
}
