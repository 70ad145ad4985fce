package tsesim

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"posbox/tse"
)

// Config configures the simulator.
type Config struct {
	Dir          string        // state dir (created 0700): keys and the journal (which holds the certificates)
	Description  string        // description of TSSs it creates; default "posbox simulator TSS (<id>)"
	CertValidity time.Duration // default 365 days
	MaxActiveTx  int           // default 2000 (tests set it small)
	MaxClients   int           // registered clients per TSS, default 199 (fiskaly's limit)
	Now          func() time.Time
	// Empty starts without the default TSS: the HTTP simulator
	// (posbox tse-sim) waits for a setup to create TSSs with PUT /tss/{id}.
	Empty bool
	// AdminPIN is the admin PIN of the default TSS, set when it is created
	// (default "123456", the simulator's well-known PIN); HTTP clients of
	// the default TSS need it to register clients.
	AdminPIN string
	// ExportDelay is how long an export stays PENDING and WORKING before
	// its TAR is ready (export.go); default 10 s, negative: at the
	// first look.
	ExportDelay time.Duration
}

// DefaultAdminPIN is the default TSS's admin PIN unless Config says
// otherwise.
const DefaultAdminPIN = "123456"

// Fault makes the simulator misbehave like a provider on a bad day.
type Fault struct {
	Offline          bool          // every call fails: Transient E_NETWORK (HTTP: connection closed)
	Latency          time.Duration // each call waits first (ctx deadline: Transient E_TIMEOUT)
	FlakyEvery       int           // every Nth call (counted from SetFault) answers 503 E_TSS_LOCKED
	ApplyThenTimeout int           // the next N upserts are applied, then reported as Transient E_TIMEOUT
	RateLimited      time.Duration // every call answers 429 with this Retry-After
}

// Simulator is a TSS provider in a directory: the engine behind the
// in-process Provider and the HTTP face (NewServer). Its Provider
// methods use the default TSS.
type Simulator struct {
	cfg Config

	mu     sync.Mutex
	j      *journal
	tsses  map[string]*simTSS
	order  []*simTSS
	keys   map[string]*ecdsa.PrivateKey
	def    *simTSS
	fault  Fault
	calls  int
	closed bool

	exportFault ExportFault // export.go
}

var _ tse.Provider = (*Simulator)(nil)

// Open opens the simulator state in cfg.Dir. The first open
// creates a default INITIALIZED TSS (unless cfg.Empty); later opens replay
// the journal and continue where the last run stopped.
func Open(cfg Config) (*Simulator, error) {
	if cfg.Dir == "" {
		return nil, errors.New("tse: simulator needs a state dir")
	}
	if cfg.CertValidity <= 0 {
		cfg.CertValidity = 365 * 24 * time.Hour
	}
	if cfg.MaxActiveTx <= 0 {
		cfg.MaxActiveTx = 2000
	}
	if cfg.MaxClients <= 0 {
		cfg.MaxClients = simMaxClients
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.AdminPIN == "" {
		cfg.AdminPIN = DefaultAdminPIN
	}
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, err
	}
	s := &Simulator{cfg: cfg, tsses: map[string]*simTSS{}, keys: map[string]*ecdsa.PrivateKey{}}
	j, err := openJournal(filepath.Join(cfg.Dir, journalFile), s.apply)
	if err != nil {
		return nil, err
	}
	s.j = j
	if !cfg.Empty {
		if err := s.ensureDefault(); err != nil {
			j.close()
			return nil, fmt.Errorf("tse: create the simulator's TSS: %w", err)
		}
	}
	return s, nil
}

// ensureDefault runs fiskaly's setup sequence on a new default TSS. A
// crash in the middle leaves a half set-up TSS, which the next open
// finishes; a TSS that was ever initialized is left as it is.
func (s *Simulator) ensureDefault() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.def
	if t == nil {
		var err error
		if t, err = s.createTSS(tse.NewUUID4(), nil, true); err != nil {
			return err
		}
	}
	if t.times["time_init"] != 0 {
		return nil
	}
	if t.state == tse.TSSCreated {
		if err := s.setState(t, tse.TSSUninitialized, false); err != nil {
			return err
		}
	}
	if t.pinHash == "" {
		if err := s.changeAdminPIN(t, t.puk, s.cfg.AdminPIN); err != nil {
			return err
		}
	}
	if !t.admin {
		if err := s.adminAuth(t, s.cfg.AdminPIN); err != nil {
			return err
		}
	}
	if err := s.setState(t, tse.TSSInitialized, false); err != nil {
		return err
	}
	return s.adminLogout(t)
}

