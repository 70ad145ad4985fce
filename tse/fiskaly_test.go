package tse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

func TestFiskalyHappyPath(t *testing.T) {
	h := simtest.NewHTTP(t)
	f := h.Client(t)
	ctx := context.Background()
	c, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01")
	if err != nil || c.State != tse.ClientRegistered || c.SerialNumber != "KASSE-01" || c.TSSID != h.Sim.TSSID() {
		t.Fatalf("EnsureClient: %+v %v", c, err)
	}
	if again, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil || again != c {
		t.Fatalf("second EnsureClient: %+v %v", again, err)
	}

	h.Clk.Add(3 * time.Second)
	start, fin := simtest.Sell(t, f, tse.NewUUID4())
	pub := h.Sim.PublicKey()
	for _, tx := range []tse.Tx{start, fin} {
		if err := tse.VerifyTx(pub, tx); err != nil {
			t.Fatalf("revision %d over HTTP: %v", tx.Revision, err)
		}
	}
	// What crossed the wire is exactly what the simulator holds.
	direct, err := h.Sim.Tx(ctx, fin.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(direct, fin) {
		t.Fatalf("over HTTP\n%+v\nin process\n%+v", fin, direct)
	}
	read, err := f.Tx(ctx, fin.ID, 1)
	if err != nil || !reflect.DeepEqual(read.Signature, start.Signature) || read.LatestRevision != 2 {
		t.Fatalf("read revision 1: %+v %v", read, err)
	}

	info, err := f.TSS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := h.Sim.TSS(ctx)
	if info.SignatureCounter != fin.Signature.Counter || info.TransactionCounter != 1 ||
		!info.CertNotAfter.Equal(want.CertNotAfter) || info.SerialNumber != want.SerialNumber ||
		info.State != tse.TSSInitialized || info.MaxActiveTx != 2000 || info.RegisteredClients != 1 {
		t.Fatalf("TSS over HTTP %+v\nwant %+v", info, want)
	}
	if !info.ProviderRequestTime.Equal(h.Clk.Now()) {
		t.Fatalf("provider time %s, want the Date header %s", info.ProviderRequestTime, h.Clk.Now())
	}

	f.Upsert(ctx, tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)})
	page, err := f.ListTx(ctx, tse.ListQuery{States: []string{tse.TxFinished, tse.TxCancelled}, OrderBy: "number", Order: "desc"})
	if err != nil || page.Count != 1 || page.Data[0].ID != fin.ID || page.Data[0].QRCodeData != fin.QRCodeData {
		t.Fatalf("list: %+v %v", page, err)
	}
	if g := h.AuthGrants(); !reflect.DeepEqual(g, []string{"key"}) {
		t.Fatalf("auth grants %v, want one sign-in for the whole session", g)
	}
}

func TestFiskalyRenewsTokens(t *testing.T) {
	h := simtest.NewHTTP(t)
	f := h.Client(t)
	ctx := context.Background()

	// Many callers at once share one sign-in.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := f.TSS(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// At 80 % of the 24 h lifetime the refresh token renews the access.
	h.Clk.Add(20 * time.Hour)
	if _, err := f.TSS(ctx); err != nil {
		t.Fatal(err)
	}
	// The provider forgets every token: the 401 makes the client refresh
	// (refused), sign in again with the key and retry once.
	h.Srv.RevokeTokens()
	if _, err := f.TSS(ctx); err != nil {
		t.Fatalf("after a 401: %v", err)
	}
	want := []string{"key", "refresh", "refresh!", "key"}
	if g := h.AuthGrants(); !reflect.DeepEqual(g, want) {
		t.Fatalf("auth grants %v, want %v", g, want)
	}
}

