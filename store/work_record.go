package store

import (
	"sort"
	"time"
)

// The MiLoG § 17 record: per staff member and working day the start, end,
// breaks and worked time, with corrections marked, and the § 3b EStG
// hours of the day. A day is the local date an entry's clock-in falls on,
// as in every list of the appliance.

// DayRecord is one staff member's working day.
type DayRecord struct {
	Date         string
	Start        time.Time  // the first clock-in
	End          *time.Time // the last clock-out; nil while an entry is open
	BreakMinutes int
	Worked       int64 // hundredths of an hour, summed as each entry shows it
	Entries      int
	Corrected    bool // an entry was entered, closed or corrected by an admin
	Open         bool
	Surcharge    Surcharge // closed entries only
}

// StaffRecord is one staff member's days over a range.
type StaffRecord struct {
	UserID      string
	UserName    string
	StaffNumber string
	Days        []*DayRecord
	Worked      int64
	Surcharge   Surcharge
}

// WorkRecords groups entries (as TimeEntriesBetween lists them) per staff
// member (by name) and day. Open entries count to now and earn no
// surcharge until closed.
func WorkRecords(es []*TimeEntry, r *Restaurant, now time.Time) []*StaffRecord {
	loc := r.Location()
	byUser := map[string]*StaffRecord{}
	var out []*StaffRecord
	for _, e := range es {
		sr, ok := byUser[e.UserID]
		if !ok {
			sr = &StaffRecord{UserID: e.UserID, UserName: e.UserName, StaffNumber: e.StaffNumber}
			byUser[e.UserID] = sr
			out = append(out, sr)
		}
		date := e.ClockIn.In(loc).Format(DateFormat)
		var d *DayRecord
		if n := len(sr.Days); n > 0 && sr.Days[n-1].Date == date {
			d = sr.Days[n-1]
		} else {
			d = &DayRecord{Date: date, Start: e.ClockIn}
			sr.Days = append(sr.Days, d)
		}
		d.Entries++
		d.BreakMinutes += e.BreakMinutes
		h := e.WorkedHundredths(now)
		d.Worked += h
		sr.Worked += h
		d.Corrected = d.Corrected || e.ChangedByAdmin()
		if e.ClockOut == nil {
			d.Open, d.End = true, nil
			continue
		}
		if !d.Open && (d.End == nil || e.ClockOut.After(*d.End)) {
			out := *e.ClockOut
			d.End = &out
		}
		sc := SurchargeHours(e.ClockIn, *e.ClockOut, e.BreakMinutes, loc, r.FederalState)
		d.Surcharge = d.Surcharge.Add(sc)
		sr.Surcharge = sr.Surcharge.Add(sc)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].UserName != out[j].UserName {
			return out[i].UserName < out[j].UserName
		}
		return out[i].UserID < out[j].UserID
	})
	return out
}
