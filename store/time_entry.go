package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// TimeEntry is one clock-in/clock-out record of a user; ClockOut is nil
// while the entry is open.
type TimeEntry struct {
	ID           string
	RestaurantID string
	UserID       string
	UserName     string
	StaffNumber  string // the user's, "" when not set
	ClockIn      time.Time
	ClockOut     *time.Time
	BreakMinutes int
	CreatedAt    time.Time
	UpdatedAt    time.Time
	// Source is EntryClock (punched) or EntryAdmin (created by an admin).
	Source string
	// OpenFlaggedAt is when the entry was flagged as open too long.
	OpenFlaggedAt *time.Time
	// Corrected: an admin changed the entry (time_entry_corrections).
	Corrected bool
	// Warnings are the ArbZG findings of a write that just closed or
	// changed the entry (not read back from the database).
	Warnings []LabourWarning
}

// ChangedByAdmin: an admin entered, closed or corrected the entry (the
// lists' and files' correction marker; the history tells which).
func (e *TimeEntry) ChangedByAdmin() bool { return e.Corrected || e.Source == EntryAdmin }

// Sources of a time entry.
const (
	EntryClock = "clock"
	EntryAdmin = "admin"
)

// WorkedHundredths is the worked time in hundredths of an hour, rounded
// half up, never negative: clock-out (now for an open entry) minus
// clock-in minus the break. Integer arithmetic on milliseconds, so 7 h
// 30 min is exactly 750.
func (e *TimeEntry) WorkedHundredths(now time.Time) int64 {
	end := now
	if e.ClockOut != nil {
		end = *e.ClockOut
	}
	ms := end.Sub(e.ClockIn).Milliseconds() - int64(e.BreakMinutes)*60_000
	if ms <= 0 {
		return 0
	}
	const msPerHundredth = 36_000 // 3 600 000 ms / 100
	return (ms + msPerHundredth/2) / msPerHundredth
}

