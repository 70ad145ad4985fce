package store

import (
	"context"
	"database/sql"
	"time"
)

// NewestRecord is the latest instant a restaurant's records carry: the
// newest clock-in, TSE transaction or event (each read through its
// index). The retention job compares the wall clock with it before it
// deletes time records: a clock that jumped years ahead (a box without a
// real-time clock, a bad time server) has no records from "now". Zero
// when there is none.
func (s *Store) NewestRecord(ctx context.Context, restaurantID string) (time.Time, error) {
	var newest time.Time
	for _, q := range []string{
		`SELECT max(clock_in) FROM time_entries WHERE restaurant_id = ?`,
		`SELECT max(time_start) FROM tse_transactions WHERE restaurant_id = ?`,
		`SELECT max(created_at) FROM events WHERE restaurant_id = ?`,
	} {
		var v sql.NullString
		if err := s.rs.QueryRowContext(ctx, q, restaurantID).Scan(&v); err != nil {
			return newest, err
		}
		if t := parseNullTime(v); t != nil && t.After(newest) {
			newest = *t
		}
	}
	return newest, nil
}

// TimeRecordsCutoff is the cutoff of the last run that deleted time
// records (the value the corrections' delete trigger reads); ok is false
// before the first.
func (s *Store) TimeRecordsCutoff(ctx context.Context, restaurantID string) (t time.Time, ok bool, err error) {
	v, ok, err := s.KV(ctx, timeRecordsCutoffKey)
	if err != nil || !ok {
		return t, false, err
	}
	return ParseTime(v), true, nil
}
