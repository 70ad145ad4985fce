package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Corrections of time entries by an admin (GoBD: a change stays visible).
// Every change writes one row of time_entry_corrections in the same
// transaction: who, when, why, the values before and after. That table is
// append-only in the database itself (migration 00008's triggers), and
// nothing here updates or deletes it. The punch itself stays readable as the
// "before" of the first correction.

// Correction actions.
const (
	CorrectionCreate  = "create"  // a missing entry, entered by an admin
	CorrectionClose   = "close"   // a forgotten clock-out, closed by an admin
	CorrectionCorrect = "correct" // clock-in, clock-out or break changed
)

// Errors of corrections.
const (
	ETimeEntryClosed  = "time_entry_closed"  // close: the entry was closed meanwhile
	ETimeEntryOpen    = "time_entry_open"    // correct: an open entry is closed (CloseTimeEntry), not corrected
	ETimeEntryOverlap = "time_entry_overlap" // two entries of a user may not share a minute
)

// MaxReasonLen bounds a correction's reason.
const MaxReasonLen = 500

// EntryValues are a time entry's three correctable values.
type EntryValues struct {
	ClockIn      time.Time
	ClockOut     *time.Time
	BreakMinutes int
}

// Correction is one row of a time entry's history.
type Correction struct {
	ID          string
	TimeEntryID string
	Action      string
	ByUserID    string
	ByName      string
	At          time.Time
	Reason      string
	Before      *EntryValues // nil for create
	After       EntryValues
}

// EntryUpdate is a correction of a closed entry; members not Set stay.
type EntryUpdate struct {
	ClockIn      Field[time.Time]
	ClockOut     Field[time.Time]
	BreakMinutes Field[int]
}

func checkReason(f *Fields, reason string) string {
	reason = strings.TrimSpace(reason)
	switch {
	case reason == "":
		f.Add("reason", FRequired, "is required: say why the entry is changed")
	case utf8.RuneCountInString(reason) > MaxReasonLen:
		f.Add("reason", FTooLong, fmt.Sprintf("must be at most %d characters", MaxReasonLen), "max", MaxReasonLen)
	}
	checkName(f, "reason", reason)
	return reason
}

// checkSpan validates an entry's values against now.
func checkSpan(f *Fields, v EntryValues, now time.Time) {
	if v.ClockIn.After(now) {
		f.Add("clock_in", FInFuture, "must not be in the future")
	}
	if v.BreakMinutes < 0 {
		f.Add("break_minutes", FTooSmall, "must be 0 or more", "min", 0)
	}
	if v.ClockOut == nil {
		return
	}
	switch {
	case !v.ClockOut.After(v.ClockIn):
		f.Add("clock_out", FNotAfterField, "must be after clock_in", "field", "clock_in")
	case v.ClockOut.After(now):
		f.Add("clock_out", FInFuture, "must not be in the future")
	case breakLonger(v.BreakMinutes, v.ClockOut.Sub(v.ClockIn)):
		f.Add("break_minutes", FBreakTooLong, fmt.Sprintf("must not exceed the entry's length (%d minutes)", int(v.ClockOut.Sub(v.ClockIn)/time.Minute)), "minutes", int(v.ClockOut.Sub(v.ClockIn)/time.Minute))
	}
}

// checkEntryOverlap fails with time_entry_overlap when another entry of
// the user shares an instant with v (an open one lasts until now). Safe
// under concurrency for the reason checkOverlap is: the one writer.
func checkEntryOverlap(ctx context.Context, tx *Tx, userID, id string, v EntryValues) error {
	end := tx.Now
	if v.ClockOut != nil {
		end = *v.ClockOut
	}
	var other, in string
	var out sql.NullString
	var c Conflict
	err := tx.QueryRowContext(ctx, `SELECT e.id, e.clock_in, e.clock_out, u.name
		FROM time_entries e JOIN users u ON u.id = e.user_id WHERE e.user_id = ? AND e.id <> ?
		AND e.clock_in < ? AND coalesce(e.clock_out, ?) > ? ORDER BY e.clock_in LIMIT 1`,
		userID, id, FormatTime(end), FormatTime(tx.Now), FormatTime(v.ClockIn)).Scan(&other, &in, &out, &c.UserName)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	e := Errorf(ETimeEntryOverlap, "the entry overlaps time entry %s of the same user (clock-in %s)", other, in)
	c.ID, c.StartsAt, c.EndsAt = other, in, out.String
	e.Conflict = &c
	return e
}

