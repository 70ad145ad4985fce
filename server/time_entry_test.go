package server

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

func TestClockInOut(t *testing.T) {
	e := newTestEnv(t)
	sam, tok := e.staff(t, "Sam Staff")
	e.notifyOn(t, store.EventClockIn, store.EventClockOut) // so the events are stored

	rec := e.do(t, "GET", "/api/shifts/my-status", nil, tok)
	wantStatus(t, rec, http.StatusOK)
	if strings.TrimSpace(rec.Body.String()) != `{"clocked_in":false,"time_entry":null}` {
		t.Fatalf("my-status before clock-in: %s", rec.Body.String())
	}
	t.Run("ErrClockOutWhenNotClockedIn", func(t *testing.T) {
		wantProblem(t, e.do(t, "POST", "/api/shifts/clock-out", nil, tok), http.StatusConflict, store.ENotClockedIn)
	})

	rec = e.do(t, "POST", "/api/shifts/clock-in", nil, tok)
	wantStatus(t, rec, http.StatusCreated)
	var body map[string]json.RawMessage
	decodeInto(t, rec.Body.Bytes(), &body)
	if keys := jsonKeys(t, body["time_entry"]); !reflect.DeepEqual(keys, []string{"id", "user_id", "clock_in", "clock_out", "break_minutes"}) {
		t.Fatalf("time entry fields %v", keys)
	}
	in := decodeJSON(t, rec)["time_entry"].(map[string]any)
	if in["user_id"] != sam.ID || in["clock_in"] != "2026-11-22T09:00:00.000Z" || in["clock_out"] != nil || in["break_minutes"] != 0.0 {
		t.Fatalf("clock-in entry %v", in)
	}
	st := decodeJSON(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok))
	if st["clocked_in"] != true || !reflect.DeepEqual(st["time_entry"], in) {
		t.Fatalf("my-status while clocked in: %v", st)
	}
	t.Run("ErrAlreadyClockedIn", func(t *testing.T) {
		wantProblem(t, e.do(t, "POST", "/api/shifts/clock-in", nil, tok), http.StatusConflict, store.EAlreadyClockedIn)
	})

	e.clock.Add(30 * time.Minute)
	t.Run("ErrBadBreak", func(t *testing.T) {
		wantFieldError(t, e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": 31}, tok), "break_minutes")
		wantFieldError(t, e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": -1}, tok), "break_minutes")
		// So large that minutes × time.Minute would wrap round.
		wantFieldError(t, e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": int64(math.MaxInt64)}, tok), "break_minutes")
		wantFieldError(t, e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": int64(math.MaxInt32) + 1}, tok), "break_minutes")
		wantFieldError(t, e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": "5"}, tok), "break_minutes")
		wantFieldError(t, e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": 2.5}, tok), "break_minutes")
		wantProblem(t, e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"pause": 5}, tok), http.StatusBadRequest, eUnknownField)
		wantProblem(t, e.do(t, "POST", "/api/shifts/clock-out", `{"break_minutes":`, tok), http.StatusBadRequest, eMalformedJSON)
		wantProblem(t, e.do(t, "POST", "/api/shifts/clock-out", `break_minutes=5`, tok, "Content-Type", "text/plain"), http.StatusUnsupportedMediaType, eUnsupportedMedia)
		// The clock-out closes the entry and then checks the break: a
		// refusal must undo the close, the break and the updated_at.
		if st := decodeJSON(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok)); st["clocked_in"] != true || !reflect.DeepEqual(st["time_entry"], in) {
			t.Fatalf("a refused clock-out changed the entry: %v", st)
		}
		if n := e.countRows(t, `SELECT count(*) FROM time_entries WHERE user_id = ? AND (clock_out IS NOT NULL OR break_minutes <> 0 OR updated_at <> created_at)`, sam.ID); n != 0 {
			t.Fatalf("a refused clock-out left %d changed entries", n)
		}
	})

	rec = e.do(t, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": 30}, tok) // the whole entry was a break
	wantStatus(t, rec, http.StatusOK)
	out := decodeJSON(t, rec)["time_entry"].(map[string]any)
	if out["id"] != in["id"] || out["clock_out"] != "2026-11-22T09:30:00.000Z" || out["break_minutes"] != 30.0 || out["clock_in"] != in["clock_in"] {
		t.Fatalf("clock-out entry %v", out)
	}
	if strings.TrimSpace(e.do(t, "GET", "/api/shifts/my-status", nil, tok).Body.String()) != `{"clocked_in":false,"time_entry":null}` {
		t.Fatal("still clocked in after clock-out")
	}
	wantProblem(t, e.do(t, "POST", "/api/shifts/clock-out", nil, tok), http.StatusConflict, store.ENotClockedIn)

	t.Run("ClockOutWithoutBodyOrEmptyObject", func(t *testing.T) {
		for _, b := range []any{nil, `{}`, `{"break_minutes":null}`} {
			wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, tok), http.StatusCreated)
			e.clock.Add(time.Minute)
			rec := e.do(t, "POST", "/api/shifts/clock-out", b, tok)
			wantStatus(t, rec, http.StatusOK)
			if decodeJSON(t, rec)["time_entry"].(map[string]any)["break_minutes"] != 0.0 {
				t.Fatalf("default break: %s", rec.Body.String())
			}
		}
	})
	t.Run("AdminClocksToo", func(t *testing.T) {
		wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, e.adminToken), http.StatusCreated)
		if decodeJSON(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok))["clocked_in"] != false {
			t.Fatal("the admin's clock-in shows in Sam's status")
		}
	})
	t.Run("Events", func(t *testing.T) {
		ins, outs := e.events(t, store.EventClockIn), e.events(t, store.EventClockOut)
		if len(ins) != 5 || len(outs) != 4 {
			t.Fatalf("%d clock_in and %d clock_out events, want 5 and 4", len(ins), len(outs))
		}
		first := ins[0]["time_entry"].(map[string]any)
		if ins[0]["action"] != "clock_in" || first["user_name"] != "Sam Staff" || first["clock_in"] != "2026-11-22T09:00:00.000Z" ||
			ins[0]["local_time"] != "2026-11-22 10:00" || ins[0]["timezone"] != "Europe/Berlin" {
			t.Fatalf("clock_in event %v", ins[0])
		}
		o := outs[0]["time_entry"].(map[string]any)
		if outs[0]["action"] != "clock_out" || o["clock_out"] != "2026-11-22T09:30:00.000Z" || o["break_minutes"] != 30.0 ||
			o["worked_hours"] != 0.0 || outs[0]["local_time"] != "2026-11-22 10:30" {
			t.Fatalf("clock_out event %v", outs[0])
		}
	})
}

