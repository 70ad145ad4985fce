package discount

import (
	"slices"
	"time"

	"posbox/store"
)

// OpenAt reports whether a discount with the weekly windows ws may be
// redeemed at instant t, read on the wall clock of loc (the restaurant's
// timezone). nil ws: always open. The rule works on local wall-clock
// time, to the minute:
//   - a window whose end is not after its start runs past midnight and
//     belongs to its start day (Friday 22:00-02:00 covers Saturday 01:30;
//     00:00-00:00 is the whole day);
//   - on the day the clocks go forward, a wall time that never shows is
//     never open (02:00-03:00 in Berlin is empty that day);
//   - on the day they go back, a wall time that shows twice is open both
//     times (02:00-03:00 in Berlin lasts two hours that day).
func OpenAt(ws []store.ScheduleWindow, t time.Time, loc *time.Location) bool {
	if ws == nil {
		return true
	}
	l := t.In(loc)
	day, m := isoWeekday(l.Weekday()), l.Hour()*60+l.Minute()
	prev := day - 1
	if prev == 0 {
		prev = 7
	}
	for _, w := range ws {
		switch {
		case w.To > w.From && w.Weekday == day && m >= w.From && m < w.To:
			return true
		case w.To <= w.From && w.Weekday == day && m >= w.From:
			return true
		case w.To <= w.From && w.Weekday == prev && m < w.To:
			return true
		}
	}
	return false
}

// isoWeekday is 1 for Monday to 7 for Sunday.
func isoWeekday(d time.Weekday) int {
	if d == time.Sunday {
		return 7
	}
	return int(d)
}

// NextOpening is the first instant after t at which ws is open, and
// false when there is none within eight days (only a schedule whose every
// window falls into a DST gap). An opening is either a window's start on
// the wall clock, under the offset in force before or after a change of
// the clocks, or the end of a gap the clocks jumped over; so those
// instants are the only candidates, and the earliest open one is it.
func NextOpening(ws []store.ScheduleWindow, t time.Time, loc *time.Location) (time.Time, bool) {
	if len(ws) == 0 {
		return time.Time{}, false
	}
	horizon := t.Add(8 * 24 * time.Hour)
	var cands []time.Time
	l := t.In(loc)
	today := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC)
	for i := -1; i <= 8; i++ {
		date := today.AddDate(0, 0, i)
		for _, w := range ws {
			if w.Weekday != isoWeekday(date.Weekday()) {
				continue
			}
			wall := date.Add(time.Duration(w.From) * time.Minute)
			for _, probe := range []time.Time{wall.Add(-24 * time.Hour), wall.Add(24 * time.Hour)} {
				_, off := probe.In(loc).Zone()
				cands = append(cands, wall.Add(-time.Duration(off)*time.Second))
			}
		}
	}
	for z := l; ; {
		_, end := z.ZoneBounds()
		if end.IsZero() || end.After(horizon) {
			break
		}
		cands = append(cands, end)
		z = end.In(loc)
	}
	slices.SortFunc(cands, time.Time.Compare)
	for _, c := range cands {
		if c.After(t) && !c.After(horizon) && OpenAt(ws, c, loc) {
			return c, true
		}
	}
	return time.Time{}, false
}

// Check is the schedule's check at the till for store.RedeemInput: nil
// when d is open at the instant, else 409 discount_outside_schedule whose
// detail names the next opening on loc's wall clock.
func Check(loc *time.Location) func(d *store.Discount, at time.Time) error {
	return func(d *store.Discount, at time.Time) error {
		if OpenAt(d.Schedule, at, loc) {
			return nil
		}
		if next, ok := NextOpening(d.Schedule, at, loc); ok {
			n := next.In(loc)
			return store.Errorf(store.EDiscountOutsideSchedule, "discount %q is outside its schedule; it opens next on %s %s at %s (%s)",
				d.Name, n.Weekday().String()[:3], n.Format(time.DateOnly), n.Format("15:04"), loc)
		}
		return store.Errorf(store.EDiscountOutsideSchedule, "discount %q is outside its schedule", d.Name)
	}
}

// Opener is OpenAt in loc for a discount, as the pricing core's
// Request.Open takes it.
func Opener(loc *time.Location) func(d *store.Discount, at time.Time) bool {
	return func(d *store.Discount, at time.Time) bool { return OpenAt(d.Schedule, at, loc) }
}
