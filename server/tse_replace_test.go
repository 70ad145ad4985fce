package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"posbox/fiscal/archive"
	"posbox/fiscal/queue"
	"posbox/fiscal/replace"
	"posbox/internal/poll"
	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// boxTSE is what serve builds from tse.json: the fiskaly client, the
// queue (running), the archive and the replacer.
type boxTSE struct {
	p   *tse.Fiskaly
	q   *queue.Queue
	arc *archive.Archive
	rp  *replace.Replacer
}

func openBoxTSE(t *testing.T, e *tseEnv, clock *storetest.Clock, dataDir string, restarted *atomic.Int32) *boxTSE {
	t.Helper()
	c, err := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	b := &boxTSE{}
	if b.p, err = tse.NewFiskaly(tse.FiskalyConfig{BaseURL: c.URL, APIKey: c.APIKey, APISecret: c.APISecret, TSSID: c.TSSID,
		AdminPIN: c.AdminPIN, Now: clock.Now, Logger: log}); err != nil {
		t.Fatal(err)
	}
	if b.q, err = queue.New(context.Background(), b.p, e.st, queue.Options{RestaurantID: e.restaurant.ID, Budget: 10 * time.Second, Logger: log}); err != nil {
		t.Fatal(err)
	}
	if b.arc, err = archive.New(b.p, b.p, e.st, archive.Options{RestaurantID: e.restaurant.ID, Dir: filepath.Join(dataDir, "archive", "tse"),
		Logger: log, Sleep: func(ctx context.Context, d time.Duration) error { clock.Add(d); return ctx.Err() }}); err != nil {
		t.Fatal(err)
	}
	b.rp = replace.New(e.st, replace.Options{RestaurantID: e.restaurant.ID, DataDir: dataDir, Old: b.p, Settings: c, Archive: b.arc,
		Restart: func() { restarted.Add(1) }, Logger: log})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); b.q.Run(ctx) }()
	t.Cleanup(func() { b.rp.Close(); cancel(); <-done; b.arc.Close(); b.p.Close() })
	return b
}

// The TSS's replacement through the API, end to end on the simulator
// over HTTP with an expiring certificate: sales before; the status warns;
// POST /api/tse/replacement runs the steps in the background to the
// switch (register closed, final export archived, old TSS DISABLED, new
// TSS set up); a sale meanwhile is 503 tse_replacing with Retry-After and
// recorded nowhere; after the restart the change is recorded and sales
// are signed by the new TSS; nothing is lost.
func TestTSEReplacementAPI(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock(time.Now().UTC().Truncate(time.Second))
	proc := simtest.Start(t, clock.Now, func(c *tsesim.Config) { c.CertValidity = 20 * 24 * time.Hour; c.ExportDelay = -1 })
	dataDir := t.TempDir()
	if err := tse.Setup(ctx, dataDir, "http://"+proc.Addr, simtest.Key, simtest.Secret, io.Discard, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	c, err := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile))
	if err != nil {
		t.Fatal(err)
	}
	ext, err := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: c.URL, APIKey: c.APIKey, APISecret: c.APISecret, TSSID: c.TSSID, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ext.Close() })
	e := newTSEEnv(t, tseEnvOpts{clock: clock, external: ext, noWorker: true}) // its own queue stays unused
	var restarted atomic.Int32
	old := openBoxTSE(t, e, clock, dataDir, &restarted)
	e.serve(t, Config{TSE: old.q, Archive: old.arc, Replacer: old.rp})
	for i := range 3 {
		if code, _ := e.sell(t, sale("KASSE-01", 1000+i), e.adminToken); code != http.StatusCreated {
			t.Fatalf("sale %d before: %d", i, code)
		}
	}
	if w, _ := e.status(t)["certificate_warning"].(map[string]any); w == nil || num(w["threshold_days"]) != 30 {
		t.Fatalf("no certificate warning: %v", e.status(t))
	}
	clock.Add(time.Minute)

	rec := e.do(t, "POST", "/api/tse/replacement", map[string]any{}, e.adminToken)
	wantStatus(t, rec, http.StatusAccepted)
	if r := decodeJSON(t, rec)["replacement"].(map[string]any); r["step"] != "closing" || r["started_by_name"] != e.admin.Name {
		t.Fatalf("started %v", r)
	}
	wantProblem(t, e.do(t, "POST", "/api/tse/replacement", map[string]any{}, e.adminToken), http.StatusConflict, store.ETSEReplacementOpen)
	var cur map[string]any
	poll.Until(t, 30*time.Second, "the replacement at its switch", func() bool {
		rec := e.do(t, "GET", "/api/tse/replacements", nil, e.adminToken)
		all := decodeJSON(t, rec)["replacements"].([]any)
		cur = all[len(all)-1].(map[string]any)
		return cur["step"] == "switch"
	})
	if restarted.Load() != 1 || cur["last_error"] != nil || cur["new_serial_number"] == nil || cur["final_signature_counter"] == nil ||
		cur["closed_at"] == nil || cur["exported_at"] == nil || cur["disabled_at"] == nil || cur["set_up_at"] == nil {
		t.Fatalf("at the switch: %v (restarts %d)", cur, restarted.Load())
	}
	rec = e.do(t, "POST", "/api/tse/transactions", sale("KASSE-01", 1500), e.adminToken)
	wantProblem(t, rec, http.StatusServiceUnavailable, store.ETSEReplacing)
	if rec.Header().Get("Retry-After") != "30" {
		t.Fatalf("Retry-After %q", rec.Header().Get("Retry-After"))
	}
	if info, err := old.p.TSS(ctx); err != nil || info.State != tse.TSSDisabled {
		t.Fatalf("old TSS %s (%v)", info.State, err)
	}
	if as, err := e.st.TSEArchiveStateOf(ctx, old.p.TSSID()); err != nil || as.LastArchivedCounter != int64(num(cur["final_signature_counter"])) {
		t.Fatalf("old TSS's archive %+v (%v), final %v", as, err, cur["final_signature_counter"])
	}
	if fi, err := os.Stat(filepath.Join(dataDir, tse.ReplacedSettingsFile(old.p.TSSID()))); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("old tse.json %v (%v)", fi, err)
	}

	// The restart: serve opens the new tse.json and records the switch.
	cur2 := openBoxTSE(t, e, clock, dataDir, &restarted)
	e.serve(t, Config{TSE: cur2.q, Archive: cur2.arc, Replacer: cur2.rp})
	if _, err := cur2.rp.Finish(ctx, e.restaurant.ID, cur2.p.TSSID()); err != nil {
		t.Fatal(err)
	}
	code, tx := e.sell(t, sale("KASSE-01", 2000), e.adminToken)
	if code != http.StatusCreated || tx["tse_serial_number"] != cur["new_serial_number"] {
		t.Fatalf("sale after: %d %v, want serial %v", code, tx, cur["new_serial_number"])
	}
	if st := e.status(t); st["tss_id"] != cur["new_tss_id"] || st["healthy"] != true {
		t.Fatalf("status after: %v", st)
	}
	rec = e.do(t, "GET", "/api/tse/replacements", nil, e.adminToken)
	got := decodeJSON(t, rec)
	all := got["replacements"].([]any)
	if len(all) != 1 || all[0].(map[string]any)["step"] != "done" || all[0].(map[string]any)["switched_at"] == nil {
		t.Fatalf("after: %v", got)
	}
	if n := e.countRows(t, `SELECT count(*) FROM tse_transactions WHERE signature_counter IS NOT NULL AND tss_id = ?`, old.p.TSSID()); n != 3 {
		t.Fatalf("%d signed sales of the old TSS, want 3", n)
	}
}
