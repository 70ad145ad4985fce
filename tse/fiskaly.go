package tse

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"posbox/internal/retryafter"
)

// FiskalyURL is fiskaly SIGN DE v2's base URL for TEST and LIVE alike (the
// API key decides the environment).
const FiskalyURL = "https://kassensichv-middleware.fiskaly.com/api/v2"

// FiskalyConfig configures the fiskaly SIGN DE v2 client.
type FiskalyConfig struct {
	// BaseURL is the API root; "/api/v2" is appended when missing.
	// Default FiskalyURL.
	BaseURL   string
	APIKey    string
	APISecret string
	// TSSID is the TSS the Provider methods use (setup methods take theirs).
	TSSID string
	// AdminPIN lets EnsureClient log in as admin to register a client.
	AdminPIN string
	Logger   *slog.Logger

	TxTimeout    time.Duration // transaction upserts; default 4 s (fiskaly: 3-5 s)
	AuthTimeout  time.Duration // POST /auth; default 4 s
	ReadTimeout  time.Duration // reads and admin calls; default 10 s
	SetupTimeout time.Duration // TSS creation and state changes; default 35 s (fiskaly: at least 30 s)
	Now          func() time.Time
	// Transport replaces the client's own (tests); nil builds one with
	// dial, TLS and header timeouts.
	Transport http.RoundTripper
}

// Fiskaly is the fiskaly SIGN DE v2 client. It implements Provider for
// cfg.TSSID and offers the setup operations of `posbox tse setup`.
type Fiskaly struct {
	cfg  FiskalyConfig
	base string
	hc   *http.Client
	log  *slog.Logger

	tmu        sync.Mutex
	access     string
	refresh    string
	renewAt    time.Time // ~80 % of the access token's life
	refreshEnd time.Time
	flight     *authFlight

	polls exportPolls // fiskaly_export.go
}

type authFlight struct {
	done chan struct{}
	err  error
}

var _ Provider = (*Fiskaly)(nil)

// NewFiskaly makes a client; it does not contact the provider.
func NewFiskaly(cfg FiskalyConfig) (*Fiskaly, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = FiskalyURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("tse: base URL %q is not an http(s) URL", cfg.BaseURL)
	}
	if cfg.APIKey == "" || cfg.APISecret == "" {
		return nil, errors.New("tse: fiskaly needs an API key and secret")
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	if !strings.HasSuffix(base, "/api/v2") {
		base += "/api/v2"
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.TxTimeout, 4*time.Second)
	def(&cfg.AuthTimeout, 4*time.Second)
	def(&cfg.ReadTimeout, 10*time.Second)
	def(&cfg.SetupTimeout, 35*time.Second)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	tr := cfg.Transport
	if tr == nil {
		tr = &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout:   5 * time.Second,
			ResponseHeaderTimeout: cfg.SetupTimeout + 5*time.Second, // per-call contexts are tighter
			MaxIdleConnsPerHost:   4,
			IdleConnTimeout:       90 * time.Second,
			ForceAttemptHTTP2:     true,
		}
	}
	return &Fiskaly{
		cfg: cfg, base: base, log: cfg.Logger.With("provider", KindFiskaly),
		hc: &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // an API never redirects; a redirect is an error
		}},
	}, nil
}

// Close drops idle connections.
func (f *Fiskaly) Close() error {
	f.hc.CloseIdleConnections()
	return nil
}

// Kind is "fiskaly".
func (f *Fiskaly) Kind() string { return KindFiskaly }

// TSSID is the configured TSS.
func (f *Fiskaly) TSSID() string { return f.cfg.TSSID }

// --- tokens ---