// Close closes the journal. Calls after Close fail.
func (s *Simulator) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.j.close()
}

// SetFault replaces the injected fault; the zero Fault heals everything.
func (s *Simulator) SetFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault, s.calls = f, 0
}

// SetMaxClients changes how many clients a TSS holds, as a fiskaly
// account's limit can change (or a terminal is removed at the provider).
func (s *Simulator) SetMaxClients(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.MaxClients = n
}

// SetState forces the default TSS into a state (DISABLED, DEFECTIVE, even
// back to INITIALIZED), as fiskaly's own operations can; the HTTP face's
// PATCH keeps to fiskaly's public transitions.
func (s *Simulator) SetState(state string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.defaultTSS()
	if err != nil {
		return err
	}
	return s.setState(t, state, true)
}

// ExpireCertificate replaces the default TSS's certificate by one that
// expired a second ago: upserts then fail with 423 E_CERTIFICATE_EXPIRED.
func (s *Simulator) ExpireCertificate() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.defaultTSS()
	if err != nil {
		return err
	}
	now := s.now()
	cert, ca, err := issueCertificate(t.key, now.Add(-s.cfg.CertValidity), now.Add(-time.Second))
	if err != nil {
		return err
	}
	return s.commit(record{Op: opCert, TSS: t.id, Time: now.Unix(), Cert: cert, CACert: ca})
}

// SelfTest checks the default TSS's key material without signing a
// transaction: the certificate holds the TSS key, the serial is the key's
// SHA-256, and a test vector signed with the key verifies. It consumes no
// signature counter.
func (s *Simulator) SelfTest(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	t, err := s.defaultTSS()
	if err != nil {
		s.mu.Unlock()
		return err
	}
	key, der, serial := t.key, t.cert, t.serial
	s.mu.Unlock()
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return fmt.Errorf("tse: certificate: %w", err)
	}
	if !key.PublicKey.Equal(cert.PublicKey) {
		return errors.New("tse: the certificate does not hold the TSS key")
	}
	if tse.SerialNumber(&key.PublicKey) != serial {
		return errors.New("tse: the serial number is not the SHA-256 of the public key")
	}
	vector := []byte("posbox simulator self-test vector")
	sig, err := signPlain(key, vector)
	if err != nil {
		return err
	}
	if !tse.VerifyPlain(&key.PublicKey, vector, sig) {
		return errors.New("tse: a test vector signed with the TSS key does not verify")
	}
	return nil
}

// PublicKey is the default TSS's public key (nil without one).
func (s *Simulator) PublicKey() *ecdsa.PublicKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.def == nil {
		return nil
	}
	return &s.def.key.PublicKey
}

// TSSPublicKey is the public key of any TSS of the simulator.
func (s *Simulator) TSSPublicKey(tssID string) (*ecdsa.PublicKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.tss(tssID)
	if err != nil {
		return nil, err
	}
	return &t.key.PublicKey, nil
}

func (s *Simulator) defaultTSS() (*simTSS, error) {
	if s.closed {
		return nil, tse.NewTransportError(tse.CodeNetwork, "simulator closed")
	}
	if s.def == nil {
		return nil, tse.NewError(404, "E_TSS_NOT_FOUND", "the simulator has no default TSS")
	}
	return s.def, nil
}

// enter applies the injected fault to one in-process call.
func (s *Simulator) enter(ctx context.Context) error {
	s.mu.Lock()
	f := s.fault
	s.calls++
	n := s.calls
	s.mu.Unlock()
	if f.Offline {
		return tse.NewTransportError(tse.CodeNetwork, "simulator offline: connection refused")
	}
	if f.Latency > 0 {
		t := time.NewTimer(f.Latency)
		select {
		case <-ctx.Done():
			t.Stop()
			return tse.NewTransportError(tse.CodeTimeout, "no answer before the deadline: "+ctx.Err().Error())
		case <-t.C:
		}
	}
	if ctx.Err() != nil {
		return tse.NewTransportError(tse.CodeTimeout, "no answer before the deadline: "+ctx.Err().Error())
	}
	if f.RateLimited > 0 {
		return retryAfterError(429, "E_TOO_MANY_REQUESTS", "too many requests", f.RateLimited)
	}
	if f.FlakyEvery > 0 && n%f.FlakyEvery == 0 {
		return retryAfterError(503, "E_TSS_LOCKED", "the TSS is temporarily locked", time.Second)
	}
	return nil
}

