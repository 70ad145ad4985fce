package server

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// Config is what the HTTP layer needs from the appliance's configuration.
type Config struct {
	Version  string        // release, e.g. v1.4.0 (GET /api/health)
	Build    string        // commit the binary was built from
	JWTKey   []byte        // HS256 secret, at least 32 bytes
	TokenTTL time.Duration // access token lifetime
	// Login rate limits: per client address, per account and address, and
	// a slower ceiling per account (ratelimit.go).
	LoginPerIP        Limit
	LoginPerAccountIP Limit
	LoginPerAccount   Limit
	// TSE signs sales (package fiscal/queue's Queue); nil answers 503
	// tse_unavailable on every TSE endpoint.
	TSE TSE
	// Archive is the fiscal archive of the TSE's TAR exports (package
	// fiscal/archive); nil when the provider cannot export.
	Archive Archive
	// Replacer replaces the TSS (package fiscal/replace); nil when the
	// built-in simulator signs.
	Replacer Replacer
	// Replica is the database's replication off the box (package
	// replica, adapted by main); nil when replica_url is unset.
	Replica Replica
	// HQ is the chain's view (package hq, adapted by main); set only by
	// posbox hq, which puts the server in HQ mode (server/hq.go).
	HQ HQ
	// Notifier sends test notifications (package notify's Dispatcher).
	Notifier Notifier
	// DSFinVK builds the DSFinV-K export (package fiscal/dsfinvk's
	// Exporter); nil answers 503 on GET /api/fiscal/dsfinvk.
	DSFinVK DSFinVK
	// ProcDoc makes the procedure document (package fiscal/procdoc's
	// Builder); nil answers 503 on its document routes.
	ProcDoc ProcedureDocuments
	// Console is the admin console's files (package console), served at
	// every path outside /api; nil serves none.
	Console fs.FS
	// RequireTLS refuses plain HTTP from other machines: the port speaks
	// HTTPS, and plain HTTP is for the box itself (localhost).
	RequireTLS bool
	// TLSFingerprint is the SHA-256 of the HTTPS certificate, shown by
	// /api/health so a till or an admin can compare and pin it.
	TLSFingerprint string
}

// Limit is a token bucket: Burst attempts at once, then one per Every.
type Limit struct {
	Burst int
	Every time.Duration
}

// withDefaults fills what a caller left zero.
func (c Config) withDefaults() Config {
	if c.TokenTTL == 0 {
		c.TokenTTL = 12 * time.Hour
	}
	if c.LoginPerIP.Burst == 0 {
		c.LoginPerIP = Limit{Burst: 20, Every: 3 * time.Second}
	}
	if c.LoginPerAccountIP.Burst == 0 {
		c.LoginPerAccountIP = Limit{Burst: 5, Every: 20 * time.Second}
	}
	if c.LoginPerAccount.Burst == 0 {
		c.LoginPerAccount = Limit{Burst: 30, Every: time.Minute}
	}
	return c
}

// Server serves the API.
type Server struct {
	store *store.Store
	cfg   Config
	log   *slog.Logger
	now   func() time.Time

	loginLimiter *loginLimiter
	tokens       *verifiedTokens
	handler      http.Handler
	console      *consoleFiles // nil without Config.Console

	// registered lists the route table as registered, so the contract
	// test walks every route and a new one cannot escape it.
	registered []registeredRoute
}

// Route is one line of the route table: a method and a path pattern
// (":id" for an id), as docs/API.md lists it.
type Route struct{ Method, Path string }

// Routes is the route table, for tests that check what a client calls.
func (s *Server) Routes() []Route {
	out := make([]Route, 0, len(s.registered))
	for _, r := range s.registered {
		out = append(out, Route{r.method, r.path})
	}
	return out
}

// registeredRoute is one line of the route table.
type registeredRoute struct {
	method, path string
	access       access
}

// New builds the server and its route table.
func New(st *store.Store, cfg Config, log *slog.Logger) *Server {
	cfg = cfg.withDefaults()
	s := &Server{store: st, cfg: cfg, log: log, now: st.Now}
	if cfg.Console != nil {
		c, err := newConsoleFiles(cfg.Console)
		if err != nil {
			// The console is embedded in the binary: this is a build error.
			panic("server: console files: " + err.Error())
		}
		s.console = c
	}
	s.tokens = newVerifiedTokens(cfg.JWTKey, s.now)
	s.loginLimiter = newLoginLimiter(cfg.LoginPerIP, cfg.LoginPerAccountIP, cfg.LoginPerAccount)
	r, fixed := s.newRouter(), s.newRouter()
	s.routes(r)
	var h http.Handler = byPath(s.fixedRoutes(fixed), fixed, r)
	if cfg.RequireTLS {
		h = s.requireTLS(h)
	}
	s.handler = LogRequests(log, noSniff(h))
	return s
}

