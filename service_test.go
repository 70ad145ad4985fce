package main

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/internal/logging"
	"posbox/internal/poll"
	"posbox/store"
)

func quietTestConfig(tb testing.TB, addr string) Config {
	tb.Helper()
	cfg := DefaultConfig()
	cfg.Addr = addr
	cfg.DataDir = tb.TempDir()
	if err := cfg.finish(); err != nil {
		tb.Fatal(err)
	}
	seedDataDir(tb, cfg.DataDir)
	return cfg
}

// seedDataDir gives a data dir its restaurant and admin with a cheap
// password hash, so serve's first-start bootstrap (bcrypt cost 12, slow
// under -race) has nothing to do.
func seedDataDir(tb testing.TB, dir string) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dir, store.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Seed", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		tb.Fatal(err)
	}
	u := &store.User{RestaurantID: r.ID, Email: "admin@seed.test", Name: "Admin", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, u, "password1"); err != nil {
		tb.Fatal(err)
	}
}

// TestServiceProgramStartStop drives the kardianos program the way the
// service manager does: Start returns once requests are answered, Stop
// shuts down gracefully and returns nil (exit status 0), and the process
// is not ended for a requested stop.
func TestServiceProgramStartStop(t *testing.T) {
	exited := make(chan int, 1)
	p := &program{cfg: quietTestConfig(t, "127.0.0.1:0"), log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		exit: func(code int) { exited <- code }}
	if err := p.Start(nil); err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + p.addr + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("health: %d", res.StatusCode)
	}
	if err := p.Stop(nil); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if _, err := http.Get("http://" + p.addr + "/api/health"); err == nil {
		t.Fatal("still answering after Stop")
	}
	select {
	case code := <-exited:
		t.Fatalf("a requested stop ended the process with %d", code)
	default:
	}
}

// TestServiceProgramStartFailsOnBusyPort: "address in use" fails the
// start itself, so the service manager reports it.
func TestServiceProgramStartFailsOnBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p := &program{cfg: quietTestConfig(t, ln.Addr().String()), log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		exit: func(int) { t.Error("exit called") }}
	err = p.Start(nil)
	if err == nil || !strings.Contains(err.Error(), "listen") {
		t.Fatalf("Start on a busy port: %v", err)
	}
}

// TestServiceArguments: the installed service gets absolute paths for
// the executable, the data dir and the config file, whatever the working
// directory was at install time.
func TestServiceArguments(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg := DefaultConfig()
	cfg.DataDir = "rel/data"
	cfg.File = "rel/posbox.conf"
	if err := cfg.finish(); err != nil {
		t.Fatal(err)
	}
	sc, err := serviceConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(sc.Executable) {
		t.Errorf("executable %q is relative", sc.Executable)
	}
	want := []string{"serve", "--data-dir", cfg.DataDir, "--config", cfg.File}
	if strings.Join(sc.Arguments, " ") != strings.Join(want, " ") || !filepath.IsAbs(cfg.DataDir) || !filepath.IsAbs(cfg.File) {
		t.Errorf("arguments %q, want %q with absolute paths", sc.Arguments, want)
	}
	if sc.Option["Restart"] != "on-failure" {
		t.Errorf("restart on failure not set: %v", sc.Option)
	}
	// On Windows kardianos must not set these: when it cannot, it deletes
	// the service it has just created (DelayedAutoStart) or leaves it
	// half made (OnFailure). afterInstall sets them, as warnings.
	for _, k := range []string{"DelayedAutoStart", "OnFailure"} {
		if _, ok := sc.Option[k]; ok {
			t.Errorf("option %s given to kardianos", k)
		}
	}
}

// TestServiceDefaultsToServiceDataDir: "service install" without
// --data-dir puts the data in the OS's service folder, not ./data.
func TestServiceDefaultsToServiceDataDir(t *testing.T) {
	t.Setenv("POSBOX_DATA_DIR", "")
	os.Unsetenv("POSBOX_DATA_DIR")
	cfg, err := loadConfigFrom(serviceDefaults(), flag.NewFlagSet("service", flag.ContinueOnError), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DataDir != serviceDataDir() {
		t.Errorf("data dir %q, want %q", cfg.DataDir, serviceDataDir())
	}
}

// TestSystemdUnitVerifies renders the unit "service install" writes (as
// kardianos' template engine fills it) and, where systemd-analyze is
// installed, has systemd check it.
func TestSystemdUnitVerifies(t *testing.T) {
	cfg := quietTestConfig(t, ":8080")
	unit := systemdUnit(cfg)
	for _, want := range []string{"Restart={{Restart}}", "RestartSec=5", "ProtectSystem=strict", "NoNewPrivileges=yes",
		"PrivateTmp=yes", "RestrictAddressFamilies=", `ReadWritePaths=-"` + cfg.DataDir + `"`} {
		if !strings.Contains(unit, want) {
			t.Errorf("unit lacks %q", want)
		}
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed")
	}
	exe, _ := os.Executable()
	r := strings.NewReplacer("{{Description}}", serviceDescription, "{{Path | cmdEscape}}", exe,
		"{{range Arguments}} {{. | cmd}}{{end}}", " serve --data-dir "+cfg.DataDir, "{{Restart}}", "on-failure")
	path := filepath.Join(t.TempDir(), "posbox.service")
	if err := os.WriteFile(path, []byte(r.Replace(unit)), 0o644); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.Replace(unit), "{{") {
		t.Fatalf("unrendered template key in\n%s", r.Replace(unit))
	}
	// verify exits 0 on unknown keys and bad values; it names the file
	// and line in its warnings.
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || strings.Contains(string(out), path+":") {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestRunServiceLogsToFile runs the service entry point as systemd would
// (kardianos' Run, with the wait for SIGTERM replaced): it serves, stops
// cleanly with a nil error (exit status 0), and leaves its log in
// DATA_DIR/logs/posbox.log as well as on stderr (the journal).
func TestRunServiceLogsToFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the Windows service runs under the SCM")
	}
	defer slog.SetDefault(slog.Default()) // runService sets it
	cfg := quietTestConfig(t, "127.0.0.1:0")
	stop := make(chan struct{})
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() { done <- runService(cfg, &stderr, func() { <-stop }) }()

	logFile := filepath.Join(cfg.DataDir, "logs", logging.FileName)
	addr := ""
	poll.Until(t, 20*time.Second, "the service to log where it listens", func() bool {
		select {
		case err := <-done:
			t.Fatalf("runService returned early: %v\n%s", err, stderr.String())
		default:
		}
		b, _ := os.ReadFile(logFile)
		if m := servingAddr.FindSubmatch(b); m != nil {
			addr = string(m[1])
		}
		return addr != ""
	})
	res, err := http.Get("http://" + addr + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	close(stop)
	if err := <-done; err != nil {
		t.Fatalf("runService: %v", err)
	}
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`msg="posbox serving"`, `path=/api/health status=200`, `msg="posbox stopped"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("log file lacks %s:\n%s", want, b)
		}
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %s", want)
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }
