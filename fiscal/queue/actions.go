package queue

import (
	"context"

	"posbox/store"
	"posbox/tse"
)

// Retry puts a transaction parked for attention back in the queue.
func (q *Queue) Retry(ctx context.Context, restaurantID, txID string) error {
	if err := q.serves(restaurantID); err != nil {
		return err
	}
	if _, err := q.st.TSETransaction(ctx, restaurantID, txID); err != nil {
		return err
	}
	if err := q.st.RetryTSEAttention(ctx, restaurantID, txID); err != nil {
		return err
	}
	q.Wake()
	return nil
}

// Cancel closes a transaction at the TSE that nothing will finish: a
// CANCELLED revision goes to the front of the queue.
func (q *Queue) Cancel(ctx context.Context, restaurantID, txID string) error {
	if err := q.serves(restaurantID); err != nil {
		return err
	}
	if err := q.cancelAtTSE(ctx, restaurantID, txID); err != nil {
		return err
	}
	q.Wake()
	return nil
}

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
func (q *Queue) cancelAtTSE(ctx context.Context, restaurantID, txID string) error {
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
