package server

import (
	"bytes"
	"testing"
	"time"

	"posbox/store"
)

// TestShiftListJSONIsEncodingJSONs: the week's hand-written answer is
// byte for byte what encoding/json makes of the same shifts, for every
// kind of value a shift can hold: names and notes a person typed (umlauts,
// quotes, tabs, <>&, U+2028, invalid UTF-8, emoji), drafts and published
// shifts, no notes, warnings with their parameters, unstaffed shifts and
// planned hours with and without a fraction.
func TestShiftListJSONIsEncodingJSONs(t *testing.T) {
	at := time.Date(2026, 12, 7, 9, 0, 0, 123e6, time.UTC)
	pub := at.Add(time.Hour)
	texts := []string{"", "Anna Müller", `Sam "Sunny" O'Neil`, "back\\slash", "tab\there\nline",
		"<b>&amp;</b>", "line\u2028sep\u2029", "bad \xff byte", "emoji 🍕", "ctl \x01\x1f\x7f", "日本語"}
	var shifts []*store.Shift
	ws := map[string][]store.LabourWarning{}
	for i, txt := range texts {
		note := txt
		sh := &store.Shift{ID: store.NewID(), RestaurantID: "r", UserID: store.NewID(), UserName: txt, ShiftDate: "2026-12-07",
			StartTime: "10:00", EndTime: "18:31", StartsAt: at, EndsAt: at.Add(8*time.Hour + time.Duration(i*7)*time.Minute),
			BreakMinutes: i * 5, Role: txt, Status: []string{store.ShiftPending, store.ShiftConfirmed, store.ShiftCancelled}[i%3],
			CreatedAt: at, UpdatedAt: at.Add(time.Duration(i) * time.Millisecond), UserActive: i%4 != 0}
		if i%2 == 0 {
			sh.Notes = &note
		}
		if i%3 == 0 {
			sh.PublishedAt = &pub
		}
		if i%5 == 1 {
			ws[sh.ID] = []store.LabourWarning{{Code: store.WarnBreakTooShort, Rule: store.RuleBreak, Date: "2026-12-07",
				Message: "8 h 00 min worked with 0 min of break; more than 6 h of work needs at least 30 min",
				Params:  map[string]int{"worked_minutes": 480, "break_minutes": 0, "required_minutes": 30, "over_hours": 6}},
				{Code: store.WarnRestTooShort, Rule: store.RuleRest, Date: "2026-12-07", Message: txt,
					Params: map[string]int{"rest_minutes": 600, "required_hours": 11}}, {Code: "x", Params: map[string]int{}}}
		}
		shifts = append(shifts, sh)
	}
	for _, list := range [][]*store.Shift{nil, shifts[:1], shifts} {
		want, err := renderJSON(envelope{"shifts": toShiftsJSON(list, ws)})
		if err != nil {
			t.Fatal(err)
		}
		got := renderShiftList(list, ws)
		if !bytes.Equal(got, want) {
			t.Errorf("%d shifts: the list's answer differs from encoding/json's:\n got %s\nwant %s", len(list), got, want)
		}
	}
}
