package server

import (
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// Admins correct the time clock: enter a missing entry, close a forgotten
// one, correct clock-in, clock-out or break. Each needs a reason and
// writes one row of the entry's append-only history (docs/TIMECLOCK.md).

type createTimeEntryRequest struct {
	UserID       *string `json:"user_id"`
	ClockIn      *string `json:"clock_in"`
	ClockOut     *string `json:"clock_out"`
	BreakMinutes *int    `json:"break_minutes"`
	Reason       *string `json:"reason"`
}

// instant reads a request timestamp to the millisecond the store keeps.
func instant(f *store.Fields, field, s string) time.Time {
	return parseTimestamp(f, field, s).Truncate(time.Millisecond)
}

func (s *Server) createTimeEntry(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req createTimeEntryRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "user_id", req.UserID)
	required(&f, "clock_in", req.ClockIn)
	required(&f, "clock_out", req.ClockOut)
	required(&f, "reason", req.Reason)
	if err := f.Err(); err != nil {
		return err
	}
	v := store.EntryValues{ClockIn: instant(&f, "clock_in", *req.ClockIn)}
	out := instant(&f, "clock_out", *req.ClockOut)
	v.ClockOut = &out
	if req.BreakMinutes != nil {
		v.BreakMinutes = *req.BreakMinutes
	}
	if err := f.Err(); err != nil {
		return err
	}
	c := caller(r.Context())
	e, err := s.store.CreateTimeEntry(r.Context(), c.restaurant, c.user, *req.UserID, v, *req.Reason)
	if err != nil {
		return err
	}
	return s.writeEntryDetail(w, r, http.StatusCreated, e)
}

type closeTimeEntryRequest struct {
	ClockOut     *string `json:"clock_out"`
	BreakMinutes *int    `json:"break_minutes"`
	Reason       *string `json:"reason"`
}

func (s *Server) closeTimeEntry(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "time entry")
	if err != nil {
		return err
	}
	var req closeTimeEntryRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "clock_out", req.ClockOut)
	required(&f, "reason", req.Reason)
	if err := f.Err(); err != nil {
		return err
	}
	out := instant(&f, "clock_out", *req.ClockOut)
	if err := f.Err(); err != nil {
		return err
	}
	brk := 0
	if req.BreakMinutes != nil {
		brk = *req.BreakMinutes
	}
	c := caller(r.Context())
	e, err := s.store.CloseTimeEntry(r.Context(), c.restaurant, c.user, id, out, brk, *req.Reason)
	if err != nil {
		return err
	}
	return s.writeEntryDetail(w, r, http.StatusOK, e)
}

type correctTimeEntryRequest struct {
	ClockIn      store.Field[string] `json:"clock_in"`
	ClockOut     store.Field[string] `json:"clock_out"`
	BreakMinutes store.Field[int]    `json:"break_minutes"`
	Reason       *string             `json:"reason"`
}

func (s *Server) correctTimeEntry(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "time entry")
	if err != nil {
		return err
	}
	var req correctTimeEntryRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "reason", req.Reason)
	upd := store.EntryUpdate{BreakMinutes: req.BreakMinutes}
	for _, m := range []struct {
		name string
		in   store.Field[string]
		out  *store.Field[time.Time]
	}{{"clock_in", req.ClockIn, &upd.ClockIn}, {"clock_out", req.ClockOut, &upd.ClockOut}} {
		switch {
		case !m.in.Set:
		case m.in.Null:
			*m.out = store.Field[time.Time]{Set: true, Null: true}
		default:
			*m.out = store.Of(instant(&f, m.name, m.in.Value))
		}
	}
	if !req.ClockIn.Set && !req.ClockOut.Set && !req.BreakMinutes.Set {
		f.Add("clock_in", store.FNothingToChange, "give clock_in, clock_out or break_minutes to correct")
	}
	if err := f.Err(); err != nil {
		return err
	}
	c := caller(r.Context())
	e, err := s.store.CorrectTimeEntry(r.Context(), c.restaurant, c.user, id, upd, *req.Reason)
	if store.ErrorCode(err) == store.ETimeEntryOpen {
		// The store says what is wrong; the route that closes the entry is
		// the API's to name.
		return store.Errorf(store.ETimeEntryOpen, "the entry is open: close it with POST /api/time-entries/%s/close", id)
	}
	if err != nil {
		return err
	}
	return s.writeEntryDetail(w, r, http.StatusOK, e)
}

// getTimeEntry is GET /api/time-entries/history/:id: one entry with the
// punch as recorded and every correction. (httprouter 1.3 cannot hold
// GET /api/time-entries/:id beside /api/time-entries/export.)
func (s *Server) getTimeEntry(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "time entry")
	if err != nil {
		return err
	}
	e, err := s.store.TimeEntry(r.Context(), caller(r.Context()).restaurant.ID, id)
	if err != nil {
		return err
	}
	return s.writeEntryDetail(w, r, http.StatusOK, e)
}

// entryValuesJSON are an entry's correctable values.
type entryValuesJSON struct {
	ClockIn      string  `json:"clock_in"`
	ClockOut     *string `json:"clock_out"`
	BreakMinutes int     `json:"break_minutes"`
}

func toEntryValuesJSON(v *store.EntryValues) *entryValuesJSON {
	if v == nil {
		return nil
	}
	return &entryValuesJSON{ts(v.ClockIn), tsPtr(v.ClockOut), v.BreakMinutes}
}

// correctionJSON is one row of an entry's history.
type correctionJSON struct {
	ID       string           `json:"id"`
	Action   string           `json:"action"`
	ByUserID string           `json:"by_user_id"`
	ByName   string           `json:"by_name"`
	At       string           `json:"at"`
	Reason   string           `json:"reason"`
	Before   *entryValuesJSON `json:"before"`
	After    entryValuesJSON  `json:"after"`
}

// timeEntryDetailJSON is an entry with its original punch and history.
type timeEntryDetailJSON struct {
	adminTimeEntryJSON
	Original *entryValuesJSON `json:"original"`
	History  []correctionJSON `json:"history"`
}

// writeEntryDetail answers an entry with its history; the warnings are
// those the write raised, or (on a read) those of the entry now.
func (s *Server) writeEntryDetail(w http.ResponseWriter, r *http.Request, status int, e *store.TimeEntry) error {
	rest := caller(r.Context()).restaurant
	hist, err := s.store.Corrections(r.Context(), rest.ID, e.ID)
	if err != nil {
		return err
	}
	ws := e.Warnings
	if ws == nil {
		m, err := s.store.EntriesWarnings(r.Context(), rest, []*store.TimeEntry{e})
		if err != nil {
			return err
		}
		ws = m[e.ID]
	}
	e.Corrected = false
	for _, c := range hist {
		e.Corrected = e.Corrected || c.Action != store.CorrectionCreate
	}
	out := timeEntryDetailJSON{adminTimeEntryJSON: s.toAdminTimeEntryJSON(rest, e, ws),
		Original: toEntryValuesJSON(store.OriginalPunch(e, hist)), History: make([]correctionJSON, 0, len(hist))}
	for _, c := range hist {
		out.History = append(out.History, correctionJSON{c.ID, c.Action, c.ByUserID, c.ByName, ts(c.At), c.Reason,
			toEntryValuesJSON(c.Before), *toEntryValuesJSON(&c.After)})
	}
	return writeJSON(w, status, envelope{"time_entry": out})
}
