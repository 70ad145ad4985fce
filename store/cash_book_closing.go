package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// The cash book as of a daily closing, for its Z-report (docs/FISCAL.md,
// "The Z-report").

// CashMovementsOfClosing lists the movements whose receipts a closing
// covers, oldest first.
func (s *Store) CashMovementsOfClosing(ctx context.Context, restaurantID, closingID string) ([]*CashMovement, error) {
	return queryAll(ctx, s.rdb, scanCashMovement, `SELECT `+cashMovementColumns+` FROM cash_movements m
		JOIN tse_transactions t ON t.tx_id = m.tx_id
		WHERE m.restaurant_id = ? AND m.tx_id IN (SELECT tx_id FROM tse_closing_transactions WHERE closing_id = ?)
		ORDER BY m.created_at, m.movement_no`, restaurantID, closingID)
}

// CashCountsOfClosing lists the counts of a closing's period on its
// register, oldest first: those after the register's previous closing's
// covered_until (all before the first closing) and at or before this
// one's.
func (s *Store) CashCountsOfClosing(ctx context.Context, c *TSEClosing) ([]*CashCount, error) {
	return queryAll(ctx, s.rdb, scanCashCount, `SELECT `+cashCountColumns+` FROM cash_counts
		WHERE restaurant_id = ?1 AND client_serial = ?2 AND created_at <= ?3
		  AND created_at > coalesce((SELECT covered_until FROM tse_closings
		    WHERE restaurant_id = ?1 AND client_serial = ?2 AND z_nr < ?4 ORDER BY z_nr DESC LIMIT 1), '')
		ORDER BY count_no`, c.RestaurantID, c.ClientSerial, FormatTime(c.CoveredUntil), c.ZNr)
}

// CashBalanceAt is a register's expected cash as of an instant: its last
// ledger row recorded at or before it (Started false when the cash book
// had not begun then).
func (s *Store) CashBalanceAt(ctx context.Context, restaurantID, serial string, at time.Time) (CashBalance, error) {
	b := CashBalance{ClientSerial: serial}
	var when string
	err := s.rs.QueryRowContext(ctx, `SELECT seq, balance_cents, created_at FROM cash_ledger
		WHERE restaurant_id = ? AND client_serial = ? AND created_at <= ? ORDER BY seq DESC LIMIT 1`,
		restaurantID, serial, FormatTime(at)).Scan(&b.LedgerSeq, &b.Cents, &when)
	if errors.Is(err, sql.ErrNoRows) {
		return b, nil
	}
	b.Started, b.At = err == nil, ParseTime(when)
	return b, err
}
