package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"
)

// erasureJSON is the audit record of an erasure: who erased whom and
// when, ids only (docs/RETENTION.md).
type erasureJSON struct {
	ID       string `json:"id"`
	UserID   string `json:"user_id"`
	ErasedBy string `json:"erased_by"`
	ErasedAt string `json:"erased_at"`
}

// eraseUser is POST /api/users/:id/erase (no body): the GDPR erasure of a
// deactivated user; an active one is 409 user_active and changes nothing.
func (s *Server) eraseUser(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "user")
	if err != nil {
		return err
	}
	c := caller(r.Context())
	e, err := s.store.EraseUser(r.Context(), c.restaurant.ID, id, c.user.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"erasure": erasureJSON{e.ID, e.UserID, e.ErasedBy, ts(e.ErasedAt)}})
}
