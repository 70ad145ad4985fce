package server

import (
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"posbox/fiscal/datev"
	"posbox/store"
)

// HTTP-only error codes; domain codes live in store.
const (
	eUnauthenticated  = "unauthenticated"
	eForbidden        = "forbidden"
	eMethodNotAllowed = "method_not_allowed"
	eMalformedJSON    = "malformed_json"
	eUnknownField     = "unknown_field"
	eUnsupportedMedia = "unsupported_media_type"
	eTooLarge         = "request_too_large"
	eRateLimited      = "rate_limited"
	eInternal         = "internal"
	eUnavailable      = "unavailable" // GET /api/health before the database answers
	eHTTPSRequired    = "https_required"
)

// statusOf maps every error code to its HTTP status: the one table.
var statusOf = map[string]int{
	eUnauthenticated:               http.StatusUnauthorized,
	eForbidden:                     http.StatusForbidden,
	eAuditorNotAllowed:             http.StatusForbidden,
	eAuditorEnded:                  http.StatusForbidden,
	store.ENotFound:                http.StatusNotFound,
	eMethodNotAllowed:              http.StatusMethodNotAllowed,
	eHTTPSRequired:                 http.StatusForbidden,
	eMalformedJSON:                 http.StatusBadRequest,
	eUnknownField:                  http.StatusBadRequest,
	eUnsupportedMedia:              http.StatusUnsupportedMediaType,
	eTooLarge:                      http.StatusRequestEntityTooLarge,
	store.EValidation:              http.StatusUnprocessableEntity,
	store.EConflict:                http.StatusConflict,
	store.EAlreadyClockedIn:        http.StatusConflict,
	store.ENotClockedIn:            http.StatusConflict,
	store.EShiftOverlap:            http.StatusConflict,
	store.ELastAdmin:               http.StatusConflict,
	store.EUserActive:              http.StatusConflict,
	store.EUserErased:              http.StatusConflict,
	store.EUserClockedIn:           http.StatusConflict,
	store.ETimeEntryClosed:         http.StatusConflict,
	store.ETimeEntryOpen:           http.StatusConflict,
	store.ETimeEntryOverlap:        http.StatusConflict,
	store.EDiscountInactive:        http.StatusConflict,
	store.EDiscountNotStarted:      http.StatusConflict,
	store.EDiscountExpired:         http.StatusConflict,
	store.EDiscountOutsideSchedule: http.StatusConflict,
	store.EUsageLimitReached:       http.StatusConflict,
	store.EMinOrderNotMet:          http.StatusUnprocessableEntity,
	// Discount codes: a code missing or not the discount's is the
	// request's fault (422, like min_order_not_met); a code used up is the
	// state's (409, like usage_limit_reached).
	store.EDiscountCodeRequired:  http.StatusUnprocessableEntity,
	store.EDiscountCodeInvalid:   http.StatusUnprocessableEntity,
	store.EDiscountCodeUsedUp:    http.StatusConflict,
	store.EDiscountCodeGuestUsed: http.StatusConflict,
	store.ETSEUnavailable:        http.StatusServiceUnavailable,
	store.ETSEReplacing:          http.StatusServiceUnavailable,
	store.ETSEReplacementOpen:    http.StatusConflict,
	store.ETSEReplacementRefused: http.StatusConflict,
	eRateLimited:                 http.StatusTooManyRequests,
	eInternal:                    http.StatusInternalServerError,

	// Idempotency-Key (sales and redemptions) and the TSE queue
	store.EIdempotencyKeyReused:  http.StatusUnprocessableEntity,
	store.ETSEQueueState:         http.StatusConflict,
	store.ETSENotConfigured:      http.StatusConflict,
	store.ETSEArchiveOverlap:     http.StatusConflict,
	store.EClosingEmpty:          http.StatusConflict,
	store.ECashBookNotStarted:    http.StatusConflict,
	store.ECashChanged:           http.StatusConflict,
	store.EAlreadyCancelled:      http.StatusConflict,
	store.ERedemptionBooked:      http.StatusConflict,
	store.EBasketChanged:         http.StatusConflict,
	store.EDiscountNotCombinable: http.StatusConflict,
	store.ENoEligibleLines:       http.StatusConflict,
	store.EDiscountAdminsOnly:    http.StatusForbidden,
	store.EApprovalRequired:      http.StatusForbidden,
	store.EApprovalInvalid:       http.StatusForbidden,
	// The ELSTER file of §146a (4) AO cannot be made from the master data.
	store.ERegistrationIncomplete: http.StatusConflict,
	// The DATEV batch cannot be made from the settings (docs/FISCAL.md).
	datev.ENumbersMissing: http.StatusConflict,
	datev.EAccountMissing: http.StatusConflict,
	datev.EEuroUnknown:    http.StatusConflict,

	// Notifications: events only posbox raises; a channel not set up
	store.EEventTypeReserved:    http.StatusUnprocessableEntity,
	store.EChannelNotConfigured: http.StatusConflict,

	// health
	eUnavailable: http.StatusServiceUnavailable,

	// The recovery sheet (docs/REPLICATION.md)
	eReplicationOff:               http.StatusConflict,
	store.ERecoverySheetConfirmed: http.StatusGone,
}

