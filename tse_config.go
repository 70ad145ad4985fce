package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"posbox/tse"
	"posbox/tse/tsesim"
)

const (
	// tseConfigFile, written by `posbox tse setup`, switches the appliance
	// from the embedded simulator to fiskaly.
	tseConfigFile = "tse.json"
	// tseSetupFile keeps an unfinished setup (the PUK is shown only once).
	tseSetupFile = "tse-setup.json"
	// tseSimDir holds the embedded simulator's keys and journal.
	tseSimDir = "tse-sim"
)

// tseConfig is DATA_DIR/tse.json (mode 0600): what the appliance needs to
// sign with a fiskaly TSS, and what an admin needs to manage it.
type tseConfig struct {
	Provider  string    `json:"provider"` // "fiskaly"
	URL       string    `json:"url"`
	APIKey    string    `json:"api_key"`
	APISecret string    `json:"api_secret"`
	TSSID     string    `json:"tss_id"`
	AdminPUK  string    `json:"admin_puk"`
	AdminPIN  string    `json:"admin_pin"`
	CreatedAt time.Time `json:"created_at"`
}

func readTSEConfig(path string) (tseConfig, error) {
	var c tseConfig
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	if c.Provider != tse.KindFiskaly || c.URL == "" || c.APIKey == "" || c.APISecret == "" || c.TSSID == "" {
		return c, fmt.Errorf("%s: want provider fiskaly with url, api_key, api_secret and tss_id", path)
	}
	return c, nil
}

// openTSEProvider is the appliance's TSE: the fiskaly client when
// DATA_DIR/tse.json exists (written by `posbox tse setup`), otherwise the
// embedded simulator with its state in DATA_DIR/tse-sim/. The closer
// releases it at shutdown.
func openTSEProvider(cfg Config, log *slog.Logger) (tse.Provider, io.Closer, error) {
	path := filepath.Join(cfg.DataDir, tseConfigFile)
	c, err := readTSEConfig(path)
	switch {
	case err == nil:
		f, err := tse.NewFiskaly(tse.FiskalyConfig{
			BaseURL: c.URL, APIKey: c.APIKey, APISecret: c.APISecret,
			TSSID: c.TSSID, AdminPIN: c.AdminPIN, Logger: log,
		})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		log.Info("TSE provider: fiskaly", "url", c.URL, "tss_id", c.TSSID)
		return f, f, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, err
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, tseSetupFile)); err == nil {
		log.Warn("an unfinished `posbox tse setup` is pending; signing with the simulator until it completes",
			"file", filepath.Join(cfg.DataDir, tseSetupFile))
	}
	sim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(cfg.DataDir, tseSimDir)})
	if err != nil {
		return nil, nil, err
	}
	log.Info("TSE provider: simulator (not a certified TSE)", "tss_id", sim.TSSID())
	return sim, sim, nil
}