// token returns a valid access token. One caller authenticates while the
// others wait (single flight); the token is renewed at ~80 % of its life
// with the refresh token, falling back to key and secret when the refresh
// is refused. stale forces a new token unless it was already replaced.
func (f *Fiskaly) token(ctx context.Context, stale string) (string, error) {
	for {
		f.tmu.Lock()
		if f.access != "" && f.access != stale && f.cfg.Now().Before(f.renewAt) {
			tok := f.access
			f.tmu.Unlock()
			return tok, nil
		}
		if fl := f.flight; fl != nil {
			f.tmu.Unlock()
			select {
			case <-fl.done:
				if fl.err != nil {
					return "", fl.err
				}
				stale = "" // a fresh token was just fetched
				continue
			case <-ctx.Done():
				return "", NewTransportError(CodeTimeout, "waiting for a token: "+ctx.Err().Error())
			}
		}
		fl := &authFlight{done: make(chan struct{})}
		f.flight = fl
		refresh := ""
		if f.refresh != "" && f.cfg.Now().Before(f.refreshEnd) {
			refresh = f.refresh
		}
		f.tmu.Unlock()

		a, err := f.authenticate(ctx, refresh)

		f.tmu.Lock()
		if err == nil {
			now := f.cfg.Now()
			f.access, f.refresh = a.AccessToken, a.RefreshToken
			f.renewAt = now.Add(time.Duration(a.AccessTokenExpiresIn) * time.Second * 8 / 10)
			f.refreshEnd = now.Add(time.Duration(a.RefreshTokenExpiresIn) * time.Second * 8 / 10)
		}
		f.flight, fl.err = nil, err
		close(fl.done)
		f.tmu.Unlock()
		if err != nil {
			return "", err
		}
		stale = ""
	}
}

// authenticate calls POST /auth with the refresh token if there is one,
// and with key and secret when there is none or it is refused.
func (f *Fiskaly) authenticate(ctx context.Context, refresh string) (authWire, error) {
	var a authWire
	if refresh != "" {
		body, _ := json.Marshal(map[string]string{"refresh_token": refresh})
		_, err := f.send(ctx, http.MethodPost, "/auth", body, "", f.cfg.AuthTimeout, &a)
		if err == nil {
			return a, nil
		}
		if ClassOf(err) != Auth {
			return a, err
		}
		f.log.Info("fiskaly refused the refresh token; signing in with the API key")
	}
	body, _ := json.Marshal(map[string]string{"api_key": f.cfg.APIKey, "api_secret": f.cfg.APISecret})
	_, err := f.send(ctx, http.MethodPost, "/auth", body, "", f.cfg.AuthTimeout, &a)
	if err == nil && a.AccessToken == "" {
		err = &Error{Class: Auth, HTTPStatus: 200, Code: "E_UNAUTHORIZED", Message: "the auth answer holds no access token"}
	}
	return a, err
}

// --- requests ---

// call sends an authenticated request; on 401 E_UNAUTHORIZED it gets a
// new token once and retries once.
func (f *Fiskaly) call(ctx context.Context, method, path string, body []byte, timeout time.Duration, out any) (http.Header, error) {
	return f.callFor(ctx, "", method, path, body, timeout, out)
}

// callWithSecret is call for an operation whose body carries the admin PIN
// or PUK of tssID (authenticateAdmin, changeAdminPin). fiskaly answers a
// wrong PIN or PUK with 401 E_UNAUTHORIZED, the code of a refused access
// token, and every resend of a wrong PIN spends another of the five
// attempts before the PIN blocks. So a 401 here is retried only when a
// plain read (GET /tss/{tss_id}) with the same token is refused too, which
// shows the token was at fault; otherwise the 401 is about the PIN or PUK
// and is returned as it is.
func (f *Fiskaly) callWithSecret(ctx context.Context, tssID, method, path string, body []byte) error {
	_, err := f.callFor(ctx, tssID, method, path, body, f.cfg.ReadTimeout, nil)
	return err
}

