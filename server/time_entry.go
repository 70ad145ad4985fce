package server

import (
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// timeEntryJSON is a time entry as its owner sees it (clock-in, clock-out,
// my-status).
type timeEntryJSON struct {
	ID           string  `json:"id"`
	UserID       string  `json:"user_id"`
	ClockIn      string  `json:"clock_in"`
	ClockOut     *string `json:"clock_out"`
	BreakMinutes int     `json:"break_minutes"`
}

func toTimeEntryJSON(e *store.TimeEntry) timeEntryJSON {
	return timeEntryJSON{e.ID, e.UserID, ts(e.ClockIn), tsPtr(e.ClockOut), e.BreakMinutes}
}

// clockOutJSON is the clock-out answer: the entry, then the ArbZG
// warnings the clock-out raised (they never refuse it).
type clockOutJSON struct {
	timeEntryJSON
	Warnings []warningJSON `json:"warnings"`
}

// adminTimeEntryJSON adds the name and the worked hours for the admin
// list; the appliance's members follow the contract's.
type adminTimeEntryJSON struct {
	ID           string        `json:"id"`
	UserID       string        `json:"user_id"`
	UserName     string        `json:"user_name"`
	ClockIn      string        `json:"clock_in"`
	ClockOut     *string       `json:"clock_out"`
	BreakMinutes int           `json:"break_minutes"`
	WorkedHours  json.Number   `json:"worked_hours"`
	Source       string        `json:"source"`
	Corrected    bool          `json:"corrected"`
	OpenTooLong  bool          `json:"open_too_long"`
	FlaggedAt    *string       `json:"open_flagged_at"`
	Warnings     []warningJSON `json:"warnings"`
}

func (s *Server) toAdminTimeEntryJSON(rest *store.Restaurant, e *store.TimeEntry, ws []store.LabourWarning) adminTimeEntryJSON {
	now := s.now()
	return adminTimeEntryJSON{e.ID, e.UserID, e.UserName, ts(e.ClockIn), tsPtr(e.ClockOut), e.BreakMinutes,
		store.HoursJSON(e.WorkedHundredths(now)), e.Source, e.Corrected, rest.OpenTooLong(e, now), tsPtr(e.OpenFlaggedAt), toWarningsJSON(ws)}
}

func (s *Server) clockIn(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	c := caller(r.Context())
	e, err := s.store.ClockIn(r.Context(), c.restaurant, c.user)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"time_entry": toTimeEntryJSON(e)})
}

type clockOutRequest struct {
	BreakMinutes *int `json:"break_minutes"`
}

func (s *Server) clockOut(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req clockOutRequest
	if err := decode(r, &req, true); err != nil {
		return err
	}
	brk := 0
	if req.BreakMinutes != nil {
		brk = *req.BreakMinutes
	}
	c := caller(r.Context())
	e, err := s.store.ClockOut(r.Context(), c.restaurant, c.user, brk)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"time_entry": clockOutJSON{toTimeEntryJSON(e), toWarningsJSON(e.Warnings)}})
}

func (s *Server) myStatus(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	c := caller(r.Context())
	e, err := s.store.OpenPunch(r.Context(), c.restaurant.ID, c.user.ID)
	if store.IsNotFound(err) {
		e, err = nil, nil
	}
	if err != nil {
		return err
	}
	var entry *timeEntryJSON
	if e != nil {
		j := toTimeEntryJSON(e)
		entry = &j
	}
	return writeJSON(w, http.StatusOK, myStatusJSON{e != nil, entry})
}

// myStatusJSON is GET /api/shifts/my-status's answer.
type myStatusJSON struct {
	ClockedIn bool           `json:"clocked_in"`
	TimeEntry *timeEntryJSON `json:"time_entry"`
}

// listTimeEntries answers GET /api/time-entries?date= (default: today in
// the restaurant's timezone) or ?from=&to= (a range of local dates).
func (s *Server) listTimeEntries(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	entries, err := s.timeEntries(r)
	if err != nil {
		return err
	}
	rest := caller(r.Context()).restaurant
	ws, err := s.store.EntriesWarnings(r.Context(), rest, entries)
	if err != nil {
		return err
	}
	out := make([]adminTimeEntryJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, s.toAdminTimeEntryJSON(rest, e, ws[e.ID]))
	}
	return writeJSON(w, http.StatusOK, envelope{"time_entries": out})
}

// timeEntries reads the entries a list or export asks for: one local date
// (date, default today) or a range (from and to, both required then).
func (s *Server) timeEntries(r *http.Request) ([]*store.TimeEntry, error) {
	c := caller(r.Context())
	q := r.URL.Query()
	date, from, to := q.Get("date"), q.Get("from"), q.Get("to")
	switch {
	case from != "" || to != "":
		var f store.Fields
		if date != "" {
			f.Add("date", store.FNotAllowed, "give either date or from and to")
		}
		if from == "" {
			f.Add("from", store.FRequired, "is required with to")
		}
		if to == "" {
			f.Add("to", store.FRequired, "is required with from")
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		return s.store.TimeEntriesBetween(r.Context(), c.restaurant, from, to)
	case date == "":
		date = s.now().In(c.restaurant.Location()).Format(store.DateFormat)
	}
	return s.store.TimeEntries(r.Context(), c.restaurant, date)
}
