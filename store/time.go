package store

import (
	"database/sql"
	"time"
)

// TimeFormat is how every instant is stored: UTC, milliseconds, Z. It is
// also the API's format, and it sorts as text.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// DateFormat and ClockFormat are the restaurant's local date and wall time.
const (
	DateFormat  = "2006-01-02"
	ClockFormat = "15:04"
)

// FormatTime renders t in TimeFormat.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// ParseTime reads a stored instant.
func ParseTime(s string) time.Time {
	if t, ok := parseStored(s); ok {
		return t
	}
	t, err := time.Parse(TimeFormat, s)
	if err != nil {
		// Stored values are always written by FormatTime; anything else is
		// corruption worth seeing loudly.
		panic("store: bad stored time " + s)
	}
	return t
}

// parseStored reads TimeFormat without time.Parse's general machinery
// (lists read hundreds of instants per request); ok is false for anything
// it does not recognise, which time.Parse then judges.
func parseStored(s string) (time.Time, bool) {
	if len(s) != len(TimeFormat) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
		s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, sec, ms := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2), num(20, 3)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ms*int(time.Millisecond), time.UTC)
	if t.Day() != d { // 31 April and the like: time.Date would normalise it
		return time.Time{}, false
	}
	return t, true
}

// parseNullTime reads a nullable stored instant.
func parseNullTime(ns sql.NullString) *time.Time {
	if !ns.Valid {
		return nil
	}
	t := ParseTime(ns.String)
	return &t
}

// nullTime is the stored form of an optional instant.
func nullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return FormatTime(*t)
}

// breakLonger reports whether a break of minutes lasts longer than
// length. It compares whole minutes: minutes × time.Minute overflows a
// Duration for a huge break and wraps round below any length.
func breakLonger(minutes int, length time.Duration) bool {
	return int64(minutes) > int64(length/time.Minute)
}
