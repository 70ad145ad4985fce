package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// retentionJSON is what the retention job does with the time records
// (docs/RETENTION.md): up to which day it deleted them, whether it holds
// them back because it doubts the clock, and the admins' confirmations.
type retentionJSON struct {
	Clock         string                  `json:"clock"`
	DeletedBefore *string                 `json:"deleted_before"`
	Held          *retentionHoldJSON      `json:"held"`
	Confirmations []retentionConfirmation `json:"confirmations"`
}

type retentionHoldJSON struct {
	Reason           string  `json:"reason"`
	Since            string  `json:"since"`
	CheckedAt        string  `json:"checked_at"`
	NewestRecord     *string `json:"newest_record"`
	DeleteBefore     string  `json:"delete_before"`
	LastDeleteBefore *string `json:"last_delete_before"`
	// Confirmed: an admin confirmed this date; the job's next run deletes.
	Confirmed bool `json:"confirmed"`
}

type retentionConfirmation struct {
	ConfirmedAt     string  `json:"confirmed_at"`
	ConfirmedByName string  `json:"confirmed_by_name"`
	Reason          string  `json:"reason"`
	DeleteBefore    string  `json:"delete_before"`
	NewestRecord    *string `json:"newest_record"`
}

// retention is GET /api/retention.
func (s *Server) retention(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	out, err := s.retentionState(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"retention": out})
}

// confirmRetentionClock is POST /api/retention/confirm-clock: the admin
// says the box's clock is right, for the date the console showed her
// (delete_before); another date or no hold is 409 conflict and changes
// nothing.
func (s *Server) confirmRetentionClock(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var in struct {
		DeleteBefore *string `json:"delete_before"`
	}
	if err := decode(r, &in, false); err != nil {
		return err
	}
	var f store.Fields
	if in.DeleteBefore == nil || *in.DeleteBefore == "" {
		f.Add("delete_before", store.FRequired, "is required: the date the console showed (held.delete_before)")
	} else {
		parseDate(&f, "delete_before", *in.DeleteBefore)
	}
	if err := f.Err(); err != nil {
		return err
	}
	c := caller(r.Context())
	conf, err := s.store.ConfirmRetentionClock(r.Context(), c.restaurant.ID, c.user.ID, *in.DeleteBefore)
	if err != nil {
		return err
	}
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "retention: an admin confirmed the clock; time records ended before the date go at the next run",
		slog.String("delete_before", conf.DeleteBefore), slog.String("user_id", c.user.ID))
	out, err := s.retentionState(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"retention": out})
}

func (s *Server) retentionState(r *http.Request) (retentionJSON, error) {
	ctx, rest := r.Context(), caller(r.Context()).restaurant
	out := retentionJSON{Clock: ts(s.now())}
	if last, ok, err := s.store.TimeRecordsCutoff(ctx, rest.ID); err != nil {
		return out, err
	} else if ok {
		d := last.In(rest.Location()).Format(time.DateOnly)
		out.DeletedBefore = &d
	}
	confs, err := s.store.RetentionConfirmations(ctx, rest.ID)
	if err != nil {
		return out, err
	}
	out.Confirmations = make([]retentionConfirmation, 0, len(confs))
	for _, c := range confs {
		out.Confirmations = append(out.Confirmations, retentionConfirmation{ts(c.ConfirmedAt), c.ConfirmedByName, c.Reason, c.DeleteBefore, tsPtr(c.NewestRecord)})
	}
	h, err := s.store.RetentionHeld(ctx, rest.ID)
	if err != nil || h == nil {
		return out, err
	}
	out.Held = &retentionHoldJSON{Reason: h.Reason, Since: ts(h.Since), CheckedAt: ts(h.CheckedAt), NewestRecord: tsPtr(h.NewestRecord),
		DeleteBefore: h.DeleteBefore}
	if h.LastDeleteBefore != "" {
		out.Held.LastDeleteBefore = &h.LastDeleteBefore
	}
	for _, c := range confs {
		out.Held.Confirmed = out.Held.Confirmed || c.DeleteBefore >= h.DeleteBefore
	}
	return out, nil
}