// ClockIn opens a time entry for u at the transaction's instant. The
// unique partial index time_entries_one_open (migration 00001) is what
// guarantees one open entry per user, also under concurrent requests; its
// violation becomes already_clocked_in.
func (s *Store) ClockIn(ctx context.Context, r *Restaurant, u *User) (*TimeEntry, error) {
	var e *TimeEntry
	err := s.write(ctx, func(tx *Tx) error {
		e = &TimeEntry{ID: NewID(), RestaurantID: r.ID, UserID: u.ID, UserName: u.Name, ClockIn: tx.Now, CreatedAt: tx.Now, UpdatedAt: tx.Now, Source: EntryClock}
		_, err := tx.ExecContext(ctx, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, break_minutes, created_at, updated_at)
			VALUES (?, ?, ?, ?, 0, ?, ?)`, e.ID, r.ID, u.ID, tx.NowText(), tx.NowText(), tx.NowText())
		if isUnique(err) {
			return Errorf(EAlreadyClockedIn, "you are already clocked in; clock out first")
		}
		if err != nil {
			return err
		}
		return clockEvent(ctx, tx, r, EventClockIn, e)
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// ClockOut closes u's open entry at the transaction's instant with the
// given total break, which may not exceed the entry's length.
func (s *Store) ClockOut(ctx context.Context, r *Restaurant, u *User, breakMinutes int) (*TimeEntry, error) {
	if breakMinutes < 0 {
		return nil, Invalid("break_minutes", FTooSmall, "must be 0 or more", "min", 0)
	}
	var e *TimeEntry
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		e, err = closeOpenEntry(ctx, tx, r, u, breakMinutes)
		if errors.Is(err, sql.ErrNoRows) {
			return Errorf(ENotClockedIn, "you are not clocked in")
		}
		if err != nil {
			return err
		}
		// Checked after the UPDATE, which read the clock-in: a refusal
		// fails the operation, so its savepoint undoes the UPDATE.
		if length := tx.Now.Sub(e.ClockIn); breakLonger(breakMinutes, length) {
			return Invalid("break_minutes", FBreakTooLong, fmt.Sprintf("must not exceed the time since clock-in (%d minutes)", int(length/time.Minute)), "minutes", int(length/time.Minute))
		}
		if err := clockEvent(ctx, tx, r, EventClockOut, e); err != nil {
			return err
		}
		e.Warnings, err = entryWarnings(ctx, tx, r, e, "clock_out")
		return err
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// closeOpenEntry closes u's open entry at the transaction's instant with
// breakMinutes and answers it as a clock-out needs it: its own columns
// (the name is u's; whether an admin corrected it no answer of a
// clock-out shows), so without the user's row and the corrections.
// sql.ErrNoRows: u is not clocked in. A read and an UPDATE by rowid cost
// less than UPDATE … RETURNING, whose ephemeral table SQLite builds for
// every call.
func closeOpenEntry(ctx context.Context, tx *Tx, r *Restaurant, u *User, breakMinutes int) (*TimeEntry, error) {
	now := tx.Now
	e := &TimeEntry{RestaurantID: r.ID, UserID: u.ID, UserName: u.Name, StaffNumber: u.StaffNumber, ClockOut: &now,
		BreakMinutes: breakMinutes, UpdatedAt: now}
	var in, created string
	var flagged sql.NullString
	var rowid int64
	if err := tx.QueryRowContext(ctx, openEntrySQL, u.ID, r.ID).Scan(&rowid, &e.ID, &in, &created, &e.Source, &flagged); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE time_entries SET clock_out = ?, break_minutes = ?, updated_at = ? WHERE rowid = ?`,
		tx.NowText(), breakMinutes, tx.NowText(), rowid); err != nil {
		return nil, err
	}
	e.ClockIn, e.CreatedAt, e.OpenFlaggedAt = ParseTime(in), ParseTime(created), parseNullTime(flagged)
	return e, nil
}

// openEntrySQL finds u's open entry through time_entries_one_open, which
// holds only the open entries (history_plans_test.go).
const openEntrySQL = `SELECT rowid, id, clock_in, created_at, source, open_flagged_at FROM time_entries
		WHERE user_id = ? AND clock_out IS NULL AND restaurant_id = ?`

// OpenEntry is u's open entry; not_found when u is not clocked in.
func (s *Store) OpenEntry(ctx context.Context, restaurantID, userID string) (*TimeEntry, error) {
	e, err := scanTimeEntry(s.rs.QueryRowContext(ctx, `SELECT `+timeEntryColumns+` FROM time_entries t JOIN users u ON u.id = t.user_id
		WHERE t.restaurant_id = ? AND t.user_id = ? AND t.clock_out IS NULL`, restaurantID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("open time entry")
	}
	return e, err
}

// OpenPunch is OpenEntry's own fields only (id, user, clock-in, break):
// what a staff member's status shows, read without the user's row or the
// corrections (the status is polled by every terminal).
func (s *Store) OpenPunch(ctx context.Context, restaurantID, userID string) (*TimeEntry, error) {
	e := &TimeEntry{RestaurantID: restaurantID, UserID: userID, Source: EntryClock}
	var in string
	err := s.rs.QueryRowContext(ctx, `SELECT id, clock_in, break_minutes FROM time_entries
		WHERE user_id = ? AND clock_out IS NULL AND restaurant_id = ?`, userID, restaurantID).Scan(&e.ID, &in, &e.BreakMinutes)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("open time entry")
	}
	if err != nil {
		return nil, err
	}
	e.ClockIn = ParseTime(in)
	return e, nil
}

// TimeEntries lists the entries of restaurant r whose clock-in falls on
// the local date (YYYY-MM-DD) in r's timezone, by clock-in. Entries of
// deleted users stay listed: the law wants the record kept.
func (s *Store) TimeEntries(ctx context.Context, r *Restaurant, date string) ([]*TimeEntry, error) {
	d, err := time.Parse(DateFormat, date)
	if err != nil {
		return nil, Invalid("date", FNotDate, "must be a date YYYY-MM-DD")
	}
	return s.timeEntriesBetween(ctx, r, d, d)
}

// MaxTimeEntryDays bounds a range of time entries (a year and a day).
const MaxTimeEntryDays = 366

// TimeEntriesBetween lists the entries whose clock-in falls on a local
// date from from to to (YYYY-MM-DD, both included), by clock-in.
func (s *Store) TimeEntriesBetween(ctx context.Context, r *Restaurant, from, to string) ([]*TimeEntry, error) {
	var f Fields
	df, err := time.Parse(DateFormat, from)
	if err != nil {
		f.Add("from", FNotDate, "must be a date YYYY-MM-DD")
	}
	dt, err := time.Parse(DateFormat, to)
	if err != nil {
		f.Add("to", FNotDate, "must be a date YYYY-MM-DD")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	switch {
	case dt.Before(df):
		return nil, Invalid("to", FBeforeField, "must not be before from", "field", "from")
	case dt.Sub(df) >= MaxTimeEntryDays*24*time.Hour:
		return nil, Invalid("to", FRangeTooLong, fmt.Sprintf("the range may span at most %d days", MaxTimeEntryDays), "days", MaxTimeEntryDays)
	}
	return s.timeEntriesBetween(ctx, r, df, dt)
}

func (s *Store) timeEntriesBetween(ctx context.Context, r *Restaurant, fromDate, toDate time.Time) ([]*TimeEntry, error) {
	from, _ := LocalDayBounds(fromDate, r.Location())
	_, to := LocalDayBounds(toDate, r.Location())
	return queryAll(ctx, s.rs, scanTimeEntry, `SELECT `+timeEntryColumns+` FROM time_entries t JOIN users u ON u.id = t.user_id
		WHERE t.restaurant_id = ? AND t.clock_in >= ? AND t.clock_in < ? ORDER BY t.clock_in, t.id`,
		r.ID, FormatTime(from), FormatTime(to))
}

// OpenEntries lists the restaurant's open entries (who is clocked in
// now), the longest open first.
func (s *Store) OpenEntries(ctx context.Context, restaurantID string) ([]*TimeEntry, error) {
	return queryAll(ctx, s.rs, scanTimeEntry, `SELECT `+timeEntryColumns+` FROM time_entries t INDEXED BY time_entries_one_open JOIN users u ON u.id = t.user_id
		WHERE t.restaurant_id = ? AND t.clock_out IS NULL ORDER BY t.clock_in, t.id`, restaurantID)
}

const timeEntryColumns = `t.id, t.restaurant_id, t.user_id, u.name, t.clock_in, t.clock_out, t.break_minutes, t.created_at, t.updated_at,
	t.source, t.open_flagged_at, coalesce(u.staff_number, ''), EXISTS (SELECT 1 FROM time_entry_corrections c WHERE c.time_entry_id = t.id AND c.action <> 'create')`

func scanTimeEntry(row scanner) (*TimeEntry, error) {
	var e TimeEntry
	var in, created, updated string
	var out, flagged sql.NullString
	if err := row.Scan(&e.ID, &e.RestaurantID, &e.UserID, &e.UserName, &in, &out, &e.BreakMinutes, &created, &updated,
		&e.Source, &flagged, &e.StaffNumber, &e.Corrected); err != nil {
		return nil, err
	}
	e.ClockIn, e.ClockOut, e.OpenFlaggedAt = ParseTime(in), parseNullTime(out), parseNullTime(flagged)
	e.CreatedAt, e.UpdatedAt = ParseTime(created), ParseTime(updated)
	return &e, nil
}
