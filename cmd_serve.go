package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"posbox/boxtls"
	"posbox/console"
	"posbox/internal/logging"
	"posbox/notify"
	"posbox/server"
	"posbox/store"

	"github.com/kardianos/service"
	"github.com/robfig/cron/v3"
)

func cmdServe(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg, err := loadConfig(fs, args, "addr", "timezone", "token_ttl", "log_format", "log_level", "admin_email", "tse_budget")
	if err != nil {
		return usageErr(err)
	}
	paceGC() // gc_pace.go
	if !service.Interactive() {
		return runService(cfg, stderr, nil) // under systemd or the Windows SCM
	}
	log := logging.New(cfg.logOptions(), stderr)
	slog.SetDefault(log)
	return serve(ctx, cfg, log, nil)
}

// serve runs the appliance until ctx is done: the one start/stop path of
// the foreground and the OS service. ready, when not nil, receives the
// listening address once requests are accepted.
func serve(ctx context.Context, cfg Config, log *slog.Logger, ready chan<- string) error {
	st, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()
	rep, err := startReplica(ctx, st, cfg, log)
	if err != nil {
		return err
	}
	defer closeReplica(rep, log) // after the workers stopped (deferred later), before the store closes
	key, err := loadJWTKey(cfg.DataDir)
	if err != nil {
		return err
	}
	// The domain workers first: the server is handed the TSE queue and
	// the notification dispatcher as interfaces.
	tq, provider, closeTSE, err := openTSE(ctx, st, cfg, log)
	if err != nil {
		return err
	}
	arc, err := openArchive(st, provider, tq.RestaurantID(), cfg, log)
	var notifier *notify.Dispatcher
	var cert *boxtls.Cert
	if err == nil {
		notifier, err = newDispatcher(st, cfg, log)
	}
	if err == nil {
		cert, err = loadCert(cfg, log)
	}
	if err != nil {
		closeTSE() // nothing else holds the provider yet
		return err
	}
	scfg := server.Config{Version: version, Build: build, JWTKey: key, TokenTTL: cfg.TokenTTL, TSE: tq, Archive: serverArchive(arc), Notifier: notifier,
		Console: console.Files, DSFinVK: newDSFinVK(st), Replica: replicaView(cfg, rep), ProcDoc: newProcDoc(st, tq, arc != nil, cfg)}
	ctx, replacer := openReplacer(ctx, st, provider, arc, tq.RestaurantID(), cfg, &scfg, log)
	if cert != nil {
		scfg.RequireTLS, scfg.TLSFingerprint = true, cert.Fingerprint
	}
	srv := server.New(st, scfg, log)
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
	startAfterRestore(workCtx, &workers, st, provider, tq.RestaurantID(), cfg, log)
	if err := startTSE(workCtx, &workers, sched, tq, closeTSE, log); err != nil {
		return err
	}
	if err := startArchive(workCtx, &workers, sched, arc, cfg, log); err != nil {
		return err
	}
	startReplacer(workCtx, &workers, replacer, st, tq.RestaurantID(), provider.TSSID(), log)
	if err := startNotifications(workCtx, &workers, sched, st, notifier, cfg, log); err != nil {
		return err
	}
	if err := startHousekeeping(workCtx, sched, st, cfg, log); err != nil {
		return err
	}
	if _, err := startTimeClock(workCtx, sched, st, log); err != nil {
		return err
	}
	startBackups(workCtx, sched, st, cfg, log)
	if err := startFiscalJobs(workCtx, &workers, sched, st, tq, cfg, log); err != nil {
		return err
	}
	startReplicaStall(workCtx, &workers, st, rep, cfg, log)
	if err := startProcDoc(workCtx, &workers, sched, st, scfg.ProcDoc, log); err != nil {
		return err
	}
	sched.Start()

	ln, scheme, err := listen(cfg.Addr, cert)
	if err != nil {
		return err
	}
	err = server.Run(ctx, ln, server.NewHTTPServer(srv.Handler(), log), log, ready,
		"posbox serving", "addr", ln.Addr().String(), "url", scheme+"://"+ln.Addr().String()+"/", "data_dir", cfg.DataDir, "version", versionString())
	return stopped(ctx, err, log)
}

// openStore opens the database and, on a new one, makes the first
// admin; a changed password retires the first password's file.
func openStore(ctx context.Context, cfg Config, log *slog.Logger) (*store.Store, error) {
	var st *store.Store
	st, err := store.Open(ctx, cfg.DataDir, store.Options{Logger: log, ExternalCheckpoints: cfg.ReplicaURL != "",
		PasswordChanged: func(u *store.User) { forgetInitialPassword(context.WithoutCancel(ctx), st, cfg, u, log) }})
	if err != nil {
		return nil, err
	}
	if err := bootstrap(ctx, st, cfg, log); err != nil {
		if cerr := st.Close(); cerr != nil {
			log.Error("close database", "err", cerr)
		}
		return nil, err
	}
	return st, nil
}

// loadCert is the HTTPS certificate, the owner's or a generated one, or
// nil with tls = off. The log shows its fingerprint for pinning tills.
func loadCert(cfg Config, log *slog.Logger) (*boxtls.Cert, error) {
	if cfg.TLS != "auto" {
		return nil, nil
	}
	cert, err := boxtls.Load(cfg.DataDir, cfg.TLSCertFile, cfg.TLSKeyFile)
	if err != nil {
		return nil, err
	}
	log.Info("HTTPS certificate: a till can pin its fingerprint", "fingerprint_sha256", cert.Fingerprint,
		"generated", cert.Generated, "names", strings.Join(cert.Leaf.DNSNames, ","), "not_after", cert.Leaf.NotAfter.Format(time.DateOnly))
	return cert, nil
}

// listen opens the appliance's port before serving, so "address in use"
// fails the start. With a certificate the port takes HTTPS and, from the
// box itself, plain HTTP; scheme is the one its URL is logged with.
func listen(addr string, cert *boxtls.Cert) (ln net.Listener, scheme string, err error) {
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("listen: %w", err)
	}
	if cert == nil {
		return ln, "http", nil
	}
	return boxtls.NewSplitListener(ln, &tls.Config{Certificates: []tls.Certificate{cert.TLS}, MinVersion: tls.VersionTLS12}), "https", nil
}

// waitBounded waits for the workers to finish or hand back their item,
// at most d: a stop must end even if a worker is stuck in a call that
// ignores its context. What it held stays queued in the database.
func waitBounded(wg *sync.WaitGroup, d time.Duration, log *slog.Logger) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		log.Warn("background workers did not stop in time; closing anyway", "waited", d)
	}
}

// newScheduler is the cron of the appliance's own jobs, in UTC. Recover
// sits inside SkipIfStillRunning: the other order loses the skip token at
// the first panic and the job never runs again (robfig/cron #366).
func newScheduler(log *slog.Logger) *cron.Cron {
	l := cronLogger{log}
	return cron.New(cron.WithLocation(time.UTC), cron.WithChain(cron.SkipIfStillRunning(l), cron.Recover(l)))
}

// stopScheduler stops scheduling and waits, at most until ctx ends, for
// running jobs to return.
func stopScheduler(ctx context.Context, c *cron.Cron) {
	select {
	case <-c.Stop().Done():
	case <-ctx.Done():
	}
}

// cronLogger adapts slog to cron.Logger.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }
func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", fmt.Sprint(err))...)
}