// takeApplyThenTimeout consumes one ApplyThenTimeout fault, if any.
func (s *Simulator) takeApplyThenTimeout() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fault.ApplyThenTimeout > 0 {
		s.fault.ApplyThenTimeout--
		return true
	}
	return false
}

// Kind is "simulator".
func (s *Simulator) Kind() string { return tse.KindSimulator }

// TSSID is the default TSS's id ("" without one).
func (s *Simulator) TSSID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.def == nil {
		return ""
	}
	return s.def.id
}

// onDefaultTSS is one in-process call: the injected fault first, then f
// on the default TSS under the lock.
func onDefaultTSS[T any](ctx context.Context, s *Simulator, f func(t *simTSS) (T, error)) (T, error) {
	var zero T
	if err := s.enter(ctx); err != nil {
		return zero, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.defaultTSS()
	if err != nil {
		return zero, err
	}
	return f(t)
}

// TSS reads the default TSS.
func (s *Simulator) TSS(ctx context.Context) (tse.TSSInfo, error) {
	return onDefaultTSS(ctx, s, func(t *simTSS) (tse.TSSInfo, error) { return s.info(t), nil })
}

// Client reads a client of the default TSS.
func (s *Simulator) Client(ctx context.Context, clientID string) (tse.ClientInfo, error) {
	return onDefaultTSS(ctx, s, func(t *simTSS) (tse.ClientInfo, error) {
		c := s.findClient(clientID)
		if c == nil || c.tss != t.id {
			return tse.ClientInfo{}, tse.NewError(404, "E_CLIENT_NOT_FOUND", fmt.Sprintf("client %s not found", clientID))
		}
		return clientInfo(c), nil
	})
}

// EnsureClient registers a client (the in-process provider is its own
// admin: the login and logout are implied).
func (s *Simulator) EnsureClient(ctx context.Context, clientID, serial string) (tse.ClientInfo, error) {
	return onDefaultTSS(ctx, s, func(t *simTSS) (tse.ClientInfo, error) {
		c, err := s.upsertClient(t, clientID, serial, nil, true)
		if err != nil {
			return tse.ClientInfo{}, err
		}
		return clientInfo(c), nil
	})
}

// Upsert applies one revision of a transaction on the default TSS.
func (s *Simulator) Upsert(ctx context.Context, r tse.UpsertRequest) (tse.Tx, error) {
	tx, err := onDefaultTSS(ctx, s, func(t *simTSS) (tse.Tx, error) {
		v, err := s.upsertTx(t, r.TxID, r.Revision, r.Body)
		return v.Tx, err
	})
	if err != nil {
		return tse.Tx{}, err
	}
	if s.takeApplyThenTimeout() {
		return tse.Tx{}, tse.NewTransportError(tse.CodeTimeout, "the request was sent but no answer came")
	}
	return tx, nil
}

// Tx reads a transaction of the default TSS; revision 0 is the latest.
func (s *Simulator) Tx(ctx context.Context, txID string, revision int) (tse.Tx, error) {
	return onDefaultTSS(ctx, s, func(t *simTSS) (tse.Tx, error) {
		v, _, err := s.getTx(t, txID, revision)
		return v.Tx, err
	})
}

// ListTx pages through the default TSS's transactions.
func (s *Simulator) ListTx(ctx context.Context, q tse.ListQuery) (tse.TxPage, error) {
	return onDefaultTSS(ctx, s, func(t *simTSS) (tse.TxPage, error) { return s.listTx(t, q) })
}

// retryAfterError is a refusal that asks to wait (429, 503).
func retryAfterError(status int, code, msg string, after time.Duration) *tse.Error {
	e := tse.NewError(status, code, msg)
	e.RetryAfter = after
	return e
}
