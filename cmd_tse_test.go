package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/internal/secretfile"
	"posbox/tse"
)

// startTSESim runs `posbox tse-sim` on addr with its state in dir and
// returns its address and a stop function that waits for a clean exit.
func startTSESim(tb testing.TB, dir, addr string, extra ...string) (string, func()) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var logs bytes.Buffer
	go func() {
		args := append([]string{"--addr", addr, "--api-key", "key_test", "--api-secret", "secret_test", "--data-dir", dir}, extra...)
		done <- runTSESim(ctx, args, &logs, ready)
	}()
	select {
	case a := <-ready:
		stopped := false
		stop := func() {
			if stopped {
				return
			}
			stopped = true
			cancel()
			if err := <-done; err != nil {
				tb.Errorf("tse-sim stopped with %v", err)
			}
		}
		tb.Cleanup(stop)
		return a, stop
	case err := <-done:
		cancel()
		tb.Fatalf("tse-sim did not start: %v\n%s", err, logs.String())
	}
	return "", nil
}

func saleBodies(tb testing.TB, clientID string) ([]byte, []byte) {
	tb.Helper()
	start, err := tse.UpsertBody(tse.TxActive, clientID, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	finish, err := tse.UpsertBody(tse.TxFinished, clientID, &tse.Receipt{
		ReceiptType:           "RECEIPT",
		AmountsPerVATRate:     []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "9.50"}},
		AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "CASH", Amount: "9.50"}},
	}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return start, finish
}