// newRouter is an empty router whose 404, 405 and panics are problem+json.
func (s *Server) newRouter() *httprouter.Router {
	r := httprouter.New()
	// The contract wants 404 problem+json, not redirects to a fixed path.
	r.RedirectTrailingSlash, r.RedirectFixedPath = false, false
	r.HandleMethodNotAllowed = true
	r.NotFound = drained(s.peeked(s.notFound))
	r.MethodNotAllowed = drained(s.peeked(s.methodNotAllowed))
	r.PanicHandler = s.panicked
	return r
}

// byPath sends a request for one of paths to first when first serves
// its method there, else to rest; a method neither serves is a 405 (or
// the answer to OPTIONS) whose Allow names the methods of both.
func byPath(paths []string, first, rest *httprouter.Router) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(paths, r.URL.Path) {
			rest.ServeHTTP(w, r)
			return
		}
		var allow []string
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			if h, _, _ := first.Lookup(m, r.URL.Path); h != nil {
				if m == r.Method {
					first.ServeHTTP(w, r)
					return
				}
				allow = append(allow, m)
			} else if h, _, _ := rest.Lookup(m, r.URL.Path); h != nil {
				if m == r.Method {
					rest.ServeHTTP(w, r)
					return
				}
				allow = append(allow, m)
			}
		}
		allow = append(allow, "OPTIONS")
		slices.Sort(allow)
		w.Header().Set("Allow", strings.Join(allow, ", "))
		if r.Method != "OPTIONS" {
			rest.MethodNotAllowed.ServeHTTP(w, r)
		}
	})
}

// drained reads what is left of the body after h answered, as every
// route does (drainBody): a client that sends it all before reading
// reads the 404 or 405, not a broken pipe.
func drained(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer drainBody(w, r.Body)
		h(w, r)
	}
}

// Handler is the whole API.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops background helpers of the server.
func (s *Server) Close() { s.loginLimiter.stop() }

// handlerFunc is a route's handler; it returns errors instead of writing
// them, and writeError answers them.
type handlerFunc func(w http.ResponseWriter, r *http.Request, p httprouter.Params) error

// access says who may call a route: nobody need sign in (public), or
// the roles it admits. An auditor is admitted only where auditorToo says
// so, and only while its access is valid (auditor.go).
type access uint8

const (
	public     access = 0
	adminOnly  access = 1 << 0
	staffToo   access = 1 << 1
	auditorToo access = 1 << 2

	// anyUser: the restaurant's people, admin and staff.
	anyUser = adminOnly | staffToo
	// ownAccount: every signed-in user, an auditor too: the caller's own
	// account and the restaurant's name and timezone the console needs.
	ownAccount = anyUser | auditorToo
	// fiscalRead: the fiscal records an auditor reads (docs/FISCAL.md,
	// "The auditor's access"); GETs only.
	fiscalRead = adminOnly | auditorToo
)

// admits reports whether a user of role may call a route of access a.
func (a access) admits(role string) bool {
	switch role {
	case store.RoleAdmin:
		return a&adminOnly != 0
	case store.RoleStaff:
		return a&staffToo != 0
	case store.RoleAuditor:
		return a&auditorToo != 0
	}
	return false
}

// route registers one handler with its access rule.
func (s *Server) route(r *httprouter.Router, method, path string, a access, h handlerFunc) {
	s.registered = append(s.registered, registeredRoute{method, path, a})
	r.Handle(method, path, s.gateMode(path, func(w http.ResponseWriter, req *http.Request, p httprouter.Params) {
		defer drainBody(w, req.Body)
		if a != public {
			ctx, u, err := s.authenticate(req, a)
			if u != nil && u.Role == store.RoleAuditor {
				aw := s.audited(w, req, u) // every request of an auditor is logged
				defer aw.finish()
				w = aw
			}
			if err != nil {
				s.writeError(w, req, err)
				return
			}
			req = req.WithContext(ctx)
		} else if aw := s.peekAuditor(w, req); aw != nil {
			defer aw.finish()
			w = aw
		}
		if err := checkBody(w, req); err != nil {
			s.writeError(w, req, err)
			return
		}
		if err := h(w, req, p); err != nil {
			s.writeError(w, req, err)
		}
	}))
}

// noSniff tells browsers to take every answer as the type it says.
func noSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status for the request log; Unwrap lets
// http.ResponseController reach the connection beneath (the simulator
// hijacks it to play a network outage).
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// LogRequests writes one log line per request, warning on 4xx and
// erring on 5xx; the TSE simulator's server logs through it too (with the
// request-id it answered).
func LogRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		attrs := []any{"method", r.Method, "path", r.URL.Path, "status", rec.status,
			"duration_ms", time.Since(start).Milliseconds(), "remote", r.RemoteAddr}
		if id := w.Header().Get("request-id"); id != "" {
			attrs = append(attrs, "request_id", id)
		}
		log.Log(r.Context(), logLevel(rec.status), "request", attrs...)
	})
}

// ctxKey keys the request context.
type ctxKey int

const principalKey ctxKey = 0

// principal is the authenticated caller.
type principal struct {
	user       *store.User
	restaurant *store.Restaurant
}

// caller is the authenticated caller of a protected route.
func caller(ctx context.Context) principal {
	p, _ := ctx.Value(principalKey).(principal)
	return p
}