// clockEntry makes one closed (or open, when d is 0) entry for u starting
// at the clock's current instant, through the API.
func (e *testEnv) clockEntry(tb testing.TB, u *store.User, at time.Time, d time.Duration, breakMin int) {
	tb.Helper()
	e.clock.Set(at)
	wantStatus(tb, e.do(tb, "POST", "/api/shifts/clock-in", nil, e.tokenNow(tb, u)), http.StatusCreated)
	if d == 0 {
		return
	}
	e.clock.Set(at.Add(d))
	wantStatus(tb, e.do(tb, "POST", "/api/shifts/clock-out", map[string]any{"break_minutes": breakMin}, e.tokenNow(tb, u)), http.StatusOK)
}

// tokenNow mints a token for u valid at the clock's current instant, for
// tests that move the clock by hours or days.
func (e *testEnv) tokenNow(tb testing.TB, u *store.User) string {
	tb.Helper()
	tok, err := IssueToken(testKey, u, e.clock.Now(), time.Hour)
	if err != nil {
		tb.Fatal(err)
	}
	return tok
}

// timeEntries lists time entries through the API.
func (e *testEnv) timeEntries(tb testing.TB, query string) []map[string]any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/time-entries"+query, nil, e.tokenNow(tb, e.admin))
	wantStatus(tb, rec, http.StatusOK)
	var body struct {
		Entries []map[string]any `json:"time_entries"`
	}
	decodeInto(tb, rec.Body.Bytes(), &body)
	return body.Entries
}

