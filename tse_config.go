package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"posbox/tse"
	"posbox/tse/tsesim"
)

// openTSEProvider is the appliance's TSE: the fiskaly client when
// DATA_DIR/tse.json exists (written by `posbox tse setup`), otherwise the
// embedded simulator with its state in DATA_DIR/tse-sim/. The closer
// releases it at shutdown.
func openTSEProvider(cfg Config, log *slog.Logger) (tse.Provider, io.Closer, error) {
	path := filepath.Join(cfg.DataDir, tse.SettingsFile)
	c, err := tse.ReadSettings(path)
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
	if _, err := os.Stat(filepath.Join(cfg.DataDir, tse.SetupFile)); err == nil {
		log.Warn("an unfinished `posbox tse setup` is pending; signing with the simulator until it completes",
			"file", filepath.Join(cfg.DataDir, tse.SetupFile))
	}
	sim, err := tsesim.Open(tsesim.Config{Dir: filepath.Join(cfg.DataDir, tse.SimDir)})
	if err != nil {
		return nil, nil, err
	}
	log.Info("TSE provider: simulator (not a certified TSE)", "tss_id", sim.TSSID())
	return sim, sim, nil
}
