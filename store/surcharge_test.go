package store

import (
	"testing"
	"time"
)

// Hand-computed § 3b EStG hours (hundredths of an hour).
func TestSurchargeHours(t *testing.T) {
	cases := []struct {
		name       string
		start, end time.Time
		brk        int
		state      string
		want       Surcharge
	}{
		// Sat 21 Nov 18:00 to Sun 22 Nov 03:00: 20-24 night 25 % (4 h);
		// 00-03 began before midnight: night 40 % (3 h) and Sunday (3 h).
		{"Saturday 18:00 to Sunday 03:00", at(2026, 11, 21, 18, 0), at(2026, 11, 22, 3, 0), 0, "",
			Surcharge{Night25: 400, Night40: 300, Sunday: 300}},
		// The same with a 30-minute break: each category less the break.
		{"Saturday 18:00 to Sunday 03:00, 30 min break", at(2026, 11, 21, 18, 0), at(2026, 11, 22, 3, 0), 30, "",
			Surcharge{Night25: 350, Night40: 250, Sunday: 250}},
		// Sunday 22 Nov 01:00 (began after midnight) to 07:00: 01-06 night
		// 25 % (5 h), 01-07 Sunday (6 h).
		{"Sunday 01:00 to 07:00", at(2026, 11, 22, 1, 0), at(2026, 11, 22, 7, 0), 0, "",
			Surcharge{Night25: 500, Sunday: 600}},
		// Sunday 22:00 to Monday 05:00: 22-24 night 25 % and Sunday; 00-04
		// night 40 % and Sunday (carried, § 3b (3) Nr. 2); 04-05 night 25 %.
		{"Sunday 22:00 to Monday 05:00", at(2026, 11, 22, 22, 0), at(2026, 11, 23, 5, 0), 0, "",
			Surcharge{Night25: 300, Night40: 400, Sunday: 600}},
		// Christmas Eve (Thu) 12:00-22:00: 150 % from 14:00 (8 h), night 20-22.
		{"Christmas Eve 12:00-22:00", at(2026, 12, 24, 12, 0), at(2026, 12, 24, 22, 0), 0, "",
			Surcharge{Night25: 200, Holiday150: 800}},
		// Christmas Eve 18:00 to Christmas Day 02:00: 150 % all 8 h.
		{"Christmas Eve 18:00 to 02:00", at(2026, 12, 24, 18, 0), at(2026, 12, 25, 2, 0), 0, "",
			Surcharge{Night25: 400, Night40: 200, Holiday150: 800}},
		// New Year's Eve (Thu) 10:00-18:00: 125 % from 14:00 only.
		{"New Year's Eve 10:00-18:00", at(2026, 12, 31, 10, 0), at(2026, 12, 31, 18, 0), 0, "",
			Surcharge{Holiday125: 400}},
		// New Year's Eve 16:00 to New Year's Day 02:00: 125 % for 10 h
		// (31 Dec from 14:00, then Neujahr).
		{"New Year's Eve 16:00 to 02:00", at(2026, 12, 31, 16, 0), at(2027, 1, 1, 2, 0), 0, "",
			Surcharge{Night25: 400, Night40: 200, Holiday125: 1000}},
		// 1 May is 150 %.
		{"1 May", at(2026, 5, 1, 10, 0), at(2026, 5, 1, 14, 0), 0, "", Surcharge{Holiday150: 400}},
		// Corpus Christi (4 Jun 2026) is a holiday in Bavaria, not in Berlin.
		{"Corpus Christi in BY", at(2026, 6, 4, 10, 0), at(2026, 6, 4, 14, 0), 0, "BY", Surcharge{Holiday125: 400}},
		{"Corpus Christi in BE", at(2026, 6, 4, 10, 0), at(2026, 6, 4, 14, 0), 0, "BE", Surcharge{}},
		// Women's Day (8 Mar 2026, a Sunday) in Berlin: the holiday replaces Sunday.
		{"Frauentag on a Sunday in BE", at(2026, 3, 8, 10, 0), at(2026, 3, 8, 14, 0), 0, "BE", Surcharge{Holiday125: 400}},
		{"8 March on a Sunday in BY", at(2026, 3, 8, 10, 0), at(2026, 3, 8, 14, 0), 0, "BY", Surcharge{Sunday: 400}},
		// Spring night (Sat 28 to Sun 29 Mar): 22:00-06:00 is 7 h real; 22-24
		// night 25 %, 00-04 (3 h real) night 40 %, 04-06 night 25 %; Sunday
		// 00-06 is 5 h real.
		{"spring DST night 22:00-06:00", at(2026, 3, 28, 22, 0), at(2026, 3, 29, 6, 0), 0, "",
			Surcharge{Night25: 400, Night40: 300, Sunday: 500}},
		// Autumn night (Sat 24 to Sun 25 Oct): 22:00-06:00 is 9 h real; 00-04 is 5 h.
		{"autumn DST night 22:00-06:00", at(2026, 10, 24, 22, 0), at(2026, 10, 25, 6, 0), 0, "",
			Surcharge{Night25: 400, Night40: 500, Sunday: 700}},
		// A weekday 08:00-16:00 earns nothing.
		{"weekday day shift", at(2026, 11, 24, 8, 0), at(2026, 11, 24, 16, 0), 30, "", Surcharge{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SurchargeHours(c.start, c.end, c.brk, berlin, c.state); got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestPublicHolidays(t *testing.T) {
	for _, c := range []struct {
		y       int
		m       time.Month
		d       int
		state   string
		holiday bool
	}{
		{2026, 1, 1, "", true}, {2026, 4, 3, "", true}, {2026, 10, 3, "", true}, {2026, 12, 25, "", true},
		{2026, 1, 6, "", false}, {2026, 1, 6, "BY", true}, {2026, 10, 31, "SN", true}, {2026, 10, 31, "BY", false},
		{2026, 11, 18, "SN", true}, {2026, 12, 24, "", false}, {2026, 12, 31, "", false},
	} {
		if got := IsPublicHoliday(c.y, c.m, c.d, c.state); got != c.holiday {
			t.Errorf("%d-%02d-%02d in %q: holiday %v, want %v", c.y, c.m, c.d, c.state, got, c.holiday)
		}
	}
}