// httpError is an error that exists only at the HTTP layer.
type httpError struct {
	code       string
	detail     string
	retryAfter time.Duration // 429
}

func (e *httpError) Error() string { return e.code + ": " + e.detail }

func errHTTP(code, detail string) error { return &httpError{code: code, detail: detail} }

// problem is an RFC 9457 problem details body.
type problem struct {
	Type   string         `json:"type"`
	Title  string         `json:"title"`
	Status int            `json:"status"`
	Code   string         `json:"code"`
	Detail string         `json:"detail,omitempty"`
	Errors []problemField `json:"errors,omitempty"`
	// Conflict names the record a 409 collided with (shift_overlap,
	// time_entry_overlap), so a client need not show its id.
	Conflict *problemConflict `json:"conflict,omitempty"`
}

// problemField is one invalid field: code and params are what a client
// translates (docs/API.md lists every code), message is English.
type problemField struct {
	Field   string         `json:"field"`
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Params  map[string]any `json:"params,omitempty"`
}

type problemConflict struct {
	ID       string  `json:"id"`
	StartsAt string  `json:"starts_at"`
	EndsAt   *string `json:"ends_at"`
	UserName string  `json:"user_name"`
}

// writeError is the one error writer. A domain or HTTP error is shown;
// anything else is logged and answered with a bare 500.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	p := problem{Type: "about:blank"}
	var he *httpError
	var se *store.Error
	switch {
	case errors.As(err, &he):
		p.Code, p.Detail = he.code, he.detail
		if he.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int((he.retryAfter+time.Second-1)/time.Second)))
		}
	case errors.As(err, &se):
		p.Code, p.Detail = se.Code, se.Message
		if se.Code == store.ETSEReplacing {
			// The switch to the new TSS is a restart of seconds.
			w.Header().Set("Retry-After", "30")
		}
		for _, f := range se.Fields {
			p.Errors = append(p.Errors, problemField{Field: f.Field, Code: f.Code.String(), Message: f.Message, Params: f.Params})
		}
		if c := se.Conflict; c != nil {
			p.Conflict = &problemConflict{ID: c.ID, StartsAt: c.StartsAt, UserName: c.UserName}
			if c.EndsAt != "" {
				p.Conflict.EndsAt = &c.EndsAt
			}
		}
	default:
		p.Code, p.Detail = eInternal, "an internal error occurred"
		s.log.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	p.Status = statusOf[p.Code]
	if p.Status == 0 {
		p.Status = http.StatusInternalServerError
		s.log.ErrorContext(r.Context(), "error code without status", "code", p.Code)
	}
	p.Title = http.StatusText(p.Status)
	if p.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="posbox"`)
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	_ = newEncoder(w).Encode(p)
}

// notFound answers a path no route has: the console for a path outside
// /api (GET and HEAD only), else 404 problem+json.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if s.console == nil || isAPIPath(r.URL.Path) {
		s.writeError(w, r, errHTTP(store.ENotFound, "no such route"))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.methodNotAllowed(w, r)
		return
	}
	s.console.serve(w, r)
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	s.writeError(w, r, errHTTP(eMethodNotAllowed, r.Method+" is not allowed here"))
}

// panicked answers 500 and logs the stack; the body tells nothing.
func (s *Server) panicked(w http.ResponseWriter, r *http.Request, v any) {
	if v == http.ErrAbortHandler {
		panic(v)
	}
	s.log.ErrorContext(r.Context(), "panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
	s.writeError(w, r, errHTTP(eInternal, "an internal error occurred"))
}

// logLevel picks a request log level from the status.
func logLevel(status int) slog.Level {
	switch {
	case status >= 500:
		return slog.LevelError
	case status >= 400:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}
