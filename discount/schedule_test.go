package discount

import (
	"testing"
	"time"

	"posbox/store"
)

var berlin = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return loc
}()

// at is a Berlin instant given in UTC, so a test names exactly which of
// two equal wall times it means.
func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func win(day int, from, to string) store.ScheduleWindow {
	f, _ := store.ParseClock(from)
	t, _ := store.ParseClock(to)
	return store.ScheduleWindow{Weekday: day, From: f, To: t}
}

// TestOpenAt: the rule on ordinary days, across midnight and on the two
// days Berlin changes its clocks in 2026 (29 March, 25 October, both
// Sundays).
func TestOpenAt(t *testing.T) {
	weekdays := []store.ScheduleWindow{win(1, "17:00", "19:00"), win(2, "17:00", "19:00"), win(3, "17:00", "19:00"),
		win(4, "17:00", "19:00"), win(5, "17:00", "19:00")}
	fridayNight := []store.ScheduleWindow{win(5, "22:00", "02:00")}
	sundayTwo := []store.ScheduleWindow{win(7, "02:00", "03:00")}
	saturdayLate := []store.ScheduleWindow{win(6, "23:00", "03:00")}
	wholeSunday := []store.ScheduleWindow{win(7, "00:00", "00:00")}
	for _, tc := range []struct {
		name string
		ws   []store.ScheduleWindow
		t    string // UTC
		want bool
	}{
		{"NoScheduleAlways", nil, "2026-11-22T03:00:00Z", true},
		// Monday 23 November 2026, CET (UTC+1).
		{"MondayBeforeStart", weekdays, "2026-11-23T15:59:00Z", false},
		{"MondayAtStart", weekdays, "2026-11-23T16:00:00Z", true},
		{"MondayLastMinute", weekdays, "2026-11-23T17:59:59Z", true},
		{"MondayAtEnd", weekdays, "2026-11-23T18:00:00Z", false},
		{"SaturdayNot", weekdays, "2026-11-28T16:30:00Z", false},
		// Friday 27 November 22:00-02:00 belongs to Friday.
		{"FridayNightBefore", fridayNight, "2026-11-27T20:59:00Z", false},
		{"FridayNightStart", fridayNight, "2026-11-27T21:00:00Z", true},
		{"FridayNightMidnight", fridayNight, "2026-11-27T23:00:00Z", true},
		{"SaturdayOneThirty", fridayNight, "2026-11-28T00:30:00Z", true},
		{"SaturdayTwo", fridayNight, "2026-11-28T01:00:00Z", false},
		{"SaturdayTwentyThree", fridayNight, "2026-11-28T22:00:00Z", false},
		{"ThursdayOneThirty", fridayNight, "2026-11-27T00:30:00Z", false},
		{"WholeDayStart", wholeSunday, "2026-11-28T23:00:00Z", true},
		{"WholeDayLast", wholeSunday, "2026-11-29T22:59:00Z", true},
		{"WholeDayNextMonday", wholeSunday, "2026-11-29T23:00:00Z", false},
		// Spring forward, Sunday 29 March 2026: 02:00 CET jumps to 03:00
		// CEST (01:00Z); 02:00-03:00 never shows.
		{"SpringBeforeGap", sundayTwo, "2026-03-29T00:59:00Z", false},
		{"SpringAfterGap", sundayTwo, "2026-03-29T01:00:00Z", false},
		{"SpringAfterGapLater", sundayTwo, "2026-03-29T01:30:00Z", false},
		{"SpringAcrossMidnightBeforeGap", saturdayLate, "2026-03-29T00:30:00Z", true}, // 01:30 CET
		{"SpringAcrossMidnightAfterGap", saturdayLate, "2026-03-29T01:00:00Z", false}, // 03:00 CEST
		{"SpringAcrossMidnightStart", saturdayLate, "2026-03-28T22:00:00Z", true},     // Sat 23:00 CET
		// Fall back, Sunday 25 October 2026: 03:00 CEST goes back to 02:00
		// CET (01:00Z); 02:00-03:00 shows twice, 00:00Z-02:00Z.
		{"FallBeforeFirst", sundayTwo, "2026-10-24T23:59:00Z", false},      // 01:59 CEST
		{"FallFirst", sundayTwo, "2026-10-25T00:00:00Z", true},             // 02:00 CEST
		{"FallFirstLast", sundayTwo, "2026-10-25T00:59:00Z", true},         // 02:59 CEST
		{"FallSecond", sundayTwo, "2026-10-25T01:00:00Z", true},            // 02:00 CET
		{"FallSecondLast", sundayTwo, "2026-10-25T01:59:00Z", true},        // 02:59 CET
		{"FallAfter", sundayTwo, "2026-10-25T02:00:00Z", false},            // 03:00 CET
		{"FallAcrossMidnight", saturdayLate, "2026-10-25T01:30:00Z", true}, // 02:30 CET, second time
		{"FallAcrossMidnightEnd", saturdayLate, "2026-10-25T02:00:00Z", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := OpenAt(tc.ws, at(tc.t), berlin); got != tc.want {
				t.Fatalf("OpenAt(%s = %s) = %v, want %v", tc.t, at(tc.t).In(berlin).Format("Mon 15:04 MST"), got, tc.want)
			}
		})
	}
}

