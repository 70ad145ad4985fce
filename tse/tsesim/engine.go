package tsesim

import (
	"cmp"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"posbox/tse"
)

// The engine: TSSs, clients and transactions, changed only through
// journal records (commit = append durably, then apply). Every function
// here runs with Simulator.mu held.

const (
	simMaxClients = 199
	simPageMax    = 100
	simListPerMin = 20
	simPINTries   = 5
)

type simTSS struct {
	id          string
	isDefault   bool
	state       string
	description string
	key         *ecdsa.PrivateKey
	pubB64      string
	serial      string
	cert        []byte
	caCert      []byte // the CA certificate that issued cert (nil in old journals: cert was self-signed)
	notAfter    time.Time
	counter     uint64 // signature counter: every signed log message, never reused
	txCounter   uint64 // last transaction number
	puk         string
	pinHash     string // empty: no PIN set yet, admin login blocked
	pinFailures int
	admin       bool // an admin session is open
	times       map[string]int64
	metadata    map[string]string
	clients     []*simClient
	txs         map[string]*simTx
	byNumber    []*simTx // index number-1-numberBase
	numberBase  uint64   // numbers up to it were signed before the journal (history.go)
	active      int
	listCalls   []time.Time // not persisted: a restart forgets the rate window
	logs        []logRef    // every signature's journal record, by counter (logs.go)
	exports     map[string]*simExport
	exportOrder []*simExport
}

// logRef locates the journal record that consumed a signature counter.
type logRef struct {
	counter uint64
	off     int64
	n       int32
}

type simClient struct {
	id, serial, state string
	tss               string
	created, updated  int64
	metadata          map[string]string
}

// simTx is what memory holds of a transaction: enough to order, filter
// and check revisions. The revisions themselves stay in the journal and
// are read back on demand, so a long-running simulator stays small.
type simTx struct {
	id       string
	number   uint64
	state    string // of the latest revision
	start    int64  // unix s
	end      int64  // unix s, 0 while ACTIVE
	revs     []simRev
	metadata map[string]string // nil until a revision carries some
	client   *simClient        // of the latest revision (listClientTransactions)
}

type simRev struct {
	hash [32]byte // SHA-256 of the body as sent
	off  int64    // the revision's journal line
	n    int32
}

// revView is a revision as the HTTP face answers it: the transaction and
// its schema.standard_v1.
type revView struct {
	tse.Tx
	stdV1 json.RawMessage // nil for schema.raw or no schema
}

// readRevision reads revision rev (1-based) back from the journal.
func (s *Simulator) readRevision(st *simTx, rev int) (revView, error) {
	r := st.revs[rev-1]
	rec, err := s.j.read(r.off, int(r.n))
	if err == nil && rec.Tx == nil {
		err = fmt.Errorf("journal line at %d holds no transaction", r.off)
	}
	if err != nil {
		return revView{}, &tse.Error{Class: tse.Transient, HTTPStatus: 500, Code: "E_INTERNAL", Message: "simulator journal: " + err.Error()}
	}
	tx := *rec.Tx
	tx.LatestRevision = len(st.revs)
	return revView{Tx: tx, stdV1: rec.StdV1}, nil
}

// keyPath is where a TSS's private key lives in the state dir.
func (s *Simulator) keyPath(id string) string {
	return filepath.Join(s.cfg.Dir, "tss-"+id+".key.pem")
}

// commit makes a change durable and then applies it.
func (s *Simulator) commit(rec record) error {
	if t := s.tsses[rec.TSS]; t != nil && rec.Counter != 0 && rec.Op != opTx {
		if err := signSystemLog(t, &rec); err != nil {
			return &tse.Error{Class: tse.Transient, HTTPStatus: 500, Code: "E_INTERNAL", Message: "system log: " + err.Error()}
		}
	}
	off, n, err := s.j.append(rec)
	if err != nil {
		return &tse.Error{Class: tse.Transient, HTTPStatus: 500, Code: "E_INTERNAL", Message: "simulator journal: " + err.Error()}
	}
	return s.apply(rec, off, n)
}

