package store

import (
	"context"
	"time"
)

// RetentionCutoffs are, for one restaurant, the instants before which the
// retention job removes rows (package retention computes them from the
// periods in docs/RETENTION.md). Fiscal records have no cutoff: nothing
// here touches a table of the cash desk.
type RetentionCutoffs struct {
	RestaurantID string
	// TimeRecords: time entries ended and corrections made before it,
	// shifts dated before TimeRecordsDate (restaurant-local YYYY-MM-DD, the
	// same instant) and ended before it, and the names of erased users with no record left.
	// Zero (and "") prunes no time record: the job does not trust the clock.
	TimeRecords     time.Time
	TimeRecordsDate string
	// Notifications: final deliveries last changed, and log entries sent,
	// before it.
	Notifications time.Time
	// Events: events raised before it once none of their deliveries is left.
	Events time.Time
}

// RetentionCounts is how many rows of each kind one run removed (or, for
// Pseudonymised, how many erased users' names it replaced).
type RetentionCounts struct {
	TimeEntries, Corrections, Shifts     int64
	Deliveries, NotificationLogs, Events int64
	Pseudonymised                        int64
}

// Total is every row removed or changed.
func (c RetentionCounts) Total() int64 {
	return c.TimeEntries + c.Corrections + c.Shifts + c.Deliveries + c.NotificationLogs + c.Events + c.Pseudonymised
}

// retentionBatch bounds one write of the job, so the tills' writes queued
// behind it wait milliseconds, not the seconds a year of rows would take.
const retentionBatch = 1000

// timeRecordsCutoffKey is the kv entry of a restaurant the corrections'
// delete trigger (migration 00018) reads: corrections made before it, of
// an entry that ended before it, may be deleted.
func timeRecordsCutoffKey(restaurantID string) string {
	return "retention.time_records_before." + restaurantID
}

// PruneRetention removes, for one restaurant, what c says has outlived
// its period, in batches; a second run with the same cutoffs removes
// nothing.
func (s *Store) PruneRetention(ctx context.Context, c RetentionCutoffs) (RetentionCounts, error) {
	var n RetentionCounts
	var err error
	if n.TimeEntries, n.Corrections, err = s.pruneTimeEntries(ctx, c); err != nil {
		return n, err
	}
	steps := []struct {
		count *int64
		query string
		args  []any
	}{
		{&n.Shifts, `DELETE FROM shifts WHERE id IN (SELECT id FROM shifts WHERE restaurant_id = ? AND shift_date < ? AND ends_at < ? LIMIT ?)`,
			[]any{c.RestaurantID, c.TimeRecordsDate, FormatTime(c.TimeRecords)}},
		{&n.Deliveries, `DELETE FROM notification_deliveries WHERE id IN (SELECT id FROM notification_deliveries
			WHERE status IN ('delivered', 'failed', 'cancelled') AND updated_at < ? AND restaurant_id = ? LIMIT ?)`,
			[]any{FormatTime(c.Notifications), c.RestaurantID}},
		{&n.NotificationLogs, `DELETE FROM notification_logs WHERE id IN (SELECT id FROM notification_logs
			WHERE restaurant_id = ? AND sent_at < ? LIMIT ?)`, []any{c.RestaurantID, FormatTime(c.Notifications)}},
		{&n.Events, `DELETE FROM events WHERE id IN (SELECT id FROM events e WHERE restaurant_id = ? AND created_at < ?
			AND NOT EXISTS (SELECT 1 FROM notification_deliveries d WHERE d.event_id = e.id) LIMIT ?)`,
			[]any{c.RestaurantID, FormatTime(c.Events)}},
	}
	for _, st := range steps {
		if *st.count, err = s.deleteInBatches(ctx, st.query, st.args...); err != nil {
			return n, err
		}
	}
	n.Pseudonymised, err = s.pseudonymiseErased(ctx, c.RestaurantID)
	return n, err
}