// callFor is call; a non-empty secretTSS makes it callWithSecret.
func (f *Fiskaly) callFor(ctx context.Context, secretTSS, method, path string, body []byte, timeout time.Duration, out any) (http.Header, error) {
	tok, err := f.token(ctx, "")
	if err != nil {
		return nil, err
	}
	h, err := f.send(ctx, method, path, body, tok, timeout, out)
	if !tokenRefused(err) {
		return h, err
	}
	if secretTSS != "" {
		if _, perr := f.send(ctx, http.MethodGet, tssPath(secretTSS), nil, tok, f.cfg.ReadTimeout, nil); !tokenRefused(perr) {
			f.log.Info("fiskaly refused the admin PIN or PUK (the access token is valid): not resending it", "method", method, "path", path)
			return h, err
		}
	}
	if tok, err = f.token(ctx, tok); err != nil {
		return nil, err
	}
	return f.send(ctx, method, path, body, tok, timeout, out)
}

// tokenRefused says whether err is fiskaly's answer to a missing, invalid
// or expired access token.
func tokenRefused(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.HTTPStatus == http.StatusUnauthorized && e.Code == "E_UNAUTHORIZED"
}

// send makes one HTTP exchange within timeout and classifies its failure.
// Each exchange carries its own request-id (a UUID): fiskaly wants the
// client to set one and answers it in its request-id header, so support
// can find the request. Failures log the id sent and the one answered; an
// Error's RequestID is the answered one, or the sent one when no answer
// came or it carried none.
func (f *Fiskaly) send(ctx context.Context, method, path string, body []byte, token string, timeout time.Duration, out any) (http.Header, error) {
	sentID := NewUUID4()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, f.base+path, rd)
	if err != nil {
		return nil, &Error{Class: TxPermanent, Code: "E_REQUEST", Message: err.Error()}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("request-id", sentID)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		e := NewTransportError(CodeNetwork, err.Error())
		var ne net.Error
		if ctx.Err() != nil || (errors.As(err, &ne) && ne.Timeout()) {
			e.Code = CodeTimeout
		}
		e.RequestID = sentID
		f.log.Warn("fiskaly unreachable", "method", method, "path", path, "code", e.Code, "err", err,
			"sent_request_id", sentID)
		return nil, e
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		code := CodeNetwork
		if ctx.Err() != nil {
			code = CodeTimeout
		}
		e := NewTransportError(code, "reading the answer: "+err.Error())
		e.RequestID = orDefault(resp.Header.Get("request-id"), sentID)
		f.log.Warn("fiskaly answer lost", "method", method, "path", path, "status", resp.StatusCode, "code", code,
			"err", err, "request_id", resp.Header.Get("request-id"), "sent_request_id", sentID)
		return nil, e
	}
	reqID := resp.Header.Get("request-id")
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		f.log.Debug("fiskaly", "method", method, "path", path, "status", resp.StatusCode, "request_id", reqID)
		if out != nil && len(bytes.TrimSpace(data)) > 0 {
			if err := json.Unmarshal(data, out); err != nil {
				f.log.Warn("fiskaly answer unreadable", "method", method, "path", path, "status", resp.StatusCode,
					"err", err, "request_id", reqID, "sent_request_id", sentID)
				return nil, &Error{Class: Transient, HTTPStatus: resp.StatusCode, Code: "E_BAD_ANSWER",
					Message: "cannot read the answer: " + err.Error(), RequestID: orDefault(reqID, sentID)}
			}
		}
		return resp.Header, nil
	}
	e := f.refusal(resp, data, orDefault(reqID, sentID))
	level := slog.LevelWarn
	if resp.StatusCode == http.StatusNotFound && method == http.MethodGet {
		level = slog.LevelInfo // a lookup that finds nothing (e.g. a new terminal) is routine
	}
	f.log.Log(ctx, level, "fiskaly refused", "method", method, "path", path, "status", resp.StatusCode,
		"code", e.Code, "class", e.Class.String(), "message", e.Message, "request_id", reqID, "sent_request_id", sentID)
	return resp.Header, e
}

