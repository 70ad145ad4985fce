package store

import "time"

// parseClock reads a wall time "HH:MM" (00:00-23:59) as minutes after
// midnight. time.Parse would also accept "9:05", which the API does not.
func parseClock(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	d := func(b byte) (int, bool) { return int(b - '0'), b >= '0' && b <= '9' }
	h1, ok1 := d(s[0])
	h2, ok2 := d(s[1])
	m1, ok3 := d(s[3])
	m2, ok4 := d(s[4])
	h, m := h1*10+h2, m1*10+m2
	if !(ok1 && ok2 && ok3 && ok4) || h > 23 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}

// LocalInstant is the instant at which the wall clock in loc shows date
// (a midnight in UTC, as time.Parse(DateFormat) returns it) plus minutes.
// It is DST-safe and deterministic, following RFC 5545 §3.3.5:
//   - a wall time that occurs twice (clocks go back) is its first
//     occurrence;
//   - a wall time that does not exist (clocks go forward) is read with the
//     offset in force before the gap, so 02:30 on a Berlin spring-forward
//     day is 03:30 CEST.
//
// time.Date leaves both cases unspecified, hence this function.
func LocalInstant(date time.Time, minutes int, loc *time.Location) time.Time {
	wall := time.Date(date.Year(), date.Month(), date.Day(), 0, minutes, 0, 0, time.UTC)
	_, before := wall.Add(-24 * time.Hour).In(loc).Zone()
	_, after := wall.Add(24 * time.Hour).In(loc).Zone()
	shows := func(t time.Time) bool {
		l := t.In(loc)
		return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), 0, 0, time.UTC).Equal(wall)
	}
	// The larger offset gives the earlier instant; try it first so a
	// repeated wall time resolves to its first occurrence.
	first, second := before, after
	if after > before {
		first, second = after, before
	}
	for _, off := range []int{first, second} {
		if t := wall.Add(-time.Duration(off) * time.Second); shows(t) {
			return t
		}
	}
	return wall.Add(-time.Duration(before) * time.Second)
}

// LocalDayBounds is the half-open UTC interval [from, to) of one local
// date in loc; 23 or 25 hours long on DST days.
func LocalDayBounds(date time.Time, loc *time.Location) (from, to time.Time) {
	return LocalInstant(date, 0, loc), LocalInstant(date.AddDate(0, 0, 1), 0, loc)
}
