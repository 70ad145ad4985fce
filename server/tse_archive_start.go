package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// tseArchiveStartRequest is POST /api/tse/archive-starts.
type tseArchiveStartRequest struct {
	FirstSignatureCounter *int64 `json:"first_signature_counter"`
	Reason                string `json:"reason"`
}

// tseArchiveStartJSON is one declared start of the archive's chain.
type tseArchiveStartJSON struct {
	ID                    string `json:"id"`
	TSSID                 string `json:"tss_id"`
	FirstSignatureCounter int64  `json:"first_signature_counter"`
	Reason                string `json:"reason"`
	SetByName             string `json:"set_by_name"`
	SetAt                 string `json:"set_at"`
}

func tseArchiveStartView(a *store.TSEArchiveStart) *tseArchiveStartJSON {
	if a == nil {
		return nil
	}
	return &tseArchiveStartJSON{ID: a.ID, TSSID: a.TSSID, FirstSignatureCounter: a.FirstCounter, Reason: a.Reason,
		SetByName: a.SetByName, SetAt: ts(a.SetAt)}
}

// createTSEArchiveStart is POST /api/tse/archive-starts: the first
// signature counter to archive the TSS from, with a required reason; kept
// for good, it only moves forward (docs/API.md).
func (s *Server) createTSEArchiveStart(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req tseArchiveStartRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	if req.FirstSignatureCounter == nil {
		f.Add("first_signature_counter", store.FRequired, "is required (the first signature counter the TSE still has)")
	} else if *req.FirstSignatureCounter < 2 {
		f.Add("first_signature_counter", store.FTooSmall, "must be 2 or more: the chain starts at 1 without a declaration", "min", 2)
	}
	if req.Reason == "" {
		f.Add("reason", store.FRequired, "is required: say why the earlier counters cannot be archived")
	}
	if err := f.Err(); err != nil {
		return err
	}
	arc, err := s.archiver()
	if err != nil {
		return err
	}
	c := caller(r.Context())
	a, err := arc.SetStart(r.Context(), c.restaurant.ID, c.user.ID, *req.FirstSignatureCounter, req.Reason)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"archive_start": tseArchiveStartView(a)})
}

// listTSEArchiveStarts is GET /api/tse/archive-starts: the restaurant's
// declarations, each naming its TSS, oldest first (per TSS the last is
// in force).
func (s *Server) listTSEArchiveStarts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	all, err := s.store.TSEArchiveStartsOfRestaurant(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]*tseArchiveStartJSON, 0, len(all))
	for i := range all {
		out = append(out, tseArchiveStartView(&all[i]))
	}
	return writeJSON(w, http.StatusOK, envelope{"archive_starts": out})
}