func TestTimeEntriesWorkedHours(t *testing.T) {
	e := newTestEnv(t)
	day := time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC) // 08:00 in Berlin
	cases := []struct {
		name string
		d    time.Duration
		brk  int
		want string // worked_hours as the JSON literal
	}{
		{"SevenAndAHalf", 8 * time.Hour, 30, "7.5"},
		{"Whole", 2 * time.Hour, 0, "2"},
		{"ThirdRoundsDown", 20 * time.Minute, 0, "0.33"},
		{"TwoThirdsRoundsUp", 40 * time.Minute, 0, "0.67"},
		{"HalfHundredthRoundsUp", time.Hour + 18*time.Second, 0, "1.01"},                       // 1.005 h
		{"JustBelowHalfRoundsDown", time.Hour + 17*time.Second + 999*time.Millisecond, 0, "1"}, // 1.004999 h
		{"BreakAsLongAsEntry", 45 * time.Minute, 45, "0"},
	}
	for i, tc := range cases {
		u, _ := e.staff(t, "Worker "+tc.name)
		e.clockEntry(t, u, day.Add(time.Duration(i)*time.Minute), tc.d, tc.brk)
	}
	open, _ := e.staff(t, "Still Working")
	e.clockEntry(t, open, day.Add(time.Hour), 0, 0)

	e.clock.Set(day.Add(3*time.Hour + 15*time.Minute)) // the open entry has run 2 h 15 min
	rec := e.do(t, "GET", "/api/time-entries?date=2026-11-23", nil, e.tokenNow(t, e.admin))
	wantStatus(t, rec, http.StatusOK)
	var body struct {
		Entries []map[string]json.RawMessage `json:"time_entries"`
	}
	decodeInto(t, rec.Body.Bytes(), &body)
	if len(body.Entries) != len(cases)+1 {
		t.Fatalf("%d entries, want %d", len(body.Entries), len(cases)+1)
	}
	var raw struct {
		Entries []json.RawMessage `json:"time_entries"`
	}
	decodeInto(t, rec.Body.Bytes(), &raw)
	if keys := jsonKeys(t, raw.Entries[0]); !reflect.DeepEqual(keys, []string{"id", "user_id", "user_name", "clock_in", "clock_out", "break_minutes", "worked_hours",
		"source", "corrected", "open_too_long", "open_flagged_at", "warnings"}) { // the contract's, then the appliance's
		t.Fatalf("admin time entry fields %v", keys)
	}
	for i, tc := range cases {
		if got := string(body.Entries[i]["worked_hours"]); got != tc.want {
			t.Errorf("%s: worked_hours %s, want %s", tc.name, got, tc.want)
		}
		if got := string(body.Entries[i]["user_name"]); got != `"Worker `+tc.name+`"` {
			t.Errorf("entry %d is %s; not sorted by clock_in", i, got)
		}
	}
	if o := body.Entries[len(cases)]; string(o["worked_hours"]) != "2.25" || string(o["clock_out"]) != "null" {
		t.Fatalf("open entry %v", o)
	}
	e.clock.Add(15 * time.Minute)
	if got := e.timeEntries(t, "?date=2026-11-23")[len(cases)]["worked_hours"]; got != 2.5 {
		t.Fatalf("open entry after 15 more minutes: %v, want 2.5", got)
	}
}

