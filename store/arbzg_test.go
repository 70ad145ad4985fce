package store

import (
	"maps"
	"slices"
	"testing"
	"time"
)

var berlin, _ = time.LoadLocation("Europe/Berlin")

// at is a Berlin wall time.
func at(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, berlin)
}

func codes(ws []LabourWarning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

func TestArbZGBoundaries(t *testing.T) {
	start := at(2026, 11, 23, 8, 0)
	// one period of worked time w with break b (the span is w + b)
	one := func(w, b time.Duration) []WorkPeriod {
		return []WorkPeriod{{ID: "e1", UserID: "u", Start: start, End: start.Add(w + b), BreakMinutes: int(b / time.Minute)}}
	}
	h, m := time.Hour, time.Minute
	cases := []struct {
		name    string
		periods []WorkPeriod
		want    []string
	}{
		{"6 h no break", one(6*h, 0), nil},
		{"6 h 29 min break", one(6*h, 29*m), nil},
		{"6 h 01 29 min break", one(6*h+m, 29*m), []string{WarnBreakTooShort}},
		{"6 h 01 30 min break", one(6*h+m, 30*m), nil},
		{"9 h 44 min break", one(9*h, 44*m), nil},
		{"9 h 01 44 min break", one(9*h+m, 44*m), []string{WarnBreakTooShort}},
		{"9 h 01 45 min break", one(9*h+m, 45*m), nil},
		{"10 h", one(10*h, 45*m), nil},
		{"10 h 01", one(10*h+m, 45*m), []string{WarnDailyMax}},
		{"10 h 01 and 44 min break", one(10*h+m, 44*m), []string{WarnBreakTooShort, WarnDailyMax}},
		// Split shift: a 30-minute gap between two periods is the break.
		{"split with 30 min gap", []WorkPeriod{
			{ID: "a", UserID: "u", Start: start, End: start.Add(4 * h)},
			{ID: "b", UserID: "u", Start: start.Add(4*h + 30*m), End: start.Add(7*h + 30*m)},
		}, nil},
		{"split with 14 min gap", []WorkPeriod{ // under 15 minutes is no break part
			{ID: "a", UserID: "u", Start: start, End: start.Add(4 * h)},
			{ID: "b", UserID: "u", Start: start.Add(4*h + 14*m), End: start.Add(7 * h)},
		}, []string{WarnBreakTooShort}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := codes(CheckArbZG(c.periods, berlin, 11)); !slices.Equal(got, c.want) {
				t.Fatalf("warnings %v, want %v", got, c.want)
			}
		})
	}
}

func TestArbZGRest(t *testing.T) {
	day1 := WorkPeriod{ID: "d1", UserID: "u", Start: at(2026, 11, 23, 14, 0), End: at(2026, 11, 23, 23, 0), BreakMinutes: 30}
	next := func(h, m int) WorkPeriod {
		return WorkPeriod{ID: "d2", UserID: "u", Start: at(2026, 11, 24, h, m), End: at(2026, 11, 24, 14, 0), BreakMinutes: 0}
	}
	cases := []struct {
		name string
		p    WorkPeriod
		rest int
		want []string
	}{
		{"11 h", next(10, 0), 11, nil},
		{"10 h 59", next(9, 59), 11, []string{WarnRestTooShort}},
		{"10 h hospitality", next(9, 0), 10, nil},
		{"9 h 59 hospitality", next(8, 59), 10, []string{WarnRestTooShort}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := CheckArbZG([]WorkPeriod{day1, c.p}, berlin, c.rest)
			if got := codes(ws); !slices.Equal(got, c.want) {
				t.Fatalf("warnings %v, want %v", got, c.want)
			}
			if len(ws) == 1 && (ws[0].Rule != RuleRest || !ws[0].Concerns("d1") || !ws[0].Concerns("d2") || ws[0].Date != "2026-11-24") {
				t.Fatalf("warning %+v", ws[0])
			}
		})
	}
	// Two users never meet in one check.
	other := next(1, 0)
	other.Start, other.End = at(2026, 11, 23, 23, 30), at(2026, 11, 24, 2, 0)
	other.UserID = "v"
	if ws := CheckArbZG([]WorkPeriod{day1, other}, berlin, 11); len(ws) != 0 {
		t.Fatalf("another user's work counted: %v", ws)
	}
}

