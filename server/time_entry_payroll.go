package server

import (
	"bytes"
	"encoding/csv"
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
	lang := q.Get("lang")
	if lang == "" {
		lang = "de"
	}
	if lang != "de" && lang != "en" {
		return store.Invalid("lang", "must be de or en")
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
	rest := caller(r.Context()).restaurant
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	cw := csv.NewWriter(&buf)
	cw.Comma, cw.UseCRLF = ';', true
	header := []string{"Personalnummer", "Mitarbeiter", "Datum", "Arbeitszeit (Std.)", "Nacht 25 % (Std.)", "Nacht 40 % (Std.)",
		"Sonntag 50 % (Std.)", "Feiertag 125 % (Std.)", "Feiertag 150 % (Std.)", "Korrigiert"}
	yes, no := "ja", "nein"
	if lang == "en" {
		header = []string{"Staff number", "Staff member", "Date", "Worked (h)", "Night 25 % (h)", "Night 40 % (h)",
			"Sunday 50 % (h)", "Holiday 125 % (h)", "Holiday 150 % (h)", "Corrected"}
		yes, no = "yes", "no"
	}
	_ = cw.Write(header)
	h := func(v int64) string { return decimalComma(string(store.HoursJSON(v))) }
	for _, sr := range store.WorkRecords(closed, rest, s.now()) {
		for _, d := range sr.Days {
			date, _ := parseLocalDate(d.Date)
			corrected := no
			if d.Corrected {
				corrected = yes
			}
			_ = cw.Write([]string{sr.StaffNumber, sr.UserName, date.Format(csvDate), h(d.Worked), h(d.Surcharge.Night25), h(d.Surcharge.Night40),
				h(d.Surcharge.Sunday), h(d.Surcharge.Holiday125), h(d.Surcharge.Holiday150), corrected})
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	name := "payroll-" + q.Get("from") + "-" + q.Get("to") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(buf.Bytes())
	return err
}
