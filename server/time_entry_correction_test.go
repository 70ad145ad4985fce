package server

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/store"
)

// An admin enters a missing entry, corrects a punched one and closes a
// forgotten one; each change needs a reason and writes exactly one history
// row, the punch stays visible, and no route changes the history.
func TestTimeEntryCorrections(t *testing.T) {
	e := newTestEnv(t) // 2026-11-22 09:00 UTC
	sam, _ := e.staff(t, "Sam Staff")

	t.Run("CreateMissing", func(t *testing.T) {
		body := map[string]any{"user_id": sam.ID, "clock_in": "2026-11-20T09:00:00+01:00", "clock_out": "2026-11-20T15:00:00+01:00",
			"break_minutes": 0, "reason": "clock was offline"}
		rec := e.do(t, "POST", "/api/time-entries", body, e.adminToken)
		wantStatus(t, rec, http.StatusCreated)
		te := decodeJSON(t, rec)["time_entry"].(map[string]any)
		hist := te["history"].([]any)
		if te["source"] != "admin" || te["original"] != nil || te["worked_hours"] != 6.0 || len(hist) != 1 || te["corrected"] != false {
			t.Fatalf("created entry %v", te)
		}
		h := hist[0].(map[string]any)
		if h["action"] != "create" || h["reason"] != "clock was offline" || h["by_user_id"] != e.admin.ID || h["before"] != nil ||
			h["after"].(map[string]any)["clock_in"] != "2026-11-20T08:00:00.000Z" {
			t.Fatalf("history %v", h)
		}
		// Refused: no reason, a blank one, overlap, future, unknown user.
		for _, c := range []struct {
			change map[string]any
			field  string
		}{
			{map[string]any{"reason": nil}, "reason"},
			{map[string]any{"reason": "   "}, "reason"},
			{map[string]any{"clock_out": "2026-11-23T15:00:00+01:00"}, "clock_out"},
			{map[string]any{"clock_out": "2026-11-20T08:00:00+01:00"}, "clock_out"},
			{map[string]any{"clock_in": "2026-11-20T09:00:00"}, "clock_in"},
			{map[string]any{"user_id": store.NewID()}, "user_id"},
			{map[string]any{"break_minutes": 361}, "break_minutes"},
			{map[string]any{"break_minutes": int64(math.MaxInt64)}, "break_minutes"},
			{map[string]any{"break_minutes": int64(math.MaxInt32) + 1}, "break_minutes"},
		} {
			b := map[string]any{}
			for k, v := range body {
				b[k] = v
			}
			for k, v := range c.change {
				if v == nil {
					delete(b, k)
				} else {
					b[k] = v
				}
			}
			wantFieldError(t, e.do(t, "POST", "/api/time-entries", b, e.adminToken), c.field)
		}
		over := map[string]any{"user_id": sam.ID, "clock_in": "2026-11-20T14:00:00+01:00", "clock_out": "2026-11-20T16:00:00+01:00", "reason": "x"}
		p := wantProblem(t, e.do(t, "POST", "/api/time-entries", over, e.adminToken), http.StatusConflict, store.ETimeEntryOverlap)
		if c, _ := p["conflict"].(map[string]any); c == nil || c["user_name"] != sam.Name || c["starts_at"] == nil || c["id"] == nil {
			t.Errorf("conflict %v does not name the other entry", p["conflict"])
		}
		if n := e.countEntries(t, sam.ID); n != 1 {
			t.Fatalf("%d entries after refusals", n)
		}
	})

	var punched string
	t.Run("CorrectPunched", func(t *testing.T) {
		e.clockEntry(t, sam, time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC), 8*time.Hour, 0) // forgot the break
		punched = e.timeEntries(t, "?date=2026-11-21")[0]["id"].(string)
		e.clock.Set(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
		wantFieldError(t, e.do(t, "PATCH", "/api/time-entries/"+punched, map[string]any{"break_minutes": 30}, e.adminToken), "reason")
		wantFieldError(t, e.do(t, "PATCH", "/api/time-entries/"+punched, map[string]any{"reason": "x"}, e.adminToken), "clock_in")
		rec := e.do(t, "PATCH", "/api/time-entries/"+punched, map[string]any{"break_minutes": 30, "reason": "took lunch, forgot to say"}, e.adminToken)
		wantStatus(t, rec, http.StatusOK)
		te := decodeJSON(t, rec)["time_entry"].(map[string]any)
		orig := te["original"].(map[string]any)
		if te["break_minutes"] != 30.0 || te["worked_hours"] != 7.5 || te["corrected"] != true || orig["break_minutes"] != 0.0 ||
			orig["clock_out"] != "2026-11-21T16:00:00.000Z" || len(te["history"].([]any)) != 1 {
			t.Fatalf("corrected entry %v", te)
		}
		// The same values again: a no-op, no second history row.
		rec = e.do(t, "PATCH", "/api/time-entries/"+punched, map[string]any{"break_minutes": 30, "reason": "again"}, e.adminToken)
		if n := len(decodeJSON(t, rec)["time_entry"].(map[string]any)["history"].([]any)); n != 1 {
			t.Fatalf("a no-op wrote history: %d rows", n)
		}
		// A second correction keeps the original punch.
		rec = e.do(t, "PATCH", "/api/time-entries/"+punched, map[string]any{"clock_out": "2026-11-21T16:30:00Z", "reason": "stayed to clean"}, e.adminToken)
		te = decodeJSON(t, rec)["time_entry"].(map[string]any)
		if len(te["history"].([]any)) != 2 || te["original"].(map[string]any)["clock_out"] != "2026-11-21T16:00:00.000Z" || te["clock_out"] != "2026-11-21T16:30:00.000Z" {
			t.Fatalf("second correction %v", te)
		}
		// The list marks it corrected.
		for _, l := range e.timeEntries(t, "?date=2026-11-21") {
			if l["id"] == punched && l["corrected"] != true {
				t.Fatalf("list %v", l)
			}
		}
	})

	t.Run("CloseForgotten", func(t *testing.T) {
		e.clock.Set(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
		wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, e.tokenNow(t, sam)), http.StatusCreated)
		open := e.timeEntries(t, "")[0]["id"].(string)
		wantProblem(t, e.do(t, "PATCH", "/api/time-entries/"+open, map[string]any{"clock_out": "2026-11-22T10:00:00Z", "reason": "x"}, e.adminToken),
			http.StatusConflict, store.ETimeEntryOpen)
		e.clock.Add(20 * time.Hour)
		admin := e.tokenNow(t, e.admin)
		wantFieldError(t, e.do(t, "POST", "/api/time-entries/"+open+"/close", map[string]any{"clock_out": "2026-11-22T08:00:00Z", "reason": "x"}, admin), "clock_out")
		wantFieldError(t, e.do(t, "POST", "/api/time-entries/"+open+"/close", map[string]any{"clock_out": "2026-11-22T17:00:00Z"}, admin), "reason")
		rec := e.do(t, "POST", "/api/time-entries/"+open+"/close", map[string]any{"clock_out": "2026-11-22T17:00:00Z", "break_minutes": 30, "reason": "forgot to clock out"}, admin)
		wantStatus(t, rec, http.StatusOK)
		te := decodeJSON(t, rec)["time_entry"].(map[string]any)
		if te["clock_out"] != "2026-11-22T17:00:00.000Z" || te["worked_hours"] != 7.5 || te["original"].(map[string]any)["clock_out"] != nil {
			t.Fatalf("closed %v", te)
		}
		wantProblem(t, e.do(t, "POST", "/api/time-entries/"+open+"/close", map[string]any{"clock_out": "2026-11-22T18:00:00Z", "reason": "x"}, admin),
			http.StatusConflict, store.ETimeEntryClosed)
		wantProblem(t, e.do(t, "POST", "/api/shifts/clock-out", nil, e.tokenNow(t, sam)), http.StatusConflict, store.ENotClockedIn)
		rec = e.do(t, "GET", "/api/time-entries/history/"+open, nil, admin)
		wantStatus(t, rec, http.StatusOK)
		if h := decodeJSON(t, rec)["time_entry"].(map[string]any)["history"].([]any); len(h) != 1 || h[0].(map[string]any)["action"] != "close" {
			t.Fatalf("history %v", h)
		}
	})

	t.Run("HistoryIsAppendOnly", func(t *testing.T) {
		var n int
		if err := e.st.ReadDB().QueryRow(`SELECT count(*) FROM time_entry_corrections`).Scan(&n); err != nil || n != 4 {
			t.Fatalf("%d history rows (%v), want 4", n, err)
		}
		// No route writes history but by adding: there is no DELETE or PUT.
		for _, m := range []string{"DELETE", "PUT"} {
			wantProblem(t, e.do(t, m, "/api/time-entries/"+punched, nil, e.adminToken), http.StatusMethodNotAllowed, eMethodNotAllowed)
		}
		// And the database refuses it whoever asks.
		err := e.st.Write(context.Background(), func(tx *store.Tx) error {
			_, err := tx.ExecContext(context.Background(), `UPDATE time_entry_corrections SET reason = 'nothing happened'`)
			return err
		})
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("UPDATE of the history: %v", err)
		}
		err = e.st.Write(context.Background(), func(tx *store.Tx) error {
			_, err := tx.ExecContext(context.Background(), `DELETE FROM time_entry_corrections`)
			return err
		})
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("DELETE of the history: %v", err)
		}
		if err := e.st.ReadDB().QueryRow(`SELECT count(*) FROM time_entry_corrections WHERE reason <> 'nothing happened'`).Scan(&n); err != nil || n != 4 {
			t.Fatalf("%d history rows after the attempts", n)
		}
	})
}

