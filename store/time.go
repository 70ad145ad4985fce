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
	t, err := time.Parse(TimeFormat, s)
	if err != nil {
		// Stored values are always written by FormatTime; anything else is
		// corruption worth seeing loudly.
		panic("store: bad stored time " + s)
	}
	return t
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