// Across midnight and on the DST nights of 2026: the work is real time
// and belongs to the day it began.
func TestArbZGAcrossMidnightAndDST(t *testing.T) {
	cases := []struct {
		name       string
		start, end time.Time
		want       []string
	}{
		{"Saturday 18:00 to Sunday 04:45 with 45 min", at(2026, 11, 21, 18, 0), at(2026, 11, 22, 4, 45), nil},
		{"Saturday 18:00 to Sunday 04:46 with 45 min", at(2026, 11, 21, 18, 0), at(2026, 11, 22, 4, 46), []string{WarnDailyMax}},
		// 2026-03-29: 02:00 CET becomes 03:00 CEST; 20:00 to 07:45 is 10 h 45 real.
		{"spring night 20:00-07:45", at(2026, 3, 28, 20, 0), at(2026, 3, 29, 7, 45), nil},
		{"spring night 20:00-07:46", at(2026, 3, 28, 20, 0), at(2026, 3, 29, 7, 46), []string{WarnDailyMax}},
		// 2026-10-25: 03:00 CEST becomes 02:00 CET; 22:00 to 07:45 is 10 h 45 real.
		{"autumn night 22:00-07:45", at(2026, 10, 24, 22, 0), at(2026, 10, 25, 7, 45), nil},
		{"autumn night 22:00-07:46", at(2026, 10, 24, 22, 0), at(2026, 10, 25, 7, 46), []string{WarnDailyMax}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := CheckArbZG([]WorkPeriod{{ID: "e", UserID: "u", Start: c.start, End: c.end, BreakMinutes: 45}}, berlin, 11)
			if got := codes(ws); !slices.Equal(got, c.want) {
				t.Fatalf("warnings %v, want %v (%v)", got, c.want, ws)
			}
			if len(ws) > 0 && ws[0].Date != c.start.Format(DateFormat) {
				t.Fatalf("date %s, want the day the work began", ws[0].Date)
			}
		})
	}
	// Rest across the spring change: 22:00 CET to 10:00 CEST is 11 h real.
	end := WorkPeriod{ID: "a", UserID: "u", Start: at(2026, 3, 28, 14, 0), End: at(2026, 3, 28, 22, 0), BreakMinutes: 30}
	for _, c := range []struct {
		h, m int
		want []string
	}{{10, 0, nil}, {9, 59, []string{WarnRestTooShort}}} {
		next := WorkPeriod{ID: "b", UserID: "u", Start: at(2026, 3, 29, c.h, c.m), End: at(2026, 3, 29, 14, 0)}
		if got := codes(CheckArbZG([]WorkPeriod{end, next}, berlin, 11)); !slices.Equal(got, c.want) {
			t.Fatalf("rest to %02d:%02d on the spring day: %v, want %v", c.h, c.m, got, c.want)
		}
	}
	// Autumn: 22:00 CEST to 08:00 CET is 11 h real.
	end = WorkPeriod{ID: "a", UserID: "u", Start: at(2026, 10, 24, 14, 0), End: at(2026, 10, 24, 22, 0), BreakMinutes: 30}
	for _, c := range []struct {
		h, m int
		want []string
	}{{8, 0, nil}, {7, 59, []string{WarnRestTooShort}}} {
		next := WorkPeriod{ID: "b", UserID: "u", Start: at(2026, 10, 25, c.h, c.m), End: at(2026, 10, 25, 13, 0)}
		if got := codes(CheckArbZG([]WorkPeriod{end, next}, berlin, 11)); !slices.Equal(got, c.want) {
			t.Fatalf("rest to %02d:%02d on the autumn day: %v, want %v", c.h, c.m, got, c.want)
		}
	}
}

// TestArbZGParams: each warning carries the numbers its message states,
// by name, so a client can word it in German (docs/TIMECLOCK.md).
func TestArbZGParams(t *testing.T) {
	h, m := time.Hour, time.Minute
	start := at(2026, 11, 23, 8, 0)
	ws := CheckArbZG([]WorkPeriod{
		{ID: "a", UserID: "u", Start: start, End: start.Add(10*h + 15*m + 44*m), BreakMinutes: 44},
		// 10 h of rest after the day's end at 18:59.
		{ID: "b", UserID: "u", Start: at(2026, 11, 24, 4, 59), End: at(2026, 11, 24, 8, 0)},
	}, berlin, 11)
	want := map[string]map[string]int{
		WarnBreakTooShort: {"worked_minutes": 615, "break_minutes": 44, "required_minutes": 45, "over_hours": 9},
		WarnDailyMax:      {"worked_minutes": 615, "max_hours": 10},
		WarnRestTooShort:  {"rest_minutes": 600, "required_hours": 11},
	}
	if len(ws) != len(want) {
		t.Fatalf("warnings %v, want %d", codes(ws), len(want))
	}
	for _, w := range ws {
		if !maps.Equal(w.Params, want[w.Code]) {
			t.Errorf("%s params %v, want %v", w.Code, w.Params, want[w.Code])
		}
	}
}