// apply changes the in-memory state; replay and commit share it. off and
// n locate the record in the journal.
func (s *Simulator) apply(rec record, off int64, n int) error {
	if rec.Op == opTSSCreate {
		return s.applyCreate(rec)
	}
	t := s.tsses[rec.TSS]
	if t == nil {
		return fmt.Errorf("%s for unknown TSS %s", rec.Op, rec.TSS)
	}
	if rec.Counter != 0 {
		if rec.Counter <= t.counter {
			return fmt.Errorf("signature counter %d after %d", rec.Counter, t.counter)
		}
		t.counter = rec.Counter
		t.logs = append(t.logs, logRef{counter: rec.Counter, off: off, n: int32(n)})
	}
	switch rec.Op {
	case opTSSState:
		t.state = rec.State
		if k := stateTimeKey[rec.State]; k != "" {
			t.times[k] = rec.Time
		}
	case opTSSDesc:
		t.description = rec.Desc
	case opCert:
		if err := t.setCert(rec.Cert); err != nil {
			return err
		}
		t.caCert = rec.CACert
	case opAdminPIN:
		t.pinHash, t.pinFailures = rec.PINHash, 0
	case opAdminFail:
		t.pinFailures++
	case opAdminAuth:
		t.admin, t.pinFailures = true, 0
	case opAdminLogout:
		t.admin = false
	case opClient:
		c := s.findClient(rec.Client)
		if c == nil {
			c = &simClient{id: rec.Client, tss: t.id, created: rec.Time, metadata: map[string]string{}}
			t.clients = append(t.clients, c)
		}
		c.serial, c.state, c.updated = rec.Serial, rec.State, rec.Time
		for k, v := range rec.Metadata {
			c.metadata[k] = v
		}
	case opTx:
		return t.applyTx(rec, off, n)
	case opTSSMeta:
		maps.Copy(t.metadata, rec.Metadata)
	case opExport:
		return s.applyExport(t, rec)
	case opHistory:
		return applyHistory(t, rec)
	default:
		return fmt.Errorf("unknown journal operation %q", rec.Op)
	}
	return nil
}

// applyTx applies a transaction revision at off (n bytes) of the journal.
func (t *simTSS) applyTx(rec record, off int64, n int) error {
	tx := rec.Tx
	if tx == nil {
		return fmt.Errorf("tx record without transaction")
	}
	st := t.txs[tx.ID]
	if tx.Revision == 1 {
		if st != nil || tx.Number != t.txCounter+1 {
			return fmt.Errorf("transaction %s: number %d after %d", tx.ID, tx.Number, t.txCounter)
		}
		st = &simTx{id: tx.ID, number: tx.Number, start: tx.TimeStart.Unix()}
		t.txs[tx.ID] = st
		t.byNumber = append(t.byNumber, st)
		t.txCounter = tx.Number
		t.active++
	} else if st == nil || len(st.revs) != tx.Revision-1 {
		return fmt.Errorf("transaction %s: revision %d out of order", tx.ID, tx.Revision)
	}
	var h [32]byte
	if b, err := hex.DecodeString(rec.BodyHash); err != nil || len(b) != len(h) {
		return fmt.Errorf("transaction %s: bad body hash", tx.ID)
	} else {
		copy(h[:], b)
	}
	st.revs = append(st.revs, simRev{hash: h, off: off, n: int32(n)})
	st.state, st.client = tx.State, t.client(tx.ClientID)
	if tx.TimeEnd != nil {
		st.end = tx.TimeEnd.Unix()
	}
	for k, v := range rec.Metadata {
		if st.metadata == nil {
			st.metadata = map[string]string{}
		}
		st.metadata[k] = v
	}
	if tx.State != tse.TxActive {
		t.active--
	}
	return nil
}

var stateTimeKey = map[string]string{
	tse.TSSUninitialized: "time_uninit",
	tse.TSSInitialized:   "time_init",
	tse.TSSDisabled:      "time_disable",
	tse.TSSDefective:     "time_defective",
}

func (s *Simulator) applyCreate(rec record) error {
	if s.tsses[rec.TSS] != nil {
		return fmt.Errorf("TSS %s created twice", rec.TSS)
	}
	key := s.keys[rec.TSS]
	if key == nil {
		var err error
		if key, err = loadOrCreateKey(s.keyPath(rec.TSS), false); err != nil {
			return err
		}
		s.keys[rec.TSS] = key
	}
	t := &simTSS{
		id: rec.TSS, isDefault: rec.Default, state: tse.TSSCreated, description: rec.Desc,
		key: key, pubB64: tse.EncodePublicKey(&key.PublicKey),
		serial: tse.SerialNumber(&key.PublicKey), puk: rec.PUK,
		times:    map[string]int64{"time_creation": rec.Time},
		metadata: map[string]string{}, txs: map[string]*simTx{}, exports: map[string]*simExport{},
	}
	for k, v := range rec.Metadata {
		t.metadata[k] = v
	}
	if err := t.setCert(rec.Cert); err != nil {
		return err
	}
	t.caCert = rec.CACert
	s.tsses[t.id] = t
	s.order = append(s.order, t)
	if rec.Default {
		s.def = t
	}
	return nil
}

