package server

import (
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Checking a token's signature and decoding its claims was a tenth of a
// clock-in's CPU, for the same few tokens (one per terminal or staff
// member) over and over. A token whose signature checked out is kept
// with its decoded claims, keyed by its exact text, so only a token this
// server signed can hit. Its times (exp, iat) are checked again on every
// use; the user, the token version and the role are checked against the
// store's auth view after it as before, so a changed password or a
// disabled user ends it at once.

// maxVerifiedTokens bounds the cache; when full it starts over.
const maxVerifiedTokens = 4096

type verifiedTokens struct {
	parser    *jwt.Parser
	validator *jwt.Validator
	key       []byte
	mu        sync.Mutex
	seen      map[string]claims
}

func newVerifiedTokens(key []byte, now func() time.Time) *verifiedTokens {
	opts := []jwt.ParserOption{
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(), jwt.WithIssuer(issuer), jwt.WithIssuedAt(),
		jwt.WithLeeway(30 * time.Second), jwt.WithTimeFunc(now),
	}
	return &verifiedTokens{parser: jwt.NewParser(opts...), validator: jwt.NewValidator(opts...), key: key, seen: map[string]claims{}}
}

// errTokenInvalid is any token that does not verify (its cause is not
// told to the caller).
var errTokenInvalid = errors.New("token invalid")

// check answers the claims of raw, or jwt.ErrTokenExpired, or
// errTokenInvalid.
func (v *verifiedTokens) check(raw string) (claims, error) {
	raw = strings.TrimSpace(raw)
	v.mu.Lock()
	c, ok := v.seen[raw]
	v.mu.Unlock()
	if ok {
		if err := v.validator.Validate(&c); err != nil {
			v.mu.Lock()
			delete(v.seen, raw)
			v.mu.Unlock()
			return claims{}, tokenErr(err)
		}
		return c, nil
	}
	if _, err := v.parser.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return v.key, nil }); err != nil {
		return claims{}, tokenErr(err)
	}
	v.mu.Lock()
	if len(v.seen) >= maxVerifiedTokens {
		clear(v.seen)
	}
	v.seen[raw] = c
	v.mu.Unlock()
	return c, nil
}

func tokenErr(err error) error {
	if errors.Is(err, jwt.ErrTokenExpired) {
		return jwt.ErrTokenExpired
	}
	return errTokenInvalid
}
