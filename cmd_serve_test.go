package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"posbox/store"
)

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildPosbox builds the real binary once per test run, version and build
// stamped in as "make build" does.
func buildPosbox(tb testing.TB) string {
	tb.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "posbox-bin-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "posbox")
		// The go that runs this test, found as `go env GOROOT` would.
		goCmd := "go"
		if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
			if p := filepath.Join(strings.TrimSpace(string(out)), "bin", "go"); fileExists(p) {
				goCmd = p
			}
		}
		cmd := exec.Command(goCmd, "build", "-o", built.bin, "-ldflags", "-X main.version=v9.8.7-test -X main.build=lifecycle", ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.bin
}

// appliance is a running posbox binary.
type appliance struct {
	cmd     *exec.Cmd
	base    string // http://127.0.0.1:PORT
	dataDir string
	logDone chan struct{} // closed when stderr ends: the process exited
	mu      sync.Mutex
	log     strings.Builder
}

func (a *appliance) logText() string { a.mu.Lock(); defer a.mu.Unlock(); return a.log.String() }

var servingAddr = regexp.MustCompile(`msg="posbox serving" addr=(\S+)`)

// startAppliance runs "posbox serve" on a free port with a fresh data dir
// and waits until it logs its address.
func startAppliance(tb testing.TB, bin string) *appliance {
	tb.Helper()
	return startApplianceIn(tb, bin, tb.TempDir())
}

// startApplianceIn runs "posbox serve" on a free port with dataDir, as a
// restart on the same box does.
func startApplianceIn(tb testing.TB, bin, dataDir string) *appliance {
	tb.Helper()
	a := &appliance{dataDir: dataDir, logDone: make(chan struct{})}
	a.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", a.dataDir)
	a.cmd.Env = append(os.Environ(), "POSBOX_LOG_LEVEL=info")
	stderr, err := a.cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := a.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.cmd.Process.Kill() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			a.mu.Lock()
			a.log.WriteString(sc.Text() + "\n")
			a.mu.Unlock()
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
		close(a.logDone)
	}()
	got, ok := <-addr
	if !ok {
		tb.Fatalf("posbox exited before serving:\n%s", a.logText())
	}
	a.base = "http://" + got
	return a
}

// waitExit waits at most bound for the process to end and returns its
// exit error. It reads stderr to the end first: exec closes the pipe in
// Wait, which could lose the last log lines.
func (a *appliance) waitExit(tb testing.TB, bound time.Duration) error {
	tb.Helper()
	select {
	case <-a.logDone:
	case <-time.After(bound):
		tb.Fatalf("posbox still running %s after the signal\n%s", bound, a.logText())
	}
	return a.cmd.Wait()
}