func (t *simTSS) setCert(der []byte) error {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return fmt.Errorf("TSS %s certificate: %w", t.id, err)
	}
	t.cert, t.notAfter = der, c.NotAfter
	return nil
}

// client finds one of the TSS's clients (a TSS has few: no index).
func (t *simTSS) client(id string) *simClient {
	for _, c := range t.clients {
		if c.id == id {
			return c
		}
	}
	return nil
}

func (s *Simulator) findClient(id string) *simClient {
	for _, t := range s.order {
		if c := t.client(id); c != nil {
			return c
		}
	}
	return nil
}

func (s *Simulator) now() time.Time { return unixTime(s.cfg.Now()) }

// unixTime truncates to the provider's precision (whole seconds).
func unixTime(t time.Time) time.Time { return time.Unix(t.Unix(), 0).UTC() }

// tss finds a TSS or answers fiskaly's 404.
func (s *Simulator) tss(id string) (*simTSS, error) {
	t := s.tsses[strings.ToLower(id)]
	if t == nil {
		return nil, tse.NewError(404, "E_TSS_NOT_FOUND", fmt.Sprintf("TSS %s not found", id))
	}
	return t, nil
}

// createTSS is fiskaly's createTss: a new TSS in state CREATED with a PUK;
// repeating it while CREATED answers the same TSS.
func (s *Simulator) createTSS(id string, metadata map[string]string, isDefault bool) (*simTSS, error) {
	if !tse.ValidUUID(id) {
		return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "tss_id must be a UUID")
	}
	id = strings.ToLower(id)
	if t := s.tsses[id]; t != nil {
		if t.state == tse.TSSCreated {
			return t, nil
		}
		return nil, tse.NewError(409, "E_TSS_CONFLICT", fmt.Sprintf("TSS %s already exists in state %s", id, t.state))
	}
	key, err := loadOrCreateKey(s.keyPath(id), true)
	if err != nil {
		return nil, &tse.Error{Class: tse.Transient, HTTPStatus: 500, Code: "E_INTERNAL", Message: err.Error()}
	}
	now := s.now()
	cert, ca, err := issueCertificate(key, now, now.Add(s.cfg.CertValidity))
	if err != nil {
		return nil, &tse.Error{Class: tse.Transient, HTTPStatus: 500, Code: "E_INTERNAL", Message: err.Error()}
	}
	s.keys[id] = key
	rec := record{Op: opTSSCreate, TSS: id, Time: now.Unix(), Default: isDefault,
		Desc: s.cfg.Description, PUK: randomCode(10), Cert: cert, CACert: ca, Metadata: metadata}
	if rec.Desc == "" {
		rec.Desc = "posbox simulator TSS (" + id + ")"
	}
	if err := s.commit(rec); err != nil {
		delete(s.keys, id)
		return nil, err
	}
	return s.tsses[id], nil
}

// allowedTransition is fiskaly's updateTss state machine.
func allowedTransition(from, to string) bool {
	switch from + ">" + to {
	case tse.TSSCreated + ">" + tse.TSSUninitialized,
		tse.TSSUninitialized + ">" + tse.TSSInitialized,
		tse.TSSUninitialized + ">" + tse.TSSDisabled,
		tse.TSSInitialized + ">" + tse.TSSDisabled:
		return true
	}
	return false
}

