package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"
)

// health answers GET /api/health: 200 once the database answers.
func (s *Server) health(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	if err := s.store.Ping(r.Context()); err != nil {
		s.log.ErrorContext(r.Context(), "health: database", "err", err)
		return writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "version": s.cfg.Version, "build": s.cfg.Build})
	}
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": s.cfg.Version, "build": s.cfg.Build})
}