func TestFiskalyClassifiesErrors(t *testing.T) {
	h := simtest.NewHTTP(t, func(c *tsesim.Config) { c.MaxActiveTx = 1 })
	f := h.Client(t)
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	id := tse.NewUUID4()
	if _, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)}); err != nil {
		t.Fatal(err)
	}
	bad := simtest.SampleReceipt()
	bad.AmountsPerVATRate[0].VATRate = "16" // neither a rate name nor one of the deprecated decimals

	_, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: simtest.Body(t, tse.TxFinished, bad)})
	if e := simtest.WantErr(t, err, tse.TxPermanent, 400, "E_FAILED_SCHEMA_VALIDATION"); e.RequestID == "" || e.Message == "" {
		t.Fatalf("error without request id or message: %+v", e)
	}
	_, err = f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: []byte(`{"state":"ACTIVE","client_id":"` + simtest.ClientID + `"} `)})
	simtest.WantErr(t, err, tse.Reconcile, 409, "E_TX_UPSERT")
	_, err = f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 3, Body: simtest.Body(t, tse.TxFinished, simtest.SampleReceipt())})
	simtest.WantErr(t, err, tse.Reconcile, 400, "E_TX_UPSERT")
	_, err = f.Tx(ctx, tse.NewUUID4(), 0)
	simtest.WantErr(t, err, tse.Reconcile, 404, "E_TX_NOT_FOUND")
	_, err = f.Upsert(ctx, tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)})
	simtest.WantErr(t, err, tse.TSSPermanent, 400, "E_TX_LIMIT_REACHED")

	h.Sim.ExpireCertificate()
	_, err = f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: simtest.Body(t, tse.TxFinished, simtest.SampleReceipt())})
	simtest.WantErr(t, err, tse.TSSPermanent, 423, "E_CERTIFICATE_EXPIRED")
	h.Sim.SetState(tse.TSSDisabled)
	_, err = f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: simtest.Body(t, tse.TxFinished, simtest.SampleReceipt())})
	simtest.WantErr(t, err, tse.TSSPermanent, 400, "E_TSS_DISABLED")
	other, _ := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: h.TS.URL, APIKey: "test_key", APISecret: "wrong", TSSID: h.Sim.TSSID()})
	_, err = other.TSS(ctx)
	simtest.WantErr(t, err, tse.Auth, 401, "E_UNAUTHORIZED")
	_, err = f.GetTSS(ctx, tse.NewUUID4())
	simtest.WantErr(t, err, tse.TSSPermanent, 404, "E_TSS_NOT_FOUND")
}

func TestFiskalyTransportFaults(t *testing.T) {
	h := simtest.NewHTTP(t)
	f := h.Client(t)
	// fast gives up after 150 ms: only for calls that are meant to time out.
	fast := h.Client(t, func(c *tse.FiskalyConfig) { c.TxTimeout, c.ReadTimeout = 150*time.Millisecond, 150*time.Millisecond })
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	if _, err := fast.Token(ctx); err != nil {
		t.Fatal(err)
	}

	h.Sim.SetFault(tsesim.Fault{Offline: true})
	_, err := f.TSS(ctx)
	simtest.WantErr(t, err, tse.Transient, 0, tse.CodeNetwork)

	h.Sim.SetFault(tsesim.Fault{Latency: time.Hour})
	_, err = fast.TSS(ctx)
	simtest.WantErr(t, err, tse.Transient, 0, tse.CodeTimeout)

	h.Sim.SetFault(tsesim.Fault{FlakyEvery: 1})
	_, err = f.TSS(ctx)
	if e := simtest.WantErr(t, err, tse.Transient, 503, "E_TSS_LOCKED"); e.RetryAfter != time.Second {
		t.Fatalf("503 Retry-After %s", e.RetryAfter)
	}

	h.Sim.SetFault(tsesim.Fault{RateLimited: 7 * time.Second})
	_, err = f.ListTx(ctx, tse.ListQuery{})
	if e := simtest.WantErr(t, err, tse.RateLimited, 429, "E_TOO_MANY_REQUESTS"); e.RetryAfter != 7*time.Second {
		t.Fatalf("429 Retry-After %s", e.RetryAfter)
	}

	// The provider's own limit: 20 list calls a minute.
	h.Sim.SetFault(tsesim.Fault{})
	for i := range 20 {
		if _, err := f.ListTx(ctx, tse.ListQuery{Limit: 1}); err != nil {
			t.Fatalf("list call %d: %v", i+1, err)
		}
	}
	_, err = f.ListTx(ctx, tse.ListQuery{})
	if e := simtest.WantErr(t, err, tse.RateLimited, 429, "E_TOO_MANY_REQUESTS"); e.RetryAfter != time.Minute {
		t.Fatalf("list limit Retry-After %s", e.RetryAfter)
	}

	// Applied, answer lost: Transient; the same bytes again return the
	// same transaction and no second one exists.
	h.Sim.SetFault(tsesim.Fault{ApplyThenTimeout: 1})
	r1 := tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)}
	_, err = fast.Upsert(ctx, r1)
	simtest.WantErr(t, err, tse.Transient, 0, tse.CodeTimeout)
	tx, err := f.Upsert(ctx, r1)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := h.Sim.Tx(ctx, r1.TxID, 1)
	info, _ := h.Sim.TSS(ctx)
	if tx.Signature != stored.Signature || info.TransactionCounter != 1 {
		t.Fatalf("resend gave %+v; simulator holds %d transactions", tx, info.TransactionCounter)
	}
}

