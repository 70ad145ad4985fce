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
// BOM, semicolons, CRLF, dd.mm.yyyy and decimal commas.
func TestTimeEntriesRangeAndCSV(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Weber")
	// 22:30 on the 22nd (Berlin) to 06:15 on the 23rd, 45 min break.
	e.clockEntry(t, sam, time.Date(2026, 11, 22, 21, 30, 0, 0, time.UTC), 7*time.Hour+45*time.Minute, 45)
	// 09:00-13:30 on the 24th; and one on the 25th, outside the range.
	e.clockEntry(t, sam, time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC), 4*time.Hour+30*time.Minute, 0)
	e.clockEntry(t, sam, time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC), time.Hour, 0)

	if got := e.timeEntries(t, "?from=2026-11-22&to=2026-11-24"); len(got) != 2 || got[0]["worked_hours"] != 7.0 || got[1]["worked_hours"] != 4.5 {
		t.Fatalf("range %v", got)
	}
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
	r := csv.NewReader(bytes.NewReader(body[3:]))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Datum", "Mitarbeiter", "Beginn", "Ende", "Pause (Min.)", "Arbeitszeit (Std.)", "Offen"},
		{"22.11.2026", "Sam Weber", "22.11.2026 22:30", "23.11.2026 06:15", "45", "7", "nein"},
		{"24.11.2026", "Sam Weber", "24.11.2026 09:00", "24.11.2026 13:30", "0", "4,5", "nein"},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %q", rows)
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d: %q, want %q", i, rows[i], want[i])
		}
	}
	rec = e.do(t, "GET", "/api/time-entries/export?from=2026-11-22&to=2026-11-22&lang=en", nil, e.tokenNow(t, e.admin))
	wantStatus(t, rec, http.StatusOK)
	if !strings.HasPrefix(rec.Body.String(), "\ufeffDate;Staff member;Start;End;Break (min);Worked (h);Open\r\n") {
		t.Fatalf("english header: %q", rec.Body.String())
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