// deleteInBatches runs query (whose last parameter is the batch size)
// until a batch deletes fewer rows than it may.
func (s *Store) deleteInBatches(ctx context.Context, query string, args ...any) (int64, error) {
	var total int64
	for {
		var n int64
		err := s.write(ctx, func(tx *Tx) error {
			res, err := tx.ExecContext(ctx, query, append(args, retentionBatch)...)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		total += n
		if err != nil || n < retentionBatch {
			return total, err
		}
	}
}

// pruneTimeEntries deletes closed time entries ended before the cutoff
// with their corrections (a night shift into the cutoff's year belongs to
// that year's payroll; clock_in < cutoff only lets the index narrow). An entry corrected on or after the cutoff (a
// December shift corrected in January) waits for its correction's year:
// the correction is a record of the year it was made.
func (s *Store) pruneTimeEntries(ctx context.Context, c RetentionCutoffs) (entries, corrections int64, err error) {
	if c.TimeRecords.IsZero() {
		return 0, 0, nil
	}
	before := FormatTime(c.TimeRecords)
	for {
		var ids []string
		err = s.write(ctx, func(tx *Tx) error {
			if _, err := tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
				WHERE excluded.value > kv.value`,
				timeRecordsCutoffKey(c.RestaurantID), before, FormatTime(tx.Now)); err != nil {
				return err
			}
			var err error
			ids, err = queryAll(ctx, tx, scanString, `SELECT id FROM time_entries e
				WHERE restaurant_id = ? AND clock_in < ? AND clock_out < ?
				AND NOT EXISTS (SELECT 1 FROM time_entry_corrections c WHERE c.time_entry_id = e.id AND c.at >= ?)
				ORDER BY clock_in LIMIT ?`, c.RestaurantID, before, before, before, retentionBatch)
			if err != nil {
				return err
			}
			for _, id := range ids {
				res, err := tx.ExecContext(ctx, `DELETE FROM time_entry_corrections WHERE time_entry_id = ?`, id)
				if err != nil {
					return err
				}
				n, _ := res.RowsAffected()
				corrections += n
				if _, err := tx.ExecContext(ctx, `DELETE FROM time_entries WHERE id = ?`, id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return entries, corrections, err
		}
		entries += int64(len(ids))
		if len(ids) < retentionBatch {
			return entries, corrections, nil
		}
	}
}

func scanString(sc scanner) (string, error) {
	var v string
	err := sc.Scan(&v)
	return v, err
}

// pseudonymiseErased replaces the name and staff number of erased users
// of whom no time record, shift or correction is left: the last law that
// needed the name (the time records' period) has ended. A user a fiscal
// record names through the users row keeps the name as long as that
// record (posbox deletes none): the after-restore check's acknowledgement
// (tse_after_restore.go reads the name by JOIN). Every other fiscal table
// keeps its own copy of a name (receipts' operator_name, the recovery
// sheet's confirmed_by_name), so pseudonymising changes no fiscal read. The row stays, as
// receipts (which carry their own copy of the name) and discount
// redemptions refer to it by id.
func (s *Store) pseudonymiseErased(ctx context.Context, restaurantID string) (int64, error) {
	var n int64
	err := s.write(ctx, func(tx *Tx) error {
		ids, err := queryAll(ctx, tx, scanString, `SELECT x.user_id FROM user_erasures x
			WHERE x.restaurant_id = ? AND x.pseudonymised_at IS NULL
			AND NOT EXISTS (SELECT 1 FROM time_entries WHERE user_id = x.user_id)
			AND NOT EXISTS (SELECT 1 FROM shifts WHERE user_id = x.user_id)
			AND NOT EXISTS (SELECT 1 FROM time_entry_corrections WHERE by_user_id = x.user_id)
			AND NOT EXISTS (SELECT 1 FROM tse_after_restore_missing WHERE acknowledged_by = x.user_id)`, restaurantID)
		if err != nil {
			return err
		}
		now := FormatTime(tx.Now)
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET name = ?, staff_number = NULL, updated_at = ? WHERE id = ?`,
				PseudonymFor(id), now, id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE user_erasures SET pseudonymised_at = ? WHERE user_id = ?`, now, id); err != nil {
				return err
			}
		}
		n = int64(len(ids))
		return nil
	})
	return n, err
}

// PseudonymFor is the name an erased user has once pseudonymised: no
// trace of the person, but two former staff members still tell apart.
func PseudonymFor(id string) string { return "erased " + id[len(id)-8:] }
