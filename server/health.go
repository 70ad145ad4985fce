package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"
)

// healthJSON is GET /api/health's answer.
type healthJSON struct {
	Status  string `json:"status"`
	Version string `json:"version"`
	Build   string `json:"build"`
	// TLSFingerprint is the SHA-256 of the HTTPS certificate (null when
	// the appliance serves plain HTTP behind a proxy).
	TLSFingerprint *string `json:"tls_fingerprint"`
	// Mode is "box", or "hq" for posbox hq (docs/HQ.md): the console shows
	// the chain's page there.
	Mode string `json:"mode"`
}

// health answers GET /api/health: 200 once the database answers; 503
// problem+json (like every error) when it does not.
func (s *Server) health(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	if err := s.store.Ping(r.Context()); err != nil {
		s.log.ErrorContext(r.Context(), "health: database", "err", err)
		return errHTTP(eUnavailable, "the database is not available")
	}
	return writeJSON(w, http.StatusOK, healthJSON{Status: "ok", Version: s.cfg.Version, Build: s.cfg.Build,
		TLSFingerprint: strPtr(s.cfg.TLSFingerprint), Mode: s.mode()})
}
