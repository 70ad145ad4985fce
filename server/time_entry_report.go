package server

import (
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// The MiLoG § 17 record of a range (docs/TIMECLOCK.md): per staff member
// and working day the start, end, breaks and worked time, corrections
// marked, the § 3b EStG hours and the ArbZG warnings.

type surchargeJSON struct {
	Night25    json.Number `json:"night_25"`
	Night40    json.Number `json:"night_40"`
	Sunday50   json.Number `json:"sunday_50"`
	Holiday125 json.Number `json:"holiday_125"`
	Holiday150 json.Number `json:"holiday_150"`
}

func toSurchargeJSON(s store.Surcharge) surchargeJSON {
	return surchargeJSON{store.HoursJSON(s.Night25), store.HoursJSON(s.Night40), store.HoursJSON(s.Sunday),
		store.HoursJSON(s.Holiday125), store.HoursJSON(s.Holiday150)}
}

type reportDayJSON struct {
	Date         string        `json:"date"`
	Start        string        `json:"start"`
	End          *string       `json:"end"`
	BreakMinutes int           `json:"break_minutes"`
	WorkedHours  json.Number   `json:"worked_hours"`
	Entries      int           `json:"entries"`
	Corrected    bool          `json:"corrected"`
	Open         bool          `json:"open"`
	Surcharge    surchargeJSON `json:"surcharge_hours"`
}

type reportStaffJSON struct {
	UserID      string          `json:"user_id"`
	UserName    string          `json:"user_name"`
	StaffNumber *string         `json:"staff_number"`
	WorkedHours json.Number     `json:"worked_hours"`
	Surcharge   surchargeJSON   `json:"surcharge_hours"`
	Days        []reportDayJSON `json:"days"`
	Warnings    []warningJSON   `json:"warnings"`
}

type reportJSON struct {
	From         string            `json:"from"`
	To           string            `json:"to"`
	Timezone     string            `json:"timezone"`
	FederalState *string           `json:"federal_state"`
	Staff        []reportStaffJSON `json:"staff"`
}

// rangeEntries reads the entries of a required range of local dates.
func (s *Server) rangeEntries(r *http.Request) ([]*store.TimeEntry, error) {
	q := r.URL.Query()
	if q.Get("from") == "" && q.Get("to") == "" {
		var f store.Fields
		f.Add("from", store.FRequired, "is required")
		f.Add("to", store.FRequired, "is required")
		return nil, f.Err()
	}
	return s.timeEntries(r)
}

// timeEntryReport is GET /api/time-entries/report?from=&to= (admin).
func (s *Server) timeEntryReport(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	entries, err := s.rangeEntries(r)
	if err != nil {
		return err
	}
	rest := caller(r.Context()).restaurant
	ws, err := s.store.EntriesWarnings(r.Context(), rest, entries)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	out := reportJSON{From: q.Get("from"), To: q.Get("to"), Timezone: rest.Timezone, Staff: []reportStaffJSON{}}
	if rest.FederalState != "" {
		out.FederalState = &rest.FederalState
	}
	// A warning concerns entries of several days (rest); it is listed once,
	// under its own day, when that day is in the range.
	seen := map[string]bool{}
	for _, sr := range store.WorkRecords(entries, rest, s.now()) {
		st := reportStaffJSON{UserID: sr.UserID, UserName: sr.UserName, WorkedHours: store.HoursJSON(sr.Worked),
			Surcharge: toSurchargeJSON(sr.Surcharge), Days: make([]reportDayJSON, 0, len(sr.Days)), Warnings: []warningJSON{}}
		if sr.StaffNumber != "" {
			st.StaffNumber = &sr.StaffNumber
		}
		days := map[string]bool{}
		for _, d := range sr.Days {
			days[d.Date] = true
			st.Days = append(st.Days, reportDayJSON{d.Date, ts(d.Start), tsPtr(d.End), d.BreakMinutes, store.HoursJSON(d.Worked),
				d.Entries, d.Corrected, d.Open, toSurchargeJSON(d.Surcharge)})
		}
		for _, e := range entries {
			if e.UserID != sr.UserID {
				continue
			}
			for _, w := range ws[e.ID] {
				key := w.UserID + w.Date + w.Code
				if days[w.Date] && !seen[key] {
					seen[key] = true
					st.Warnings = append(st.Warnings, toWarningJSON(w))
				}
			}
		}
		out.Staff = append(out.Staff, st)
	}
	return writeJSON(w, http.StatusOK, envelope{"report": out})
}
