package store

import (
	"context"
)

// ShiftsWithWarnings is Shifts with every listed shift's warnings against
// the whole plan, drafts included (the admins' week). The plan's
// neighbours of a range are the listed shifts themselves plus those of
// the few dates around it, so with both bounds given the listed shifts
// are read once and only the ids and times of the dates around are read
// again: the check runs once over them all, not per shift.
func (s *Store) ShiftsWithWarnings(ctx context.Context, r *Restaurant, from, to string) ([]*Shift, map[string][]LabourWarning, error) {
	shs, err := s.Shifts(ctx, r.ID, from, to)
	if err != nil {
		return nil, nil, err
	}
	if from == "" || to == "" {
		ws, err := s.ShiftsWarnings(ctx, r, shs)
		return shs, ws, err
	}
	lo, hi, ok := shiftsWindow(shs)
	if !ok {
		return shs, map[string][]LabourWarning{}, nil
	}
	// Every listed shift lies in [lo, hi]; the window's other shifts have
	// a shift_date outside [from, to] (shiftWindowDates bounds it). The
	// text is fixed, so s.rs prepares it once per connection, not per read.
	loDate, hiDate := shiftWindowDates(lo, hi, r.Location())
	const cols = `SELECT id, user_id, starts_at, ends_at, break_minutes FROM shifts WHERE restaurant_id = ? AND status <> 'cancelled'
		AND starts_at < ? AND ends_at > ?`
	args := []any{r.ID, FormatTime(hi), FormatTime(lo)}
	around, err := queryAll(ctx, s.rs, scanShiftPeriod, cols+` AND shift_date >= ? AND shift_date < ?
		UNION ALL `+cols+` AND shift_date > ? AND shift_date <= ?`, append(append(args, loDate, from), append(args, to, hiDate)...)...)
	if err != nil {
		return nil, nil, err
	}
	return shs, warningsByID(CheckArbZG(append(ShiftPeriods(shs), around...), r.Location(), r.MinRestHours)), nil
}

// scanShiftPeriod scans id, user_id, starts_at, ends_at, break_minutes.
func scanShiftPeriod(row scanner) (WorkPeriod, error) {
	var p WorkPeriod
	var start, end string
	if err := row.Scan(&p.ID, &p.UserID, &start, &end, &p.BreakMinutes); err != nil {
		return p, err
	}
	p.Start, p.End = ParseTime(start), ParseTime(end)
	return p, nil
}
