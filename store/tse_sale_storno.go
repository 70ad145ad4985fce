package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
)

// A storno (docs/FISCAL.md, "Stornos") reverses one whole sale: a new
// sale of the same receipt type with every amount per VAT rate negated,
// naming the sale in cancels. A sale is reversed at most once: the
// check below runs in the write transaction that records the storno, so
// two stornos of one sale at once cannot both pass it, and the unique
// index of migration 00012 refuses a second one all the same.

// checkStorno refuses a storno that does not reverse a sale it may:
// 422 on the field at fault, 409 already_cancelled when the sale has its
// storno. A sale that cancels nothing passes.
func checkStorno(ctx context.Context, tx *Tx, n NewTSESale) error {
	d := n.Detail
	if d == nil || d.CancelsTxID == "" {
		return nil
	}
	var receiptType, state string
	var kind, cancels sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT t.receipt_type, t.state, d.kind, d.cancels_tx_id
		FROM tse_transactions t LEFT JOIN tse_sale_details d ON d.tx_id = t.tx_id
		WHERE t.tx_id = ? AND t.restaurant_id = ?`, d.CancelsTxID, n.RestaurantID).Scan(&receiptType, &state, &kind, &cancels)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Invalid("cancels", FUnknownSale, "names no sale of this restaurant")
	case err != nil:
		return err
	case !kind.Valid:
		// Learnt from the provider only: posbox does not know what it
		// contained, and it is in no closing.
		return Invalid("cancels", FNotCancellable, "names a sale posbox did not record; it cannot be cancelled here")
	case kind.String == SaleKindOrder:
		return Invalid("cancels", FNotCancellable, "names an order; only a receipt can be cancelled")
	case cancels.Valid:
		return Invalid("cancels", FNotCancellable, "names a storno; a storno cannot be cancelled")
	case state == tseTxCancelled:
		return Invalid("cancels", FNotCancellable, "names a sale the TSE aborted; it counts nothing and cannot be cancelled")
	case !slices.Contains(ClosingCountedTypes, receiptType):
		return Invalid("cancels", FNotCancellable, "names a sale that moved no money ("+receiptType+"); only a receipt, invoice or benefit in kind can be cancelled")
	case n.ReceiptType != receiptType:
		return Invalid("receipt_type", FOneOf, "must be "+receiptType+", the type of the sale it cancels", "values", []string{receiptType})
	}
	var by string
	err = tx.QueryRowContext(ctx, `SELECT tx_id FROM tse_sale_details WHERE cancels_tx_id = ? AND cancels_void = 0`, d.CancelsTxID).Scan(&by)
	switch {
	case err == nil:
		return Errorf(EAlreadyCancelled, "this sale has already been cancelled by a storno; a sale is cancelled once")
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	orig, err := queryAll(ctx, tx, func(sc scanner) (TSESaleVAT, error) {
		var v TSESaleVAT
		return v, sc.Scan(&v.VATRate, &v.Cents)
	}, `SELECT vat_rate, cents FROM tse_sale_vat WHERE tx_id = ? AND cents != 0 ORDER BY `+vatOrderSQL("vat_rate"), d.CancelsTxID)
	if err != nil {
		return err
	}
	if !negates(d.VAT, orig) {
		want := make([]string, 0, len(orig))
		for _, v := range orig {
			amount := "-" + formatCents(v.Cents) // formatCents takes no sign
			if v.Cents < 0 {
				amount = formatCents(-v.Cents)
			}
			want = append(want, v.VATRate+" "+amount)
		}
		return Invalid("amounts_per_vat_rate", FStornoTotal, "a storno reverses the whole sale: its amounts must be "+strings.Join(want, ", "))
	}
	return nil
}

// negates reports whether the storno's amounts per VAT rate are the
// sale's negated (rates at 0 aside).
func negates(storno, sale []TSESaleVAT) bool {
	want := map[string]int64{} // sale + storno per rate: 0 everywhere
	for _, v := range sale {
		want[v.VATRate] += v.Cents
	}
	for _, v := range storno {
		want[v.VATRate] += v.Cents
	}
	for _, c := range want {
		if c != 0 {
			return false
		}
	}
	return true
}

// stornoConflict turns the unique index's refusal of a second storno
// into the error a caller understands.
func stornoConflict(err error) error {
	if isUnique(err) {
		return Errorf(EAlreadyCancelled, "this sale has already been cancelled by a storno; a sale is cancelled once")
	}
	return err
}