// setState changes the TSS state. With force (fault injection, as
// fiskaly's operations can mark a TSS DEFECTIVE) any known state is set
// without admin login; otherwise fiskaly's transitions and admin rules
// apply. Each change writes a system log and so bumps the counter.
func (s *Simulator) setState(t *simTSS, state string, force bool) error {
	if state == t.state {
		return nil
	}
	if force {
		if _, known := stateTimeKey[state]; !known && state != tse.TSSCreated && state != tse.TSSDeleted && state != tse.TSSEvicted {
			return fmt.Errorf("tse: unknown TSS state %q", state)
		}
	} else {
		if !allowedTransition(t.state, state) {
			return tse.NewError(400, "E_ILLEGAL_TSS_STATE_CHANGE", fmt.Sprintf("cannot change TSS state from %s to %s", t.state, state))
		}
		if (state == tse.TSSInitialized || state == tse.TSSDisabled) && !t.admin {
			return tse.NewError(401, "E_ADMIN_NOT_AUTHENTICATED", "admin authentication required")
		}
	}
	return s.commit(record{Op: opTSSState, TSS: t.id, Time: s.now().Unix(), Counter: t.counter + 1, State: state})
}

func (s *Simulator) setDescription(t *simTSS, desc string) error {
	if len(desc) > 100 || !descRe.MatchString(desc) {
		return tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "description: at most 100 of A-Z a-z 0-9 space ' ( ) + , - . / : = ?")
	}
	return s.commit(record{Op: opTSSDesc, TSS: t.id, Time: s.now().Unix(), Desc: desc})
}

var descRe = regexp.MustCompile(`^[A-Za-z0-9 '()+,\-./:=?]{0,100}$`)

// changeAdminPIN sets the admin PIN with the PUK (fiskaly: the PIN is
// blocked after creation until set this way).
func (s *Simulator) changeAdminPIN(t *simTSS, puk, pin string) error {
	if t.state == tse.TSSCreated {
		return tse.NewError(400, "E_TSS_NOT_INITIALIZED", "the TSS must be UNINITIALIZED before its admin PIN is set")
	}
	if subtle.ConstantTimeCompare([]byte(puk), []byte(t.puk)) != 1 {
		return tse.NewError(400, "E_CHANGE_ADMIN_PIN_FAILED", "wrong admin_puk")
	}
	if len(pin) < 6 {
		return tse.NewError(400, "E_CHANGE_ADMIN_PIN_FAILED", "new_admin_pin must have at least 6 characters")
	}
	return s.commit(record{Op: opAdminPIN, TSS: t.id, Time: s.now().Unix(), Counter: t.counter + 1, PINHash: pinHash(t.id, pin)})
}

func pinHash(tss, pin string) string {
	h := sha256.Sum256([]byte(tss + "\x00" + pin))
	return hex.EncodeToString(h[:])
}

func (s *Simulator) adminAuth(t *simTSS, pin string) error {
	if t.pinHash == "" || t.pinFailures >= simPINTries {
		return tse.NewError(423, "E_ADMIN_PIN_BLOCKED", "the admin PIN is blocked: set it with the PUK")
	}
	if subtle.ConstantTimeCompare([]byte(pinHash(t.id, pin)), []byte(t.pinHash)) != 1 {
		if err := s.commit(record{Op: opAdminFail, TSS: t.id, Time: s.now().Unix()}); err != nil {
			return err
		}
		// fiskaly documents a wrong admin PIN as 401 E_UNAUTHORIZED, the
		// code of a refused access token.
		return tse.NewError(401, "E_UNAUTHORIZED", "wrong admin PIN")
	}
	return s.commit(record{Op: opAdminAuth, TSS: t.id, Time: s.now().Unix(), Counter: t.counter + 1})
}

func (s *Simulator) adminLogout(t *simTSS) error {
	if !t.admin {
		return nil
	}
	return s.commit(record{Op: opAdminLogout, TSS: t.id, Time: s.now().Unix(), Counter: t.counter + 1})
}

var clientSerialRe = regexp.MustCompile(`^[A-Za-z0-9 '()+,\-.:=?]{1,70}$`)

