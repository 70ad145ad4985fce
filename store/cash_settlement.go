package store

import (
	"context"
	"database/sql"
	"time"
)

// What a waiter settlement (fiscal/cashbook's Settle, docs/CASHDESK.md
// "Waiter settlement") reads: one person's sales and their floats and tip
// payouts in a time range, both in one snapshot.

// SettlementSale is one counted sale (countedSQL) a person sold that is
// not a cash movement, in euro cents.
type SettlementSale struct {
	TxID       string
	Storno     bool  // it reverses a sale (cancels)
	TotalCents int64 // signed
	CashCents  int64 // the payments CASH, their euro value
	CardCents  int64 // the payments NON_CASH, their euro value
	HasCard    bool  // a NON_CASH payment is among its payments
	TipCents   int64 // its TrinkgeldAN: lines of that GV_TYP, or the whole sale when it has no lines and is TrinkgeldAN
}

// SettlementMovement is a float or tip payout of the person: booked by
// them or for them (for_user_id); a counter-entry names its original's
// person.
type SettlementMovement struct {
	TxID  string
	Kind  string // opening_float or tip_payout
	Cents int64  // signed, as booked
}

// SettlementData is what a settlement is computed from.
type SettlementData struct {
	Sales     []SettlementSale
	Movements []SettlementMovement
}

// settlementSalesSQL: the person's counted sales of [from, to) by their
// business time, without the cash book's receipts. A payment without
// euro value (a foreign one from before 00025) counts 0.
const settlementSalesSQL = `SELECT t.tx_id, d.cancels_tx_id IS NOT NULL, t.total_cents,
	coalesce((SELECT sum(coalesce(p.eur_cents, 0)) FROM tse_sale_payments p WHERE p.tx_id = t.tx_id AND p.payment_type = 'CASH'), 0),
	coalesce((SELECT sum(coalesce(p.eur_cents, 0)) FROM tse_sale_payments p WHERE p.tx_id = t.tx_id AND p.payment_type = 'NON_CASH'), 0),
	EXISTS (SELECT 1 FROM tse_sale_payments p WHERE p.tx_id = t.tx_id AND p.payment_type = 'NON_CASH'),
	CASE WHEN EXISTS (SELECT 1 FROM tse_sale_lines l WHERE l.tx_id = t.tx_id)
		THEN coalesce((SELECT sum(l.total_cents) FROM tse_sale_lines l WHERE l.tx_id = t.tx_id AND l.business_case = 'TrinkgeldAN'), 0)
		WHEN d.business_case = 'TrinkgeldAN' THEN t.total_cents ELSE 0 END
	FROM tse_transactions t JOIN tse_sale_details d ON d.tx_id = t.tx_id
	WHERE t.restaurant_id = ? AND t.source = 'posbox' AND t.business_time >= ? AND t.business_time < ? AND ` + countedSQL + `
	AND d.operator_id = ? AND NOT EXISTS (SELECT 1 FROM cash_movements m WHERE m.tx_id = t.tx_id)
	ORDER BY t.business_time, t.tx_id`

// settlementMovementsSQL: the person's floats and tip payouts booked in
// [from, to), as the movement list dates them (created_at); a receipt the
// TSE cancelled counts nothing, as in the closing.
const settlementMovementsSQL = `SELECT m.tx_id, m.kind, m.cents FROM cash_movements m
	JOIN tse_transactions t ON t.tx_id = m.tx_id
	WHERE m.restaurant_id = ? AND m.created_at >= ? AND m.created_at < ? AND m.kind IN ('opening_float', 'tip_payout')
	AND coalesce(m.for_user_id, m.booked_by) = ? AND t.state != 'CANCELLED'
	ORDER BY m.created_at, m.tx_id`

// SettlementOf reads a person's sales, floats and tip payouts of
// [from, to) in one snapshot.
func (s *Store) SettlementOf(ctx context.Context, restaurantID, userID string, from, to time.Time) (*SettlementData, error) {
	tx, err := s.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	f, t := FormatTime(from), FormatTime(to)
	out := &SettlementData{}
	out.Sales, err = queryAll(ctx, tx, func(sc scanner) (SettlementSale, error) {
		var v SettlementSale
		return v, sc.Scan(&v.TxID, &v.Storno, &v.TotalCents, &v.CashCents, &v.CardCents, &v.HasCard, &v.TipCents)
	}, settlementSalesSQL, restaurantID, f, t, userID)
	if err != nil {
		return nil, err
	}
	out.Movements, err = queryAll(ctx, tx, func(sc scanner) (SettlementMovement, error) {
		var v SettlementMovement
		return v, sc.Scan(&v.TxID, &v.Kind, &v.Cents)
	}, settlementMovementsSQL, restaurantID, f, t, userID)
	if err != nil {
		return nil, err
	}
	return out, nil
}
