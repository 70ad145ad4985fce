package server

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

// abortReceipt is the schema of a CANCELLED revision posbox writes for a
// transaction nothing will finish: an aborted receipt (DSFinV-K
// AVBelegabbruch) with zero amounts, since the original amounts may be what
// the provider refused.
var abortReceipt = tse.Receipt{
	ReceiptType:           "ABORT",
	AmountsPerVATRate:     []tse.AmountPerVATRate{{VATRate: "NULL", Amount: "0.00"}},
	AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "CASH", Amount: "0.00"}},
}

// cancelAtTSE queues a CANCELLED revision for a transaction left ACTIVE at
// the provider (admin action, or the stale-transaction sweep).
func (q *tseQueue) cancelAtTSE(ctx context.Context, restaurantID, txID string) error {
	t, err := q.st.TSETransaction(ctx, restaurantID, txID)
	if err != nil {
		return err
	}
	if t.LatestRevision < 1 {
		return store.Errorf(store.ETSEQueueState, "the transaction was never started at the TSE; retry it instead")
	}
	// The next revision is the one after what the provider signed; parked
	// revisions it never accepted are superseded.
	next := t.LatestRevision + 1
	body, err := tse.UpsertBody(tse.TxCancelled, t.ClientID, &abortReceipt, nil)
	if err != nil {
		return err
	}
	return q.st.CancelTSETx(ctx, store.StaleTSETx{RestaurantID: restaurantID, TxID: txID, ClientID: t.ClientID, NextRevision: next}, body)
}

// cancelStale cancels transactions that are ACTIVE at the provider with
// nothing left to finish them and older than 30 minutes, so the TSS's
// 2000 open-transaction limit is never reached. It returns how many.
func (q *tseQueue) cancelStale(ctx context.Context) (int, error) {
	stale, err := q.st.StaleActiveTSETx(ctx, q.tssID, q.now().Add(-tseStaleActive))
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
// when 30 days or fewer are left.
func (q *tseQueue) checkCertificate(ctx context.Context) (raised bool, err error) {
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
	days := daysUntil(info.CertNotAfter, q.now())
	if days > tseCertWarnDays {
		return false, nil
	}
	return q.st.RecordTSECertificateExpiring(ctx, q.restaurantID, q.tssID, ts(info.CertNotAfter), days)
}

// reconcileMirror pages the provider's list newest first down to the highest
// finished number already mirrored and copies what the mirror lacks
// (source 'reconciled') or has older. It returns the rows added.
func (q *tseQueue) reconcileMirror(ctx context.Context) (added int, err error) {
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

// TSESelfTestJob is the daily self-test (02:00 UTC): it runs to its end.
func (s *Server) TSESelfTestJob(ctx context.Context) error {
	q, err := s.queue()
	if err != nil {
		return err
	}
	_, err = q.runSelfTestNow(ctx)
	return err
}

// TSECertificateJob is the daily certificate check.
func (s *Server) TSECertificateJob(ctx context.Context) error {
	q, err := s.queue()
	if err != nil {
		return err
	}
	_, err = q.checkCertificate(ctx)
	return err
}

// TSEReconcileJob keeps the mirror in step with the provider and cancels
// stale ACTIVE transactions.
func (s *Server) TSEReconcileJob(ctx context.Context) error {
	q, err := s.queue()
	if err != nil {
		return err
	}
	if _, err := q.cancelStale(ctx); err != nil {
		return err
	}
	if q.state().Open {
		return nil // the provider is down; the next run catches up
	}
	_, err = q.reconcileMirror(ctx)
	return err
}