// upsertClient is fiskaly's createClient: idempotent for the same id and
// serial; needs an admin session unless asAdmin (the in-process provider
// logs in implicitly).
func (s *Simulator) upsertClient(t *simTSS, id, serial string, metadata map[string]string, asAdmin bool) (*simClient, error) {
	if !tse.ValidUUID(id) {
		return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "client_id must be a UUID")
	}
	id = strings.ToLower(id)
	if c := s.findClient(id); c != nil {
		if c.tss == t.id && c.serial == serial {
			return c, nil
		}
		return nil, tse.NewError(409, "E_CLIENT_CONFLICT", fmt.Sprintf("client %s already exists with another TSS or serial number", id))
	}
	if err := usable(t); err != nil {
		return nil, err
	}
	if !asAdmin && !t.admin {
		return nil, tse.NewError(401, "E_ADMIN_NOT_AUTHENTICATED", "admin authentication required")
	}
	if !clientSerialRe.MatchString(serial) || strings.TrimSpace(serial) != serial {
		return nil, tse.NewError(400, "E_ILLEGAL_CLIENT_SERIAL", "serial_number: 1-70 of A-Z a-z 0-9 space ' ( ) + , - . : = ?, no / or _, no surrounding spaces")
	}
	for _, c := range t.clients {
		if c.serial == serial {
			return nil, tse.NewError(409, "E_CLIENT_CONFLICT", fmt.Sprintf("serial number %q is taken by client %s", serial, c.id))
		}
	}
	if len(t.clients) >= s.cfg.MaxClients {
		return nil, tse.NewError(403, tse.CodeClientLimitReached, fmt.Sprintf("a TSS holds at most %d clients", s.cfg.MaxClients))
	}
	rec := record{Op: opClient, TSS: t.id, Time: s.now().Unix(), Counter: t.counter + 1,
		Client: id, Serial: serial, State: tse.ClientRegistered, Metadata: metadata}
	if err := s.commit(rec); err != nil {
		return nil, err
	}
	return s.findClient(id), nil
}

// usable says why the TSS cannot sign now, as fiskaly answers an upsert.
func usable(t *simTSS) error {
	switch t.state {
	case tse.TSSInitialized:
	case tse.TSSCreated, tse.TSSUninitialized:
		return tse.NewError(400, "E_TSS_NOT_INITIALIZED", "the TSS is "+t.state)
	case tse.TSSDisabled:
		return tse.NewError(400, "E_TSS_DISABLED", "the TSS is DISABLED")
	case tse.TSSDefective:
		return tse.NewError(423, "E_TSS_DEFECTIVE", "the TSS is DEFECTIVE")
	case tse.TSSDeleted:
		return tse.NewError(423, "E_TSS_DELETED", "the TSS is DELETED")
	default:
		return tse.NewError(423, "E_TSS_EVICTED", "the TSS is "+t.state)
	}
	return nil
}

// upsertTx is fiskaly's upsertTransaction for one revision. The path's
// tx_id_or_number is the transaction's UUID or, for a transaction that
// exists, its number. Rules the OpenAPI leaves open are the simulator's
// documented assumptions: the same revision with the same body answers the
// stored revision; with another body 409 E_TX_UPSERT; a skipped revision
// 400 E_TX_UPSERT. The checks run in fiskaly's order: where the revision
// goes (upsertTarget), whether it may come next (checkRevision), what the
// body asks (parseTxBody), what the revision becomes (nextRevision); only
// then is it signed and committed (signAndCommit).
func (s *Simulator) upsertTx(t *simTSS, txIDOrNumber string, revision int, body []byte) (revView, error) {
	st, txID, now, err := s.upsertTarget(t, txIDOrNumber, revision)
	if err != nil {
		return revView{}, err
	}
	sum := sha256.Sum256(body)
	repeat, err := checkRevision(st, txID, revision, sum)
	if err != nil {
		return revView{}, err
	}
	if repeat {
		return s.readRevision(st, revision)
	}
	req, c, err := s.parseTxBody(t, body)
	if err != nil {
		return revView{}, err
	}
	tx := tse.Tx{
		ID: txID, TSSID: t.id, TSSSerialNumber: t.serial, ClientID: c.id, ClientSerialNumber: c.serial,
		State: req.state, Revision: revision, LatestRevision: revision, LogTime: now,
	}
	stdV1, err := s.nextRevision(t, st, &tx, req.schema, now)
	if err != nil {
		return revView{}, err
	}
	return s.signAndCommit(t, tx, stdV1, sum, req.metadata, now)
}