func TestSimServerSpeaksFiskalyWire(t *testing.T) {
	h := simtest.NewHTTP(t)
	do := func(method, path, token string, body any) (*http.Response, map[string]any) {
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, h.TS.URL+path, rd)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return resp, m
	}
	resp, m := do("GET", "/api/v2/tss/"+h.Sim.TSSID(), "", nil)
	if resp.StatusCode != 401 || m["code"] != "E_UNAUTHORIZED" || m["status_code"] != float64(401) ||
		m["error"] != "Unauthorized" || resp.Header.Get("request-id") == "" {
		t.Fatalf("no token: %d %v", resp.StatusCode, m)
	}
	_, m = do("POST", "/api/v2/auth", "", map[string]string{"api_key": "test_key", "api_secret": "test_secret"})
	tok, _ := m["access_token"].(string)
	if tok == "" || m["access_token_expires_in"] != float64(86400) || m["refresh_token"] == "" {
		t.Fatalf("auth: %v", m)
	}
	_, m = do("GET", "/api/v2/tss/"+h.Sim.TSSID(), tok, nil)
	if _, ok := m["signature_counter"].(string); !ok || m["_type"] != "TSS" || m["signature_algorithm"] != tse.SignatureAlgorithm {
		t.Fatalf("TSS counters must be strings: %v", m)
	}
	if _, leaked := m["admin_puk"]; leaked {
		t.Fatal("admin_puk shown after creation")
	}
	f := h.Client(t)
	f.EnsureClient(context.Background(), simtest.ClientID, "KASSE-01")
	_, fin := simtest.Sell(t, f, tse.NewUUID4())
	_, m = do("GET", "/api/v2/tss/"+h.Sim.TSSID()+"/tx/"+fin.ID, tok, nil)
	sig, _ := m["signature"].(map[string]any)
	if _, ok := sig["counter"].(float64); !ok || m["qr_code_data"] != fin.QRCodeData {
		t.Fatalf("signature.counter must be a number: %v", m)
	}
	resp, m = do("GET", "/api/v2/tss/"+h.Sim.TSSID()+"/tx?limit=101", tok, nil)
	if resp.StatusCode != 400 || m["code"] != "E_FAILED_SCHEMA_VALIDATION" {
		t.Fatalf("limit 101: %d %v", resp.StatusCode, m)
	}
	resp, m = do("PATCH", "/api/v2/tss/"+h.Sim.TSSID(), tok, map[string]string{"state": "CREATED"})
	if resp.StatusCode != 400 || m["code"] != "E_ILLEGAL_TSS_STATE_CHANGE" {
		t.Fatalf("illegal transition: %d %v", resp.StatusCode, m)
	}
}