// signSale registers the terminal and signs one sale through p.
func signSale(tb testing.TB, p tse.Provider, clientID string) tse.Tx {
	tb.Helper()
	ctx := context.Background()
	if _, err := p.EnsureClient(ctx, clientID, "KASSE-01"); err != nil {
		tb.Fatalf("register client: %v", err)
	}
	start, finish := saleBodies(tb, clientID)
	txID := tse.NewUUID4()
	if _, err := p.Upsert(ctx, tse.UpsertRequest{TxID: txID, Revision: 1, Body: start}); err != nil {
		tb.Fatalf("start: %v", err)
	}
	fin, err := p.Upsert(ctx, tse.UpsertRequest{TxID: txID, Revision: 2, Body: finish})
	if err != nil {
		tb.Fatalf("finish: %v", err)
	}
	info, err := p.TSS(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	pub, err := tse.ParsePublicKey(info.PublicKey)
	if err != nil {
		tb.Fatal(err)
	}
	if tse.SerialNumber(pub) != info.SerialNumber {
		tb.Fatal("TSS serial is not the SHA-256 of its public key")
	}
	if err := tse.VerifyTx(pub, fin); err != nil {
		tb.Fatal(err)
	}
	return fin
}

func TestTSESetupSwitchesTheApplianceToFiskaly(t *testing.T) {
	dataDir, simDir := t.TempDir(), t.TempDir()
	cfg := DefaultConfig()
	cfg.DataDir = dataDir
	log := slog.New(slog.DiscardHandler)
	client := tse.NewUUID4()

	// Without a setup the appliance signs with its embedded simulator.
	p, closer, err := openTSEProvider(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind() != tse.KindSimulator {
		t.Fatalf("provider %s before setup", p.Kind())
	}
	signSale(t, p, client)
	closer.Close()
	if _, err := os.Stat(filepath.Join(dataDir, tse.SimDir, "journal.jsonl")); err != nil {
		t.Fatalf("embedded simulator state: %v", err)
	}

	addr, stop := startTSESim(t, simDir, "127.0.0.1:0")
	setup := func() (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"tse", "setup", "--url", "http://" + addr,
			"--api-key", "key_test", "--api-secret", "secret_test", "--data-dir", dataDir}, nil, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	if code, out, errOut := setup(); code != 0 || !strings.Contains(out, "INITIALIZED") {
		t.Fatalf("tse setup: exit %d\n%s\n%s", code, out, errOut)
	}
	path := filepath.Join(dataDir, tse.SettingsFile)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("tse.json: %v %v, want mode 0600", fi, err)
	}
	c, err := tse.ReadSettings(path)
	if err != nil || c.AdminPIN == "" || c.AdminPUK == "" || c.URL != "http://"+addr {
		t.Fatalf("tse.json holds %+v (%v)", c, err)
	}
	if _, err := os.Stat(filepath.Join(dataDir, tse.SetupFile)); err == nil {
		t.Fatal("the setup's progress file was left behind")
	}
	if code, _, errOut := setup(); code != 1 || !strings.Contains(errOut, "already signs with TSS "+c.TSSID) {
		t.Fatalf("second setup: exit %d %s", code, errOut)
	}

	p, closer, err = openTSEProvider(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	if p.Kind() != tse.KindFiskaly || p.TSSID() != c.TSSID {
		t.Fatalf("provider %s %s after setup", p.Kind(), p.TSSID())
	}
	first := signSale(t, p, client)
	if first.Number != 1 || first.TSSID != c.TSSID {
		t.Fatalf("first sale at fiskaly: %+v", first)
	}

	// tse-sim stopped: the provider is unreachable, a transient failure.
	stop()
	start, _ := saleBodies(t, client)
	_, err = p.Upsert(context.Background(), tse.UpsertRequest{TxID: tse.NewUUID4(), Revision: 1, Body: start})
	if tse.ClassOf(err) != tse.Transient {
		t.Fatalf("upsert while tse-sim is down: %v", err)
	}
	// Started again on its state: the same TSS continues where it stopped.
	startTSESim(t, simDir, addr)
	second := signSale(t, p, client)
	if second.Number != 2 || second.Signature.Counter <= first.Signature.Counter {
		t.Fatalf("after the restart: number %d counter %d (before %d)", second.Number, second.Signature.Counter, first.Signature.Counter)
	}
}

func TestTSESetupResumesAfterAnInterruption(t *testing.T) {
	dataDir := t.TempDir()
	addr, _ := startTSESim(t, t.TempDir(), "127.0.0.1:0", "--max-active-tx", "3", "--cert-validity", "720h")
	url := "http://" + addr
	cfg := DefaultConfig()
	cfg.DataDir = dataDir
	// An earlier run created the TSS and kept its PUK, then died.
	f, err := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: url, APIKey: "key_test", APISecret: "secret_test"})
	if err != nil {
		t.Fatal(err)
	}
	id := tse.NewUUID4()
	_, puk, err := f.CreateTSS(context.Background(), id, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(tse.Settings{Provider: "fiskaly", URL: url, APIKey: "key_test", TSSID: id, AdminPUK: puk, AdminPIN: "pin-123456"})
	if err := secretfile.Create(filepath.Join(dataDir, tse.SetupFile), b); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := tse.Setup(context.Background(), cfg.DataDir, url, "other_key", "secret_test", &out, quietLogger(&errOut)); err == nil {
		t.Fatal("resumed another account's setup")
	}
	if err := tse.Setup(context.Background(), cfg.DataDir, url, "key_test", "secret_test", &out, quietLogger(&errOut)); err != nil {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	c, err := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile))
	if err != nil || c.TSSID != id || c.AdminPIN != "pin-123456" || c.APISecret != "secret_test" {
		t.Fatalf("tse.json after resume: %+v %v", c, err)
	}
	g, _ := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: url, APIKey: "key_test", APISecret: "secret_test", TSSID: id})
	info, err := g.TSS(context.Background())
	if err != nil || info.State != tse.TSSInitialized || info.MaxActiveTx != 3 ||
		info.CertNotAfter.Sub(info.ProviderRequestTime) > 720*time.Hour {
		t.Fatalf("TSS after resume on a tse-sim with flags: %+v %v", info, err)
	}
}

// tse-sim --latency answers every request that much later (a benchmark
// drains the queue through it as through fiskaly's cloud), and correctly.
func TestTSESimLatency(t *testing.T) {
	slow, _ := startTSESim(t, t.TempDir(), "127.0.0.1:0", "--latency", "300ms")
	took := func(addr string) time.Duration {
		began := time.Now()
		res, err := http.Post("http://"+addr+"/api/v2/auth", "application/json", strings.NewReader(`{"api_key":"key_test","api_secret":"secret_test"}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("auth at %s: %d", addr, res.StatusCode)
		}
		return time.Since(began)
	}
	if d := took(slow); d < 300*time.Millisecond {
		t.Fatalf("with --latency 300ms the answer came after %s", d)
	}
}
