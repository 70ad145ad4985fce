package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/kardianos/service"
	"gopkg.in/natefinch/lumberjack.v2"
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

// Log file of the installed service: DATA_DIR/logs/posbox.log, rotated at
// 10 MiB keeping 3 old files, so a box left alone for years never fills
// its disk with logs.
const (
	logFileName    = "posbox.log"
	logFileMaxMiB  = 10
	logFileBackups = 3
)

// serviceLogger logs the running service to the log file and to the
// system's log: stderr, which systemd hands to the journal, or, where a
// service has no stderr (Windows), warnings and errors to the Event Log.
func serviceLogger(cfg Config, stderr io.Writer, sys service.Logger) (*slog.Logger, io.Closer, error) {
	dir := filepath.Join(cfg.DataDir, "logs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	file := &lumberjack.Logger{
		Filename:   filepath.Join(dir, logFileName),
		MaxSize:    logFileMaxMiB,
		MaxBackups: logFileBackups,
	}
	handlers := []slog.Handler{newHandler(cfg, file)}
	if sys != nil {
		handlers = append(handlers, &systemLogHandler{sys: sys})
	} else {
		handlers = append(handlers, newHandler(cfg, stderr))
	}
	return slog.New(slog.NewMultiHandler(handlers...)), file, nil
}

// systemLogHandler sends warnings and errors to the service manager's log
// (the Windows Event Log) as one text line each; everything else stays in
// the log file so the Event Log is not flooded with request lines.
type systemLogHandler struct {
	sys   service.Logger
	attrs []slog.Attr
	group string
}

func (h *systemLogHandler) Enabled(_ context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn
}

func (h *systemLogHandler) Handle(_ context.Context, r slog.Record) error {
	var buf bytes.Buffer
	th := slog.Handler(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{} // the Event Log has its own
			}
			return a
		},
	})).WithAttrs(h.attrs)
	if h.group != "" {
		th = th.WithGroup(h.group)
	}
	if err := th.Handle(context.Background(), r); err != nil {
		return err
	}
	msg := string(bytes.TrimSpace(buf.Bytes()))
	if r.Level >= slog.LevelError {
		return h.sys.Error(msg)
	}
	return h.sys.Warning(msg)
}

func (h *systemLogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	return &c
}

func (h *systemLogHandler) WithGroup(name string) slog.Handler {
	c := *h
	if c.group != "" {
		name = c.group + "." + name
	}
	c.group = name
	return &c
}
