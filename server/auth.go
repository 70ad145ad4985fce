package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// issuer is the JWT "iss" of every token this appliance mints.
const issuer = "posbox"

// claims are the JWT claims of an access token.
type claims struct {
	RID  string `json:"rid"`
	Role string `json:"role"`
	// TV is the user's token version when the token was issued.
	TV int `json:"tv,omitempty"`
	jwt.RegisteredClaims
}

// IssueToken mints an access token for u. Used by login and `posbox token`.
func IssueToken(key []byte, u *store.User, now time.Time, ttl time.Duration) (string, error) {
	if len(key) < 32 {
		return "", errors.New("jwt key shorter than 32 bytes")
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims{
		RID:  u.RestaurantID,
		Role: u.Role,
		TV:   u.TokenVersion,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   u.ID,
			Issuer:    issuer,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
		},
	}).SignedString(key)
}

// authenticate checks the bearer token and loads the caller. The user is
// checked on every request against the store's auth view, which every
// commit touching users drops, so a disabled or deleted user is out at
// once. The user is returned whenever the token names a live one, with a
// refusal too, so that an auditor's refused request is logged as well.
func (s *Server) authenticate(r *http.Request, a access) (context.Context, *store.User, error) {
	u, err := s.tokenUser(r)
	if err != nil {
		return nil, nil, err
	}
	rest, err := s.store.AuthRestaurant(r.Context(), u.RestaurantID)
	if err != nil {
		return nil, u, err
	}
	if !u.AuditorValid(s.now(), rest.Location()) {
		return nil, u, auditorEnded(u)
	}
	if !a.admits(u.Role) {
		if u.Role == store.RoleAuditor {
			return nil, u, errHTTP(eAuditorNotAllowed, "an auditor's access reads the fiscal records only (docs/FISCAL.md)")
		}
		return nil, u, errHTTP(eForbidden, "this endpoint is for administrators")
	}
	return context.WithValue(r.Context(), principalKey, principal{user: u, restaurant: rest}), u, nil
}

// tokenUser is the live user the request's bearer token names.
func (s *Server) tokenUser(r *http.Request) (*store.User, error) {
	unauth := func(detail string) error { return errHTTP(eUnauthenticated, detail) }
	h := r.Header.Get("Authorization")
	scheme, raw, ok := strings.Cut(h, " ")
	if h == "" {
		return nil, unauth("an Authorization: Bearer token is required")
	}
	if !ok || !strings.EqualFold(scheme, "Bearer") || len(raw) > 4096 {
		return nil, unauth("the Authorization header must be Bearer <token>")
	}
	c, err := s.tokens.check(raw) // token_cache.go
	if errors.Is(err, jwt.ErrTokenExpired) {
		return nil, unauth("the token has expired")
	}
	if err != nil {
		return nil, unauth("the token is invalid")
	}
	// From the store's auth view: no query in the steady state, and
	// dropped by every commit that touches users or restaurants.
	u, err := s.store.AuthUser(r.Context(), c.RID, c.Subject)
	if store.ErrorCode(err) == store.ENotFound || (err == nil && !u.IsActive) {
		return nil, unauth("the user is disabled or deleted")
	}
	if err != nil {
		return nil, err
	}
	if c.TV != u.TokenVersion {
		return nil, unauth("the token was issued before a change of password or role; log in again")
	}
	return u, nil
}

// clientAddr is the caller's IP. The appliance is reached directly on the
// LAN, so forwarding headers are not trusted.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	// A till's login: staff number and PIN, in the box's restaurant
	// (restaurant_id names it when the box holds several).
	StaffNumber  string `json:"staff_number"`
	PIN          string `json:"pin"`
	RestaurantID string `json:"restaurant_id"`
}

