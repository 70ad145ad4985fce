package server

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// exportTimeEntries is GET /api/time-entries/export?from=&to=&lang=: the
// entries of a range of local dates as a CSV file that a German Excel
// opens as it is: UTF-8 with a byte order mark, semicolons, CRLF, dates
// as 23.11.2026, hours with a decimal comma (docs/API.md, section 3).
// lang (de, the default, or en) names the columns only.
func (s *Server) exportTimeEntries(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q := r.URL.Query()
	lang := q.Get("lang")
	if lang == "" {
		lang = "de"
	}
	if lang != "de" && lang != "en" {
		return store.Invalid("lang", "must be de or en")
	}
	if q.Get("from") == "" && q.Get("to") == "" {
		return store.Fields{{Field: "from", Message: "is required"}, {Field: "to", Message: "is required"}}.Err()
	}
	entries, err := s.timeEntries(r)
	if err != nil {
		return err
	}
	loc := caller(r.Context()).restaurant.Location()
	now := s.now()
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	cw := csv.NewWriter(&buf)
	cw.Comma, cw.UseCRLF = ';', true
	header := []string{"Datum", "Mitarbeiter", "Beginn", "Ende", "Pause (Min.)", "Arbeitszeit (Std.)", "Offen"}
	yes, no := "ja", "nein"
	if lang == "en" {
		header = []string{"Date", "Staff member", "Start", "End", "Break (min)", "Worked (h)", "Open"}
		yes, no = "yes", "no"
	}
	_ = cw.Write(header)
	for _, e := range entries {
		in := e.ClockIn.In(loc)
		end, open := "", yes
		if e.ClockOut != nil {
			end, open = e.ClockOut.In(loc).Format(csvDateTime), no
		}
		_ = cw.Write([]string{in.Format(csvDate), e.UserName, in.Format(csvDateTime), end,
			strconv.Itoa(e.BreakMinutes), decimalComma(string(store.HoursJSON(e.WorkedHundredths(now)))), open})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	name := "time-entries-" + q.Get("from") + "-" + q.Get("to") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(buf.Bytes())
	return err
}

// Formats a German Excel reads as a date and as a date with a time.
const (
	csvDate     = "02.01.2006"
	csvDateTime = "02.01.2006 15:04"
)

// decimalComma writes 7.5 as 7,5.
func decimalComma(s string) string { return strings.Replace(s, ".", ",", 1) }
