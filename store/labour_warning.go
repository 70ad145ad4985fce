package store

import (
	"context"
	"time"
)

// Where the ArbZG checks (arbzg.go) meet the database: the periods around
// a changed entry or shift, and the labour_law_warning event raised in the
// transaction of the change.

// arbzgMargin is how far around a period its neighbours are read: enough
// for the rest before and after it and for the rest of its working day.
const arbzgMargin = 48 * time.Hour

// LabourWarningEvent is the data of a labour_law_warning event.
type LabourWarningEvent struct {
	Source      string         `json:"source"` // clock_out, correction or shift
	UserID      string         `json:"user_id"`
	UserName    string         `json:"user_name"`
	TimeEntryID string         `json:"time_entry_id,omitempty"`
	ShiftID     string         `json:"shift_id,omitempty"`
	Warnings    []eventWarning `json:"warnings"`
	Timezone    string         `json:"timezone"`
}

// eventWarning is a warning as the event holds it. Params are the
// numbers of the message by name, so a subscriber can word it in the
// reader's language (docs/TIMECLOCK.md lists them per code).
type eventWarning struct {
	Code    string         `json:"code"`
	Rule    string         `json:"rule"`
	Date    string         `json:"date"`
	Message string         `json:"message"`
	Params  map[string]int `json:"params"`
}

// eventWarnings converts warnings to the event's form.
func eventWarnings(ws []LabourWarning) []eventWarning {
	out := make([]eventWarning, 0, len(ws))
	for _, w := range ws {
		out = append(out, eventWarning{w.Code, w.Rule, w.Date, w.Message, w.Params})
	}
	return out
}

func entryPeriod(e *TimeEntry) WorkPeriod {
	p := WorkPeriod{ID: e.ID, UserID: e.UserID, Start: e.ClockIn, BreakMinutes: e.BreakMinutes}
	if e.ClockOut != nil {
		p.End = *e.ClockOut
	}
	return p
}

// EntryPeriods are closed entries as work periods.
func EntryPeriods(es []*TimeEntry) []WorkPeriod {
	out := make([]WorkPeriod, 0, len(es))
	for _, e := range es {
		if e.ClockOut != nil {
			out = append(out, entryPeriod(e))
		}
	}
	return out
}

// ShiftPeriods are the non-cancelled shifts as work periods.
func ShiftPeriods(shs []*Shift) []WorkPeriod {
	out := make([]WorkPeriod, 0, len(shs))
	for _, sh := range shs {
		if sh.Status != ShiftCancelled {
			out = append(out, WorkPeriod{ID: sh.ID, UserID: sh.UserID, Start: sh.StartsAt, End: sh.EndsAt, BreakMinutes: sh.BreakMinutes})
		}
	}
	return out
}

// entryWarnings checks a closed entry against the user's other entries
// around it (labour_warning_entry.go reads only what the check needs) and
// raises labour_law_warning when it breaks a rule. It never
// refuses anything.
func entryWarnings(ctx context.Context, tx *Tx, r *Restaurant, e *TimeEntry, source string) ([]LabourWarning, error) {
	if e.ClockOut == nil || !e.ClockOut.After(e.ClockIn) { // CheckArbZG skips a period without length
		return nil, nil
	}
	ps, skip, err := entryCheckPeriods(ctx, tx, r, e)
	if err != nil || skip {
		return nil, err
	}
	ws := WarningsFor(CheckArbZG(ps, r.Location(), r.MinRestHours), e.ID)
	if len(ws) == 0 {
		return nil, nil
	}
	_, err = InsertEvent(ctx, tx, r.ID, EventLabourLawWarning, LabourWarningEvent{Source: source, UserID: e.UserID, UserName: e.UserName,
		TimeEntryID: e.ID, Warnings: eventWarnings(ws), Timezone: r.Timezone})
	return ws, err
}

// shiftWarnings checks a planned shift against the user's other
// non-cancelled shifts around it, and raises labour_law_warning when it
// breaks a rule. A plan is never refused for it.
func shiftWarnings(ctx context.Context, tx *Tx, r *Restaurant, sh *Shift) ([]LabourWarning, error) {
	if sh.Status == ShiftCancelled {
		return nil, nil
	}
	// A shift lasts less than 25 hours, so one that ends after lo starts
	// after lo less 25 hours: the lower bound keeps shifts_user_time's
	// range to the window instead of every shift the user ever had.
	lo := sh.StartsAt.Add(-arbzgMargin)
	shs, err := queryAll(ctx, tx, scanShift, `SELECT `+shiftColumns+` FROM shifts s JOIN users u ON u.id = s.user_id
		WHERE s.user_id = ? AND s.status <> 'cancelled' AND s.id <> ? AND s.starts_at > ? AND s.starts_at < ? AND s.ends_at > ?`,
		sh.UserID, sh.ID, FormatTime(lo.Add(-25*time.Hour)), FormatTime(sh.EndsAt.Add(arbzgMargin)), FormatTime(lo))
	if err != nil {
		return nil, err
	}
	ws := WarningsFor(CheckArbZG(ShiftPeriods(append(shs, sh)), r.Location(), r.MinRestHours), sh.ID)
	if len(ws) == 0 {
		return nil, nil
	}
	_, err = InsertEvent(ctx, tx, r.ID, EventLabourLawWarning, LabourWarningEvent{Source: "shift", UserID: sh.UserID, UserName: sh.UserName,
		ShiftID: sh.ID, Warnings: eventWarnings(ws), Timezone: r.Timezone})
	return ws, err
}

