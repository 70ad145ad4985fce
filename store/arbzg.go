package store

import (
	"fmt"
	"slices"
	"sort"
	"time"
)

// The Working Hours Act (ArbZG) checks, run over time entries and over
// planned shifts alike. They only warn: a clock-out or a plan is never
// refused because of them (docs/TIMECLOCK.md).

// Warning codes (stable) and the rules they come from.
const (
	WarnBreakTooShort = "break_too_short"    // ArbZG § 4
	WarnDailyMax      = "daily_max_exceeded" // ArbZG § 3
	WarnRestTooShort  = "rest_too_short"     // ArbZG § 5

	RuleBreak = "ArbZG §4"
	RuleDaily = "ArbZG §3"
	RuleRest  = "ArbZG §5"
)

// ArbZG limits. The daily maximum is § 3's extended 10 hours: 8 hours a
// day on average cannot be judged from one day, 10 can.
const (
	breakOver6h         = 30 * time.Minute
	breakOver9h         = 45 * time.Minute
	dailyMax            = 10 * time.Hour
	minBreakPart        = 15 * time.Minute // § 4: parts of at least 15 minutes count
	sixHours, nineHours = 6 * time.Hour, 9 * time.Hour
)

// WorkPeriod is one stretch of work of a user: a closed time entry or a
// planned shift.
type WorkPeriod struct {
	ID           string
	UserID       string
	Start, End   time.Time
	BreakMinutes int
}

// LabourWarning is one ArbZG finding for one user and working day.
type LabourWarning struct {
	Code    string
	Rule    string
	UserID  string
	Date    string   // the working day: the local date its first period starts on
	Message string   // for a person, with the numbers
	IDs     []string // the periods concerned
	// Params are the message's numbers, for a client that words the
	// warning in its own language (docs/TIMECLOCK.md): worked_minutes,
	// break_minutes, required_minutes and over_hours (§ 4); worked_minutes
	// and max_hours (§ 3); rest_minutes and required_hours (§ 5).
	Params map[string]int
}

// Concerns reports whether the warning names the period id.
func (w LabourWarning) Concerns(id string) bool { return slices.Contains(w.IDs, id) }

// WarningsFor keeps the warnings that concern id.
func WarningsFor(ws []LabourWarning, id string) []LabourWarning {
	var out []LabourWarning
	for _, w := range ws {
		if w.Concerns(id) {
			out = append(out, w)
		}
	}
	return out
}

// workDay is one user's periods starting on one local date.
type workDay struct {
	date       string
	periods    []WorkPeriod
	worked     time.Duration
	breaks     time.Duration
	start, end time.Time
}

// CheckArbZG checks the periods (of any number of users) in loc:
//   - § 4: a working day of more than 6 hours' work needs 30 minutes of
//     break, of more than 9 hours 45 minutes. The break is the recorded
//     break plus every gap of at least 15 minutes between the day's
//     periods.
//   - § 3: more than 10 hours' work in a working day.
//   - § 5: less than minRestHours between the end of one working day and
//     the start of the next.
//
// A working day is the local date a period starts on (a night shift
// belongs to the day it began, as every list of the appliance does). Work
// is real elapsed time minus the break, so DST nights count their 7 or 9
// hours. Periods with no end are skipped.
func CheckArbZG(periods []WorkPeriod, loc *time.Location, minRestHours int) []LabourWarning {
	byUser := map[string][]WorkPeriod{}
	var users []string
	for _, p := range periods {
		if p.End.IsZero() || !p.End.After(p.Start) {
			continue
		}
		if _, ok := byUser[p.UserID]; !ok {
			users = append(users, p.UserID)
		}
		byUser[p.UserID] = append(byUser[p.UserID], p)
	}
	sort.Strings(users)
	var out []LabourWarning
	for _, u := range users {
		out = append(out, checkUser(u, byUser[u], loc, time.Duration(minRestHours)*time.Hour)...)
	}
	return out
}

func checkUser(userID string, ps []WorkPeriod, loc *time.Location, minRest time.Duration) []LabourWarning {
	sort.Slice(ps, func(i, j int) bool {
		if !ps[i].Start.Equal(ps[j].Start) {
			return ps[i].Start.Before(ps[j].Start)
		}
		return ps[i].ID < ps[j].ID
	})
	var days []*workDay
	for _, p := range ps {
		date := p.Start.In(loc).Format(DateFormat)
		if len(days) == 0 || days[len(days)-1].date != date {
			days = append(days, &workDay{date: date, start: p.Start})
		}
		d := days[len(days)-1]
		if n := len(d.periods); n > 0 {
			if gap := p.Start.Sub(d.end); gap >= minBreakPart {
				d.breaks += gap
			}
		}
		brk := time.Duration(p.BreakMinutes) * time.Minute
		if w := p.End.Sub(p.Start) - brk; w > 0 {
			d.worked += w
		}
		d.breaks += brk
		d.periods = append(d.periods, p)
		if p.End.After(d.end) {
			d.end = p.End
		}
	}
	var out []LabourWarning
	for i, d := range days {
		ids := make([]string, 0, len(d.periods))
		for _, p := range d.periods {
			ids = append(ids, p.ID)
		}
		need := time.Duration(0)
		switch {
		case d.worked > nineHours:
			need = breakOver9h
		case d.worked > sixHours:
			need = breakOver6h
		}
		if d.breaks < need {
			over := map[time.Duration]int{breakOver6h: 6, breakOver9h: 9}[need]
			out = append(out, LabourWarning{Code: WarnBreakTooShort, Rule: RuleBreak, UserID: userID, Date: d.date, IDs: ids,
				Message: fmt.Sprintf("%s worked with %s of break; more than %d h of work needs at least %d min",
					hm(d.worked), minutes(d.breaks), over, int(need/time.Minute)),
				Params: map[string]int{"worked_minutes": mins(d.worked), "break_minutes": mins(d.breaks),
					"required_minutes": mins(need), "over_hours": over}})
		}
		if d.worked > dailyMax {
			out = append(out, LabourWarning{Code: WarnDailyMax, Rule: RuleDaily, UserID: userID, Date: d.date, IDs: ids,
				Message: fmt.Sprintf("%s worked; more than 10 h a day is not allowed", hm(d.worked)),
				Params:  map[string]int{"worked_minutes": mins(d.worked), "max_hours": int(dailyMax / time.Hour)}})
		}
		if i == 0 {
			continue
		}
		prev := days[i-1]
		if rest := d.start.Sub(prev.end); rest < minRest {
			pids := append([]string{prev.periods[len(prev.periods)-1].ID}, ids[0])
			for _, p := range prev.periods { // the period that ended last
				if p.End.Equal(prev.end) {
					pids[0] = p.ID
				}
			}
			if rest < 0 {
				rest = 0
			}
			out = append(out, LabourWarning{Code: WarnRestTooShort, Rule: RuleRest, UserID: userID, Date: d.date, IDs: pids,
				Message: fmt.Sprintf("%s of rest before this working day; at least %d h are required", hm(rest), int(minRest/time.Hour)),
				Params:  map[string]int{"rest_minutes": mins(rest), "required_hours": int(minRest / time.Hour)}})
		}
	}
	return out
}

// hm writes 6 h 01 min.
func hm(d time.Duration) string {
	m := int(d / time.Minute)
	return fmt.Sprintf("%d h %02d min", m/60, m%60)
}

func minutes(d time.Duration) string { return fmt.Sprintf("%d min", int(d/time.Minute)) }

// mins is d in whole minutes (rounded down, as the messages show it).
func mins(d time.Duration) int { return int(d / time.Minute) }