// TestSetupSequenceOverHTTP runs fiskaly's setup sequence against an
// empty simulator, as `posbox tse setup` does.
func TestSetupSequenceOverHTTP(t *testing.T) {
	h := simtest.NewHTTP(t, func(c *tsesim.Config) { c.Empty = true })
	f := h.Client(t)
	ctx := context.Background()
	id := tse.NewUUID4()
	created, puk, err := f.CreateTSS(ctx, id, map[string]string{"by": "test"})
	if err != nil || created.State != tse.TSSCreated || len(puk) < 10 {
		t.Fatalf("create: %+v %q %v", created, puk, err)
	}
	if _, puk2, err := f.CreateTSS(ctx, id, nil); err != nil || puk2 != puk {
		t.Fatalf("create again while CREATED: %q %v", puk2, err)
	}
	if _, err := f.SetTSSState(ctx, id, tse.TSSInitialized); err == nil {
		t.Fatal("CREATED -> INITIALIZED allowed")
	}
	mustState := func(state string) {
		t.Helper()
		if in, err := f.SetTSSState(ctx, id, state); err != nil || in.State != state {
			t.Fatalf("-> %s: %+v %v", state, in, err)
		}
	}
	mustState(tse.TSSUninitialized)
	simtest.WantErr(t, f.AdminAuth(ctx, id, "12345678"), tse.TSSPermanent, 423, "E_ADMIN_PIN_BLOCKED")
	simtest.WantErr(t, f.ChangeAdminPIN(ctx, id, "wrong-puk", "12345678"), tse.TxPermanent, 400, "E_CHANGE_ADMIN_PIN_FAILED")
	if err := f.ChangeAdminPIN(ctx, id, puk, "12345678"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.SetTSSState(ctx, id, tse.TSSInitialized); err == nil {
		t.Fatal("initialized without admin login")
	}
	simtest.WantErr(t, f.AdminAuth(ctx, id, "87654321"), tse.Auth, 401, "E_UNAUTHORIZED")
	if err := f.AdminAuth(ctx, id, "12345678"); err != nil {
		t.Fatal(err)
	}
	mustState(tse.TSSInitialized)
	c, err := f.CreateClient(ctx, id, simtest.ClientID, "KASSE-01")
	if err != nil || c.State != tse.ClientRegistered {
		t.Fatalf("client: %+v %v", c, err)
	}
	if err := f.AdminLogout(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := f.CreateClient(ctx, id, tse.NewUUID4(), "KASSE-02"); err == nil {
		t.Fatal("client created after logout")
	}
	// The new TSS signs.
	g := h.Client(t, func(c *tse.FiskalyConfig) { c.TSSID = id })
	_, fin := simtest.Sell(t, g, tse.NewUUID4())
	pub, _ := h.Sim.TSSPublicKey(id)
	if err := tse.VerifyTx(pub, fin); err != nil || fin.Number != 1 {
		t.Fatalf("first transaction of the new TSS: %+v %v", fin, err)
	}
}

// recordingSim serves the simulator behind a handler that records the
// request-id of every request and may answer some requests itself.
type recordingSim struct {
	*simtest.HTTP
	mu  sync.Mutex
	ids []string
}

func newRecordingSim(t testing.TB, intercept func(w http.ResponseWriter, r *http.Request) bool, mod ...func(*tsesim.Config)) *recordingSim {
	t.Helper()
	h := simtest.NewHTTP(t, mod...)
	rs := &recordingSim{HTTP: h}
	inner := h.TS.Config.Handler
	h.TS = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		rs.ids = append(rs.ids, r.Header.Get("request-id"))
		rs.mu.Unlock()
		if intercept != nil && intercept(w, r) {
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(h.TS.Close)
	return rs
}

func (rs *recordingSim) sentIDs() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]string(nil), rs.ids...)
}

