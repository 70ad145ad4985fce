package server

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// The tax office's auditor (docs/FISCAL.md, "The auditor's access"): the
// route table admits an auditor on the fiscalRead routes and its own
// account only (server.go's access), while its access is valid; every
// request of an auditor, allowed or refused, is a row of the append-only
// auditor log the owner reads (GET /api/audit-log).

// Error codes of the auditor's access (docs/API.md, "Errors").
const (
	// eAuditorNotAllowed: the route is not a fiscal record (403).
	eAuditorNotAllowed = "auditor_not_allowed"
	// eAuditorEnded: the auditor's last day has passed (403): its login
	// and every token are refused.
	eAuditorEnded = "auditor_access_ended"
)

func auditorEnded(u *store.User) error {
	return errHTTP(eAuditorEnded, "this auditor's access ended on "+u.ValidUntil)
}

// auditedWriter logs the auditor's request when its status is known, at
// the first WriteHeader (or Write), before the status goes out: the row
// is durable (the group commit's fsync) before the auditor reads a byte.
// An auditor's requests are few, so the commit's few milliseconds on
// them cost nothing that matters. A row that cannot be written fails the
// request closed: 500, the answer's body dropped.
type auditedWriter struct {
	http.ResponseWriter
	s      *Server
	r      *http.Request
	u      *store.User
	logged bool
	failed bool
}

func (s *Server) audited(w http.ResponseWriter, r *http.Request, u *store.User) *auditedWriter {
	return &auditedWriter{ResponseWriter: w, s: s, r: r, u: u}
}

func (w *auditedWriter) WriteHeader(code int) {
	if w.logged {
		if !w.failed {
			w.ResponseWriter.WriteHeader(code)
		}
		return
	}
	w.logged = true
	// The request's end does not undo the row: a client that hangs up
	// is still logged.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(w.r.Context()), 30*time.Second)
	defer cancel()
	if err := w.s.store.RecordAuditorRequest(ctx, w.u, w.r.Method, w.r.URL.RequestURI(), code); err != nil {
		w.failed = true
		h := w.Header()
		for k := range h {
			delete(h, k)
		}
		w.s.writeError(w.ResponseWriter, w.r, err)
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *auditedWriter) Write(b []byte) (int, error) {
	if !w.logged {
		w.WriteHeader(http.StatusOK)
	}
	if w.failed {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection beneath.
func (w *auditedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish logs a request whose handler wrote nothing (net/http answers
// 200 then).
func (w *auditedWriter) finish() {
	if !w.logged {
		w.WriteHeader(http.StatusOK)
	}
}

// peekAuditor is an audited writer when a request that needs no token
// (health, the OpenAPI document, a path no route has) carries an
// auditor's valid token; nil otherwise. It refuses nothing.
func (s *Server) peekAuditor(w http.ResponseWriter, r *http.Request) *auditedWriter {
	if r.Header.Get("Authorization") == "" {
		return nil
	}
	u, err := s.tokenUser(r)
	if err != nil || u.Role != store.RoleAuditor {
		return nil
	}
	return s.audited(w, r, u)
}

// peeked wraps the router's own answers (404, 405) with peekAuditor.
func (s *Server) peeked(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if aw := s.peekAuditor(w, r); aw != nil {
			defer aw.finish()
			w = aw
		}
		h(w, r)
	}
}

// auditorLogin checks an auditor's login: refused after its last day,
// and logged either way. It returns the writer to answer through.
func (s *Server) auditorLogin(w http.ResponseWriter, r *http.Request, u *store.User) (*auditedWriter, error) {
	aw, ok := w.(*auditedWriter)
	if !ok {
		aw = s.audited(w, r, u)
	}
	rest, err := s.store.AuthRestaurant(r.Context(), u.RestaurantID)
	if err != nil {
		return aw, err
	}
	if !u.AuditorValid(s.now(), rest.Location()) {
		return aw, auditorEnded(u)
	}
	return aw, nil
}

type auditorRequestJSON struct {
	Seq       int64  `json:"seq"`
	At        string `json:"at"`
	UserID    string `json:"user_id"`
	UserName  string `json:"user_name"`
	UserEmail string `json:"user_email"`
	Method    string `json:"method"`
	Target    string `json:"target"`
	Status    int    `json:"status"`
}

// auditLog is GET /api/audit-log?limit=&before=: the auditors' requests,
// newest first, a page at a time (the next page: before = the last
// row's seq; a page shorter than limit is the last).
func (s *Server) auditLog(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q := r.URL.Query()
	limit, before := store.DefaultAuditorLogLimit, int64(0)
	var f store.Fields
	if q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 {
			f.Add("limit", store.FTooSmall, "must be an integer of at least 1", "min", 1)
		}
		limit = min(n, store.MaxAuditorLogLimit)
	}
	if q.Has("before") {
		n, err := strconv.ParseInt(q.Get("before"), 10, 64)
		if err != nil || n < 1 {
			f.Add("before", store.FTooSmall, "must be an integer of at least 1 (a row's seq)", "min", 1)
		}
		before = n
	}
	if err := f.Err(); err != nil {
		return err
	}
	rows, err := s.store.AuditorRequests(r.Context(), caller(r.Context()).restaurant.ID, before, limit)
	if err != nil {
		return err
	}
	out := make([]auditorRequestJSON, 0, len(rows))
	for _, x := range rows {
		out = append(out, auditorRequestJSON{x.Seq, ts(x.At), x.UserID, x.UserName, x.UserEmail, x.Method, x.Target, x.Status})
	}
	return writeJSON(w, http.StatusOK, envelope{"requests": out})
}
