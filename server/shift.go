package server

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// shiftJSON is a scheduled shift; the field order is the contract's. It
// begins with the shift's own fields as the shift_change event carries
// them (store.ShiftCore, embedded so its fields come first and flat).
type shiftJSON struct {
	store.ShiftCore
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// The appliance's: ArbZG warnings against the user's other shifts
	// (they never refuse a plan); when the shift was published (null: a
	// draft staff do not see); unstaffed: not cancelled, but its user is
	// disabled or deleted; the planned work in hours (real length less
	// the break).
	Warnings     []warningJSON `json:"warnings"`
	PublishedAt  *string       `json:"published_at"`
	Unstaffed    bool          `json:"unstaffed"`
	PlannedHours json.Number   `json:"planned_hours"`
}

func toShiftJSON(sh *store.Shift, ws []store.LabourWarning) shiftJSON {
	return shiftJSON{sh.Core(), ts(sh.CreatedAt), ts(sh.UpdatedAt), toWarningsJSON(ws),
		tsPtr(sh.PublishedAt), sh.Unstaffed(), store.HoursJSON(sh.PlannedHundredths())}
}

// shiftsJSON renders a list of shifts with each one's current warnings
// against the whole plan, drafts included (the admins' view).
func (s *Server) shiftsJSON(r *http.Request, shifts []*store.Shift) ([]shiftJSON, error) {
	return s.shiftsJSONWith(r, shifts, s.store.ShiftsWarnings)
}

// shiftsJSONWith renders shifts with the warnings warn finds.
func (s *Server) shiftsJSONWith(r *http.Request, shifts []*store.Shift,
	warn func(context.Context, *store.Restaurant, []*store.Shift) (map[string][]store.LabourWarning, error)) ([]shiftJSON, error) {
	ws, err := warn(r.Context(), caller(r.Context()).restaurant, shifts)
	if err != nil {
		return nil, err
	}
	return toShiftsJSON(shifts, ws), nil
}

// toShiftsJSON renders shifts with their warnings by shift id.
func toShiftsJSON(shifts []*store.Shift, ws map[string][]store.LabourWarning) []shiftJSON {
	out := make([]shiftJSON, 0, len(shifts))
	for _, sh := range shifts {
		out = append(out, toShiftJSON(sh, ws[sh.ID]))
	}
	return out
}

// listShifts answers GET /api/shifts?date_from&date_to&unstaffed (all
// optional; inclusive local dates; unstaffed=true keeps the unstaffed
// shifts only).
func (s *Server) listShifts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q := r.URL.Query()
	var f store.Fields
	from, to := q.Get("date_from"), q.Get("date_to")
	if from != "" {
		from = parseDate(&f, "date_from", from)
	}
	if to != "" {
		to = parseDate(&f, "date_to", to)
	}
	if from != "" && to != "" && from > to {
		f.Add("date_to", store.FBeforeField, "must not be before date_from", "field", "date_from")
	}
	unstaffed := q.Get("unstaffed")
	if unstaffed != "" && unstaffed != "true" {
		f.Add("unstaffed", store.FOneOf, "must be true or absent", "values", []string{"true"})
	}
	if err := f.Err(); err != nil {
		return err
	}
	rest := caller(r.Context()).restaurant
	var shifts []*store.Shift
	var ws map[string][]store.LabourWarning
	var err error
	if unstaffed == "" {
		// The plan and its warnings in one go (the week's read is the hot one).
		shifts, ws, err = s.store.ShiftsWithWarnings(r.Context(), rest, from, to)
	} else if shifts, err = s.store.UnstaffedShifts(r.Context(), rest.ID, from, to); err == nil {
		ws, err = s.store.ShiftsWarnings(r.Context(), rest, shifts)
	}
	if err != nil {
		return err
	}
	return writeAnswer(w, http.StatusOK, renderShiftList(shifts, ws))
}

type createShiftRequest struct {
	UserID       *string `json:"user_id"`
	ShiftDate    *string `json:"shift_date"`
	StartTime    *string `json:"start_time"`
	EndTime      *string `json:"end_time"`
	BreakMinutes *int    `json:"break_minutes"`
	Role         *string `json:"role"`
	Notes        *string `json:"notes"`
	// The appliance's: publish at once (default false: a draft until its
	// week is published).
	Publish *bool `json:"publish"`
}

func (s *Server) createShift(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req createShiftRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "user_id", req.UserID)
	required(&f, "shift_date", req.ShiftDate)
	required(&f, "start_time", req.StartTime)
	required(&f, "end_time", req.EndTime)
	if err := f.Err(); err != nil {
		return err
	}
	sh := &store.Shift{UserID: *req.UserID, ShiftDate: *req.ShiftDate, StartTime: *req.StartTime, EndTime: *req.EndTime, Notes: req.Notes}
	if req.BreakMinutes != nil {
		sh.BreakMinutes = *req.BreakMinutes
	}
	if req.Role != nil {
		sh.Role = *req.Role
	}
	c := caller(r.Context())
	if err := s.store.CreateShift(r.Context(), c.restaurant, c.user, sh, req.Publish != nil && *req.Publish); err != nil {
		return err
	}
	return s.writeShift(w, r, http.StatusCreated, sh)
}

type updateShiftRequest struct {
	UserID       store.Field[string] `json:"user_id"`
	ShiftDate    store.Field[string] `json:"shift_date"`
	StartTime    store.Field[string] `json:"start_time"`
	EndTime      store.Field[string] `json:"end_time"`
	BreakMinutes store.Field[int]    `json:"break_minutes"`
	Role         store.Field[string] `json:"role"`
	Notes        store.Field[string] `json:"notes"`
}

func (s *Server) updateShift(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "shift")
	if err != nil {
		return err
	}
	var req updateShiftRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	c := caller(r.Context())
	sh, err := s.store.UpdateShift(r.Context(), c.restaurant, c.user, id, store.ShiftUpdate(req))
	if err != nil {
		return err
	}
	return s.writeShift(w, r, http.StatusOK, sh)
}

type shiftStatusRequest struct {
	Status *string `json:"status"`
}

func (s *Server) setShiftStatus(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "shift")
	if err != nil {
		return err
	}
	var req shiftStatusRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "status", req.Status)
	if err := f.Err(); err != nil {
		return err
	}
	c := caller(r.Context())
	sh, err := s.store.SetShiftStatus(r.Context(), c.restaurant, c.user, id, *req.Status)
	if err != nil {
		return err
	}
	return s.writeShift(w, r, http.StatusOK, sh)
}

func (s *Server) deleteShift(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "shift")
	if err != nil {
		return err
	}
	c := caller(r.Context())
	if err := s.store.DeleteShift(r.Context(), c.restaurant, c.user, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// writeShift answers one shift with its warnings as they stand after the
// write (a no-op answers them too).
func (s *Server) writeShift(w http.ResponseWriter, r *http.Request, status int, sh *store.Shift) error {
	out, err := s.shiftsJSON(r, []*store.Shift{sh})
	if err != nil {
		return err
	}
	return writeJSON(w, status, envelope{"shift": out[0]})
}
