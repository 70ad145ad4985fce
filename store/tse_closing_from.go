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

// closingFrom is the business_time a closing of a register reads sales
// from: its last closing's covered_until less closingSlack, or the start
// of time for its first. With tse_transactions_register_time (migration
// 00019) a closing reads the sales since the last one, not every sale the
// register ever made.
func closingFrom(ctx context.Context, q queryer, restaurantID, serial string) (string, error) {
	var until string
	err := q.QueryRowContext(ctx, `SELECT covered_until FROM tse_closings WHERE restaurant_id = ? AND client_serial = ?
		ORDER BY z_nr DESC LIMIT 1`, restaurantID, serial).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return FormatTime(ParseTime(until).Add(-closingSlack)), nil
}

// closingSalesSQL selects a register's sales from a business_time (?3) up
// to one (?4; before is "<" or "<=") that no closing covers, in recorded
// order, each with whether the closing counts it (countedSQL, read here
// so that the totals need not join each sale again). tx_id is random
// (UUIDv4), so every lookup by it lands on its own page of an index that
// grows with the years: "no closing covers it" reads the tx_ids of the
// register's closings that can hold a sale of the window
// (tse_closings_covered, migration 00021) instead of a lookup per sale.
// A closing holds only its register's sales recorded before (or at) its
// covered_until, so one with covered_until before ?3 holds none of them.
func closingSalesSQL(before string) string {
	return `SELECT t.tx_id, EXISTS (SELECT 1 FROM tse_sale_details d WHERE d.tx_id = t.tx_id AND ` + countedSQL + `)
		FROM tse_transactions t
		WHERE t.restaurant_id = ?1 AND t.client_serial = ?2 AND t.source = 'posbox'
		  AND t.business_time >= ?3 AND t.business_time ` + before + ` ?4
		  AND t.tx_id NOT IN (SELECT ct.tx_id FROM tse_closings c JOIN tse_closing_transactions ct ON ct.closing_id = c.id
		    WHERE c.restaurant_id = ?1 AND c.client_serial = ?2 AND c.covered_until >= ?3)
		ORDER BY t.business_time, t.rowid`
}

// registerSerialsSQL lists a restaurant's registers with a sale, one seek
// on tse_transactions_register_time per register (a skip scan), where
// DISTINCT read every sale.
const registerSerialsSQL = `WITH RECURSIVE serials(s) AS (
	SELECT (SELECT min(client_serial) FROM tse_transactions WHERE restaurant_id = ?1 AND source = 'posbox')
	UNION ALL
	SELECT (SELECT min(client_serial) FROM tse_transactions WHERE restaurant_id = ?1 AND source = 'posbox' AND client_serial > s)
	FROM serials WHERE s IS NOT NULL)
	SELECT s FROM serials WHERE s IS NOT NULL`

// UnclosedRegisters lists the registers (client serials) of a restaurant
// with a sale recorded before until that no closing covers: per register,
// its sales since its last closing (closingFrom), as a closing reads them.
func (s *Store) UnclosedRegisters(ctx context.Context, restaurantID string, until time.Time) ([]string, error) {
	serials, err := queryAll(ctx, s.rdb, func(sc scanner) (string, error) {
		var id string
		return id, sc.Scan(&id)
	}, registerSerialsSQL, restaurantID)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, serial := range serials {
		from, err := closingFrom(ctx, s.rdb, restaurantID, serial)
		if err != nil {
			return nil, err
		}
		var open bool
		if err := s.rdb.QueryRowContext(ctx, `SELECT EXISTS (`+closingSalesSQL("<")+`)`,
			restaurantID, serial, from, FormatTime(until)).Scan(&open); err != nil {
			return nil, err
		}
		if open {
			out = append(out, serial)
		}
	}
	return out, nil
}
