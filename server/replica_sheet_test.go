package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

const (
	sheetKey  = "AGE-SECRET-KEY-1QQQTESTONLYTESTONLYTESTONLYTESTONLYTESTONLYTESTONLYQQQ"
	sheetKey2 = "AGE-SECRET-KEY-1ZZZSECONDKEYSECONDKEYSECONDKEYSECONDKEYSECONDKEYZZZZZ"
)

// sheetReplica is a replication with a recovery key: the fake of main's
// adapter, whose key the test can replace (a new replica.key).
type sheetReplica struct {
	fakeReplica
	sheet RecoverySheet
}

func (f *sheetReplica) RecoverySheet() (RecoverySheet, error) { return f.sheet, nil }

func newSheetReplica(pub, key string) *sheetReplica {
	url := "sftp://backup@nas.local:22/posbox"
	return &sheetReplica{fakeReplica{ReplicaStatus{URL: url, PublicKey: pub}}, RecoverySheet{URL: url, PublicKey: pub, RecoveryKey: key,
		RestoreCommand: "posbox restore --from '" + url + "' --key-file /path/to/recovery.key --data-dir /path/to/empty-folder",
		Text:           "posbox replica recovery sheet\n" + key + "\n"}}
}

// withSheetReplica serves with replication on and a recovery sheet
// (public key age1contract), keeping the rest of the config.
func (e *testEnv) withSheetReplica(tb testing.TB) {
	cfg := e.cfg
	cfg.Replica = newSheetReplica("age1contract", sheetKey)
	e.serve(tb, cfg)
}

// serveLogged is serve with the server's log kept in buf.
func (e *testEnv) serveLogged(tb testing.TB, cfg Config, buf *bytes.Buffer) {
	cfg.Version, cfg.JWTKey = "test", testKey
	e.cfg = cfg
	e.srv = New(e.st, cfg, slog.New(slog.NewTextHandler(io.MultiWriter(buf), &slog.HandlerOptions{Level: slog.LevelDebug})))
	e.h = e.srv.Handler()
	tb.Cleanup(e.srv.Close)
}