// CreateTimeEntry enters a missing, closed entry for a user of r.
func (s *Store) CreateTimeEntry(ctx context.Context, r *Restaurant, by *User, userID string, v EntryValues, reason string) (*TimeEntry, error) {
	var f Fields
	if !ValidID(userID) {
		f.Add("user_id", FUnknownUser, "must be a user of this restaurant")
	}
	reason = checkReason(&f, reason)
	checkSpan(&f, v, s.now())
	if err := f.Err(); err != nil {
		return nil, err
	}
	var e *TimeEntry
	err := s.write(ctx, func(tx *Tx) error {
		var name string
		err := tx.QueryRowContext(ctx, `SELECT name FROM users WHERE restaurant_id = ? AND id = ? AND deleted_at IS NULL`, r.ID, userID).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return Invalid("user_id", FUnknownUser, "must be a user of this restaurant")
		}
		if err != nil {
			return err
		}
		e = &TimeEntry{ID: NewID(), RestaurantID: r.ID, UserID: userID, UserName: name, ClockIn: v.ClockIn, ClockOut: v.ClockOut,
			BreakMinutes: v.BreakMinutes, CreatedAt: tx.Now, UpdatedAt: tx.Now, Source: EntryAdmin}
		if err := checkEntryOverlap(ctx, tx, userID, e.ID, v); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, break_minutes, source, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, 'admin', ?, ?)`, e.ID, r.ID, userID, FormatTime(v.ClockIn), nullTime(v.ClockOut), v.BreakMinutes,
			FormatTime(tx.Now), FormatTime(tx.Now)); err != nil {
			return err
		}
		if err := insertCorrection(ctx, tx, r.ID, e.ID, CorrectionCreate, by, reason, nil, v); err != nil {
			return err
		}
		e.Warnings, err = entryWarnings(ctx, tx, r, e, "correction")
		return err
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// CloseTimeEntry closes a forgotten entry at clockOut. Only an open entry
// can be closed: when the staff member clocked out first, this is
// time_entry_closed (409), and when this wins, their clock-out is
// not_clocked_in; the one writer decides, so nothing counts twice.
func (s *Store) CloseTimeEntry(ctx context.Context, r *Restaurant, by *User, id string, clockOut time.Time, breakMinutes int, reason string) (*TimeEntry, error) {
	var f Fields
	reason = checkReason(&f, reason)
	if err := f.Err(); err != nil {
		return nil, err
	}
	var e *TimeEntry
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		if e, err = timeEntryByID(ctx, tx, r.ID, id); err != nil {
			return err
		}
		if e.ClockOut != nil {
			return Errorf(ETimeEntryClosed, "the entry was closed at %s; correct it instead", FormatTime(*e.ClockOut))
		}
		before := EntryValues{e.ClockIn, nil, e.BreakMinutes}
		after := EntryValues{e.ClockIn, &clockOut, breakMinutes}
		var f Fields
		checkSpan(&f, after, tx.Now)
		if err := f.Err(); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE time_entries SET clock_out = ?, break_minutes = ?, updated_at = ? WHERE id = ? AND clock_out IS NULL`,
			FormatTime(clockOut), breakMinutes, FormatTime(tx.Now), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 { // cannot happen on the one writer; kept as the guard it states
			return Errorf(ETimeEntryClosed, "the entry was closed meanwhile")
		}
		e.ClockOut, e.BreakMinutes, e.UpdatedAt, e.Corrected = &clockOut, breakMinutes, tx.Now, true
		if err := insertCorrection(ctx, tx, r.ID, id, CorrectionClose, by, reason, &before, after); err != nil {
			return err
		}
		e.Warnings, err = entryWarnings(ctx, tx, r, e, "correction")
		return err
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// CorrectTimeEntry changes a closed entry's clock-in, clock-out or break.
// An open entry's clock-in and break may be corrected; its clock-out is
// set by CloseTimeEntry (time_entry_open). A change that changes nothing
// writes nothing.
func (s *Store) CorrectTimeEntry(ctx context.Context, r *Restaurant, by *User, id string, upd EntryUpdate, reason string) (*TimeEntry, error) {
	var f Fields
	NotNull(&f, "clock_in", upd.ClockIn)
	NotNull(&f, "clock_out", upd.ClockOut)
	NotNull(&f, "break_minutes", upd.BreakMinutes)
	reason = checkReason(&f, reason)
	if err := f.Err(); err != nil {
		return nil, err
	}
	var e *TimeEntry
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		if e, err = timeEntryByID(ctx, tx, r.ID, id); err != nil {
			return err
		}
		if e.ClockOut == nil && upd.ClockOut.Set {
			return Errorf(ETimeEntryOpen, "the entry is open: it is closed with a reason, not corrected")
		}
		before := EntryValues{e.ClockIn, e.ClockOut, e.BreakMinutes}
		after := before
		upd.ClockIn.Apply(&after.ClockIn)
		if upd.ClockOut.Set {
			out := upd.ClockOut.Value
			after.ClockOut = &out
		}
		upd.BreakMinutes.Apply(&after.BreakMinutes)
		var f Fields
		checkSpan(&f, after, tx.Now)
		if err := f.Err(); err != nil {
			return err
		}
		if after.ClockIn.Equal(before.ClockIn) && after.BreakMinutes == before.BreakMinutes &&
			(after.ClockOut == nil || before.ClockOut.Equal(*after.ClockOut)) {
			return nil // nothing changes: no history row
		}
		if err := checkEntryOverlap(ctx, tx, e.UserID, id, after); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE time_entries SET clock_in = ?, clock_out = ?, break_minutes = ?, updated_at = ? WHERE id = ?`,
			FormatTime(after.ClockIn), nullTime(after.ClockOut), after.BreakMinutes, FormatTime(tx.Now), id); err != nil {
			return err
		}
		e.ClockIn, e.ClockOut, e.BreakMinutes, e.UpdatedAt, e.Corrected = after.ClockIn, after.ClockOut, after.BreakMinutes, tx.Now, true
		if err := insertCorrection(ctx, tx, r.ID, id, CorrectionCorrect, by, reason, &before, after); err != nil {
			return err
		}
		e.Warnings, err = entryWarnings(ctx, tx, r, e, "correction")
		return err
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

func insertCorrection(ctx context.Context, tx *Tx, restaurantID, entryID, action string, by *User, reason string, before *EntryValues, after EntryValues) error {
	var bIn, bOut, bBreak any
	if before != nil {
		bIn, bOut, bBreak = FormatTime(before.ClockIn), nullTime(before.ClockOut), before.BreakMinutes
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO time_entry_corrections (id, restaurant_id, time_entry_id, action, by_user_id, at, reason,
		before_clock_in, before_clock_out, before_break_minutes, after_clock_in, after_clock_out, after_break_minutes)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		NewID(), restaurantID, entryID, action, by.ID, FormatTime(tx.Now), reason,
		bIn, bOut, bBreak, FormatTime(after.ClockIn), nullTime(after.ClockOut), after.BreakMinutes)
	return err
}

// TimeEntry finds one entry of a restaurant.
func (s *Store) TimeEntry(ctx context.Context, restaurantID, id string) (*TimeEntry, error) {
	e, err := scanTimeEntry(s.rdb.QueryRowContext(ctx, `SELECT `+timeEntryColumns+` FROM time_entries t JOIN users u ON u.id = t.user_id
		WHERE t.restaurant_id = ? AND t.id = ?`, restaurantID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("time entry")
	}
	return e, err
}

func timeEntryByID(ctx context.Context, tx *Tx, restaurantID, id string) (*TimeEntry, error) {
	e, err := scanTimeEntry(tx.QueryRowContext(ctx, `SELECT `+timeEntryColumns+` FROM time_entries t JOIN users u ON u.id = t.user_id
		WHERE t.restaurant_id = ? AND t.id = ?`, restaurantID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("time entry")
	}
	return e, err
}

// Corrections is an entry's history, oldest first.
func (s *Store) Corrections(ctx context.Context, restaurantID, entryID string) ([]*Correction, error) {
	return queryAll(ctx, s.rdb, scanCorrection, `SELECT c.id, c.time_entry_id, c.action, c.by_user_id, u.name, c.at, c.reason,
		c.before_clock_in, c.before_clock_out, c.before_break_minutes, c.after_clock_in, c.after_clock_out, c.after_break_minutes
		FROM time_entry_corrections c JOIN users u ON u.id = c.by_user_id
		WHERE c.restaurant_id = ? AND c.time_entry_id = ? ORDER BY c.at, c.id`, restaurantID, entryID)
}

func scanCorrection(row scanner) (*Correction, error) {
	var c Correction
	var at, afterIn string
	var bIn, bOut, aOut sql.NullString
	var bBreak sql.NullInt64
	if err := row.Scan(&c.ID, &c.TimeEntryID, &c.Action, &c.ByUserID, &c.ByName, &at, &c.Reason,
		&bIn, &bOut, &bBreak, &afterIn, &aOut, &c.After.BreakMinutes); err != nil {
		return nil, err
	}
	c.At, c.After.ClockIn, c.After.ClockOut = ParseTime(at), ParseTime(afterIn), parseNullTime(aOut)
	if bIn.Valid {
		c.Before = &EntryValues{ClockIn: ParseTime(bIn.String), ClockOut: parseNullTime(bOut), BreakMinutes: int(bBreak.Int64)}
	}
	return &c, nil
}

// OriginalPunch is what the time clock recorded before any correction:
// the first correction's "before" (completed by the clock-out the staff
// member punched, if any), or the entry itself when never corrected; nil
// for an entry an admin entered.
func OriginalPunch(e *TimeEntry, history []*Correction) *EntryValues {
	if e.Source == EntryAdmin {
		return nil
	}
	for _, c := range history {
		if c.Before != nil {
			v := *c.Before
			return &v
		}
	}
	return &EntryValues{e.ClockIn, e.ClockOut, e.BreakMinutes}
}