// call sends one request and reads the whole response; wrote is called
// once the request is on the wire.
func (a *appliance) call(method, path, token, body string, wrote func()) (int, []byte, error) {
	req, _ := http.NewRequest(method, a.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if wrote != nil {
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			WroteRequest: func(httptrace.WroteRequestInfo) { wrote() },
		}))
	}
	// A fresh connection per request: in-flight means accepted, not
	// waiting in a client pool.
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// token is "posbox token" for the first admin: a token without spending
// one of the login rate limit's attempts.
func (a *appliance) token(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command(a.cmd.Path, "token", "--data-dir", a.dataDir, "--email", "admin@posbox.local").Output()
	if err != nil {
		tb.Fatalf("posbox token: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// inFlight is one kind of request the shutdown test keeps busy while
// SIGTERM arrives. check runs after the appliance exited, on the reopened
// database, for each request that was answered with a success.
// Queue work (TSE sales, notification deliveries) that outlives its
// request is proved in lifecycle_queues_test.go.
type inFlight struct {
	name  string
	n     int // how many at once
	send  func(a *appliance, token string, i int, wrote func()) (int, []byte, error)
	check func(t *testing.T, st *store.Store, i int, body []byte)
}

func lifecycleLoad() []inFlight {
	return []inFlight{
		{
			name: "login", // bcrypt cost 12: the slowest request there is
			n:    5,       // the per-email login limit's burst
			send: func(a *appliance, _ string, _ int, wrote func()) (int, []byte, error) {
				pw, _ := os.ReadFile(filepath.Join(a.dataDir, adminPasswordFile))
				return a.call("POST", "/api/auth/login", "", fmt.Sprintf(`{"email":"admin@posbox.local","password":%q}`, strings.TrimSpace(string(pw))), wrote)
			},
			check: func(t *testing.T, _ *store.Store, _ int, body []byte) {
				if !strings.Contains(string(body), `"access_token"`) {
					t.Errorf("login answer %s", body)
				}
			},
		},
		{
			name: "create user", // a write the client saw acknowledged
			n:    8,
			send: func(a *appliance, token string, i int, wrote func()) (int, []byte, error) {
				return a.call("POST", "/api/users", token, fmt.Sprintf(`{"email":"staff%d@lifecycle.test","name":"Staff %d","role":"staff","password":"password%d"}`, i, i, i), wrote)
			},
			check: func(t *testing.T, st *store.Store, i int, _ []byte) {
				if _, err := st.UserByEmail(context.Background(), fmt.Sprintf("staff%d@lifecycle.test", i)); err != nil {
					t.Errorf("acknowledged user %d is gone after the restart: %v", i, err)
				}
			},
		},
	}
}

// TestGracefulShutdownUnderLoad builds the real binary, keeps slow
// requests in flight, sends SIGTERM, and checks what a user would notice:
// every request already sent gets its whole answer, the process exits 0
// within the bound, and the database reopens with every acknowledged
// write in it.
func TestGracefulShutdownUnderLoad(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGTERM is a Unix signal; the Windows service stops through program.Stop")
	}
	a := startAppliance(t, buildPosbox(t))

	code, body, err := a.call("GET", "/api/health", "", "", nil)
	if err != nil || code != http.StatusOK {
		t.Fatalf("health: %d %v", code, err)
	}
	var health map[string]string
	json.Unmarshal(body, &health)
	if health["status"] != "ok" || health["version"] != "v9.8.7-test" || health["build"] != "lifecycle" {
		t.Fatalf("health %s: want status ok, version v9.8.7-test, build lifecycle", body)
	}
	token := a.token(t)

	type result struct {
		kind, i int
		code    int
		body    []byte
		err     error
	}
	load := lifecycleLoad()
	total := 0
	for _, kind := range load {
		total += kind.n
	}
	results := make(chan result, total)
	var written, done sync.WaitGroup
	firstAnswer := make(chan struct{})
	var once sync.Once
	for k, kind := range load {
		for i := range kind.n {
			written.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				var wo sync.Once
				code, body, err := kind.send(a, token, i, func() { wo.Do(written.Done) })
				wo.Do(written.Done) // the request failed before it was written
				once.Do(func() { close(firstAnswer) })
				results <- result{k, i, code, body, err}
			}()
		}
	}
	// Every request is on the wire and the server is busy with them (one
	// has been answered) when the signal arrives.
	written.Wait()
	<-firstAnswer
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := a.waitExit(t, 30*time.Second); err != nil {
		t.Fatalf("posbox exited with %v after SIGTERM; want status 0\n%s", err, a.logText())
	}
	done.Wait()
	close(results)

	st, err := store.Open(context.Background(), a.dataDir, store.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("database does not reopen: %v", err)
	}
	defer st.Close()
	answered := 0
	for r := range results {
		kind := load[r.kind]
		if r.err != nil {
			t.Errorf("%s %d was cut off: %v", kind.name, r.i, r.err)
			continue
		}
		if r.code/100 != 2 || !json.Valid(r.body) {
			t.Errorf("%s %d: %d %s", kind.name, r.i, r.code, r.body)
			continue
		}
		answered++
		kind.check(t, st, r.i, r.body)
	}
	if answered != total {
		t.Errorf("%d of %d in-flight requests answered", answered, total)
	}
	if err := store.CheckIntegrity(context.Background(), st.Path()); err != nil {
		t.Error(err)
	}
	if !strings.Contains(a.logText(), `msg="posbox stopped"`) {
		t.Errorf("no clean stop in the log:\n%s", a.logText())
	}
	if _, _, err := a.call("GET", "/api/health", "", "", nil); err == nil || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("after exit: %v, want connection refused", err)
	}
}

// TestVersionCommand: the stamped version and build are what "posbox
// version" prints.
func TestVersionCommand(t *testing.T) {
	out, err := exec.Command(buildPosbox(t), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "posbox v9.8.7-test (lifecycle)" {
		t.Errorf("posbox version printed %q", got)
	}
}

// TestInterruptExitsZero: Ctrl-C in the foreground is the same clean
// stop as SIGTERM.
func TestInterruptExitsZero(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to another process on Windows")
	}
	a := startAppliance(t, buildPosbox(t))
	if err := a.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := a.waitExit(t, 30*time.Second); err != nil {
		t.Fatalf("exit after SIGINT: %v\n%s", err, a.logText())
	}
	if !strings.Contains(a.logText(), `msg="posbox stopped"`) {
		t.Errorf("no clean stop in the log:\n%s", a.logText())
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
