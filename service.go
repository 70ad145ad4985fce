package main

import (
	"context"
	_ "embed" // the systemd unit service install writes
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"posbox/internal/logging"
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
			msg, _ := installVerdict(fmt.Errorf("writing the example config: %w", err), elevated())
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
				msg, _ := installVerdict(err, elevated())
				return errors.New(msg)
			}
		}
		if err := svc.Install(); err != nil {
			msg, _ := installVerdict(err, elevated())
			return errors.New(msg)
		}
		for _, err := range afterInstall(serviceName, privateDirs(cfg)...) {
			msg, failed := installVerdict(err, elevated())
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
		return errors.New(action + ": " + err.Error() + advice(err, elevated()))
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

// An installStepError is a step of "posbox service install" that failed
// after the service manager had registered the service (on Windows: the
// delayed start, the recovery actions, the data folder's permissions).
type installStepError struct {
	step  string // what could not be set
	later string // what happens about it without the technician, if anything
	err   error
}

func (e *installStepError) Error() string { return e.step + ": " + e.err.Error() }
func (e *installStepError) Unwrap() error { return e.err }

// installVerdict decides what an error of "posbox service install"
// means: the message, and whether the install failed.
//
// An installStepError (a step after the registration) is a warning: the
// service is installed and starts, and stays; the message says what is
// missing and what happens about it. Before, a failed delayed start made
// Windows delete the service it had just created.
//
// Any other error is the registration's (or the folders' before it), and
// the install failed. Nothing is rolled back then either: registration
// made no service, or kardianos removed the one it had begun, or one was
// there already, from an earlier install, which must stay.
//
// Either way the message says what failed; it tells the technician to
// elevate only when access was denied (see advice).
func installVerdict(err error, elevated bool) (msg string, failed bool) {
	var step *installStepError
	if errors.As(err, &step) {
		msg = "the service is installed, but " + err.Error()
		if step.later != "" {
			msg += "; " + step.later
		}
		return msg + advice(err, elevated), false
	}
	msg = "install: " + err.Error()
	if strings.Contains(err.Error(), "already exists") {
		return msg + ` (it is installed already: "posbox service uninstall" first to install it anew)`, true
	}
	return msg + advice(err, elevated), true
}

// advice is what to add to a failed service action's message: to
// elevate when access was denied (on Windows ERROR_ACCESS_DENIED, on
// Linux EACCES or EPERM; errors.Is matches both with fs.ErrPermission).
// Another error from a process that is not elevated gets the fact
// mentioned, as a hint: kardianos drops systemctl's own message ("Access
// denied", "Interactive authentication required") and returns only its
// exit status. Otherwise nothing: the error says what failed.
func advice(err error, elevated bool) string {
	switch {
	case errors.Is(err, fs.ErrPermission) && runtime.GOOS == "windows":
		return ` (access denied: run it from a Command Prompt opened with "Run as administrator")`
	case errors.Is(err, fs.ErrPermission):
		return " (access denied: run it as root, with sudo)"
	case !elevated && runtime.GOOS != "windows":
		return " (this is not running as root: with sudo it may work)"
	}
	return ""
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
	prepErr := prepareService(serviceName, privateDirs(cfg)...)
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
