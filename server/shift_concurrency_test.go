package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"posbox/store"
)

// hammer sends n requests at once to a real HTTP server and returns the
// status codes and problem codes, counted.
func hammer(tb testing.TB, e *testEnv, n int, method, path, token string, body func(i int) any) (statuses map[int]int, codes map[string]int) {
	tb.Helper()
	return hammerPaths(tb, e, n, method, func(int) string { return path }, token, body)
}

// hammerPaths is hammer with a path per request.
func hammerPaths(tb testing.TB, e *testEnv, n int, method string, path func(i int) string, token string, body func(i int) any) (statuses map[int]int, codes map[string]int) {
	tb.Helper()
	ts := httptest.NewServer(e.h)
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	defer client.CloseIdleConnections()
	type result struct {
		status int
		code   string
	}
	results := make(chan result, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var rd *bytes.Reader
			if b := body(i); b != nil {
				raw, _ := json.Marshal(b)
				rd = bytes.NewReader(raw)
			} else {
				rd = bytes.NewReader(nil)
			}
			req, _ := http.NewRequest(method, ts.URL+path(i), rd)
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			<-start
			resp, err := client.Do(req)
			if err != nil {
				tb.Error(err)
				return
			}
			defer resp.Body.Close()
			var p struct {
				Code string `json:"code"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&p)
			results <- result{resp.StatusCode, p.Code}
		})
	}
	close(start)
	wg.Wait()
	close(results)
	statuses, codes = map[int]int{}, map[string]int{}
	for r := range results {
		statuses[r.status]++
		if r.code != "" {
			codes[r.code]++
		}
	}
	return statuses, codes
}

// TestClockInConcurrent: 16 simultaneous clock-ins of one user over real
// HTTP give exactly one open entry; the unique partial index decides.
func TestClockInConcurrent(t *testing.T) {
	e := newTestEnv(t)
	sam, tok := e.staff(t, "Sam Staff")
	e.notifyOn(t, store.EventClockIn) // so the event is stored
	statuses, codes := hammer(t, e, 16, "POST", "/api/shifts/clock-in", tok, func(int) any { return nil })
	if statuses[http.StatusCreated] != 1 || statuses[http.StatusConflict] != 15 || codes[store.EAlreadyClockedIn] != 15 {
		t.Fatalf("statuses %v codes %v; want one 201 and fifteen 409 already_clocked_in", statuses, codes)
	}
	var open int
	if err := e.st.ReadDB().QueryRow(`SELECT count(*) FROM time_entries WHERE user_id = ?`, sam.ID).Scan(&open); err != nil {
		t.Fatal(err)
	}
	if open != 1 {
		t.Fatalf("%d entries in the database, want 1", open)
	}
	if n := len(e.events(t, store.EventClockIn)); n != 1 {
		t.Fatalf("%d clock_in events, want 1 (a refused clock-in must not publish)", n)
	}
}

// TestShiftCreateConcurrentOverlap: 16 simultaneous creates of mutually
// overlapping shifts for one user give exactly one shift. The check runs
// inside the single BEGIN IMMEDIATE writer, so no overlap slips through.
func TestShiftCreateConcurrentOverlap(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	kim, _ := e.staff(t, "Kim Cook")
	statuses, codes := hammer(t, e, 16, "POST", "/api/shifts", e.adminToken, func(i int) any {
		// 10:00-14:00, 10:05-14:05, ...: every pair overlaps.
		return shiftBody(sam, "2026-12-01", "10:"+twoDigits(i*3), "14:"+twoDigits(i*3))
	})
	if statuses[http.StatusCreated] != 1 || statuses[http.StatusConflict] != 15 || codes[store.EShiftOverlap] != 15 {
		t.Fatalf("statuses %v codes %v; want one 201 and fifteen 409 shift_overlap", statuses, codes)
	}
	shifts, err := e.st.Shifts(context.Background(), e.restaurant.ID, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(shifts) != 1 {
		t.Fatalf("%d shifts stored, want 1", len(shifts))
	}
	// Non-overlapping creates for another user all succeed in parallel.
	statuses, _ = hammer(t, e, 16, "POST", "/api/shifts", e.adminToken, func(i int) any {
		return shiftBody(kim, "2026-12-"+twoDigits(i+1), "10:00", "14:00")
	})
	if statuses[http.StatusCreated] != 16 {
		t.Fatalf("disjoint creates: %v, want sixteen 201", statuses)
	}
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

// TestShiftUpdateConcurrentOverlap: 16 shifts of one user on different
// days, moved at the same moment onto the same evening: exactly one move
// wins.
func TestShiftUpdateConcurrentOverlap(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	ids := make([]string, 16)
	for i := range ids {
		ids[i] = e.createShift(t, shiftBody(sam, "2026-12-"+twoDigits(i+1), "10:00", "14:00"))["id"].(string)
	}
	statuses, codes := hammerPaths(t, e, 16, "PUT", func(i int) string { return "/api/shifts/" + ids[i] }, e.adminToken, func(i int) any {
		return map[string]any{"shift_date": "2026-12-24", "start_time": "18:00", "end_time": "23:00"}
	})
	if statuses[http.StatusOK] != 1 || statuses[http.StatusConflict] != 15 || codes[store.EShiftOverlap] != 15 {
		t.Fatalf("statuses %v codes %v; want one 200 and fifteen 409 shift_overlap", statuses, codes)
	}
	if n := len(e.listShifts(t, "?date_from=2026-12-24&date_to=2026-12-24")); n != 1 {
		t.Fatalf("%d shifts on 2026-12-24, want 1", n)
	}
}