// upsertTarget checks the path and the TSS and finds the transaction a
// revision goes to: st is nil for a new one, which only a UUID starts.
// now is the time the revision is signed at.
func (s *Simulator) upsertTarget(t *simTSS, txIDOrNumber string, revision int) (st *simTx, txID string, now time.Time, err error) {
	txID, byNumber := strings.ToLower(txIDOrNumber), false
	if !tse.ValidUUID(txID) {
		if !isTxNumber(txID) {
			return nil, "", now, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "tx_id_or_number must be a UUID or a transaction number")
		}
		byNumber = true
	}
	if revision < 1 {
		return nil, "", now, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "tx_revision must be a positive integer")
	}
	if err := usable(t); err != nil {
		return nil, "", now, err
	}
	now = s.now()
	if !now.Before(t.notAfter) {
		return nil, "", now, tse.NewError(423, "E_CERTIFICATE_EXPIRED", "the TSS certificate expired on "+t.notAfter.UTC().Format(time.RFC3339)+": a new TSS is needed")
	}
	if !byNumber {
		return t.txs[txID], txID, now, nil
	}
	// A number names a transaction the TSS numbered: it updates, it never
	// starts one.
	if st = t.txByNumber(txID); st == nil {
		return nil, "", now, tse.NewError(404, "E_TX_NOT_FOUND", fmt.Sprintf("transaction %s not found", txIDOrNumber))
	}
	return st, st.id, now, nil
}

// checkRevision applies the revision rules: repeat is true when the
// revision exists with the same body (it is answered as stored);
// otherwise the revision must be the next of an ACTIVE transaction, or
// the first of a new one.
func checkRevision(st *simTx, txID string, revision int, sum [32]byte) (repeat bool, err error) {
	switch {
	case st != nil && revision <= len(st.revs):
		if st.revs[revision-1].hash != sum {
			return false, tse.NewError(409, "E_TX_UPSERT", fmt.Sprintf("revision %d of transaction %s was sent with another body", revision, txID))
		}
		return true, nil
	case st == nil && revision > 1:
		return false, tse.NewError(404, "E_TX_NOT_FOUND", fmt.Sprintf("transaction %s not found", txID))
	case st != nil && revision > len(st.revs)+1:
		return false, tse.NewError(400, "E_TX_UPSERT", fmt.Sprintf("transaction %s is at revision %d: revision %d skips one", txID, len(st.revs), revision))
	case st != nil && st.state != tse.TxActive:
		return false, tse.NewError(400, "E_TX_UPSERT", fmt.Sprintf("transaction %s is already %s", txID, st.state))
	}
	return false, nil
}

// parseTxBody reads an upsert body and finds its client, which must be
// registered with this TSS.
func (s *Simulator) parseTxBody(t *simTSS, body []byte) (upsertRequest, *simClient, error) {
	req, err := parseUpsert(body)
	if err != nil {
		return req, nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", schemaMessage(err))
	}
	state, clientID := req.state, req.clientID
	if state != tse.TxActive && state != tse.TxFinished && state != tse.TxCancelled {
		return req, nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", fmt.Sprintf("state: %q is not ACTIVE, FINISHED or CANCELLED", state))
	}
	if !tse.ValidUUID(clientID) {
		return req, nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "client_id must be a UUID")
	}
	c := s.findClient(strings.ToLower(clientID))
	if c == nil || c.tss != t.id {
		return req, nil, tse.NewError(400, "E_CLIENT_NOT_FOUND", fmt.Sprintf("client %s is not registered with this TSS", clientID))
	}
	if c.state != tse.ClientRegistered {
		return req, nil, tse.NewError(400, "E_CLIENT_DEREGISTERED", fmt.Sprintf("client %s is deregistered", clientID))
	}
	return req, c, nil
}

