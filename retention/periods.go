package retention

import (
	"fmt"
	"time"
)

// TimeRecordsYears is how many full calendar years after the year of the
// record time entries, their corrections and shifts are kept: seven, the
// longest of the duties on them. MiLoG § 17 (1) and ArbZG § 16 (2) ask
// two years; the time records are also the basis of payroll (hours and
// the § 3b EStG surcharges posbox computes from them), so they are
// documents of the Lohnkonto, kept until the end of the sixth calendar
// year after the last wage payment entered (§ 41 (1) EStG, § 147 (1)
// Nr. 5, (3) AO). December's hours are paid in January, so that payment
// is of the next year: six years from it are seven from the record's.
// A record belongs to the year it ended in (a night shift from 31
// December into 1 January is next year's payroll).
const TimeRecordsYears = 7

// DefaultNotificationDays and DefaultEventDays are the configured
// defaults (notification_keep_days, event_keep_days): long enough to look
// back at a season's failed deliveries, short enough that the texts that
// name staff (clock-in, shift changes) do not pile up.
const (
	DefaultNotificationDays = 90
	DefaultEventDays        = 30
)

// MinDays is the shortest period for either: the dashboard counts the
// deliveries that failed in the last 24 hours, and the log is the only
// place an owner sees why a delivery failed.
const MinDays = 7

// MaxDays is the longest: ten years, the longest any law asks of
// anything. A larger number is a typo, and from 106,752 days on it no
// longer fits a time.Duration (the cutoff landed in the future and the
// run deleted everything).
const MaxDays = 3650

// CheckDays validates a configured period in days.
func CheckDays(key string, days int) error {
	if days < MinDays {
		return fmt.Errorf("%s: %d is less than %d days", key, days, MinDays)
	}
	if days > MaxDays {
		return fmt.Errorf("%s: %d days is too long: at most %d (ten years)", key, days, MaxDays)
	}
	return nil
}

// daysBefore is the instant n calendar days before now, by the calendar
// (no Duration that could overflow).
func daysBefore(now time.Time, n int) time.Time { return now.AddDate(0, 0, -n) }

// yearsCutoff is the first instant still kept when records are kept
// `years` full calendar years after their own: 1 January, 00:00
// restaurant-local, of the year `years` before now's. A record of 2026 is
// kept to the end of 2033 and goes from 1 January 2034 on (§ 147 (4) AO:
// the period starts at the end of the calendar year).
func yearsCutoff(now time.Time, loc *time.Location, years int) time.Time {
	return time.Date(now.In(loc).Year()-years, time.January, 1, 0, 0, 0, 0, loc)
}
