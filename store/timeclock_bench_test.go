package store

import (
	"fmt"
	"testing"
	"time"
)

// A month of a busy restaurant: 30 staff, one evening shift a day each,
// many across midnight. The report and the payroll export run these over
// every entry of the range.
func monthOfEntries() ([]*TimeEntry, []WorkPeriod) {
	var es []*TimeEntry
	for u := range 30 {
		for d := 1; d <= 31; d++ {
			in := time.Date(2026, 12, d, 16+u%6, 0, 0, 0, berlin)
			out := in.Add(time.Duration(6+u%5)*time.Hour + 30*time.Minute)
			es = append(es, &TimeEntry{ID: fmt.Sprintf("e%d-%d", u, d), UserID: fmt.Sprintf("u%02d", u), UserName: fmt.Sprintf("Staff %02d", u),
				ClockIn: in, ClockOut: &out, BreakMinutes: 30, Source: EntryClock})
		}
	}
	return es, EntryPeriods(es)
}

func BenchmarkCheckArbZGMonth(b *testing.B) {
	_, ps := monthOfEntries()
	b.ReportAllocs()
	for b.Loop() {
		CheckArbZG(ps, berlin, 11)
	}
}

func BenchmarkWorkRecordsMonth(b *testing.B) {
	es, _ := monthOfEntries()
	r := &Restaurant{Timezone: "Europe/Berlin", FederalState: "BY", MinRestHours: 11, OpenEntryLimitHours: 16}
	now := time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		WorkRecords(es, r, now)
	}
}
