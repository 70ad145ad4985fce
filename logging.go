package main

import (
	"io"
	"log/slog"
	"strings"
)

// newLogger builds the process logger from the configuration.
func newLogger(cfg Config, w io.Writer) *slog.Logger {
	return slog.New(newHandler(cfg, w))
}

// newHandler is one log destination in the configured format and level.
func newHandler(cfg Config, w io.Writer) slog.Handler {
	var level slog.Level
	if err := level.UnmarshalText([]byte(strings.ToUpper(cfg.LogLevel))); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.NewJSONHandler(w, opts)
	}
	return slog.NewTextHandler(w, opts)
}
