package server

import (
	"context"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// Replacer replaces the appliance's TSS (package fiscal/replace).
type Replacer interface {
	// Begin records a replacement and runs its steps in the background.
	Begin(ctx context.Context, restaurantID, userID, forceReason string) (*store.TSEReplacement, error)
	// Resume goes on with the one under way in the background.
	Resume(ctx context.Context, restaurantID string) (*store.TSEReplacement, error)
	// Blocking: sales must wait (503 tse_replacing).
	Blocking(ctx context.Context, restaurantID string) bool
}

// tseReplacementJSON is one replacement of the TSS.
type tseReplacementJSON struct {
	ID            string  `json:"id"`
	Step          string  `json:"step"`
	LastError     *string `json:"last_error"`
	OldTSSID      string  `json:"old_tss_id"`
	OldSerial     string  `json:"old_serial_number"`
	NewTSSID      *string `json:"new_tss_id"`
	NewSerial     *string `json:"new_serial_number"`
	ForceReason   *string `json:"force_reason"`
	StartedByName string  `json:"started_by_name"`
	StartedAt     string  `json:"started_at"`
	ClosedAt      *string `json:"closed_at"`
	ExportedAt    *string `json:"exported_at"`
	FinalCounter  *int64  `json:"final_signature_counter"`
	DisabledAt    *string `json:"disabled_at"`
	SetUpAt       *string `json:"set_up_at"`
	SwitchedAt    *string `json:"switched_at"`
}

func tseReplacementView(r *store.TSEReplacement) *tseReplacementJSON {
	if r == nil {
		return nil
	}
	v := &tseReplacementJSON{ID: r.ID, Step: r.Step, LastError: strPtr(r.LastError), OldTSSID: r.OldTSSID, OldSerial: r.OldSerial,
		NewTSSID: strPtr(r.NewTSSID), NewSerial: strPtr(r.NewSerial), ForceReason: strPtr(r.ForceReason),
		StartedByName: r.StartedByName, StartedAt: ts(r.StartedAt), ClosedAt: tsPtr(r.ClosedAt), ExportedAt: tsPtr(r.ExportedAt),
		DisabledAt: tsPtr(r.DisabledAt), SetUpAt: tsPtr(r.SetUpAt), SwitchedAt: tsPtr(r.SwitchedAt)}
	if r.FinalCounter > 0 {
		v.FinalCounter = &r.FinalCounter
	}
	return v
}

func (s *Server) replacer() (Replacer, error) {
	if s.cfg.Replacer == nil {
		return nil, store.Errorf(store.ETSEReplacementRefused, "the built-in simulator signs: there is no TSE to replace; set up fiskaly with `posbox tse setup` (docs/TSE.md)")
	}
	return s.cfg.Replacer, nil
}

// listTSEReplacements is GET /api/tse/replacements: every replacement of
// the restaurant's TSS, oldest first; one whose step is not `done` is
// under way.
func (s *Server) listTSEReplacements(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	c := caller(r.Context())
	all, err := s.store.TSEReplacements(r.Context(), c.restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]*tseReplacementJSON, 0, len(all))
	for _, x := range all {
		out = append(out, tseReplacementView(x))
	}
	return writeJSON(w, http.StatusOK, envelope{"replacements": out})
}

// tseReplacementRequest is POST /api/tse/replacement.
type tseReplacementRequest struct {
	ForceReason string `json:"force_reason"`
}

// startTSEReplacement is POST /api/tse/replacement: starts the replacement
// (202; follow it with GET). force_reason lets it close the registers
// while sales wait unsigned, only when the TSE can no longer sign.
func (s *Server) startTSEReplacement(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req tseReplacementRequest
	if err := decode(r, &req, true); err != nil {
		return err
	}
	if len([]rune(req.ForceReason)) > store.MaxArchiveStartReasonLen {
		return store.Invalid("force_reason", store.FTooLong, "must be at most 1000 characters", "max", store.MaxArchiveStartReasonLen)
	}
	rp, err := s.replacer()
	if err != nil {
		return err
	}
	c := caller(r.Context())
	rep, err := rp.Begin(r.Context(), c.restaurant.ID, c.user.ID, req.ForceReason)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, envelope{"replacement": tseReplacementView(rep)})
}

// continueTSEReplacement is POST /api/tse/replacement/continue: goes on
// from the step the replacement stopped at (202).
func (s *Server) continueTSEReplacement(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	rp, err := s.replacer()
	if err != nil {
		return err
	}
	rep, err := rp.Resume(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	if rep == nil {
		return store.NotFound("replacement")
	}
	return writeJSON(w, http.StatusAccepted, envelope{"replacement": tseReplacementView(rep)})
}