// nextRevision fills in what the revision becomes: revision 1 starts the
// transaction (a new number, no schema yet); a later one keeps the number,
// the start and the schema unless it brings one (of the same processType),
// and one that ends the transaction needs a schema by then. It answers
// schema.standard_v1 as the revision will show it.
func (s *Simulator) nextRevision(t *simTSS, st *simTx, tx *tse.Tx, sch *txSchema, now time.Time) (json.RawMessage, error) {
	if tx.Revision == 1 {
		if tx.State != tse.TxActive || sch != nil {
			return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "revision 1 starts the transaction: state ACTIVE and no schema")
		}
		if t.active >= s.cfg.MaxActiveTx {
			return nil, tse.NewError(400, "E_TX_LIMIT_REACHED", fmt.Sprintf("%d transactions are ACTIVE: finish or cancel some first", t.active))
		}
		tx.Number, tx.TimeStart, tx.LogOperation = t.txCounter+1, now, "Start"
		return nil, nil
	}
	prev, err := s.readRevision(st, len(st.revs))
	if err != nil {
		return nil, err
	}
	tx.Number, tx.TimeStart = prev.Number, prev.TimeStart
	stdV1 := prev.stdV1
	tx.ProcessType, tx.ProcessData = prev.ProcessType, prev.ProcessData
	if sch != nil {
		if prev.ProcessType != "" && sch.processType != prev.ProcessType {
			return nil, tse.NewError(409, "E_TX_ILLEGAL_TYPE_CHANGE",
				fmt.Sprintf("transaction %s is a %s: the process_type cannot change to %q", tx.ID, prev.ProcessType, sch.processType))
		}
		tx.ProcessType, tx.ProcessData, stdV1 = sch.processType, sch.processData, sch.stdV1
	}
	tx.LogOperation = "Update"
	if tx.State != tse.TxActive {
		if tx.ProcessType == "" {
			return nil, tse.NewError(409, "E_TX_NO_TYPE_DEFINED", "a transaction is finished or cancelled with a schema")
		}
		end := now
		tx.TimeEnd, tx.LogOperation = &end, "Finish"
	}
	return stdV1, nil
}

// signAndCommit signs the revision with the next signature counter as
// its TR-03151 log message, adds the QR code data to a finished one and
// commits it to the journal.
func (s *Simulator) signAndCommit(t *simTSS, tx tse.Tx, stdV1 json.RawMessage, sum [32]byte, metadata map[string]string, now time.Time) (revView, error) {
	tx.Signature = tse.Signature{Algorithm: tse.SignatureAlgorithm, Counter: t.counter + 1, PublicKey: t.pubB64}
	var err error
	if tx.Signature.Value, err = signTx(t.key, tx); err != nil {
		return revView{}, &tse.Error{Class: tse.Transient, HTTPStatus: 500, Code: "E_INTERNAL", Message: err.Error()}
	}
	if tx.TimeEnd != nil {
		tx.QRCodeData = tse.QRCodeData(tx)
	}
	rec := record{Op: opTx, TSS: t.id, Time: now.Unix(), Counter: tx.Signature.Counter,
		BodyHash: hex.EncodeToString(sum[:]), Metadata: metadata, Tx: &tx, StdV1: stdV1, LogV: logVersionTR}
	if err := s.commit(rec); err != nil {
		return revView{}, err
	}
	return revView{Tx: tx, stdV1: stdV1}, nil
}

// txNumberRe is the schema's TxNum: an integer.
var txNumberRe = regexp.MustCompile(`^-?[0-9]{1,16}$`)

func isTxNumber(s string) bool { return txNumberRe.MatchString(s) }

// txByNumber finds a transaction by its number (nil if there is none).
func (t *simTSS) txByNumber(s string) *simTx {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n <= t.numberBase || n > t.numberBase+uint64(len(t.byNumber)) {
		return nil
	}
	return t.byNumber[n-1-t.numberBase]
}

// getTx reads a transaction by id or number; revision 0 is the latest.
func (s *Simulator) getTx(t *simTSS, idOrNumber string, revision int) (revView, *simTx, error) {
	st := t.txs[strings.ToLower(idOrNumber)]
	if st == nil {
		st = t.txByNumber(idOrNumber)
	}
	if st == nil {
		return revView{}, nil, tse.NewError(404, "E_TX_NOT_FOUND", fmt.Sprintf("transaction %s not found", idOrNumber))
	}
	if revision < 0 || revision > len(st.revs) {
		return revView{}, nil, tse.NewError(400, "E_TX_REVISION_NOT_FOUND", fmt.Sprintf("transaction %s has no revision %d", idOrNumber, revision))
	}
	if revision == 0 {
		revision = len(st.revs)
	}
	v, err := s.readRevision(st, revision)
	return v, st, err
}

// listTx is fiskaly's listTransactions, with its 20 calls a minute per TSS.
func (s *Simulator) listTx(t *simTSS, q tse.ListQuery) (tse.TxPage, error) {
	views, err := s.listTxViews(t, q)
	if err != nil {
		return tse.TxPage{}, err
	}
	page := tse.TxPage{Data: make([]tse.Tx, len(views)), Count: len(views)}
	for i, v := range views {
		page.Data[i] = v.Tx
	}
	return page, nil
}

