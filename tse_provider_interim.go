package main

// Interim: the tse-provider branch brings the real openTSEProvider
// (fiskaly or simulator, per the data dir); this file goes when it is merged.

import (
	"io"
	"log/slog"
	"path/filepath"

	"posbox/tse"
)

func openTSEProvider(cfg Config, log *slog.Logger) (tse.Provider, io.Closer, error) {
	sim, err := tse.OpenSimulator(tse.SimConfig{Dir: filepath.Join(cfg.DataDir, "tse-sim")})
	if err != nil {
		return nil, nil, err
	}
	return sim, sim, nil
}
