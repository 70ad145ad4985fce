package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"
)

// Shift statuses. Any may follow any (a status change).
const (
	ShiftPending   = "pending"
	ShiftConfirmed = "confirmed"
	ShiftCancelled = "cancelled"
)

// Shift limits.
const (
	MaxShiftRoleLen  = 50
	MaxShiftNotesLen = 2000
)

// Shift is a scheduled shift of one user. ShiftDate, StartTime and EndTime
// are the restaurant's wall clock; StartsAt and EndsAt are the instants
// they denote (an EndTime before StartTime is on the next day).
type Shift struct {
	ID           string
	RestaurantID string
	UserID       string
	UserName     string
	ShiftDate    string
	StartTime    string
	EndTime      string
	StartsAt     time.Time
	EndsAt       time.Time
	BreakMinutes int
	Role         string
	Status       string
	Notes        *string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	// PublishedAt is nil while the shift is a draft: only admins see it
	// and no shift_change is raised for it (docs/TIMECLOCK.md).
	PublishedAt *time.Time
	// UserActive is false when the shift's user is disabled or deleted.
	UserActive bool
	// Warnings are the ArbZG findings of the write that just made or
	// changed the shift, against the user's other shifts.
	Warnings []LabourWarning
}

// Unstaffed reports whether the shift still counts but nobody will work
// it: it is not cancelled and its user is disabled or deleted.
func (sh *Shift) Unstaffed() bool { return sh.Status != ShiftCancelled && !sh.UserActive }

// PlannedHundredths is the planned work in hundredths of an hour: real
// elapsed time (a DST night counts its 7 or 9 hours) less the break.
func (sh *Shift) PlannedHundredths() int64 {
	m := int64(sh.EndsAt.Sub(sh.StartsAt)/time.Minute) - int64(sh.BreakMinutes)
	if m < 0 {
		return 0
	}
	return (m*100 + 30) / 60
}

// ShiftUpdate is a partial update of a shift (PUT).
type ShiftUpdate struct {
	UserID       Field[string]
	ShiftDate    Field[string]
	StartTime    Field[string]
	EndTime      Field[string]
	BreakMinutes Field[int]
	Role         Field[string]
	Notes        Field[string]
}

// resolve validates the fields and derives StartsAt and EndsAt in loc.
func (sh *Shift) resolve(f *Fields, loc *time.Location) {
	date, dateErr := time.Parse(DateFormat, sh.ShiftDate)
	if dateErr != nil {
		f.Add("shift_date", FNotDate, "must be a date YYYY-MM-DD")
	}
	start, okStart := parseClock(sh.StartTime)
	if !okStart {
		f.Add("start_time", FNotTime, "must be a time HH:MM (00:00-23:59)")
	}
	end, okEnd := parseClock(sh.EndTime)
	if !okEnd {
		f.Add("end_time", FNotTime, "must be a time HH:MM (00:00-23:59)")
	}
	if sh.BreakMinutes < 0 {
		f.Add("break_minutes", FTooSmall, "must be 0 or more", "min", 0)
	}
	if utf8.RuneCountInString(sh.Role) > MaxShiftRoleLen {
		f.Add("role", FTooLong, fmt.Sprintf("must be at most %d characters", MaxShiftRoleLen), "max", MaxShiftRoleLen)
	}
	checkName(f, "role", sh.Role)
	if sh.Notes != nil && utf8.RuneCountInString(*sh.Notes) > MaxShiftNotesLen {
		f.Add("notes", FTooLong, fmt.Sprintf("must be at most %d characters", MaxShiftNotesLen), "max", MaxShiftNotesLen)
	}
	if dateErr != nil || !okStart || !okEnd {
		return
	}
	if start == end {
		f.Add("end_time", FEqualsField, "must differ from start_time", "field", "start_time")
		return
	}
	endDate := date
	if end < start { // night shift: ends on the next day
		endDate = date.AddDate(0, 0, 1)
	}
	sh.StartsAt, sh.EndsAt = LocalInstant(date, start, loc), LocalInstant(endDate, end, loc)
	length := sh.EndsAt.Sub(sh.StartsAt)
	if length <= 0 { // e.g. 02:30-03:00 on a spring-forward day
		f.Add("end_time", FDSTGap, "the shift has no length: the clocks go forward in this interval")
		return
	}
	// A shift's length is whole minutes: its break must be shorter.
	if minutes := int(length / time.Minute); sh.BreakMinutes >= 0 && breakLonger(sh.BreakMinutes, length-time.Minute) {
		f.Add("break_minutes", FBreakTooLong, fmt.Sprintf("must be less than the shift's length (%d minutes)", minutes), "minutes", minutes)
	}
}