// listTxViews is listTx as the HTTP face answers it.
func (s *Simulator) listTxViews(t *simTSS, q tse.ListQuery) ([]revView, error) {
	if err := s.listRateLimit(t); err != nil {
		return nil, err
	}
	return s.txViews(t, q, nil)
}

// listRateLimit counts a listTransactions call: fiskaly allows 20 a
// minute per TSS.
func (s *Simulator) listRateLimit(t *simTSS) error {
	now := s.cfg.Now()
	window := t.listCalls[:0]
	for _, c := range t.listCalls {
		if now.Sub(c) < time.Minute {
			window = append(window, c)
		}
	}
	t.listCalls = window
	if len(window) >= simListPerMin {
		wait := time.Minute - now.Sub(window[0])
		wait = (wait + time.Second - 1).Truncate(time.Second)
		return retryAfterError(429, "E_TOO_MANY_REQUESTS", fmt.Sprintf("at most %d list calls a minute", simListPerMin), wait)
	}
	t.listCalls = append(t.listCalls, now)
	return nil
}

// txViews lists the TSS's transactions (only client's, whose latest
// revision it sent, when client is not nil) filtered, ordered and paged
// as q says.
func (s *Simulator) txViews(t *simTSS, q tse.ListQuery, client *simClient) ([]revView, error) {
	if q.Limit == 0 {
		q.Limit = simPageMax
	}
	if q.Limit < 1 || q.Limit > simPageMax || q.Offset < 0 {
		return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "limit must be 1-100 and offset at least 0")
	}
	if q.OrderBy == "" {
		q.OrderBy = "number"
	}
	key, ok := txSortKeys[q.OrderBy]
	if !ok {
		return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "order_by must be number, state, time_start or time_end")
	}
	if q.Order != "" && q.Order != "asc" && q.Order != "desc" {
		return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", "order must be asc or desc")
	}
	for _, st := range q.States {
		if st != tse.TxActive && st != tse.TxFinished && st != tse.TxCancelled {
			return nil, tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", fmt.Sprintf("states: %q is not ACTIVE, FINISHED or CANCELLED", st))
		}
	}
	var all []*simTx
	for _, st := range t.byNumber {
		if (len(q.States) == 0 || slices.Contains(q.States, st.state)) && (client == nil || st.client == client) {
			all = append(all, st)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		c := key(all[i], all[j])
		if c == 0 {
			c = cmp.Compare(all[i].number, all[j].number)
		}
		if q.Order == "desc" {
			return c > 0
		}
		return c < 0
	})
	views := []revView{}
	if q.Offset < len(all) {
		all = all[q.Offset:]
		if len(all) > q.Limit {
			all = all[:q.Limit]
		}
		for _, st := range all {
			v, err := s.readRevision(st, len(st.revs))
			if err != nil {
				return nil, err
			}
			views = append(views, v)
		}
	}
	return views, nil
}

var txSortKeys = map[string]func(a, b *simTx) int{
	"number":     func(a, b *simTx) int { return cmp.Compare(a.number, b.number) },
	"state":      func(a, b *simTx) int { return strings.Compare(a.state, b.state) },
	"time_start": func(a, b *simTx) int { return cmp.Compare(a.start, b.start) },
	"time_end":   func(a, b *simTx) int { return cmp.Compare(a.end, b.end) },
}

// info is the TSS as the Provider reports it.
func (s *Simulator) info(t *simTSS) tse.TSSInfo {
	return tse.TSSInfo{
		ID: t.id, State: t.state, Description: t.description, SerialNumber: t.serial,
		PublicKey: t.pubB64, CertificateDER: append([]byte(nil), t.cert...), CertNotAfter: t.notAfter,
		SignatureAlgorithm: tse.SignatureAlgorithm, SignatureCounter: t.counter, TransactionCounter: t.txCounter,
		ActiveTransactions: t.active, MaxActiveTx: s.cfg.MaxActiveTx,
		RegisteredClients: len(t.clients), MaxClients: s.cfg.MaxClients,
		ProviderRequestTime: s.now(),
	}
}

func clientInfo(c *simClient) tse.ClientInfo {
	return tse.ClientInfo{ID: c.id, SerialNumber: c.serial, State: c.state, TSSID: c.tss}
}

// randomCode is a random string of letters and digits (PUKs, PINs).
func randomCode(n int) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
	b := make([]byte, n)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