// syncBuffer is a log sink for tests.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Finding: posbox's client sent no request-id. Every request carries its
// own UUID; fiskaly answers it back, and errors carry and log it.
func TestFiskalySendsARequestIDPerRequest(t *testing.T) {
	rs := newRecordingSim(t, nil)
	var logs syncBuffer
	f := rs.Client(t, func(c *tse.FiskalyConfig) { c.Logger = slog.New(slog.NewJSONHandler(&logs, nil)) })
	ctx := context.Background()
	if _, err := f.TSS(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := f.Tx(ctx, tse.NewUUID4(), 0)
	e := simtest.WantErr(t, err, tse.Reconcile, 404, "E_TX_NOT_FOUND")
	ids := rs.sentIDs()
	if len(ids) != 3 { // auth, TSS, Tx
		t.Fatalf("requests %v", ids)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if !tse.ValidUUID(id) || seen[id] {
			t.Fatalf("request ids %v: want a new UUID on every request", ids)
		}
		seen[id] = true
	}
	last := ids[len(ids)-1]
	if e.RequestID != last {
		t.Fatalf("error request id %q, want the one sent and echoed, %q", e.RequestID, last)
	}
	if l := logs.String(); !strings.Contains(l, `"sent_request_id":"`+last+`"`) || !strings.Contains(l, `"request_id":"`+last+`"`) {
		t.Fatalf("the refusal's log does not name the request ids:\n%s", l)
	}

	// No answer at all: the error and the log still name the id sent.
	rs.Sim.SetFault(tsesim.Fault{Offline: true})
	_, err = f.TSS(ctx)
	e = simtest.WantErr(t, err, tse.Transient, 0, tse.CodeNetwork)
	ids = rs.sentIDs()
	if last = ids[len(ids)-1]; e.RequestID != last || !tse.ValidUUID(last) {
		t.Fatalf("transport error request id %q, sent %q", e.RequestID, last)
	}
	if !strings.Contains(logs.String(), `"sent_request_id":"`+last+`"`) {
		t.Fatalf("the outage's log does not name the request id sent:\n%s", logs.String())
	}
}

// setUpTSS runs the setup sequence up to a set admin PIN (logged out) and
// returns the TSS id and PUK.
func setUpTSS(t testing.TB, f *tse.Fiskaly, pin string) (string, string) {
	t.Helper()
	ctx := context.Background()
	id := tse.NewUUID4()
	_, puk, err := f.CreateTSS(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.SetTSSState(ctx, id, tse.TSSUninitialized); err != nil {
		t.Fatal(err)
	}
	if err := f.ChangeAdminPIN(ctx, id, puk, pin); err != nil {
		t.Fatal(err)
	}
	return id, puk
}

// Finding: a 401 E_UNAUTHORIZED from admin auth with a wrong PIN was taken
// for an expired token: the client refreshed it and sent the wrong PIN
// again, spending two of the five attempts before the PIN blocks. It is
// resent only when the token is at fault.
func TestFiskalyDoesNotResendAWrongAdminPIN(t *testing.T) {
	h := simtest.NewHTTP(t, func(c *tsesim.Config) { c.Empty = true })
	f := h.Client(t)
	ctx := context.Background()
	id, _ := setUpTSS(t, f, "12345678")
	// Four wrong PINs are four attempts: the fifth, right, still logs in.
	for i := range 4 {
		simtest.WantErr(t, f.AdminAuth(ctx, id, "87654321"), tse.Auth, 401, "E_UNAUTHORIZED")
		if g := h.AuthGrants(); len(g) != 1 {
			t.Fatalf("after wrong PIN %d: auth grants %v, want the first sign-in only", i+1, g)
		}
	}
	if err := f.AdminAuth(ctx, id, "12345678"); err != nil {
		t.Fatalf("the right PIN after four wrong ones: %v", err)
	}
	// A token that really expired is renewed and the PIN sent once more.
	h.Srv.RevokeTokens()
	if err := f.AdminAuth(ctx, id, "12345678"); err != nil {
		t.Fatalf("admin auth with an expired token: %v", err)
	}
	if g := h.AuthGrants(); !reflect.DeepEqual(g, []string{"key", "refresh!", "key"}) {
		t.Fatalf("auth grants %v", g)
	}
}

// The same for the PUK: fiskaly's changeAdminPin documents 401
// E_UNAUTHORIZED among its answers; one refused PUK is one request.
func TestFiskalyDoesNotResendARefusedPUK(t *testing.T) {
	var mu sync.Mutex
	patches := 0
	rs := newRecordingSim(t, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method != http.MethodPatch || !strings.HasSuffix(r.URL.Path, "/admin") {
			return false
		}
		mu.Lock()
		patches++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		io.WriteString(w, `{"status_code":401,"error":"Unauthorized","code":"E_UNAUTHORIZED","message":"unblock failed"}`)
		return true
	}, func(c *tsesim.Config) { c.Empty = true })
	f := rs.Client(t)
	ctx := context.Background()
	id := tse.NewUUID4()
	if _, _, err := f.CreateTSS(ctx, id, nil); err != nil {
		t.Fatal(err)
	}
	simtest.WantErr(t, f.ChangeAdminPIN(ctx, id, "wrong-puk-1", "12345678"), tse.Auth, 401, "E_UNAUTHORIZED")
	mu.Lock()
	defer mu.Unlock()
	if patches != 1 {
		t.Fatalf("the PUK was sent %d times", patches)
	}
	if g := rs.AuthGrants(); len(g) != 1 {
		t.Fatalf("auth grants %v: the token was renewed for a refused PUK", g)
	}
}
