package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// cet is a Berlin wall time in winter (UTC+1).
func cet(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h-1, min, 0, 0, time.UTC)
}

// The payroll export's § 3b hours for a shift from Saturday 18:00 to
// Sunday 03:00, for Christmas Eve and for New Year's Eve match the values
// computed by hand (docs/TIMECLOCK.md), and the MiLoG record shows the
// same days with corrections marked and the ArbZG warnings.
func TestPayrollExportAndReport(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	wantStatus(t, e.do(t, "PUT", "/api/users/"+sam.ID, map[string]any{"staff_number": "1001"}, e.adminToken), http.StatusOK)
	kim, _ := e.staff(t, "Kim Cook") // no staff number, a weekday day shift
	// Sat 21 Nov 18:00 to Sun 22 Nov 03:00, no break: night 25 % 20-24 (4),
	// night 40 % 00-03 (3, begun before midnight), Sunday 00-03 (3).
	e.clockEntry(t, sam, cet(2026, 11, 21, 18, 0), 9*time.Hour, 0)
	// Tue 24 Nov 08:00-16:00, 30 min break: no surcharge.
	e.clockEntry(t, kim, cet(2026, 11, 24, 8, 0), 8*time.Hour, 30)
	// Thu 24 Dec 12:00-22:00: 150 % from 14:00 (8), night 25 % 20-22 (2).
	e.clockEntry(t, sam, cet(2026, 12, 24, 12, 0), 10*time.Hour, 0)
	// Thu 31 Dec 16:00 to Fri 1 Jan 02:00, punched with 30 min break, then
	// corrected to none: 125 % 16:00-24:00 and Neujahr 00-02 (10), night
	// 25 % 20-24 (4), night 40 % 00-02 (2).
	e.clockEntry(t, sam, cet(2026, 12, 31, 16, 0), 10*time.Hour, 30)
	e.clock.Set(time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC))
	admin := e.tokenNow(t, e.admin)
	nye := e.timeEntries(t, "?date=2026-12-31")[0]["id"].(string)
	wantStatus(t, e.do(t, "PATCH", "/api/time-entries/"+nye, map[string]any{"break_minutes": 0, "reason": "no break was taken"}, admin), http.StatusOK)
	// An open entry is left out of the payroll.
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, e.tokenNow(t, kim)), http.StatusCreated)

	rec := e.do(t, "GET", "/api/time-entries/payroll?from=2026-11-01&to=2027-01-31", nil, admin)
	wantStatus(t, rec, http.StatusOK)
	if cd := rec.Header().Get("Content-Disposition"); cd != `attachment; filename="payroll-2026-11-01-2027-01-31.csv"` {
		t.Fatalf("Content-Disposition %q", cd)
	}
	want := "\ufeff" + strings.Join([]string{
		"Personalnummer;Mitarbeiter;Datum;Arbeitszeit (Std.);Nacht 25 % (Std.);Nacht 40 % (Std.);Sonntag 50 % (Std.);Feiertag 125 % (Std.);Feiertag 150 % (Std.);Korrigiert",
		";Kim Cook;24.11.2026;7,5;0;0;0;0;0;nein",
		"1001;Sam Staff;21.11.2026;9;4;3;3;0;0;nein",
		"1001;Sam Staff;24.12.2026;10;2;0;0;0;8;nein",
		"1001;Sam Staff;31.12.2026;10;4;2;0;10;0;ja",
	}, "\r\n") + "\r\n"
	if got := rec.Body.String(); got != want {
		t.Fatalf("payroll CSV\n%q\nwant\n%q", got, want)
	}
	rec = e.do(t, "GET", "/api/time-entries/payroll?from=2026-11-21&to=2026-11-21&lang=en", nil, admin)
	if got := rec.Body.String(); !strings.HasPrefix(got, "\ufeffStaff number;Staff member;Date;Worked (h);Night 25 % (h);Night 40 % (h);Sunday 50 % (h);Holiday 125 % (h);Holiday 150 % (h);Corrected\r\n1001;Sam Staff;21.11.2026;9;4;3;3;0;0;no\r\n") {
		t.Fatalf("English payroll %q", got)
	}
	for _, q := range []string{"", "?from=2026-11-01", "?from=2026-11-02&to=2026-11-01", "?from=2026-11-01&to=2026-11-30&lang=fr"} {
		wantProblem(t, e.do(t, "GET", "/api/time-entries/payroll"+q, nil, admin), http.StatusUnprocessableEntity, "validation_failed")
		wantProblem(t, e.do(t, "GET", "/api/time-entries/report"+strings.Replace(q, "&to=2026-11-30&lang=fr", "&to=30.11.2026", 1), nil, admin), http.StatusUnprocessableEntity, "validation_failed")
	}

	rec = e.do(t, "GET", "/api/time-entries/report?from=2026-11-01&to=2027-01-31", nil, admin)
	wantStatus(t, rec, http.StatusOK)
	rep := decodeJSON(t, rec)["report"].(map[string]any)
	staff := rep["staff"].([]any)
	if rep["timezone"] != "Europe/Berlin" || len(staff) != 2 {
		t.Fatalf("report %v", rep)
	}
	kimRec, samRec := staff[0].(map[string]any), staff[1].(map[string]any)
	if kimRec["staff_number"] != nil || len(kimRec["days"].([]any)) != 2 || kimRec["days"].([]any)[1].(map[string]any)["open"] != true {
		t.Fatalf("Kim %v", kimRec)
	}
	days := samRec["days"].([]any)
	sat, nyeDay := days[0].(map[string]any), days[2].(map[string]any)
	if samRec["staff_number"] != "1001" || samRec["worked_hours"] != 29.0 || len(days) != 3 ||
		sat["date"] != "2026-11-21" || sat["start"] != "2026-11-21T17:00:00.000Z" || sat["end"] != "2026-11-22T02:00:00.000Z" ||
		sat["break_minutes"] != 0.0 || sat["worked_hours"] != 9.0 || sat["corrected"] != false ||
		nyeDay["corrected"] != true || nyeDay["surcharge_hours"].(map[string]any)["holiday_125"] != 10.0 {
		t.Fatalf("Sam %v", samRec)
	}
	if s := samRec["surcharge_hours"].(map[string]any); s["night_25"] != 10.0 || s["night_40"] != 5.0 || s["sunday_50"] != 3.0 || s["holiday_125"] != 10.0 || s["holiday_150"] != 8.0 {
		t.Fatalf("Sam's § 3b totals %v", s)
	}
	// 9 h and 10 h without a break: § 4 on all three days.
	var dates []string
	for _, w := range samRec["warnings"].([]any) {
		if w.(map[string]any)["code"] == "break_too_short" {
			dates = append(dates, w.(map[string]any)["date"].(string))
		}
	}
	if strings.Join(dates, ",") != "2026-11-21,2026-12-24,2026-12-31" {
		t.Fatalf("warnings %v", samRec["warnings"])
	}
}

// The federal state decides which holidays count: Epiphany is one in
// Bavaria, not in Berlin.
func TestPayrollFederalState(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	e.clockEntry(t, sam, cet(2027, 1, 6, 10, 0), 4*time.Hour, 0) // Wednesday, Heilige Drei Könige
	e.clock.Set(time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC))
	admin := e.tokenNow(t, e.admin)
	row := func() string {
		rec := e.do(t, "GET", "/api/time-entries/payroll?from=2027-01-06&to=2027-01-06", nil, admin)
		wantStatus(t, rec, http.StatusOK)
		return strings.Split(rec.Body.String(), "\r\n")[1]
	}
	if got := row(); got != ";Sam Staff;06.01.2027;4;0;0;0;0;0;nein" {
		t.Fatalf("nationwide only: %q", got)
	}
	wantStatus(t, e.do(t, "PATCH", "/api/restaurant", map[string]any{"federal_state": "BY"}, admin), http.StatusOK)
	if got := row(); got != ";Sam Staff;06.01.2027;4;0;0;0;4;0;nein" {
		t.Fatalf("Bavaria: %q", got)
	}
}
