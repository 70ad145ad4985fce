package store

import (
	"context"
	"database/sql"
	"time"
)

// What the ArbZG check of a closed entry reads (entryWarnings). Every
// read is a seek or a short range on time_entries_user_clock_in
// (migration 00011), so the check costs the same in year ten as on day
// one. It relies on what the store guarantees: a user's entries never
// overlap (one open entry; an admin's entry is refused when it overlaps,
// and none lies in the future).

// entryProbe is the one read most checks need: the user's first entry of
// the entry's working day, the last one before that day and whether any
// closed entry starts at or after the entry's clock-in.
type entryProbe struct {
	first, prev *WorkPeriod
	later       bool
}

// probeEntry reads the probe of e, whose working day starts at dayStart.
// Only periods with a length count, as in CheckArbZG.
func probeEntry(ctx context.Context, tx *Tx, e *TimeEntry, dayStart time.Time) (entryProbe, error) {
	var p entryProbe
	const cols = `id, clock_in, clock_out, break_minutes FROM time_entries`
	rows, err := tx.QueryContext(ctx, `SELECT 'later', * FROM (SELECT `+cols+` WHERE user_id = ? AND clock_in >= ? AND id <> ?
			AND clock_out IS NOT NULL LIMIT 1)
		UNION ALL SELECT 'first', * FROM (SELECT `+cols+` WHERE user_id = ? AND clock_in >= ? AND clock_out > clock_in ORDER BY clock_in LIMIT 1)
		UNION ALL SELECT 'prev', * FROM (SELECT `+cols+` WHERE user_id = ? AND clock_in < ? AND clock_out > clock_in ORDER BY clock_in DESC LIMIT 1)`,
		e.UserID, FormatTime(e.ClockIn), e.ID, e.UserID, FormatTime(dayStart), e.UserID, FormatTime(dayStart))
	if err != nil {
		return p, err
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		wp, err := scanEntryPeriod(rows, &kind)
		if err != nil {
			return p, err
		}
		wp.UserID = e.UserID
		switch kind {
		case "later":
			p.later = true
		case "first":
			p.first = &wp
		case "prev":
			p.prev = &wp
		}
	}
	return p, rows.Err()
}

// scanEntryPeriod scans id, clock_in, clock_out, break_minutes (after
// the columns in pre, if any).
func scanEntryPeriod(row scanner, pre ...any) (WorkPeriod, error) {
	var p WorkPeriod
	var in string
	var out sql.NullString
	if err := row.Scan(append(pre, &p.ID, &in, &out, &p.BreakMinutes)...); err != nil {
		return p, err
	}
	p.Start = ParseTime(in)
	if out.Valid {
		p.End = ParseTime(out.String)
	}
	return p, nil
}

// entryCheckPeriods answers the periods whose check gives e's warnings.
// When e is the user's latest entry (a clock-out always is) the probe
// decides alone: e alone on its working day is checked with the period
// that ended the day before; a later entry of a day whose first began at
// most 6 hours before e ended cannot break §3 or §4 (the day's work fits
// in that span), and §5 concerns only a day's first entry, so nothing is
// read further and skip is true. Otherwise the periods around e are read.
func entryCheckPeriods(ctx context.Context, tx *Tx, r *Restaurant, e *TimeEntry) (ps []WorkPeriod, skip bool, err error) {
	lo, hi := e.ClockIn.Add(-arbzgMargin), e.ClockOut.Add(arbzgMargin)
	loc := r.Location()
	l := e.ClockIn.In(loc)
	dayStart, _ := LocalDayBounds(time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC), loc)
	p, err := probeEntry(ctx, tx, e, dayStart)
	if err != nil {
		return nil, false, err
	}
	switch {
	case p.later || p.first == nil:
	case p.first.ID == e.ID:
		ps = []WorkPeriod{entryPeriod(e)}
		if p.prev != nil && p.prev.End.After(lo) {
			ps = append(ps, *p.prev)
		}
		return ps, false, nil
	case e.ClockOut.Sub(p.first.Start) <= sixHours:
		return nil, true, nil
	}
	ps, err = entryWindow(ctx, tx, e.UserID, lo, hi)
	return ps, false, err
}

// entryWindow reads the user's closed entries that overlap [lo, hi): those
// starting in it, and the one that started before lo, if it ended after
// lo (entries do not overlap: only the latest can).
func entryWindow(ctx context.Context, tx *Tx, userID string, lo, hi time.Time) ([]WorkPeriod, error) {
	const cols = `id, clock_in, clock_out, break_minutes FROM time_entries`
	return queryAll(ctx, tx, func(row scanner) (WorkPeriod, error) {
		p, err := scanEntryPeriod(row)
		p.UserID = userID
		return p, err
	}, `SELECT `+cols+` WHERE user_id = ? AND clock_in >= ? AND clock_in < ? AND clock_out > ?
		UNION ALL SELECT * FROM (SELECT `+cols+` WHERE user_id = ? AND clock_in < ? ORDER BY clock_in DESC LIMIT 1) WHERE clock_out > ?`,
		userID, FormatTime(lo), FormatTime(hi), FormatTime(lo), userID, FormatTime(lo), FormatTime(lo))
}
