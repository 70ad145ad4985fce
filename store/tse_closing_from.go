package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// closingSlack is how far before the register's last closing a new one
// looks for sales it does not cover: a day, for a wall clock stepped back
// between a closing and a sale. Sales and closings are written by the one
// writer and a sale's business_time is its transaction's now, so a sale
// left out of a closing was recorded at or after that closing's
// covered_until; the slack only guards the clock.
const closingSlack = 24 * time.Hour

// closingFrom is the business_time a closing of n's register reads sales
// from: its last closing's covered_until less closingSlack, or the start
// of time for its first. With tse_transactions_register_time (migration
// 00019) a closing reads the sales since the last one, not every sale the
// register ever made.
func closingFrom(ctx context.Context, tx *Tx, n NewTSEClosing) (string, error) {
	var until string
	err := tx.QueryRowContext(ctx, `SELECT covered_until FROM tse_closings WHERE restaurant_id = ? AND client_serial = ?
		ORDER BY z_nr DESC LIMIT 1`, n.RestaurantID, n.ClientSerial).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return FormatTime(ParseTime(until).Add(-closingSlack)), nil
}

// closingSalesSQL selects a register's sales from a business_time up to
// one (before is "<" or "<=") that no closing covers, in recorded order.
func closingSalesSQL(before string) string {
	return `SELECT t.tx_id FROM tse_transactions t
		WHERE t.restaurant_id = ? AND t.client_serial = ? AND t.source = 'posbox'
		  AND t.business_time >= ? AND t.business_time ` + before + ` ?
		  AND NOT EXISTS (SELECT 1 FROM tse_closing_transactions c WHERE c.tx_id = t.tx_id)
		ORDER BY t.business_time, t.rowid`
}