// CreateShift schedules a new pending shift in restaurant r; by is the
// admin who does it (named in the event). The shift is a draft unless
// publish is set; only a published one raises shift_change.
func (s *Store) CreateShift(ctx context.Context, r *Restaurant, by *User, sh *Shift, publish bool) error {
	var f Fields
	sh.resolve(&f, r.Location())
	if !ValidID(sh.UserID) {
		f.Add("user_id", FNotActiveUser, "must be an active user of this restaurant")
	}
	if err := f.Err(); err != nil {
		return err
	}
	return s.write(ctx, func(tx *Tx) error {
		name, err := activeUserName(ctx, tx, r.ID, sh.UserID)
		if err != nil {
			return err
		}
		if err := checkOverlap(ctx, tx, sh); err != nil {
			return err
		}
		sh.UserName, sh.UserActive = name, true
		if publish {
			now := tx.Now
			sh.PublishedAt = &now
		}
		if err := insertShift(ctx, tx, r, sh); err != nil {
			return err
		}
		if err := shiftEvent(ctx, tx, r, by, "created", sh, nil, nil); err != nil {
			return err
		}
		sh.Warnings, err = shiftWarnings(ctx, tx, r, sh)
		return err
	})
}

// insertShift stores a new pending shift whose fields are resolved and
// checked (user, overlap); it sets the id and the times.
func insertShift(ctx context.Context, tx *Tx, r *Restaurant, sh *Shift) error {
	sh.ID, sh.RestaurantID, sh.Status = NewID(), r.ID, ShiftPending
	sh.CreatedAt, sh.UpdatedAt = tx.Now, tx.Now
	var published *string
	if sh.PublishedAt != nil {
		p := FormatTime(*sh.PublishedAt)
		published = &p
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO shifts (id, restaurant_id, user_id, shift_date, start_time, end_time,
		starts_at, ends_at, break_minutes, role, status, notes, created_at, updated_at, published_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		sh.ID, r.ID, sh.UserID, sh.ShiftDate, sh.StartTime, sh.EndTime, FormatTime(sh.StartsAt), FormatTime(sh.EndsAt),
		sh.BreakMinutes, sh.Role, sh.Status, sh.Notes, FormatTime(tx.Now), FormatTime(tx.Now), published)
	return err
}

// UpdateShift applies a partial update. An update that changes nothing
// is a no-op: no write, no event.
func (s *Store) UpdateShift(ctx context.Context, r *Restaurant, by *User, id string, upd ShiftUpdate) (*Shift, error) {
	var f Fields
	NotNull(&f, "user_id", upd.UserID)
	NotNull(&f, "shift_date", upd.ShiftDate)
	NotNull(&f, "start_time", upd.StartTime)
	NotNull(&f, "end_time", upd.EndTime)
	NotNull(&f, "break_minutes", upd.BreakMinutes)
	NotNull(&f, "role", upd.Role)
	if upd.UserID.Set && !upd.UserID.Null && !ValidID(upd.UserID.Value) {
		f.Add("user_id", FNotActiveUser, "must be an active user of this restaurant")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var sh *Shift
	err := s.write(ctx, func(tx *Tx) error {
		old, err := shiftByID(ctx, tx, r.ID, id)
		if err != nil {
			return err
		}
		n := *old
		upd.UserID.Apply(&n.UserID)
		upd.ShiftDate.Apply(&n.ShiftDate)
		upd.StartTime.Apply(&n.StartTime)
		upd.EndTime.Apply(&n.EndTime)
		upd.BreakMinutes.Apply(&n.BreakMinutes)
		upd.Role.Apply(&n.Role)
		upd.Notes.ApplyNullable(&n.Notes)
		var f Fields
		n.resolve(&f, r.Location())
		if err := f.Err(); err != nil {
			return err
		}
		changed := shiftChanges(old, &n)
		if len(changed) == 0 {
			sh = old
			return nil
		}
		if n.UserID != old.UserID {
			if n.UserName, err = activeUserName(ctx, tx, r.ID, n.UserID); err != nil {
				return err
			}
			n.UserActive = true
		}
		// A cancelled shift blocks nothing, so it is not checked until it
		// is set back to pending or confirmed (SetShiftStatus).
		if n.Status != ShiftCancelled {
			if err := checkOverlap(ctx, tx, &n); err != nil {
				return err
			}
		}
		n.UpdatedAt = tx.Now
		_, err = tx.ExecContext(ctx, `UPDATE shifts SET user_id = ?, shift_date = ?, start_time = ?, end_time = ?,
			starts_at = ?, ends_at = ?, break_minutes = ?, role = ?, notes = ?, updated_at = ? WHERE id = ?`,
			n.UserID, n.ShiftDate, n.StartTime, n.EndTime, FormatTime(n.StartsAt), FormatTime(n.EndsAt),
			n.BreakMinutes, n.Role, n.Notes, FormatTime(tx.Now), id)
		if err != nil {
			return err
		}
		sh = &n
		if err := shiftEvent(ctx, tx, r, by, "updated", &n, old, changed); err != nil {
			return err
		}
		n.Warnings, err = shiftWarnings(ctx, tx, r, &n)
		return err
	})
	return sh, err
}

// SetShiftStatus moves a shift to status. Setting the current status is a
// no-op (no write, no event). Reviving a cancelled shift checks overlap,
// because only non-cancelled shifts may not overlap.
func (s *Store) SetShiftStatus(ctx context.Context, r *Restaurant, by *User, id, status string) (*Shift, error) {
	switch status {
	case ShiftPending, ShiftConfirmed, ShiftCancelled:
	default:
		return nil, Invalid("status", FOneOf, "must be pending, confirmed or cancelled", "values", []string{"pending", "confirmed", "cancelled"})
	}
	var sh *Shift
	err := s.write(ctx, func(tx *Tx) error {
		old, err := shiftByID(ctx, tx, r.ID, id)
		if err != nil {
			return err
		}
		if old.Status == status {
			sh = old
			return nil
		}
		n := *old
		n.Status, n.UpdatedAt = status, tx.Now
		if old.Status == ShiftCancelled {
			if err := checkOverlap(ctx, tx, &n); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE shifts SET status = ?, updated_at = ? WHERE id = ?`,
			status, FormatTime(tx.Now), id); err != nil {
			return err
		}
		sh = &n
		if err := shiftEvent(ctx, tx, r, by, "status_changed", &n, old, []string{"status"}); err != nil {
			return err
		}
		if old.Status == ShiftCancelled { // revived: it counts again
			n.Warnings, err = shiftWarnings(ctx, tx, r, &n)
		}
		return err
	})
	return sh, err
}

// DeleteShift removes a shift for good; the event (for a published
// shift) keeps what it was.
func (s *Store) DeleteShift(ctx context.Context, r *Restaurant, by *User, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		old, err := shiftByID(ctx, tx, r.ID, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM shifts WHERE id = ?`, id); err != nil {
			return err
		}
		return shiftEvent(ctx, tx, r, by, "deleted", old, nil, nil)
	})
}

// Shifts lists a restaurant's shifts with shift_date in [from, to] (either
// may be ""), by date, start time and user name. Shifts of deleted users
// stay listed: they are part of the record.
func (s *Store) Shifts(ctx context.Context, restaurantID, from, to string) ([]*Shift, error) {
	return s.shiftsWhere(ctx, restaurantID, from, to, "")
}

// shiftOwnColumns are shiftColumns without the user's: a list takes
// each user's name and state from the auth view (nameShifts) instead of
// joining users for every shift, a tenth of the week's list
// (docs/PERFORMANCE.md, "Year ten, fourth pass").
const shiftOwnColumns = `s.id, s.restaurant_id, s.user_id, s.shift_date, s.start_time, s.end_time, s.starts_at, s.ends_at,
	s.break_minutes, s.role, s.status, s.notes, s.created_at, s.updated_at, s.published_at`

// UnstaffedShifts lists the shifts of Shifts that are unstaffed: not
// cancelled, while their user is disabled or deleted (Shift.Unstaffed).
func (s *Store) UnstaffedShifts(ctx context.Context, restaurantID, from, to string) ([]*Shift, error) {
	return s.shiftsWhere(ctx, restaurantID, from, to, ` AND s.status <> 'cancelled' AND (u.is_active = 0 OR u.deleted_at IS NOT NULL)`)
}

func (s *Store) shiftsWhere(ctx context.Context, restaurantID, from, to, extra string) ([]*Shift, error) {
	// Bounds are added only when given: "(? = '' OR ...)" would hide the
	// range from the planner and scan every shift of the restaurant.
	where, args := `s.restaurant_id = ?`+extra, []any{restaurantID}
	if from != "" {
		where, args = where+` AND s.shift_date >= ?`, append(args, from)
	}
	if to != "" {
		where, args = where+` AND s.shift_date <= ?`, append(args, to)
	}
	// Ordered by date and start as shifts_restaurant_date is; the user's
	// name and the id are sorted here: in SQL they took a sorter that
	// copied every row (the week's list is read often).
	var shs []*Shift
	var err error
	if extra == "" {
		if shs, err = queryAll(ctx, s.rs, scanShiftOwn, `SELECT `+shiftOwnColumns+` FROM shifts s
			WHERE `+where+` ORDER BY s.shift_date, s.start_time`, args...); err == nil {
			err = s.nameShifts(ctx, shs)
		}
	} else {
		shs, err = queryAll(ctx, s.rs, scanShift, `SELECT `+shiftColumns+` FROM shifts s JOIN users u ON u.id = s.user_id
			WHERE `+where+` ORDER BY s.shift_date, s.start_time`, args...)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(shs, func(a, b *Shift) int {
		return cmp.Or(cmp.Compare(a.ShiftDate, b.ShiftDate), cmp.Compare(a.StartTime, b.StartTime),
			cmp.Compare(a.UserName, b.UserName), cmp.Compare(a.ID, b.ID))
	})
	return shs, nil
}

// Shift finds one shift of a restaurant.
func (s *Store) Shift(ctx context.Context, restaurantID, id string) (*Shift, error) {
	sh, err := scanShift(s.rs.QueryRowContext(ctx, `SELECT `+shiftColumns+` FROM shifts s JOIN users u ON u.id = s.user_id
		WHERE s.restaurant_id = ? AND s.id = ?`, restaurantID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("shift")
	}
	return sh, err
}

const shiftColumns = `s.id, s.restaurant_id, s.user_id, u.name, s.shift_date, s.start_time, s.end_time, s.starts_at, s.ends_at,
	s.break_minutes, s.role, s.status, s.notes, s.created_at, s.updated_at, s.published_at,
	(u.is_active = 1 AND u.deleted_at IS NULL)`

func scanShift(row scanner) (*Shift, error) {
	var sh Shift
	var r shiftText
	if err := row.Scan(&sh.ID, &sh.RestaurantID, &sh.UserID, &sh.UserName, &sh.ShiftDate, &sh.StartTime, &sh.EndTime,
		&r.startsAt, &r.endsAt, &sh.BreakMinutes, &sh.Role, &sh.Status, &r.notes, &r.created, &r.updated, &r.published, &sh.UserActive); err != nil {
		return nil, err
	}
	return r.into(&sh), nil
}

// scanShiftOwn scans shiftOwnColumns; nameShifts adds the user's.
func scanShiftOwn(row scanner) (*Shift, error) {
	var sh Shift
	var r shiftText
	if err := row.Scan(&sh.ID, &sh.RestaurantID, &sh.UserID, &sh.ShiftDate, &sh.StartTime, &sh.EndTime,
		&r.startsAt, &r.endsAt, &sh.BreakMinutes, &sh.Role, &sh.Status, &r.notes, &r.created, &r.updated, &r.published); err != nil {
		return nil, err
	}
	return r.into(&sh), nil
}

// shiftText is a shift's columns that are parsed after the scan.
type shiftText struct {
	startsAt, endsAt, created, updated string
	notes, published                   sql.NullString
}

func (r *shiftText) into(sh *Shift) *Shift {
	sh.StartsAt, sh.EndsAt = ParseTime(r.startsAt), ParseTime(r.endsAt)
	sh.CreatedAt, sh.UpdatedAt = ParseTime(r.created), ParseTime(r.updated)
	sh.Notes = nullString(r.notes)
	if r.published.Valid {
		p := ParseTime(r.published.String)
		sh.PublishedAt = &p
	}
	return sh
}

func shiftByID(ctx context.Context, tx *Tx, restaurantID, id string) (*Shift, error) {
	sh, err := scanShift(tx.QueryRowContext(ctx, `SELECT `+shiftColumns+` FROM shifts s JOIN users u ON u.id = s.user_id
		WHERE s.restaurant_id = ? AND s.id = ?`, restaurantID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("shift")
	}
	return sh, err
}

// activeUserName checks that userID is an active user of the restaurant.
func activeUserName(ctx context.Context, tx *Tx, restaurantID, userID string) (string, error) {
	var name string
	err := tx.QueryRowContext(ctx, `SELECT name FROM users WHERE restaurant_id = ? AND id = ?
		AND is_active = 1 AND deleted_at IS NULL`, restaurantID, userID).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", Invalid("user_id", FNotActiveUser, "must be an active user of this restaurant")
	}
	return name, err
}

// checkOverlap fails with shift_overlap when another non-cancelled shift
// of the same user shares any instant with sh (touching ends are fine).
//
// Check-then-write is safe under concurrency because it runs inside the
// store's one write transaction: the writer pool has a single connection
// and every transaction begins IMMEDIATE, so no other write can run
// between this SELECT and the caller's INSERT or UPDATE.
// TestCreateShiftConcurrentOverlap (and, over HTTP, server.TestShiftCreateConcurrentOverlap) hammers this.
func checkOverlap(ctx context.Context, tx *Tx, sh *Shift) error {
	var id, date, start, end string
	var c Conflict
	err := tx.QueryRowContext(ctx, `SELECT s.id, s.shift_date, s.start_time, s.end_time, s.starts_at, s.ends_at, u.name
		FROM shifts s JOIN users u ON u.id = s.user_id
		WHERE s.user_id = ? AND s.status <> 'cancelled' AND s.id <> ? AND s.starts_at < ? AND s.ends_at > ?
		ORDER BY s.starts_at LIMIT 1`,
		sh.UserID, sh.ID, FormatTime(sh.EndsAt), FormatTime(sh.StartsAt)).Scan(&id, &date, &start, &end, &c.StartsAt, &c.EndsAt, &c.UserName)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	e := Errorf(EShiftOverlap, "the shift overlaps shift %s of the same user on %s %s-%s", id, date, start, end)
	c.ID = id
	e.Conflict = &c
	return e
}

// shiftChanges names the API fields that differ between a and b.
func shiftChanges(a, b *Shift) []string {
	var out []string
	add := func(diff bool, name string) {
		if diff {
			out = append(out, name)
		}
	}
	add(a.UserID != b.UserID, "user_id")
	add(a.ShiftDate != b.ShiftDate, "shift_date")
	add(a.StartTime != b.StartTime, "start_time")
	add(a.EndTime != b.EndTime, "end_time")
	add(a.BreakMinutes != b.BreakMinutes, "break_minutes")
	add(a.Role != b.Role, "role")
	add((a.Notes == nil) != (b.Notes == nil) || (a.Notes != nil && *a.Notes != *b.Notes), "notes")
	return out
}

// UserShifts lists one user's published shifts with shift_date in
// [from, to] (both required), every status, by date and start time: a
// staff member's own plan. Drafts are the admins'
// until their week is published.
func (s *Store) UserShifts(ctx context.Context, restaurantID, userID, from, to string) ([]*Shift, error) {
	return queryAll(ctx, s.rdb, scanShift, `SELECT `+shiftColumns+` FROM shifts s JOIN users u ON u.id = s.user_id
		WHERE s.restaurant_id = ? AND s.user_id = ? AND s.shift_date >= ? AND s.shift_date <= ?
		AND s.published_at IS NOT NULL
		ORDER BY s.shift_date, s.start_time, s.id`, restaurantID, userID, from, to)
}