func (e *testEnv) countEntries(tb testing.TB, userID string) int {
	tb.Helper()
	var n int
	if err := e.st.ReadDB().QueryRow(`SELECT count(*) FROM time_entries WHERE user_id = ?`, userID).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// An admin closing an entry while its owner clocks out, over real HTTP:
// in every round exactly one wins, the other gets a clear 409, and the
// entry is closed once (one clock_out event or one history row, never
// both).
func TestCloseWhileClockingOut(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	e.notifyOn(t, store.EventClockOut) // so the events are stored
	ts := httptest.NewServer(e.h)
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	send := func(path, token string, body any) (int, string) {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", ts.URL+path, bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		var p struct {
			Code string `json:"code"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&p)
		return resp.StatusCode, p.Code
	}
	const rounds = 20
	adminWins, staffWins := 0, 0
	for i := range rounds {
		e.clock.Set(time.Date(2026, 11, 1+i, 8, 0, 0, 0, time.UTC))
		wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, e.tokenNow(t, sam)), http.StatusCreated)
		open, err := e.st.OpenEntry(context.Background(), e.restaurant.ID, sam.ID)
		if err != nil {
			t.Fatal(err)
		}
		e.clock.Add(4 * time.Hour)
		staffTok, adminTok := e.tokenNow(t, sam), e.tokenNow(t, e.admin)
		var wg sync.WaitGroup
		start := make(chan struct{})
		var staffStatus, adminStatus int
		var staffCode, adminCode string
		wg.Go(func() {
			<-start
			staffStatus, staffCode = send("/api/shifts/clock-out", staffTok, map[string]any{"break_minutes": 0})
		})
		wg.Go(func() {
			<-start
			adminStatus, adminCode = send("/api/time-entries/"+open.ID+"/close", adminTok,
				map[string]any{"clock_out": store.FormatTime(e.clock.Now().Add(-time.Hour)), "reason": "forgot"})
		})
		close(start)
		wg.Wait()
		switch {
		case staffStatus == 200 && adminStatus == 409 && adminCode == store.ETimeEntryClosed:
			staffWins++
		case adminStatus == 200 && staffStatus == 409 && staffCode == store.ENotClockedIn:
			adminWins++
		default:
			t.Fatalf("round %d: staff %d %s, admin %d %s; want one 200 and one clear 409", i, staffStatus, staffCode, adminStatus, adminCode)
		}
	}
	var entries, open, hist int
	db := e.st.ReadDB()
	_ = db.QueryRow(`SELECT count(*), count(*) - count(clock_out) FROM time_entries WHERE user_id = ?`, sam.ID).Scan(&entries, &open)
	_ = db.QueryRow(`SELECT count(*) FROM time_entry_corrections WHERE action = 'close'`).Scan(&hist)
	outs := len(e.storedEvents(t, store.EventClockOut))
	if entries != rounds || open != 0 || hist != adminWins || outs != staffWins || hist+outs != rounds {
		t.Fatalf("%d entries, %d open, %d closes by the admin, %d clock-outs; admin won %d, staff %d", entries, open, hist, outs, adminWins, staffWins)
	}
	t.Logf("admin won %d rounds, staff %d", adminWins, staffWins)
}

// An entry open past the limit is flagged on the dashboard and raises one
// event, however often the check runs; it stays open.
func TestOpenEntryFlagged(t *testing.T) {
	e := newTestEnv(t)
	_, tok := e.staff(t, "Sam Staff")
	e.notifyOn(t, store.EventTimeEntryOpenTooLong) // so the event is stored
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, tok), http.StatusCreated)
	dash := func() map[string]any {
		rec := e.do(t, "GET", "/api/dashboard", nil, e.tokenNow(t, e.admin))
		wantStatus(t, rec, http.StatusOK)
		return decodeJSON(t, rec)["dashboard"].(map[string]any)["clocked_in"].([]any)[0].(map[string]any)
	}
	e.clock.Add(16 * time.Hour)
	if n, _ := e.st.FlagOpenEntries(context.Background()); n != 0 || dash()["open_too_long"] != false {
		t.Fatal("flagged at exactly 16 h")
	}
	e.clock.Add(time.Minute)
	if d := dash(); d["open_too_long"] != true || d["open_flagged_at"] != nil {
		t.Fatalf("dashboard before the check %v", d)
	}
	for range 3 {
		if _, err := e.st.FlagOpenEntries(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if d := dash(); d["open_flagged_at"] != "2026-11-23T01:01:00.000Z" {
		t.Fatalf("dashboard after the check %v", d)
	}
	evs := e.events(t, store.EventTimeEntryOpenTooLong)
	if len(evs) != 1 || evs[0]["time_entry"].(map[string]any)["user_name"] != "Sam Staff" || evs[0]["limit_hours"] != 16.0 || evs[0]["local_time"] != "2026-11-22 10:00" {
		t.Fatalf("events %v", evs)
	}
	// A shorter limit applies to the next check.
	wantStatus(t, e.do(t, "PATCH", "/api/restaurant", map[string]any{"open_entry_limit_hours": 1}, e.tokenNow(t, e.admin)), http.StatusOK)
	if decodeJSON(t, e.do(t, "GET", "/api/shifts/my-status", nil, e.tokenNow(t, e.admin)))["clocked_in"] != false {
		t.Fatal("the admin is not clocked in")
	}
}

// The new event types can be subscribed to like the others: a rule for
// labour_law_warning gets a delivery when a clock-out breaks § 4.
func TestLabourWarningEventSubscribable(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	for _, typ := range []string{store.EventLabourLawWarning, store.EventTimeEntryOpenTooLong} {
		wantStatus(t, e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": "email", "event_type": typ,
			"is_enabled": true, "destination": "boss@example.com"}, e.adminToken), http.StatusCreated)
	}
	e.clockEntry(t, sam, time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC), 6*time.Hour+30*time.Minute, 29) // 6 h 01 with 29 min
	rec := e.do(t, "GET", "/api/notifications/deliveries", nil, e.tokenNow(t, e.admin))
	wantStatus(t, rec, http.StatusOK)
	n := 0
	for _, d := range decodeJSON(t, rec)["deliveries"].([]any) {
		if d.(map[string]any)["event_type"] == store.EventLabourLawWarning {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d labour_law_warning deliveries, want 1: %s", n, rec.Body.String())
	}
	ev := e.events(t, store.EventLabourLawWarning)[0]
	w := ev["warnings"].([]any)[0].(map[string]any)
	if ev["source"] != "clock_out" || ev["user_name"] != "Sam Staff" || w["code"] != "break_too_short" || w["rule"] != "ArbZG §4" {
		t.Fatalf("event %v", ev)
	}
}
