package main

import (
	"context"
	_ "embed" // the systemd unit service install writes
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"posbox/internal/logging"
	"posbox/internal/osservice"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kardianos/service"
)

const (
	serviceName        = "posbox"
	serviceDisplayName = "posbox POS back office"
	serviceDescription = "Back office of the restaurant POS: time clock, discounts, TSE signing, notifications."

	// stopTimeout bounds a service stop: serve's own bounds (HTTP drain
	// 10 s, cron 5 s, workers 10 s) plus a little; systemd's
	// TimeoutStopSec is 35 s.
	stopTimeout = 28 * time.Second
)

// serviceDataDir is data_dir's default for the installed service: the
// OS's folder for a service's state, never the working directory (a
// Windows service starts in System32).
func serviceDataDir() string {
	if runtime.GOOS == "windows" {
		return filepath.Join(programData(), "posbox")
	}
	return "/var/lib/posbox"
}

// serviceConfigFile is where "service install" keeps the config file
// unless --config names another.
func serviceConfigFile() string {
	if runtime.GOOS == "windows" {
		return filepath.Join(programData(), "posbox", "posbox.conf")
	}
	return "/etc/posbox/posbox.conf"
}

func programData() string {
	if v := os.Getenv("ProgramData"); v != "" {
		return v
	}
	return `C:\ProgramData`
}

// serviceConfig is what the service manager is told: the absolute path of
// this executable and the arguments the installed service starts with.
func serviceConfig(cfg Config) (*service.Config, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return nil, err
	}
	args := []string{"serve", "--data-dir", cfg.DataDir}
	if cfg.File != "" {
		args = append(args, "--config", cfg.File)
	}
	return &service.Config{
		Name:        serviceName,
		DisplayName: serviceDisplayName,
		Description: serviceDescription,
		Executable:  exe,
		Arguments:   args,
		Option: service.KeyValue{
			// systemd: our own hardened unit (kardianos' default restarts
			// only after 120 s); Restart fills its {{Restart}}.
			"SystemdScript": systemdUnit(cfg),
			"Restart":       "on-failure",
			// Windows: start automatically. Not "DelayedAutoStart" nor
			// "OnFailure": when kardianos (through x/sys/windows/svc/mgr)
			// cannot set those it deletes the service it just created or
			// fails with the service half made. afterInstall sets both
			// (delayed start, restart 5 s after any failure, the count
			// reset after a quiet day), and a failure there is a warning.
			"StartType": "automatic",
		},
	}, nil
}

// installUnit is the unit "posbox service install" writes on Linux.
//
//go:embed packaging/linux/posbox-install.service.tmpl
var installUnit string

// systemdUnit is installUnit for cfg's directories; the placeholders left
// are kardianos' template keys.
func systemdUnit(cfg Config) string {
	rw := []string{cfg.DataDir}
	if !strings.HasPrefix(cfg.BackupDir, cfg.DataDir+string(filepath.Separator)) {
		rw = append(rw, cfg.BackupDir)
	}
	for i, p := range rw {
		rw[i] = `-"` + p + `"` // "-": a missing folder does not fail the start
	}
	return strings.Replace(installUnit, "@READ_WRITE_PATHS@", strings.Join(rw, " "), 1)
}

const serviceUsage = `usage: posbox service install|uninstall|start|stop|restart|status [--config FILE] [--data-dir DIR]

install registers the service (systemd or the Windows Service Control
Manager) to start on boot and restart on failure, running
"posbox serve --data-dir DIR --config FILE" with absolute paths. Without
--config it uses %s, writing a commented example there if none exists;
--data-dir defaults to %s.
`

func cmdService(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || !slices.Contains([]string{"install", "uninstall", "start", "stop", "restart", "status"}, args[0]) {
		fmt.Fprintf(stderr, serviceUsage, serviceConfigFile(), serviceDataDir())
		return errUsage
	}
	action, rest := args[0], args[1:]
	fs := flag.NewFlagSet("service "+action, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if action == "install" && !hasConfigFlag(rest) {
		if err := ensureConfigFile(serviceConfigFile()); err != nil {
			msg, _ := osservice.InstallVerdict(fmt.Errorf("writing the example config: %w", err), osservice.Elevated())
			return errors.New(msg)
		}
		rest = append([]string{"--config", serviceConfigFile()}, rest...)
	}
	cfg, err := loadConfigFrom(serviceDefaults(), fs, rest)
	if err != nil {
		return usageErr(err)
	}
	sc, err := serviceConfig(cfg)
	if err != nil {
		return err
	}
	svc, err := service.New(&program{cfg: cfg}, sc)
	if err != nil {
		return err
	}
	if p := service.Platform(); runtime.GOOS == "linux" && p != "linux-systemd" {
		// kardianos would write a SysV script that nothing runs here.
		return fmt.Errorf("this system has no systemd (service manager %q): start \"posbox serve\" from its init system or container instead", p)
	}
	switch action {
	case "status":
		st, err := svc.Status()
		switch {
		case errors.Is(err, service.ErrNotInstalled):
			fmt.Fprintln(stdout, "not installed")
			return nil
		case err != nil:
			return fmt.Errorf("status: %w", err)
		case st == service.StatusRunning:
			fmt.Fprintln(stdout, "running")
		case st == service.StatusStopped:
			fmt.Fprintln(stdout, "stopped")
		default:
			fmt.Fprintln(stdout, "unknown")
		}
		return nil
	case "install":
		for _, d := range []string{cfg.DataDir, cfg.BackupDir} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				msg, _ := osservice.InstallVerdict(err, osservice.Elevated())
				return errors.New(msg)
			}
		}
		if err := svc.Install(); err != nil {
			msg, _ := osservice.InstallVerdict(err, osservice.Elevated())
			return errors.New(msg)
		}
		for _, err := range osservice.AfterInstall(serviceName, privateDirs(cfg)...) {
			msg, failed := osservice.InstallVerdict(err, osservice.Elevated())
			if failed {
				return errors.New(msg)
			}
			fmt.Fprintln(stderr, "posbox: warning:", msg)
		}
		fmt.Fprintf(stdout, "installed service %s (%s): %s %s\nstart it with: posbox service start\n",
			serviceName, service.Platform(), sc.Executable, strings.Join(sc.Arguments, " "))
		return nil
	}
	if err := controlService(svc, action); err != nil {
		return errors.New(action + ": " + err.Error() + osservice.Advice(err, osservice.Elevated()))
	}
	fmt.Fprintf(stdout, "%s: done\n", action)
	return nil
}

