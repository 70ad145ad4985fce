package tse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"posbox/tse"
	"posbox/tse/simtest"
)

// Setup provisions a TSS at a fiskaly-compatible server, writes tse.json
// (mode 0600) with what the appliance needs, removes its progress file,
// and refuses to run again over tse.json.
func TestSetupWritesTheSettings(t *testing.T) {
	sim := simtest.Start(t, time.Now)
	url := "http://" + sim.Addr
	dataDir := filepath.Join(t.TempDir(), "data")
	log := slog.New(slog.DiscardHandler)
	var out bytes.Buffer
	if err := tse.Setup(context.Background(), dataDir, url, simtest.Key, simtest.Secret, &out, log); err != nil {
		t.Fatalf("setup: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "created TSS") || !strings.Contains(out.String(), "INITIALIZED") {
		t.Errorf("output %q", out.String())
	}
	path := filepath.Join(dataDir, tse.SettingsFile)
	if fi, err := os.Stat(path); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Fatalf("tse.json: %v %v, want mode 0600", fi, err)
	}
	c, err := tse.ReadSettings(path)
	if err != nil || c.Provider != tse.KindFiskaly || c.AdminPIN == "" || c.AdminPUK == "" || c.URL != url || c.APISecret != simtest.Secret || c.CreatedAt.IsZero() {
		t.Fatalf("tse.json holds %+v (%v)", c, err)
	}
	if _, err := os.Stat(filepath.Join(dataDir, tse.SetupFile)); !os.IsNotExist(err) {
		t.Fatalf("the setup's progress file was left behind: %v", err)
	}
	err = tse.Setup(context.Background(), dataDir, url, simtest.Key, simtest.Secret, &out, log)
	if err == nil || !strings.Contains(err.Error(), "already signs with TSS "+c.TSSID) {
		t.Fatalf("second setup: %v", err)
	}
}

// An unfinished setup (the TSS created, its PUK kept in tse-setup.json)
// is resumed with the same TSS, and only with the same API key.
func TestSetupResumes(t *testing.T) {
	sim := simtest.Start(t, time.Now)
	url := "http://" + sim.Addr
	dataDir := t.TempDir()
	f, err := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: url, APIKey: simtest.Key, APISecret: simtest.Secret})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id := tse.NewUUID4()
	_, puk, err := f.CreateTSS(context.Background(), id, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(tse.Settings{Provider: tse.KindFiskaly, URL: url, APIKey: simtest.Key, TSSID: id, AdminPUK: puk, AdminPIN: "pin-123456"})
	if err := os.WriteFile(filepath.Join(dataDir, tse.SetupFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	var out bytes.Buffer
	if err := tse.Setup(context.Background(), dataDir, url, "other_key", simtest.Secret, &out, log); err == nil || !strings.Contains(err.Error(), "another API key") {
		t.Fatalf("resumed another account's setup: %v", err)
	}
	if err := tse.Setup(context.Background(), dataDir, url, simtest.Key, simtest.Secret, &out, log); err != nil {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "resuming the setup of TSS "+id) {
		t.Errorf("output %q", out.String())
	}
	c, err := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile))
	if err != nil || c.TSSID != id || c.AdminPIN != "pin-123456" || c.APISecret != simtest.Secret {
		t.Fatalf("tse.json after resume: %+v %v", c, err)
	}
}

// ReadSettings wants a fiskaly TSS with its credentials.
func TestReadSettingsChecks(t *testing.T) {
	p := filepath.Join(t.TempDir(), tse.SettingsFile)
	os.WriteFile(p, []byte(`{"provider":"fiskaly","url":"https://x","api_key":"k"}`), 0o600)
	if _, err := tse.ReadSettings(p); err == nil || !strings.Contains(err.Error(), "want provider fiskaly") {
		t.Fatalf("incomplete settings: %v", err)
	}
}