// Replication off: no sheet, nothing to confirm, a status that says so;
// staff see none of it.
func TestRecoverySheetReplicationOff(t *testing.T) {
	e := newTestEnv(t)
	wantProblem(t, e.do(t, "GET", "/api/replica/recovery-sheet", nil, e.adminToken), http.StatusConflict, eReplicationOff)
	wantProblem(t, e.do(t, "POST", "/api/replica/recovery-sheet/confirm", map[string]any{"public_key": "age1x"}, e.adminToken),
		http.StatusConflict, eReplicationOff)
	rec := e.do(t, "GET", "/api/replica/recovery-sheet/status", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	st := decodeJSON(t, rec)["recovery_sheet_status"].(map[string]any)
	if st["enabled"] != false || st["confirmed"] != false || st["public_key"] != nil {
		t.Fatalf("status with replication off: %v", st)
	}

	e.serve(t, Config{Replica: newSheetReplica("age1first", sheetKey)})
	_, staffToken := e.staff(t, "Sam Staff")
	for _, r := range []struct{ method, path string }{{"GET", "/api/replica/recovery-sheet"},
		{"GET", "/api/replica/recovery-sheet/status"}, {"POST", "/api/replica/recovery-sheet/confirm"}} {
		rec := e.do(t, r.method, r.path, map[string]any{"public_key": "age1first"}, staffToken)
		wantProblem(t, rec, http.StatusForbidden, eForbidden)
		if strings.Contains(rec.Body.String(), sheetKey) {
			t.Fatalf("%s %s as staff shows the key", r.method, r.path)
		}
		wantProblem(t, e.do(t, r.method, r.path, map[string]any{"public_key": "age1first"}, ""), http.StatusUnauthorized, eUnauthenticated)
	}
	wantStatus(t, e.do(t, "GET", "/api/replica/recovery-sheet", nil, e.adminToken), http.StatusOK) // staff confirmed nothing
}

// The sheet is shown (never cached) until the admin confirms she printed
// it; then the console never gets the key again, also after a restart,
// until a new key needs a new sheet. The key is never logged.
func TestRecoverySheetShownUntilConfirmed(t *testing.T) {
	e := newTestEnv(t)
	var logs bytes.Buffer
	rep := newSheetReplica("age1first", sheetKey)
	e.serveLogged(t, Config{Replica: rep}, &logs)

	rec := e.do(t, "GET", "/api/replica/recovery-sheet", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("Cache-Control %q, want no-store", cc)
	}
	sh := decodeJSON(t, rec)["recovery_sheet"].(map[string]any)
	if sh["recovery_key"] != sheetKey || sh["public_key"] != "age1first" || sh["url"] != "sftp://backup@nas.local:22/posbox" ||
		!strings.HasPrefix(sh["restore_command"].(string), "posbox restore --from ") || !strings.Contains(sh["text"].(string), sheetKey) {
		t.Fatalf("sheet: %v", sh)
	}

	// Bad confirmations change nothing.
	wantFieldError(t, e.do(t, "POST", "/api/replica/recovery-sheet/confirm", map[string]any{}, e.adminToken), "public_key")
	wantProblem(t, e.do(t, "POST", "/api/replica/recovery-sheet/confirm", map[string]any{"public_key": "age1other"}, e.adminToken),
		http.StatusConflict, "conflict")
	wantProblem(t, e.do(t, "POST", "/api/replica/recovery-sheet/confirm", `{"public_key":"age1first","x":1}`, e.adminToken),
		http.StatusBadRequest, eUnknownField)
	wantStatus(t, e.do(t, "GET", "/api/replica/recovery-sheet", nil, e.adminToken), http.StatusOK)

	rec = e.do(t, "POST", "/api/replica/recovery-sheet/confirm", map[string]any{"public_key": "age1first"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	st := decodeJSON(t, rec)["recovery_sheet_status"].(map[string]any)
	if st["confirmed"] != true || st["confirmed_by"] != "Ada Admin" || st["confirmed_at"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("confirmation: %v", st)
	}

	gone := func() {
		t.Helper()
		rec := e.do(t, "GET", "/api/replica/recovery-sheet", nil, e.adminToken)
		p := wantProblem(t, rec, http.StatusGone, "recovery_sheet_confirmed")
		if strings.Contains(rec.Body.String(), sheetKey) || !strings.Contains(p["detail"].(string), "posbox replica key") {
			t.Fatalf("after the confirmation: %s", rec.Body.String())
		}
	}
	gone()
	wantProblem(t, e.do(t, "POST", "/api/replica/recovery-sheet/confirm", map[string]any{"public_key": "age1first"}, e.adminToken),
		http.StatusGone, "recovery_sheet_confirmed")
	e.serveLogged(t, Config{Replica: rep}, &logs) // a restart: the confirmation is in the database
	gone()
	rec = e.do(t, "GET", "/api/replica/recovery-sheet/status", nil, e.adminToken)
	st = decodeJSON(t, rec)["recovery_sheet_status"].(map[string]any)
	if st["confirmed"] != true || st["confirmed_by"] != "Ada Admin" || st["public_key"] != "age1first" {
		t.Fatalf("status after the confirmation: %v", st)
	}

	// A new replica.key: a new sheet, to be confirmed again.
	rep.sheet = newSheetReplica("age1second", sheetKey2).sheet
	rec = e.do(t, "GET", "/api/replica/recovery-sheet", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if !strings.Contains(rec.Body.String(), sheetKey2) {
		t.Fatalf("the new key's sheet: %s", rec.Body.String())
	}
	if strings.Contains(logs.String(), "AGE-SECRET-KEY") {
		t.Fatalf("a recovery key in the log:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "recovery sheet confirmed") {
		t.Fatalf("the confirmation is not logged:\n%s", logs.String())
	}
}
