package server

import (
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// exportTimeEntries is GET /api/time-entries/export?from=&to=&lang=: the
// entries of a range of local dates as a CSV file that a German Excel
// opens as it is: UTF-8 with a byte order mark, semicolons, CRLF, dates
// as 23.11.2026, hours with a decimal comma (docs/API.md, section 3).
// lang (de, the default, or en) names the columns only. The first three
// columns are the payroll export's (staff number, name, date), so an
// accountant maps both files alike; the last says whether an admin
// entered, closed or corrected the entry (its history tells how).
func (s *Server) exportTimeEntries(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q := r.URL.Query()
	out, err := newExcelCSV(q,
		[]string{"Personalnummer", "Mitarbeiter", "Datum", "Beginn", "Ende", "Pause (Min.)", "Arbeitszeit (Std.)", "Offen", "Korrigiert"},
		[]string{"Staff number", "Staff member", "Date", "Start", "End", "Break (min)", "Worked (h)", "Open", "Corrected"})
	if err != nil {
		return err
	}
	if q.Get("from") == "" && q.Get("to") == "" {
		var f store.Fields
		f.Add("from", store.FRequired, "is required")
		f.Add("to", store.FRequired, "is required")
		return f.Err()
	}
	entries, err := s.timeEntries(r)
	if err != nil {
		return err
	}
	loc := caller(r.Context()).restaurant.Location()
	now := s.now()
	for _, e := range entries {
		in := e.ClockIn.In(loc)
		end := ""
		if e.ClockOut != nil {
			end = e.ClockOut.In(loc).Format(csvDateTime)
		}
		out.row(e.StaffNumber, e.UserName, in.Format(csvDate), in.Format(csvDateTime), end, strconv.Itoa(e.BreakMinutes),
			decimalComma(string(store.HoursJSON(e.WorkedHundredths(now)))), out.flag(e.ClockOut == nil), out.flag(e.ChangedByAdmin()))
	}
	return out.send(w, "time-entries-"+q.Get("from")+"-"+q.Get("to")+".csv")
}
