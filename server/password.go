package server

import (
	"net/http"
	"strings"

	"github.com/julienschmidt/httprouter"
)

type changePasswordRequest struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

// changeOwnPassword is POST /api/auth/password (any user): the caller
// changes their own password, the current one required. Every token issued
// before ends (token_version), so the answer carries a fresh one, shaped
// like the login's. Wrong current passwords count against the login
// limits, so a stolen token cannot be used to guess the password.
func (s *Server) changeOwnPassword(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req changePasswordRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	c := caller(r.Context())
	email, ip := strings.ToLower(c.user.Email), clientAddr(r)
	if email == "" {
		email = "id:" + c.user.ID // no email: the store refuses, nothing to guess
	}
	if ok, wait := s.loginLimiter.allow(ip, email, s.now()); !ok {
		return &httpError{code: eRateLimited, detail: "too many password attempts; try again later", retryAfter: wait}
	}
	u, err := s.store.ChangeOwnPassword(r.Context(), c.user, req.CurrentPassword, req.NewPassword)
	if err != nil {
		return err
	}
	s.loginLimiter.succeeded(ip, email, s.now())
	return s.answerToken(w, u)
}
