package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"posbox/internal/logging"
	"posbox/server"
	"posbox/tse/tsesim"
)

// tseSimHTTPDir holds the state of `posbox tse-sim`, apart from the
// appliance's embedded simulator (tse-sim/), so both may share a data dir.
const tseSimHTTPDir = "tse-sim-http"

// cmdTSESim serves the simulator over HTTP with fiskaly SIGN DE v2's wire
// format until SIGINT/SIGTERM.
func cmdTSESim(ctx context.Context, args []string, stderr io.Writer) error {
	return runTSESim(ctx, args, stderr, nil)
}

// runTSESim is cmdTSESim; ready, when not nil, receives the listening
// address.
func runTSESim(ctx context.Context, args []string, stderr io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("tse-sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8091", "listen address HOST:PORT")
	apiKey := fs.String("api-key", "", "API key clients sign in with (required)")
	apiSecret := fs.String("api-secret", "", "API secret clients sign in with (required)")
	certValidity := fs.Duration("cert-validity", 365*24*time.Hour, "validity of the certificates of new TSSs (e.g. 720h to show the expiry warning)")
	maxActive := fs.Int("max-active-tx", 2000, "open transactions a TSS allows (fiskaly: 2000)")
	maxClients := fs.Int("max-clients", 199, "terminals (clients) a TSS holds (fiskaly: 199)")
	exportDelay := fs.Duration("export-delay", 10*time.Second, "how long a TAR export stays PENDING and WORKING before its file is ready")
	latency := fs.Duration("latency", 0, "delay added before every answer (e.g. 20ms: a cloud TSE's round trip, for benchmarks)")
	cfg, err := loadConfig(fs, args, "log_format", "log_level")
	if err != nil {
		return usageErr(err)
	}
	if *apiKey == "" || *apiSecret == "" {
		return errors.New("tse-sim: --api-key and --api-secret are required")
	}
	log := logging.New(cfg.logOptions(), stderr)
	dir := filepath.Join(cfg.DataDir, tseSimHTTPDir)
	// Empty: TSSs come from a setup (PUT /tss/{id}), as at fiskaly.
	sim, err := tsesim.Open(tsesim.Config{Dir: dir, Empty: true, CertValidity: *certValidity, MaxActiveTx: *maxActive, MaxClients: *maxClients,
		ExportDelay: exportDelayOf(*exportDelay)})
	if err != nil {
		return err
	}
	defer sim.Close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	var h http.Handler = tsesim.NewServer(sim, *apiKey, *apiSecret)
	if *latency > 0 {
		h = tsesim.WithLatency(h, *latency)
	}
	hs := &http.Server{
		Handler:           server.LogRequests(log, h),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	err = server.Run(ctx, ln, hs, log, ready,
		"TSE simulator serving fiskaly SIGN DE v2", "url", "http://"+ln.Addr().String()+"/api/v2", "state_dir", dir, "latency", *latency)
	if err != nil {
		return err
	}
	log.Info("TSE simulator stopped")
	return nil
}

// exportDelayOf maps the flag to tsesim.Config.ExportDelay, where 0 means the
// default: --export-delay 0 makes exports ready at the first look.
func exportDelayOf(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
