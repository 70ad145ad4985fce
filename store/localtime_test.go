package store

import (
	"testing"
	"time"
)

func TestLocalInstant(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	santiago, err := time.LoadLocation("America/Santiago") // clocks go forward at midnight
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		loc     *time.Location
		date    string
		clock   string
		want    string
		comment string
	}{
		{berlin, "2026-11-22", "10:00", "2026-11-22T09:00:00Z", "winter, UTC+1"},
		{berlin, "2026-07-01", "10:00", "2026-07-01T08:00:00Z", "summer, UTC+2"},
		{berlin, "2026-03-29", "01:59", "2026-03-29T00:59:00Z", "just before the gap"},
		{berlin, "2026-03-29", "02:00", "2026-03-29T01:00:00Z", "gap: 02:00 CET = 03:00 CEST"},
		{berlin, "2026-03-29", "02:30", "2026-03-29T01:30:00Z", "gap: 02:30 CET = 03:30 CEST"},
		{berlin, "2026-03-29", "03:00", "2026-03-29T01:00:00Z", "first time after the gap"},
		{berlin, "2026-10-25", "01:59", "2026-10-24T23:59:00Z", "before the repeat, CEST"},
		{berlin, "2026-10-25", "02:30", "2026-10-25T00:30:00Z", "repeated: the first (CEST) one"},
		{berlin, "2026-10-25", "03:00", "2026-10-25T02:00:00Z", "after the repeat, CET"},
		{santiago, "2026-09-06", "00:00", "2026-09-06T04:00:00Z", "midnight inside the gap"},
	} {
		t.Run(tc.date+" "+tc.clock, func(t *testing.T) {
			d, _ := time.Parse(DateFormat, tc.date)
			m, ok := parseClock(tc.clock)
			if !ok {
				t.Fatal("bad clock")
			}
			if got := LocalInstant(d, m, tc.loc).Format(time.RFC3339); got != tc.want {
				t.Fatalf("%s: %s, want %s", tc.comment, got, tc.want)
			}
		})
	}
	t.Run("DayBounds", func(t *testing.T) {
		for date, hours := range map[string]float64{"2026-03-29": 23, "2026-10-25": 25, "2026-11-22": 24} {
			d, _ := time.Parse(DateFormat, date)
			from, to := LocalDayBounds(d, berlin)
			if got := to.Sub(from).Hours(); got != hours {
				t.Errorf("%s lasts %v h, want %v", date, got, hours)
			}
		}
	})
}

func TestParseClock(t *testing.T) {
	for s, want := range map[string]int{"00:00": 0, "09:05": 545, "23:59": 1439} {
		if got, ok := parseClock(s); !ok || got != want {
			t.Errorf("parseClock(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"24:00", "9:05", "09:5", "12:60", "1200", "12-00", "ab:cd", "", "12:00:00", "-1:00"} {
		if _, ok := parseClock(s); ok {
			t.Errorf("parseClock(%q) accepted", s)
		}
	}
}