// TestNextOpening: the opening the refusal names, in Berlin.
func TestNextOpening(t *testing.T) {
	for _, tc := range []struct {
		name string
		ws   []store.ScheduleWindow
		t    string // UTC
		want string // UTC; "" none
	}{
		{"LaterToday", []store.ScheduleWindow{win(1, "17:00", "19:00")}, "2026-11-23T09:00:00Z", "2026-11-23T16:00:00Z"},
		{"NextWeek", []store.ScheduleWindow{win(1, "17:00", "19:00")}, "2026-11-23T18:00:00Z", "2026-11-30T16:00:00Z"},
		{"AcrossMidnightTomorrow", []store.ScheduleWindow{win(5, "22:00", "02:00")}, "2026-11-27T01:30:00Z", "2026-11-27T21:00:00Z"},
		// Spring forward: a window starting in the gap opens when the gap
		// ends (03:00 CEST), not at 03:30.
		{"SpringGapStart", []store.ScheduleWindow{win(7, "02:30", "04:00")}, "2026-03-28T12:00:00Z", "2026-03-29T01:00:00Z"},
		{"SpringGapOnlyNextWeek", []store.ScheduleWindow{win(7, "02:00", "03:00")}, "2026-03-28T12:00:00Z", "2026-04-05T00:00:00Z"},
		// Fall back: closed between the two 02:30s; the second one opens.
		{"FallSecondOccurrence", []store.ScheduleWindow{win(7, "02:30", "03:00")}, "2026-10-25T00:59:00Z", "2026-10-25T01:30:00Z"},
		{"SpringAfterWeekday", []store.ScheduleWindow{win(1, "17:00", "19:00")}, "2026-03-27T12:00:00Z", "2026-03-30T15:00:00Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := NextOpening(tc.ws, at(tc.t), berlin)
			if tc.want == "" {
				if ok {
					t.Fatalf("next %s, want none", got)
				}
				return
			}
			if !ok || !got.Equal(at(tc.want)) {
				t.Fatalf("next %v (%v), want %s", got.UTC(), ok, tc.want)
			}
		})
	}
}

// TestCheck: the refusal's code and detail.
func TestCheck(t *testing.T) {
	d := &store.Discount{Name: "Happy Hour", Schedule: []store.ScheduleWindow{win(1, "17:00", "19:00")}}
	check := Check(berlin)
	if err := check(d, at("2026-11-23T16:30:00Z")); err != nil {
		t.Fatalf("inside: %v", err)
	}
	err := check(d, at("2026-11-23T09:00:00Z"))
	if store.ErrorCode(err) != store.EDiscountOutsideSchedule {
		t.Fatalf("outside: %v", err)
	}
	want := `discount "Happy Hour" is outside its schedule; it opens next on Mon 2026-11-23 at 17:00 (Europe/Berlin)`
	if se, ok := err.(*store.Error); !ok || se.Message != want {
		t.Fatalf("detail %v, want %q", err, want)
	}
	r := Request{Open: Opener(berlin)} // the pricing core asks it
	if !r.Open(d, at("2026-11-23T16:30:00Z")) || r.Open(d, at("2026-11-23T18:30:00Z")) {
		t.Fatal("Opener disagrees with OpenAt")
	}
}
