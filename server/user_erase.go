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

// formerUserJSON is a deleted user whose personal data is not erased yet.
type formerUserJSON struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	StaffNumber *string `json:"staff_number"`
	DeletedAt   string  `json:"deleted_at"`
}

// listFormerUsers is GET /api/users/former: the deleted users not yet
// erased, most recently deleted first, so that an admin can erase the
// staff who left (the live list shows deleted users no more).
func (s *Server) listFormerUsers(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	users, err := s.store.FormerUsers(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]formerUserJSON, 0, len(users))
	for _, u := range users {
		var staffNo *string
		if u.StaffNumber != "" {
			staffNo = &u.StaffNumber
		}
		out = append(out, formerUserJSON{u.ID, u.Name, staffNo, ts(u.DeletedAt)})
	}
	return writeJSON(w, http.StatusOK, envelope{"former_users": out})
}

// erasureEntryJSON is one erasure in the admin's list: no ids.
type erasureEntryJSON struct {
	ErasedAt        string  `json:"erased_at"`
	ErasedByName    string  `json:"erased_by_name"`
	PseudonymisedAt *string `json:"pseudonymised_at"`
}

// listErasures is GET /api/users/erasures: the audit record of the
// erasures, newest first, as the admin sees it (when, by whom, when the
// name was pseudonymised), without the erased person.
func (s *Server) listErasures(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	es, err := s.store.ErasureLog(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]erasureEntryJSON, 0, len(es))
	for _, e := range es {
		var pseudo *string
		if e.PseudonymisedAt != nil {
			v := ts(*e.PseudonymisedAt)
			pseudo = &v
		}
		out = append(out, erasureEntryJSON{ts(e.ErasedAt), e.ErasedByName, pseudo})
	}
	return writeJSON(w, http.StatusOK, envelope{"erasures": out})
}