func TestTimeEntriesByLocalDate(t *testing.T) {
	e := newTestEnv(t)
	late, _ := e.staff(t, "Late Lou")
	early, _ := e.staff(t, "Early Eve")
	gone, _ := e.staff(t, "Gone Gus")
	// 23:30 on the 22nd and 00:30 on the 23rd in Berlin: both are the 22nd in UTC.
	e.clockEntry(t, late, time.Date(2026, 11, 22, 22, 30, 0, 0, time.UTC), time.Hour, 0)
	e.clockEntry(t, early, time.Date(2026, 11, 22, 23, 30, 0, 0, time.UTC), time.Hour, 0)
	e.clockEntry(t, gone, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), time.Hour, 0)
	if err := e.st.DeleteUser(context.Background(), e.restaurant.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	names := func(list []map[string]any) []string {
		var out []string
		for _, x := range list {
			out = append(out, x["user_name"].(string))
		}
		return out
	}
	if got := names(e.timeEntries(t, "?date=2026-11-22")); !reflect.DeepEqual(got, []string{"Gone Gus", "Late Lou"}) {
		t.Errorf("2026-11-22: %v", got)
	}
	if got := names(e.timeEntries(t, "?date=2026-11-23")); !reflect.DeepEqual(got, []string{"Early Eve"}) {
		t.Errorf("2026-11-23: %v", got)
	}
	t.Run("DefaultIsTodayInTheRestaurant", func(t *testing.T) {
		e.clock.Set(time.Date(2026, 11, 22, 23, 45, 0, 0, time.UTC)) // already the 23rd in Berlin
		if got := names(e.timeEntries(t, "")); !reflect.DeepEqual(got, []string{"Early Eve"}) {
			t.Errorf("default date at 00:45 local: %v", got)
		}
		e.clock.Set(time.Date(2026, 11, 22, 22, 59, 0, 0, time.UTC)) // 23:59 on the 22nd
		if got := names(e.timeEntries(t, "")); !reflect.DeepEqual(got, []string{"Gone Gus", "Late Lou"}) {
			t.Errorf("default date at 23:59 local: %v", got)
		}
	})
	t.Run("DSTDayIs23Hours", func(t *testing.T) {
		sue, _ := e.staff(t, "Spring Sue")
		// 2026-03-29 starts at 23:00Z on the 28th and ends at 22:00Z on the 29th.
		e.clockEntry(t, sue, time.Date(2026, 3, 28, 23, 0, 0, 0, time.UTC), time.Minute, 0)
		e.clockEntry(t, sue, time.Date(2026, 3, 29, 21, 59, 0, 0, time.UTC), time.Minute, 0)
		e.clockEntry(t, sue, time.Date(2026, 3, 29, 22, 0, 0, 0, time.UTC), time.Minute, 0)
		if n := len(e.timeEntries(t, "?date=2026-03-29")); n != 2 {
			t.Errorf("2026-03-29 has %d entries, want 2", n)
		}
		if n := len(e.timeEntries(t, "?date=2026-03-30")); n != 1 {
			t.Errorf("2026-03-30 has %d entries, want 1", n)
		}
	})
	t.Run("ErrBadDate", func(t *testing.T) {
		for _, d := range []string{"22.11.2026", "2026-11-31", "today"} {
			wantFieldError(t, e.do(t, "GET", "/api/time-entries?date="+d, nil, e.tokenNow(t, e.admin)), "date")
		}
	})
	t.Run("OtherRestaurantSeesNothing", func(t *testing.T) {
		r2 := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
		if err := e.st.CreateRestaurant(context.Background(), r2); err != nil {
			t.Fatal(err)
		}
		boss, _ := e.addUser(t, r2.ID, "boss@other.local", "Boss", store.RoleAdmin)
		rec := e.do(t, "GET", "/api/time-entries?date=2026-11-22", nil, e.tokenNow(t, boss))
		if strings.TrimSpace(rec.Body.String()) != `{"time_entries":[]}` {
			t.Fatalf("other restaurant sees %s", rec.Body.String())
		}
	})
}
