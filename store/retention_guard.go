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
	v, ok, err := s.KV(ctx, timeRecordsCutoffKey(restaurantID))
	if err != nil || !ok {
		return t, false, err
	}
	return ParseTime(v), true, nil
}

// Activity is what the retention job checks before the one VACUUM that
// holds off every write: the box must be quiet.
type Activity struct {
	NewestRecord time.Time // see NewestRecord
	ClockedIn    int       // open time entries
	OpenTSE      int       // TSE transactions still ACTIVE, revisions not yet signed
}

// Quiet says whether nothing happened for `for` before now: no record,
// nobody clocked in, no TSE transaction open or waiting for its signature.
func (a Activity) Quiet(now time.Time, quiet time.Duration) bool {
	return a.ClockedIn == 0 && a.OpenTSE == 0 && now.Sub(a.NewestRecord) >= quiet
}

// Activity reads what tells whether a restaurant's box is in service.
func (s *Store) Activity(ctx context.Context, restaurantID string) (Activity, error) {
	var a Activity
	var err error
	if a.NewestRecord, err = s.NewestRecord(ctx, restaurantID); err != nil {
		return a, err
	}
	var jobs int
	for _, q := range []struct {
		dst   *int
		query string
	}{
		{&a.ClockedIn, `SELECT count(*) FROM time_entries INDEXED BY time_entries_one_open WHERE restaurant_id = ? AND clock_out IS NULL`},
		{&a.OpenTSE, `SELECT count(*) FROM tse_transactions WHERE restaurant_id = ? AND state = 'ACTIVE'`},
		{&jobs, `SELECT count(*) FROM tse_jobs WHERE restaurant_id = ? AND status IN ('pending', 'in_flight')`},
	} {
		if err := s.rs.QueryRowContext(ctx, q.query, restaurantID).Scan(q.dst); err != nil {
			return a, err
		}
	}
	a.OpenTSE += jobs
	return a, nil
}