// refusal is the provider's error answer (status, body, Retry-After) as
// an *Error; a body without fiskaly's code gets one from the status.
func (f *Fiskaly) refusal(resp *http.Response, data []byte, requestID string) *Error {
	var ew errorWire
	json.Unmarshal(data, &ew)
	if ew.Code == "" {
		ew.Code = "E_HTTP_" + strconv.Itoa(resp.StatusCode)
		if resp.StatusCode == http.StatusUnauthorized {
			ew.Code = "E_UNAUTHORIZED"
		}
	}
	if ew.Message == "" {
		ew.Message = http.StatusText(resp.StatusCode)
	}
	e := NewError(resp.StatusCode, ew.Code, ew.Message)
	e.RequestID = requestID
	e.RetryAfter = retryafter.Parse(resp.Header.Get("Retry-After"), f.cfg.Now())
	return e
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// providerTime is the provider's clock from the Date header.
func providerTime(h http.Header) time.Time {
	t, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

func tssPath(tssID string) string { return "/tss/" + url.PathEscape(tssID) }

// --- Provider ---

// TSS reads the configured TSS.
func (f *Fiskaly) TSS(ctx context.Context) (TSSInfo, error) {
	return f.getTSS(ctx, f.cfg.TSSID)
}

func (f *Fiskaly) getTSS(ctx context.Context, tssID string) (TSSInfo, error) {
	var w tssWire
	h, err := f.call(ctx, http.MethodGet, tssPath(tssID), nil, f.cfg.ReadTimeout, &w)
	if err != nil {
		return TSSInfo{}, err
	}
	in := w.info()
	in.ProviderRequestTime = providerTime(h)
	return in, nil
}

// Client reads a client of the configured TSS.
func (f *Fiskaly) Client(ctx context.Context, clientID string) (ClientInfo, error) {
	var w clientWire
	_, err := f.call(ctx, http.MethodGet, tssPath(f.cfg.TSSID)+"/client/"+url.PathEscape(clientID), nil, f.cfg.ReadTimeout, &w)
	return w.info(), err
}

// EnsureClient registers the client unless it exists: admin login with
// the configured PIN, createClient, logout (also after a failure).
func (f *Fiskaly) EnsureClient(ctx context.Context, clientID, serial string) (ClientInfo, error) {
	c, err := f.Client(ctx, clientID)
	var e *Error
	if err == nil || !errors.As(err, &e) || e.Code != "E_CLIENT_NOT_FOUND" {
		return c, err
	}
	if f.cfg.AdminPIN == "" {
		return ClientInfo{}, &Error{Class: TSSPermanent, Code: "E_NO_ADMIN_PIN", Message: "no admin PIN configured: cannot register client " + serial}
	}
	if err := f.AdminAuth(ctx, f.cfg.TSSID, f.cfg.AdminPIN); err != nil {
		return ClientInfo{}, err
	}
	defer func() {
		// Logging out must not depend on the caller's remaining time.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), f.cfg.ReadTimeout)
		defer cancel()
		if err := f.AdminLogout(lctx, f.cfg.TSSID); err != nil {
			f.log.Warn("fiskaly admin logout failed", "err", err)
		}
	}()
	return f.CreateClient(ctx, f.cfg.TSSID, clientID, serial)
}

// Upsert sends one revision with exactly r.Body.
func (f *Fiskaly) Upsert(ctx context.Context, r UpsertRequest) (Tx, error) {
	var w txWire
	path := fmt.Sprintf("%s/tx/%s?tx_revision=%d", tssPath(f.cfg.TSSID), url.PathEscape(r.TxID), r.Revision)
	if _, err := f.call(ctx, http.MethodPut, path, r.Body, f.cfg.TxTimeout, &w); err != nil {
		return Tx{}, err
	}
	return w.tx(), nil
}

// Tx reads a transaction; revision 0 is the latest.
func (f *Fiskaly) Tx(ctx context.Context, txID string, revision int) (Tx, error) {
	var w txWire
	path := tssPath(f.cfg.TSSID) + "/tx/" + url.PathEscape(txID)
	if revision > 0 {
		path += "?tx_revision=" + strconv.Itoa(revision)
	}
	if _, err := f.call(ctx, http.MethodGet, path, nil, f.cfg.ReadTimeout, &w); err != nil {
		return Tx{}, err
	}
	return w.tx(), nil
}

// ListTx pages through the TSS's transactions (fiskaly allows 20 calls a
// minute; a 429 comes back as RateLimited with RetryAfter).
func (f *Fiskaly) ListTx(ctx context.Context, q ListQuery) (TxPage, error) {
	v := url.Values{}
	if q.OrderBy != "" {
		v.Set("order_by", q.OrderBy)
	}
	if q.Order != "" {
		v.Set("order", q.Order)
	}
	for i, s := range q.States {
		v.Set(fmt.Sprintf("states[%d]", i), s)
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	if q.Offset > 0 {
		v.Set("offset", strconv.Itoa(q.Offset))
	}
	path := tssPath(f.cfg.TSSID) + "/tx"
	if len(v) > 0 {
		path += "?" + v.Encode()
	}
	var w txListWire
	if _, err := f.call(ctx, http.MethodGet, path, nil, f.cfg.ReadTimeout, &w); err != nil {
		return TxPage{}, err
	}
	page := TxPage{Data: make([]Tx, len(w.Data)), Count: w.Count}
	for i, t := range w.Data {
		page.Data[i] = t.tx()
	}
	return page, nil
}

// --- setup operations (posbox tse setup) ---

// CreateTSS creates a TSS (state CREATED) and returns it with its admin
// PUK, which fiskaly shows only now.
func (f *Fiskaly) CreateTSS(ctx context.Context, tssID string, metadata map[string]string) (TSSInfo, string, error) {
	body, _ := json.Marshal(map[string]any{"metadata": orEmpty(metadata)})
	var w tssWire
	h, err := f.call(ctx, http.MethodPut, tssPath(tssID), body, f.cfg.SetupTimeout, &w)
	if err != nil {
		return TSSInfo{}, "", err
	}
	in := w.info()
	in.ProviderRequestTime = providerTime(h)
	return in, w.AdminPUK, nil
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// SetTSSState changes the TSS state (UNINITIALIZED, INITIALIZED,
// DISABLED); INITIALIZED and DISABLED need an admin session.
func (f *Fiskaly) SetTSSState(ctx context.Context, tssID, state string) (TSSInfo, error) {
	body, _ := json.Marshal(map[string]string{"state": state})
	var w tssWire
	h, err := f.call(ctx, http.MethodPatch, tssPath(tssID), body, f.cfg.SetupTimeout, &w)
	if err != nil {
		return TSSInfo{}, err
	}
	in := w.info()
	in.ProviderRequestTime = providerTime(h)
	return in, nil
}

// ChangeAdminPIN sets the admin PIN with the PUK.
func (f *Fiskaly) ChangeAdminPIN(ctx context.Context, tssID, puk, newPIN string) error {
	body, _ := json.Marshal(map[string]string{"admin_puk": puk, "new_admin_pin": newPIN})
	return f.callWithSecret(ctx, tssID, http.MethodPatch, tssPath(tssID)+"/admin", body)
}

// AdminAuth logs in as the TSS admin.
func (f *Fiskaly) AdminAuth(ctx context.Context, tssID, pin string) error {
	body, _ := json.Marshal(map[string]string{"admin_pin": pin})
	return f.callWithSecret(ctx, tssID, http.MethodPost, tssPath(tssID)+"/admin/auth", body)
}

// AdminLogout ends the admin session (safe to call any time).
func (f *Fiskaly) AdminLogout(ctx context.Context, tssID string) error {
	_, err := f.call(ctx, http.MethodPost, tssPath(tssID)+"/admin/logout", []byte("{}"), f.cfg.ReadTimeout, nil)
	return err
}

// CreateClient registers a client (needs an admin session); idempotent
// for the same id and serial.
func (f *Fiskaly) CreateClient(ctx context.Context, tssID, clientID, serial string) (ClientInfo, error) {
	body, _ := json.Marshal(map[string]string{"serial_number": serial})
	var w clientWire
	_, err := f.call(ctx, http.MethodPut, tssPath(tssID)+"/client/"+url.PathEscape(clientID), body, f.cfg.ReadTimeout, &w)
	return w.info(), err
}
