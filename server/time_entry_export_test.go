package server

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A range of days lists every entry that began on one of them (local
// dates), and the same range downloads as a CSV a German Excel opens:
// BOM, semicolons, CRLF, dd.mm.yyyy and decimal commas, with the staff
// number and whether an admin entered, closed or corrected the entry.
func TestTimeEntriesRangeAndCSV(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Weber")
	kim, _ := e.staff(t, "Kim Koch")
	wantStatus(t, e.do(t, "PUT", "/api/users/"+sam.ID, map[string]any{"staff_number": "1001"}, e.tokenNow(t, e.admin)), http.StatusOK)
	// 22:30 on the 22nd (Berlin) to 06:15 on the 23rd, 45 min break.
	e.clockEntry(t, sam, time.Date(2026, 11, 22, 21, 30, 0, 0, time.UTC), 7*time.Hour+45*time.Minute, 45)
	// 09:00-13:30 on the 24th; and one on the 25th, outside the range.
	e.clockEntry(t, sam, time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC), 4*time.Hour+30*time.Minute, 0)
	e.clockEntry(t, sam, time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC), time.Hour, 0)
	// Kim clocks in at 18:00 on the 24th and is still at work the next morning.
	e.clockEntry(t, kim, time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC), 0, 0)
	e.clock.Set(time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC))

	if got := e.timeEntries(t, "?from=2026-11-22&to=2026-11-24"); len(got) != 3 || got[0]["worked_hours"] != 7.0 || got[1]["worked_hours"] != 4.5 {
		t.Fatalf("range %v", got)
	}
	// An admin enters Kim's missing noon entry and corrects Sam's break.
	wantStatus(t, e.do(t, "POST", "/api/time-entries", map[string]any{"user_id": kim.ID, "clock_in": "2026-11-24T12:00:00+01:00",
		"clock_out": "2026-11-24T14:00:00+01:00", "reason": "the till was offline"}, e.tokenNow(t, e.admin)), http.StatusCreated)
	samDay := e.timeEntries(t, "?date=2026-11-24")[0]
	wantStatus(t, e.do(t, "PATCH", "/api/time-entries/"+samDay["id"].(string), map[string]any{"break_minutes": 30, "reason": "lunch"},
		e.tokenNow(t, e.admin)), http.StatusOK)

	rec := e.do(t, "GET", "/api/time-entries/export?from=2026-11-22&to=2026-11-24", nil, e.tokenNow(t, e.admin))
	wantStatus(t, rec, http.StatusOK)
	if ct := rec.Header().Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	if cd := rec.Header().Get("Content-Disposition"); cd != `attachment; filename="time-entries-2026-11-22-2026-11-24.csv"` {
		t.Fatalf("Content-Disposition %q", cd)
	}
	body := rec.Body.Bytes()
	if !bytes.HasPrefix(body, []byte("\xef\xbb\xbf")) || !bytes.Contains(body, []byte("\r\n")) {
		t.Fatalf("no BOM or no CRLF: %q", body)
	}
	wantCSV(t, body[3:], [][]string{
		{"Personalnummer", "Mitarbeiter", "Datum", "Beginn", "Ende", "Pause (Min.)", "Arbeitszeit (Std.)", "Offen", "Korrigiert"},
		{"1001", "Sam Weber", "22.11.2026", "22.11.2026 22:30", "23.11.2026 06:15", "45", "7", "nein", "nein"},
		{"1001", "Sam Weber", "24.11.2026", "24.11.2026 09:00", "24.11.2026 13:30", "30", "4", "nein", "ja"},
		{"", "Kim Koch", "24.11.2026", "24.11.2026 12:00", "24.11.2026 14:00", "0", "2", "nein", "ja"},
		{"", "Kim Koch", "24.11.2026", "24.11.2026 18:00", "", "0", "17", "ja", "nein"},
	})
	rec = e.do(t, "GET", "/api/time-entries/export?from=2026-11-24&to=2026-11-24&lang=en", nil, e.tokenNow(t, e.admin))
	wantStatus(t, rec, http.StatusOK)
	wantCSV(t, bytes.TrimPrefix(rec.Body.Bytes(), []byte("\xef\xbb\xbf")), [][]string{
		{"Staff number", "Staff member", "Date", "Start", "End", "Break (min)", "Worked (h)", "Open", "Corrected"},
		{"1001", "Sam Weber", "24.11.2026", "24.11.2026 09:00", "24.11.2026 13:30", "30", "4", "no", "yes"},
		{"", "Kim Koch", "24.11.2026", "24.11.2026 12:00", "24.11.2026 14:00", "0", "2", "no", "yes"},
		{"", "Kim Koch", "24.11.2026", "24.11.2026 18:00", "", "0", "17", "yes", "no"},
	})
}

// wantCSV parses a semicolon CSV (without its byte order mark) and
// compares it row by row.
func wantCSV(tb testing.TB, data []byte, want [][]string) {
	tb.Helper()
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	if len(rows) != len(want) {
		tb.Fatalf("rows %q, want %q", rows, want)
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			tb.Errorf("row %d: %q, want %q", i, rows[i], want[i])
		}
	}
}

// Bad ranges are 422 on the field, and nothing is sent as a file.
func TestTimeEntriesRangeRefused(t *testing.T) {
	e := newTestEnv(t)
	for _, c := range []struct{ path, field string }{
		{"/api/time-entries?from=2026-11-22", "to"},
		{"/api/time-entries?from=2026-11-24&to=2026-11-22", "to"},
		{"/api/time-entries?from=2026-01-01&to=2027-01-02", "to"},
		{"/api/time-entries?date=2026-11-22&from=2026-11-22&to=2026-11-23", "date"},
		{"/api/time-entries?from=22.11.2026&to=2026-11-23", "from"},
		{"/api/time-entries/export", "from"},
		{"/api/time-entries/export?from=2026-11-22&to=2026-11-23&lang=fr", "lang"},
	} {
		rec := e.do(t, "GET", c.path, nil, e.adminToken)
		wantProblem(t, rec, http.StatusUnprocessableEntity, "validation_failed")
		if !strings.Contains(rec.Body.String(), `"field":"`+c.field+`"`) {
			t.Errorf("%s: %s, want an error on %s", c.path, rec.Body.String(), c.field)
		}
	}
}