const entriesAroundSQL = `SELECT ` + timeEntryColumns + `
	FROM time_entries t INDEXED BY time_entries_restaurant_clock_out JOIN users u ON u.id = t.user_id
	WHERE t.restaurant_id = ? AND t.clock_out IS NOT NULL AND t.clock_in < ? AND t.clock_out > ?`

// EntriesWarnings checks the closed entries es against every entry of
// their users around them (not only those listed) and answers the
// warnings per listed entry id.
func (s *Store) EntriesWarnings(ctx context.Context, r *Restaurant, es []*TimeEntry) (map[string][]LabourWarning, error) {
	out := map[string][]LabourWarning{}
	var from, to time.Time
	for _, e := range es {
		if e.ClockOut == nil {
			continue
		}
		if from.IsZero() || e.ClockIn.Before(from) {
			from = e.ClockIn
		}
		if e.ClockOut.After(to) {
			to = *e.ClockOut
		}
	}
	if from.IsZero() {
		return out, nil
	}
	// An entry has no maximum length, so only its end bounds the read
	// from below: the range on time_entries_restaurant_clock_out
	// (migration 00019) reads the entries that end after the window's
	// start, not every entry since the box started as clock_in < ? did.
	all, err := queryAll(ctx, s.rdb, scanTimeEntry, entriesAroundSQL,
		r.ID, FormatTime(to.Add(arbzgMargin)), FormatTime(from.Add(-arbzgMargin)))
	if err != nil {
		return nil, err
	}
	for _, w := range CheckArbZG(EntryPeriods(all), r.Location(), r.MinRestHours) {
		for _, id := range w.IDs {
			out[id] = append(out[id], w)
		}
	}
	return out, nil
}

// ShiftsWarnings checks the shifts against every non-cancelled shift of
// their users around them and answers the warnings per shift id.
func (s *Store) ShiftsWarnings(ctx context.Context, r *Restaurant, shs []*Shift) (map[string][]LabourWarning, error) {
	return s.shiftsWarnings(ctx, r, shs, false)
}

// PublishedShiftsWarnings is ShiftsWarnings against published shifts
// only: what a staff member sees of the plan (a draft they cannot see
// does not warn them).
func (s *Store) PublishedShiftsWarnings(ctx context.Context, r *Restaurant, shs []*Shift) (map[string][]LabourWarning, error) {
	return s.shiftsWarnings(ctx, r, shs, true)
}

func (s *Store) shiftsWarnings(ctx context.Context, r *Restaurant, shs []*Shift, publishedOnly bool) (map[string][]LabourWarning, error) {
	lo, hi, ok := shiftsWindow(shs)
	if !ok {
		return map[string][]LabourWarning{}, nil
	}
	loDate, hiDate := shiftWindowDates(lo, hi, r.Location())
	published := ""
	if publishedOnly {
		published = ` AND s.published_at IS NOT NULL`
	}
	all, err := queryAll(ctx, s.rs, scanShift, `SELECT `+shiftColumns+` FROM shifts s JOIN users u ON u.id = s.user_id
		WHERE s.restaurant_id = ? AND s.shift_date >= ? AND s.shift_date <= ?
		AND s.status <> 'cancelled' AND s.starts_at < ? AND s.ends_at > ?`+published,
		r.ID, loDate, hiDate, FormatTime(hi), FormatTime(lo))
	if err != nil {
		return nil, err
	}
	return warningsByID(CheckArbZG(ShiftPeriods(all), r.Location(), r.MinRestHours)), nil
}

// shiftsWindow is the span the shifts' neighbours are read from: from
// the earliest start less the margin to the latest end plus it (ok is
// false for no shifts).
func shiftsWindow(shs []*Shift) (lo, hi time.Time, ok bool) {
	var from, to time.Time
	for _, sh := range shs {
		if from.IsZero() || sh.StartsAt.Before(from) {
			from = sh.StartsAt
		}
		if sh.EndsAt.After(to) {
			to = sh.EndsAt
		}
	}
	return from.Add(-arbzgMargin), to.Add(arbzgMargin), !from.IsZero()
}

// shiftWindowDates bound the shift_date of every shift that overlaps
// [lo, hi], only so the planner ranges over shifts_restaurant_date instead
// of reading every shift the restaurant ever had: a shift starts on its
// shift_date (local; the timezone is set when the restaurant is created
// and never changed) and lasts less than 25 hours, so it starts on a
// local date between lo's minus 2 days and hi's plus 1 (a day of slack
// each).
func shiftWindowDates(lo, hi time.Time, loc *time.Location) (from, to string) {
	return lo.In(loc).AddDate(0, 0, -2).Format(DateFormat), hi.In(loc).AddDate(0, 0, 1).Format(DateFormat)
}

// warningsByID files each warning under every period it names.
func warningsByID(ws []LabourWarning) map[string][]LabourWarning {
	out := map[string][]LabourWarning{}
	for _, w := range ws {
		for _, id := range w.IDs {
			out[id] = append(out[id], w)
		}
	}
	return out
}
