package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// exportPayroll is GET /api/time-entries/payroll?from=&to=&lang=: per
// staff member and working day the hours and the § 3b EStG hours per
// category, as a CSV file a German Excel and a payroll program import as
// they are (UTF-8 with BOM, semicolons, CRLF, 23.11.2026, decimal comma),
// like the time-entries export. Column layout and each rule's source:
// docs/TIMECLOCK.md. Open entries are left out: they are paid once closed.
func (s *Server) exportPayroll(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q := r.URL.Query()
	out, err := newExcelCSV(q, []string{"Personalnummer", "Mitarbeiter", "Datum", "Arbeitszeit (Std.)", "Nacht 25 % (Std.)", "Nacht 40 % (Std.)",
		"Sonntag 50 % (Std.)", "Feiertag 125 % (Std.)", "Feiertag 150 % (Std.)", "Korrigiert"},
		[]string{"Staff number", "Staff member", "Date", "Worked (h)", "Night 25 % (h)", "Night 40 % (h)",
			"Sunday 50 % (h)", "Holiday 125 % (h)", "Holiday 150 % (h)", "Corrected"})
	if err != nil {
		return err
	}
	entries, err := s.rangeEntries(r)
	if err != nil {
		return err
	}
	closed := entries[:0:0]
	for _, e := range entries {
		if e.ClockOut != nil {
			closed = append(closed, e)
		}
	}
	h := func(v int64) string { return decimalComma(string(store.HoursJSON(v))) }
	for _, sr := range store.WorkRecords(closed, caller(r.Context()).restaurant, s.now()) {
		for _, d := range sr.Days {
			date, _ := parseLocalDate(d.Date)
			out.row(sr.StaffNumber, sr.UserName, date.Format(csvDate), h(d.Worked), h(d.Surcharge.Night25), h(d.Surcharge.Night40),
				h(d.Surcharge.Sunday), h(d.Surcharge.Holiday125), h(d.Surcharge.Holiday150), out.flag(d.Corrected))
		}
	}
	return out.send(w, "payroll-"+q.Get("from")+"-"+q.Get("to")+".csv")
}
