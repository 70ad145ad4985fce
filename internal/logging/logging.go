// Package logging builds posbox's slog loggers: one destination in the
// configured format (text or json) and level, and the installed service's
// pair: a log file in the data directory, rotated so a box left alone
// for years never fills its disk, beside the system's log (stderr, which
// systemd hands to the journal, or the Windows Event Log for warnings and
// errors). main picks which from the configuration.
package logging

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

// Options are the configured format ("json" or text) and level (debug,
// info, warn or error; info when unknown).
type Options struct {
	Format, Level string
}

// New is a logger writing to w.
func New(o Options, w io.Writer) *slog.Logger {
	return slog.New(handler(o, w))
}

// handler is one log destination in the configured format and level.
func handler(o Options, w io.Writer) slog.Handler {
	var level slog.Level
	if err := level.UnmarshalText([]byte(strings.ToUpper(o.Level))); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if o.Format == "json" {
		return slog.NewJSONHandler(w, opts)
	}
	return slog.NewTextHandler(w, opts)
}

// FileName is the installed service's log file in DATA_DIR/logs, rotated at
// 10 MiB keeping 3 old files, so a box left alone for years never fills
// its disk with logs.
const (
	FileName       = "posbox.log"
	logFileMaxMiB  = 10
	logFileBackups = 3
)

// Service logs the running service to DATA_DIR/logs/posbox.log and to the
// system's log: stderr, which systemd hands to the journal, or, where a
// service has no stderr (Windows: sys is not nil), warnings and errors to
// the Event Log. The closer closes the file.
func Service(o Options, dataDir string, stderr io.Writer, sys service.Logger) (*slog.Logger, io.Closer, error) {
	dir := filepath.Join(dataDir, "logs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	file := &lumberjack.Logger{
		Filename:   filepath.Join(dir, FileName),
		MaxSize:    logFileMaxMiB,
		MaxBackups: logFileBackups,
	}
	handlers := []slog.Handler{handler(o, file)}
	if sys != nil {
		handlers = append(handlers, &systemLogHandler{sys: sys})
	} else {
		handlers = append(handlers, handler(o, stderr))
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
