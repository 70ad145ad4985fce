package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Why the retention job holds the time records back (docs/RETENTION.md).
const (
	// HoldClockAhead: the clock runs more than a week past the newest record.
	HoldClockAhead = "clock_ahead"
	// HoldCutoffJump: the cutoff would move more than a year past the last run's.
	HoldCutoffJump = "cutoff_jump"
)

// RetentionHold says that the retention job did not trust the clock to
// delete a restaurant's time records, since when and why; the dates are
// restaurant-local (YYYY-MM-DD), the first day kept.
type RetentionHold struct {
	Reason           string
	Since, CheckedAt time.Time
	NewestRecord     *time.Time
	DeleteBefore     string // what the job would delete before
	LastDeleteBefore string // what the last run that deleted used; "" before the first
}

// RetentionConfirmation is an admin's word that the clock is right: the
// job may delete time records that ended before DeleteBefore.
type RetentionConfirmation struct {
	ID              string
	ConfirmedBy     string
	ConfirmedByName string
	ConfirmedAt     time.Time
	Reason          string
	DeleteBefore    string
	NewestRecord    *time.Time
}

// HoldRetention records (or renews) the hold of a restaurant's time
// records; Since stays while the reason and the date stay the same.
func (s *Store) HoldRetention(ctx context.Context, restaurantID string, h RetentionHold) error {
	return s.write(ctx, func(tx *Tx) error {
		now := FormatTime(tx.Now)
		_, err := tx.ExecContext(ctx, `INSERT INTO retention_holds
			(restaurant_id, reason, since, checked_at, newest_record, delete_before, last_delete_before)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (restaurant_id) DO UPDATE SET
				since = CASE WHEN reason = excluded.reason AND delete_before = excluded.delete_before THEN since ELSE excluded.since END,
				reason = excluded.reason, checked_at = excluded.checked_at, newest_record = excluded.newest_record,
				delete_before = excluded.delete_before, last_delete_before = excluded.last_delete_before`,
			restaurantID, h.Reason, now, now, nullTime(h.NewestRecord), h.DeleteBefore, emptyToNull(h.LastDeleteBefore))
		return err
	})
}

// ReleaseRetention ends a restaurant's hold (the job trusts the clock).
func (s *Store) ReleaseRetention(ctx context.Context, restaurantID string) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM retention_holds WHERE restaurant_id = ?`, restaurantID)
		return err
	})
}

// RetentionHeld is the restaurant's hold; nil when the job trusts the clock.
func (s *Store) RetentionHeld(ctx context.Context, restaurantID string) (*RetentionHold, error) {
	return retentionHeld(ctx, s.rs, restaurantID)
}

func retentionHeld(ctx context.Context, q queryer, restaurantID string) (*RetentionHold, error) {
	var h RetentionHold
	var since, checked string
	var newest, last sql.NullString
	err := q.QueryRowContext(ctx, `SELECT reason, since, checked_at, newest_record, delete_before, last_delete_before
		FROM retention_holds WHERE restaurant_id = ?`, restaurantID).
		Scan(&h.Reason, &since, &checked, &newest, &h.DeleteBefore, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	h.Since, h.CheckedAt, h.NewestRecord, h.LastDeleteBefore = ParseTime(since), ParseTime(checked), parseNullTime(newest), last.String
	return &h, err
}

// ConfirmRetentionClock records that byUserID confirmed the clock for the
// hold she saw: deleteBefore must be the hold's date, or the answer is
// EConflict (the job ran meanwhile and holds nothing, or another date)
// and nothing changes.
func (s *Store) ConfirmRetentionClock(ctx context.Context, restaurantID, byUserID, deleteBefore string) (*RetentionConfirmation, error) {
	var c *RetentionConfirmation
	err := s.write(ctx, func(tx *Tx) error {
		h, err := retentionHeld(ctx, tx, restaurantID)
		switch {
		case err != nil:
			return err
		case h == nil:
			return Errorf(EConflict, "the retention job holds no time records back any more: reload")
		case h.DeleteBefore != deleteBefore:
			return Errorf(EConflict, "the retention job now holds back the time records before %s, not %s: reload", h.DeleteBefore, deleteBefore)
		}
		c = &RetentionConfirmation{ID: NewID(), ConfirmedBy: byUserID, ConfirmedAt: tx.Now, Reason: h.Reason,
			DeleteBefore: deleteBefore, NewestRecord: h.NewestRecord}
		_, err = tx.ExecContext(ctx, `INSERT INTO retention_confirmations
			(id, restaurant_id, confirmed_by, confirmed_at, reason, delete_before, newest_record) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			c.ID, restaurantID, byUserID, FormatTime(tx.Now), c.Reason, deleteBefore, nullTime(h.NewestRecord))
		return err
	})
	return c, err
}

// RetentionConfirmedBefore is the latest date an admin confirmed for a
// restaurant ("" when none): the job trusts a cutoff up to it.
func (s *Store) RetentionConfirmedBefore(ctx context.Context, restaurantID string) (string, error) {
	var d sql.NullString
	err := s.rs.QueryRowContext(ctx, `SELECT max(delete_before) FROM retention_confirmations WHERE restaurant_id = ?`,
		restaurantID).Scan(&d)
	return d.String, err
}

// RetentionConfirmations lists a restaurant's confirmations, newest first,
// with the confirming admin's name.
func (s *Store) RetentionConfirmations(ctx context.Context, restaurantID string) ([]RetentionConfirmation, error) {
	return queryAll(ctx, s.rs, func(sc scanner) (RetentionConfirmation, error) {
		var c RetentionConfirmation
		var at string
		var newest sql.NullString
		err := sc.Scan(&c.ID, &c.ConfirmedBy, &c.ConfirmedByName, &at, &c.Reason, &c.DeleteBefore, &newest)
		c.ConfirmedAt, c.NewestRecord = ParseTime(at), parseNullTime(newest)
		return c, err
	}, `SELECT c.id, c.confirmed_by, coalesce(u.name, ''), c.confirmed_at, c.reason, c.delete_before, c.newest_record
		FROM retention_confirmations c LEFT JOIN users u ON u.id = c.confirmed_by
		WHERE c.restaurant_id = ? ORDER BY c.confirmed_at DESC, c.id DESC`, restaurantID)
}