// controlService runs one action. Not service.Control: it formats the
// error with %v, which hides an "access denied" from errors.Is.
func controlService(svc service.Service, action string) error {
	switch action {
	case "start":
		return svc.Start()
	case "stop":
		return svc.Stop()
	case "restart":
		return svc.Restart()
	case "uninstall":
		return svc.Uninstall()
	}
	return fmt.Errorf("unknown action %q", action)
}

// privateDirs are the folders whose permissions the Windows service may
// replace: only its own default folder, never one an admin named (that
// could be a drive or a home folder).
func privateDirs(cfg Config) []string {
	if cfg.DataDir == serviceDataDir() {
		return []string{cfg.DataDir}
	}
	return nil
}

func serviceDefaults() Config {
	c := DefaultConfig()
	c.DataDir = serviceDataDir()
	return c
}

func hasConfigFlag(args []string) bool {
	if os.Getenv("POSBOX_CONFIG") != "" {
		return true
	}
	for _, a := range args {
		if a == "--config" || a == "-config" || strings.HasPrefix(a, "--config=") || strings.HasPrefix(a, "-config=") {
			return true
		}
	}
	return false
}

// ensureConfigFile writes the commented example config to path unless a
// file is there already.
func ensureConfigFile(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// 0600: the file takes SMTP and SMS secrets.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, exampleConfig()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runService runs serve under the service manager (systemd, the Windows
// SCM) through kardianos/service, which calls program.Start and .Stop.
// wait, when not nil, replaces the wait for SIGTERM/SIGINT (tests).
func runService(cfg Config, stderr io.Writer, wait func()) error {
	prg := &program{cfg: cfg, exit: os.Exit}
	sc := &service.Config{Name: serviceName, Option: service.KeyValue{}}
	if wait != nil {
		sc.Option["RunWait"] = wait
	}
	svc, err := service.New(prg, sc)
	if err != nil {
		return err
	}
	prepErr := osservice.Prepare(serviceName, privateDirs(cfg)...)
	if service.Platform() == "windows-service" {
		// A Windows service has no stderr: warnings go to the Event Log.
		if prg.sys, err = svc.Logger(nil); err != nil {
			prg.sys = nil
		}
	}
	log, file, err := logging.Service(cfg.logOptions(), cfg.DataDir, stderr, prg.sys)
	if err != nil {
		return err
	}
	defer file.Close()
	if prepErr != nil {
		log.Warn("could not set the service's recovery actions, Event Log source or folder permissions", "err", prepErr)
	}
	prg.log = log
	slog.SetDefault(log)
	return svc.Run()
}

// program adapts serve to kardianos/service: Start returns once requests
// are accepted, Stop cancels serve's context and waits, bounded, for its
// graceful shutdown. It is the same function the foreground runs.
type program struct {
	cfg  Config
	log  *slog.Logger
	sys  service.Logger // Windows Event Log; nil elsewhere
	exit func(code int)

	addr     string // listening address once started
	cancel   context.CancelFunc
	finished chan struct{} // closed when serve has returned; then err is set
	err      error
	stopping atomic.Bool
}

func (p *program) Start(service.Service) error {
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	p.finished = make(chan struct{})
	ready := make(chan string, 1)
	go func() {
		defer close(p.finished)
		p.err = serve(ctx, p.cfg, p.log, ready)
	}()
	select {
	case addr := <-ready:
		p.addr = addr
		p.info(fmt.Sprintf("posbox %s started on %s, data in %s", versionString(), addr, p.cfg.DataDir))
	case <-p.finished:
		cancel()
		if p.err == nil {
			p.err = errors.New("posbox stopped while starting")
		}
		return p.err
	}
	go p.watch()
	return nil
}

// watch ends the process with status 1 when serve fails on its own (say,
// the listener died), so that systemd's Restart=on-failure and the
// Windows recovery actions start it again.
func (p *program) watch() {
	<-p.finished
	if p.stopping.Load() {
		return
	}
	p.log.Error("posbox stopped unexpectedly; exiting for the service manager to restart it", "err", p.err)
	p.exit(1)
}

func (p *program) Stop(service.Service) error {
	p.stopping.Store(true)
	p.cancel()
	select {
	case <-p.finished:
		if p.err == nil {
			p.info("posbox stopped")
		}
		return p.err
	case <-time.After(stopTimeout):
		return fmt.Errorf("posbox did not stop within %s", stopTimeout)
	}
}

// info notes start and stop in the Event Log, where the log file's
// lines do not go.
func (p *program) info(msg string) {
	if p.sys != nil {
		_ = p.sys.Info(msg)
	}
}
