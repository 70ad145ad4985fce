package store

import (
	"context"
	"slices"
)

// SaleEventTypes are the events of sales: posbox raises them from the
// sales it records unless the restaurant's SaleEventsBy says the POS
// posts them (docs/NOTIFICATIONS.md, "Events of sales").
var SaleEventTypes = []string{EventNewOrder, EventPaymentReceived, EventOrderCancelled}

// IsSaleEventType reports whether t is one of SaleEventTypes.
func IsSaleEventType(t string) bool { return slices.Contains(SaleEventTypes, t) }

// SaleEvent is the data of a new_order, payment_received or
// order_cancelled event posbox raises: what a POS would send, with the
// fields notify's texts read (order_number, total_cents, amount_cents,
// method, reason).
type SaleEvent struct {
	Source        string `json:"source"`         // "posbox": raised by posbox, not posted by a POS
	TransactionID string `json:"transaction_id"` // the sale (the TSE transaction's id)
	// OrderNumber is posbox's receipt number of the sale (DSFinV-K
	// BON_NR); for order_cancelled the cancelled sale's.
	OrderNumber  int64          `json:"order_number"`
	ClientSerial string         `json:"client_serial"`
	ReceiptType  string         `json:"receipt_type"`
	Table        *string        `json:"table"`       // the allocation group, null for none
	TotalCents   int64          `json:"total_cents"` // gross in euro; for order_cancelled the cancelled sale's
	AmountCents  *int64         `json:"amount_cents,omitempty"`
	Currency     string         `json:"currency"`
	Method       string         `json:"method,omitempty"` // payment_received: cash, non_cash or mixed
	Payments     []SaleEventPay `json:"payments,omitempty"`
	Lines        int            `json:"lines"`
	Operator     *string        `json:"operator"` // who recorded it, null when not known
	// order_cancelled: the storno and the sale it reverses.
	Reason                 string  `json:"reason,omitempty"`
	StornoTransactionID    *string `json:"storno_transaction_id,omitempty"`
	StornoOrderNumber      *int64  `json:"storno_order_number,omitempty"`
	CancelledTransactionID *string `json:"cancelled_transaction_id,omitempty"`
}

// SaleEventPay is one payment of a payment_received event.
type SaleEventPay struct {
	PaymentType  string `json:"payment_type"`
	CurrencyCode string `json:"currency_code"`
	AmountCents  int64  `json:"amount_cents"` // in the currency
	EURCents     *int64 `json:"amount_eur_cents"`
}

// raiseSaleEvent raises the event of a sale just recorded (receiptNo is
// its row's number), in the transaction that records it: exactly once per
// sale, as durable as the sale; a replay of its Idempotency-Key records
// nothing and raises nothing. An order raises new_order; a receipt that
// moves money payment_received; a storno order_cancelled; training,
// transfers and aborts none. Nothing when the POS posts them.
func raiseSaleEvent(ctx context.Context, tx *Tx, n NewTSESale, receiptNo int64) error {
	d := n.Detail
	if d == nil {
		return nil
	}
	var by string
	if err := tx.QueryRowContext(ctx, `SELECT sale_events_by FROM restaurants WHERE id = ?`, n.RestaurantID).Scan(&by); err != nil {
		return err
	}
	if by != SaleEventsByPosbox {
		return nil
	}
	e := SaleEvent{Source: "posbox", TransactionID: n.TxID, OrderNumber: receiptNo, ClientSerial: n.ClientSerial,
		ReceiptType: n.ReceiptType, TotalCents: n.TotalCents, Currency: "EUR", Lines: len(d.Lines)}
	if d.AllocationGroup != "" {
		e.Table = &d.AllocationGroup
	}
	if d.OperatorName != "" {
		e.Operator = &d.OperatorName
	}
	counted := d.Kind == SaleKindReceipt && slices.Contains(ClosingCountedTypes, n.ReceiptType)
	switch {
	case d.Kind == SaleKindOrder:
		return raise(ctx, tx, n.RestaurantID, EventNewOrder, e)
	case counted && d.CancelsTxID != "":
		return raiseCancelled(ctx, tx, n, e, receiptNo)
	case counted:
		e.AmountCents = &n.TotalCents
		e.Method, e.Payments = paymentMethod(d.Payments)
		return raise(ctx, tx, n.RestaurantID, EventPaymentReceived, e)
	}
	return nil
}

// raiseCancelled raises order_cancelled for a storno: numbered and
// totalled as the sale it reverses, which is what the owner looks for.
func raiseCancelled(ctx context.Context, tx *Tx, n NewTSESale, e SaleEvent, stornoNo int64) error {
	var origNo, origTotal int64
	if err := tx.QueryRowContext(ctx, `SELECT rowid, total_cents FROM tse_transactions WHERE tx_id = ?`, n.Detail.CancelsTxID).
		Scan(&origNo, &origTotal); err != nil {
		return err
	}
	storno, cancelled := n.TxID, n.Detail.CancelsTxID
	e.TransactionID, e.OrderNumber, e.TotalCents = cancelled, origNo, origTotal
	e.Reason, e.StornoTransactionID, e.StornoOrderNumber, e.CancelledTransactionID = "Storno", &storno, &stornoNo, &cancelled
	return raise(ctx, tx, n.RestaurantID, EventOrderCancelled, e)
}

func raise(ctx context.Context, tx *Tx, restaurantID, typ string, e SaleEvent) error {
	_, err := InsertEvent(ctx, tx, restaurantID, typ, e)
	return err
}

// paymentMethod names how a receipt was paid (cash, non_cash, mixed) and
// lists its payments.
func paymentMethod(ps []TSESalePayment) (string, []SaleEventPay) {
	method := ""
	out := make([]SaleEventPay, 0, len(ps))
	for _, p := range ps {
		m := "non_cash"
		if p.PaymentType == "CASH" {
			m = "cash"
		}
		if method != "" && method != m {
			m = "mixed"
		}
		method = m
		var eur *int64
		if v, ok := p.EUR(); ok {
			eur = &v
		}
		out = append(out, SaleEventPay{PaymentType: p.PaymentType, CurrencyCode: p.CurrencyCode, AmountCents: p.Cents, EURCents: eur})
	}
	return method, out
}