// login answers POST /api/auth/login: email and password, or staff number
// and PIN (staff only).
func (s *Server) login(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req loginRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	if req.StaffNumber != "" || req.PIN != "" || req.RestaurantID != "" {
		return s.loginByPIN(w, r, req)
	}
	// Lengths are bound before anything is remembered: no account has a
	// longer email, and bcrypt reads 72 bytes of a password.
	var f store.Fields
	switch {
	case req.Email == "":
		f.Add("email", store.FRequired, "is required")
	case len(req.Email) > store.MaxEmailLen:
		f.Add("email", store.FTooLong, fmt.Sprintf("must be at most %d characters", store.MaxEmailLen), "max", store.MaxEmailLen)
	}
	switch {
	case req.Password == "":
		f.Add("password", store.FRequired, "is required")
	case len(req.Password) > store.MaxPasswordLen:
		f.Add("password", store.FTooLong, fmt.Sprintf("must be at most %d bytes", store.MaxPasswordLen), "max", store.MaxPasswordLen)
	}
	if err := f.Err(); err != nil {
		return err
	}
	email, ip := strings.ToLower(strings.TrimSpace(req.Email)), clientAddr(r)
	if ok, wait := s.loginLimiter.allow(ip, email, s.now()); !ok {
		return &httpError{code: eRateLimited, detail: "too many login attempts; try again later", retryAfter: wait}
	}
	u, err := s.store.Authenticate(r.Context(), email, req.Password)
	if store.ErrorCode(err) == store.ENotFound {
		s.log.WarnContext(r.Context(), "login failed", "email", email, "remote", clientAddr(r))
		return errHTTP(eUnauthenticated, "wrong email or password")
	}
	if err != nil {
		return err
	}
	s.loginLimiter.succeeded(ip, email, s.now())
	if u.Role == store.RoleAuditor {
		aw, err := s.auditorLogin(w, r, u) // auditor.go
		defer aw.finish()
		if err != nil {
			s.writeError(aw, r, err)
			return nil
		}
		w = aw
	}
	return s.answerToken(w, u)
}

// loginByPIN is the till's login: a staff member's staff number and PIN,
// under the same limits as a password (the account is the restaurant's
// staff number). An admin never logs in this way.
func (s *Server) loginByPIN(w http.ResponseWriter, r *http.Request, req loginRequest) error {
	var f store.Fields
	if req.Email != "" || req.Password != "" {
		f.Add("email", store.FNotAllowed, "give either email and password or staff number and PIN")
	}
	switch {
	case req.StaffNumber == "":
		f.Add("staff_number", store.FRequired, "is required")
	case len(req.StaffNumber) > store.MaxStaffNumberLen:
		f.Add("staff_number", store.FTooLong, fmt.Sprintf("must be at most %d characters", store.MaxStaffNumberLen), "max", store.MaxStaffNumberLen)
	}
	if !store.ValidPIN(req.PIN) {
		f.Add("pin", store.FNotPIN, "must be 4-8 digits")
	}
	if req.RestaurantID != "" && !store.ValidID(req.RestaurantID) {
		f.Add("restaurant_id", store.FNotUUID, "must be a restaurant's id")
	}
	if err := f.Err(); err != nil {
		return err
	}
	rid := req.RestaurantID
	if rid == "" {
		rs, err := s.store.Restaurants(r.Context())
		if err != nil {
			return err
		}
		if len(rs) != 1 {
			return store.Invalid("restaurant_id", store.FRequired, "is required: this box holds more than one restaurant")
		}
		rid = rs[0].ID
	}
	account, ip := "pin:"+rid+"\x00"+req.StaffNumber, clientAddr(r)
	if ok, wait := s.loginLimiter.allow(ip, account, s.now()); !ok {
		return &httpError{code: eRateLimited, detail: "too many login attempts; try again later", retryAfter: wait}
	}
	u, err := s.store.AuthenticatePIN(r.Context(), rid, req.StaffNumber, req.PIN)
	if store.ErrorCode(err) == store.ENotFound {
		s.log.WarnContext(r.Context(), "PIN login failed", "staff_number", req.StaffNumber, "remote", ip)
		return errHTTP(eUnauthenticated, "wrong staff number or PIN")
	}
	if err != nil {
		return err
	}
	s.loginLimiter.succeeded(ip, account, s.now())
	return s.answerToken(w, u)
}

// answerToken answers a fresh token for u, shaped as the login's answer
// (the login and a user's own password change both give one).
func (s *Server) answerToken(w http.ResponseWriter, u *store.User) error {
	tok, err := IssueToken(s.cfg.JWTKey, u, s.now(), s.cfg.TokenTTL)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, struct {
		AccessToken string   `json:"access_token"`
		TokenType   string   `json:"token_type"`
		ExpiresIn   int64    `json:"expires_in"`
		User        userJSON `json:"user"`
	}{tok, "Bearer", int64(s.cfg.TokenTTL / time.Second), toUserJSON(u)})
}

// me answers GET /api/auth/me.
func (s *Server) me(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	return writeJSON(w, http.StatusOK, envelope{"user": toUserJSON(caller(r.Context()).user)})
}
