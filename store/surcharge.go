package store

import (
	"sync"
	"time"

	"github.com/rickar/cal/v2"
	"github.com/rickar/cal/v2/de"
)

// The hours that earn tax-free surcharges under § 3b EStG, per category
// (docs/TIMECLOCK.md has each rule's source):
//
//   - Night25: work 20:00-06:00 (25 %), except what Night40 takes;
//   - Night40: work 00:00-04:00 when the work began before that midnight
//     (§ 3b (3) Nr. 1, 40 %);
//   - Sunday: work on a Sunday (50 %);
//   - Holiday125: a public holiday of the restaurant's state, and 31
//     December from 14:00 (125 %);
//   - Holiday150: 24 December from 14:00, 25 and 26 December and 1 May
//     (150 %).
//
// Work from 00:00 to 04:00 after a Sunday or holiday counts as Sunday or
// holiday work when it began before midnight (§ 3b (3) Nr. 2). A holiday
// rate replaces the Sunday rate; the night rates add to either. Everything
// is read on the restaurant's wall clock, segment by segment, so DST
// nights count their real 7 or 9 hours.
type Surcharge struct {
	Night25, Night40, Sunday, Holiday125, Holiday150 int64 // hundredths of an hour
}

// Add sums two surcharges.
func (s Surcharge) Add(o Surcharge) Surcharge {
	return Surcharge{s.Night25 + o.Night25, s.Night40 + o.Night40, s.Sunday + o.Sunday, s.Holiday125 + o.Holiday125, s.Holiday150 + o.Holiday150}
}

// day rates, by precedence.
const (
	rateNone = iota
	rateSunday
	rateHoliday125
	rateHoliday150
)

// SurchargeHours classifies the work from start to end in loc, with the
// holidays of state ("" nationwide only). The time clock records how long
// the break was, not when: so that no break is ever declared tax-free,
// each category is reduced by the whole break (never below 0).
func SurchargeHours(start, end time.Time, breakMinutes int, loc *time.Location, state string) Surcharge {
	var ms [5]int64 // night25, night40, sunday, h125, h150
	for t := start; t.Before(end); {
		l := t.In(loc)
		// The next full local hour: every threshold (00, 04, 06, 14, 20)
		// is one, and a DST change happens on one.
		next := t.Add(time.Duration(60-l.Minute())*time.Minute - time.Duration(l.Second())*time.Second - time.Duration(l.Nanosecond()))
		if next.After(end) {
			next = end
		}
		seg := next.Sub(t).Milliseconds()
		h := l.Hour()
		midnight := LocalInstant(time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC), 0, loc)
		carried := h < 4 && start.Before(midnight) // began before this midnight
		switch {
		case carried:
			ms[1] += seg
		case h >= 20 || h < 6:
			ms[0] += seg
		}
		rate := dayRate(l.Year(), l.Month(), l.Day(), h, state)
		if carried {
			prev := time.Date(l.Year(), l.Month(), l.Day()-1, 0, 0, 0, 0, time.UTC)
			rate = max(rate, dayRate(prev.Year(), prev.Month(), prev.Day(), 23, state))
		}
		switch rate {
		case rateSunday:
			ms[2] += seg
		case rateHoliday125:
			ms[3] += seg
		case rateHoliday150:
			ms[4] += seg
		}
		t = next
	}
	brk := int64(breakMinutes) * 60_000
	h := func(v int64) int64 {
		v -= brk
		if v <= 0 {
			return 0
		}
		return (v + 18_000) / 36_000 // hundredths, half up
	}
	return Surcharge{h(ms[0]), h(ms[1]), h(ms[2]), h(ms[3]), h(ms[4])}
}

// dayRate is the Sunday or holiday rate of a local date at an hour.
func dayRate(y int, m time.Month, d, hour int, state string) int {
	switch {
	case m == time.December && (d == 25 || d == 26), m == time.May && d == 1:
		return rateHoliday150
	case m == time.December && d == 24 && hour >= 14:
		return rateHoliday150
	case m == time.December && d == 31 && hour >= 14:
		return rateHoliday125
	}
	if IsPublicHoliday(y, m, d, state) {
		return rateHoliday125
	}
	if time.Date(y, m, d, 12, 0, 0, 0, time.UTC).Weekday() == time.Sunday {
		return rateSunday
	}
	return rateNone
}

// stateHolidays are github.com/rickar/cal/v2/de's lists per state.
var stateHolidays = map[string][]*cal.Holiday{
	"": de.Holidays, "BW": de.HolidaysBW, "BY": de.HolidaysBY, "BE": de.HolidaysBE, "BB": de.HolidaysBB,
	"HB": de.HolidaysHB, "HH": de.HolidaysHH, "HE": de.HolidaysHE, "MV": de.HolidaysMV, "NI": de.HolidaysNI,
	"NW": de.HolidaysNW, "RP": de.HolidaysRP, "SL": de.HolidaysSL, "SN": de.HolidaysSN, "ST": de.HolidaysST,
	"SH": de.HolidaysSH, "TH": de.HolidaysTH,
}

var holidayCache sync.Map // state+year → map[[2]int]bool (month, day)

// IsPublicHoliday reports whether the date is a public holiday in state
// ("" the nationwide ones), per github.com/rickar/cal/v2/de.
func IsPublicHoliday(y int, m time.Month, d int, state string) bool {
	key := state + "/" + time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).Format("2006")
	v, ok := holidayCache.Load(key)
	if !ok {
		days := map[[2]int]bool{}
		for _, h := range stateHolidays[state] {
			// Calc answers midnight in time.Local; only the date counts.
			if actual, _ := h.Calc(y); !actual.IsZero() {
				days[[2]int{int(actual.Month()), actual.Day()}] = true
			}
		}
		v, _ = holidayCache.LoadOrStore(key, days)
	}
	return v.(map[[2]int]bool)[[2]int{int(m), d}]
}
