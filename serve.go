package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/kardianos/service"

	"posbox/server"
	"posbox/store"
)

func cmdServe(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg, err := loadConfig(fs, args, "addr", "timezone", "token_ttl", "log_format", "log_level", "admin_email", "tse_budget")
	if err != nil {
		return usageErr(err)
	}
	if !service.Interactive() {
		return runService(cfg, stderr, nil) // under systemd or the Windows SCM
	}
	log := newLogger(cfg, stderr)
	slog.SetDefault(log)
	return serve(ctx, cfg, log, nil)
}

// serve runs the appliance until ctx is done: the one start/stop path of
// the foreground and the OS service. ready, when not nil, receives the
// listening address once requests are accepted.
func serve(ctx context.Context, cfg Config, log *slog.Logger, ready chan<- string) error {
	st, err := store.Open(ctx, cfg.DataDir, store.Options{Logger: log})
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()
	if err := bootstrap(ctx, st, cfg, log); err != nil {
		return err
	}
	key, err := loadJWTKey(cfg.DataDir)
	if err != nil {
		return err
	}
	srv := server.New(st, server.Config{Version: version, Build: build, JWTKey: key, TokenTTL: cfg.TokenTTL}, log)
	defer srv.Close()

	// Background workers run until workCtx ends; they stop after the HTTP
	// server has drained and before the database closes.
	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	var workers sync.WaitGroup
	defer func() {
		stopWork()
		waitBounded(&workers, 10*time.Second, log)
	}()
	// Scheduled jobs (UTC); each area registers its own, then it starts.
	sched := newScheduler(log)
	defer func() {
		stopWork() // running jobs see the end and return early
		stopCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		stopScheduler(stopCtx, sched)
	}()
	// Each area starts its workers and registers its jobs here, one line each:
	if err := startTSE(workCtx, &workers, sched, st, srv, cfg, log); err != nil {
		return err
	}
	if err := startNotifications(workCtx, &workers, sched, st, srv, cfg, log); err != nil {
		return err
	}
	if _, err := startIdempotencyPurge(workCtx, sched, st, log); err != nil {
		return err
	}
	startBackups(workCtx, sched, st, cfg, log)
	sched.Start()

	// Listen before serving so "address in use" fails the start.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	err = serveHTTP(ctx, ln, hs, log, ready,
		"posbox serving", "addr", ln.Addr().String(), "data_dir", cfg.DataDir, "version", versionString())
	if err != nil {
		return err
	}
	log.Info("posbox stopped")
	return nil
}
