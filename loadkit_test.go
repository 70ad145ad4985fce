//go:build loadbench || torture

package main

// The kit `make bench` and `make torture` share: the real binary, a real
// `posbox serve` (optionally under strace, every fsync delayed), staff
// seeded into its database, tokens from `posbox token`, and one HTTP
// client with a connection per terminal.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/internal/poll"
	"posbox/store"
)

// buildRelease builds the binary as `make build` does (stripped,
// -trimpath), so its size is the shipped one.
// BENCH_BIN, when set, is a binary built elsewhere (e.g. from an older
// commit, so before and after are measured in the same hour).
func buildRelease(tb testing.TB) string {
	tb.Helper()
	if bin := os.Getenv("BENCH_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(tb.TempDir(), "posbox")
	goCmd := "go"
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		if p := filepath.Join(strings.TrimSpace(string(out)), "bin", "go"); fileExists(p) {
			goCmd = p
		}
	}
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags", "-s -w -X main.version=bench", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freeAddr is a loopback address nobody listens on (a port the kernel
// handed out and we released).
func freeAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// fsyncDelay is FSYNC_DELAY (e.g. 10ms): when set, posbox runs under
// strace with every fsync and fdatasync delayed by it on return; "0"
// runs it under strace without delay (to measure strace's own cost).
func fsyncDelay() (time.Duration, bool) {
	v := os.Getenv("FSYNC_DELAY")
	if v == "" {
		return 0, false
	}
	if v == "0" {
		return 0, true
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		panic(fmt.Sprintf("FSYNC_DELAY=%q: %v", v, err))
	}
	return d, true
}

// box is one running `posbox serve`.
type box struct {
	cmd     *exec.Cmd
	base    string
	addr    string
	dataDir string
	logFile *os.File
	traced  bool
	exited  chan struct{}
}

// startBox starts posbox serve on addr with dataDir and returns once
// /api/health answers 200, with the time that took.
func startBox(tb testing.TB, bin, dataDir, addr string, traced bool, env ...string) (*box, time.Duration) {
	tb.Helper()
	args := []string{"serve", "--addr", addr, "--data-dir", dataDir}
	name := bin
	if d, on := fsyncDelay(); on && traced {
		// -f follows every thread; --seccomp-bpf stops posbox only at the
		// traced calls, so the other system calls run at full speed.
		// FSYNC_DELAY=0: traced, never delayed (strace's own cost).
		trace := []string{"-f", "-y", "--seccomp-bpf", "-qq", "-A", "-o", dataDir + ".fsyncs", "-e", "trace=fsync,fdatasync"}
		if d > 0 {
			trace = append(trace, "-e", "inject=fsync,fdatasync:delay_exit="+strconv.FormatInt(d.Microseconds(), 10))
		}
		args = append(append(trace, bin), args...)
		name = "strace"
	}
	logFile, err := os.OpenFile(filepath.Join(dataDir, "..", filepath.Base(dataDir)+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	b := &box{base: "http://" + addr, addr: addr, dataDir: dataDir, logFile: logFile, traced: name == "strace", exited: make(chan struct{})}
	b.cmd = exec.Command(name, args...)
	b.cmd.Env = append(os.Environ(), env...)
	b.cmd.Stderr, b.cmd.Stdout = logFile, logFile
	began := time.Now()
	if err := b.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() { b.cmd.Wait(); close(b.exited) }()
	tb.Cleanup(func() { b.signal(syscall.SIGKILL); b.cmd.Process.Kill(); <-b.exited; logFile.Close() })
	c := &http.Client{Timeout: time.Second}
	for {
		res, err := c.Get(b.base + "/api/health")
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return b, time.Since(began)
			}
		}
		select {
		case <-b.exited:
			tb.Fatalf("posbox exited before it was healthy:\n%s", b.logTail())
		case <-time.After(time.Millisecond):
		}
		if time.Since(began) > 60*time.Second {
			tb.Fatalf("posbox not healthy after 60 s:\n%s", b.logTail())
		}
	}
}

func (b *box) logTail() string {
	raw, _ := os.ReadFile(b.logFile.Name())
	if len(raw) > 4000 {
		raw = raw[len(raw)-4000:]
	}
	return string(raw)
}

// signal sends sig to posbox itself: strace, sent a SIGTERM, would
// detach and leave posbox running.
func (b *box) signal(sig syscall.Signal) {
	if pid := b.pid(); pid > 0 {
		syscall.Kill(pid, sig)
	}
}

// stop ends posbox with SIGTERM (graceful) and waits for it.
func (b *box) stop(tb testing.TB) {
	tb.Helper()
	b.signal(syscall.SIGTERM)
	select {
	case <-b.exited:
	case <-time.After(30 * time.Second):
		tb.Fatalf("posbox still running 30 s after SIGTERM:\n%s", b.logTail())
	}
}

// pid is posbox's process id (strace's child when traced).
func (b *box) pid() int {
	if !b.traced {
		return b.cmd.Process.Pid
	}
	raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", b.cmd.Process.Pid, b.cmd.Process.Pid))
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// seedStaff adds n staff members (password "password1", the lowest
// bcrypt cost: the benchmark measures requests, not password hashing)
// to the only restaurant, while posbox is stopped. It returns the emails.
func seedStaff(tb testing.TB, dataDir string, n int) []string {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dataDir, store.Options{Logger: slog.New(slog.DiscardHandler), BcryptCost: bcrypt.MinCost})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	rs, err := st.Restaurants(ctx)
	if err != nil || len(rs) != 1 {
		tb.Fatalf("restaurants: %d %v", len(rs), err)
	}
	emails := make([]string, n)
	for i := range n {
		emails[i] = fmt.Sprintf("staff%03d@bench.local", i)
		u := &store.User{RestaurantID: rs[0].ID, Email: emails[i], Name: fmt.Sprintf("Staff %03d", i), Role: store.RoleStaff}
		if err := st.CreateUser(ctx, u, "password1"); err != nil {
			tb.Fatal(err)
		}
	}
	return emails
}

// tokens mints an access token per email with `posbox token`.
func tokens(tb testing.TB, bin, dataDir string, emails ...string) []string {
	tb.Helper()
	out := make([]string, len(emails))
	for i, e := range emails {
		raw, err := exec.Command(bin, "token", "--data-dir", dataDir, "--email", e).Output()
		if err != nil {
			tb.Fatalf("posbox token %s: %v", e, err)
		}
		out[i] = strings.TrimSpace(string(raw))
	}
	return out
}

// client is the load generator's HTTP client: keep-alive connections,
// enough idle ones for every terminal.
var client = &http.Client{
	Timeout: 60 * time.Second,
	Transport: &http.Transport{
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 1024,
		IdleConnTimeout:     90 * time.Second,
	},
}

// call sends one request; body is sent as JSON when not nil.
func call(method, url, token string, body []byte, header ...string) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}

// mustCall is call for set-up steps: any other status fails the test.
func mustCall(tb testing.TB, want int, method, url, token string, body any) []byte {
	tb.Helper()
	var raw []byte
	if body != nil {
		var err error
		switch v := body.(type) {
		case string:
			raw = []byte(v)
		case []byte:
			raw = v
		default:
			raw, err = json.Marshal(body)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	code, out, err := call(method, url, token, raw)
	if err != nil || code != want {
		tb.Fatalf("%s %s: %d %v, want %d: %s", method, url, code, err, want, out)
	}
	return out
}

// want is nil when the answer has one of the ok statuses.
func want(code int, body []byte, err error, ok ...int) error {
	if err != nil {
		return err
	}
	for _, o := range ok {
		if code == o {
			return nil
		}
	}
	b := string(body)
	if len(b) > 200 {
		b = b[:200]
	}
	return fmt.Errorf("status %d: %s", code, b)
}

// saleBody is a valid sale of cents at terminal serial.
func saleBody(serial string, cents int) []byte {
	a := fmt.Sprintf("%d.%02d", cents/100, cents%100)
	return []byte(`{"client_serial":"` + serial + `","receipt_type":"RECEIPT",` +
		`"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":` + a + `}],` +
		`"amounts_per_payment_type":[{"payment_type":"CASH","amount":` + a + `}]}`)
}

// receiver is a local webhook endpoint counting deliveries by the
// event's data.i and rule (the path).
type receiver struct {
	mu   sync.Mutex
	seen map[string]int // "path i" → deliveries
	n    int
	srv  *http.Server
	url  string
}

func startReceiver(tb testing.TB) *receiver {
	tb.Helper()
	rc := &receiver{seen: map[string]int{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	rc.url = "http://" + ln.Addr().String()
	rc.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Data struct{ I int } `json:"data"`
		}
		raw, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(raw, &body); err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		rc.seen[r.URL.Path+" "+strconv.Itoa(body.Data.I)]++
		rc.n++
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	go rc.srv.Serve(ln)
	tb.Cleanup(func() { rc.srv.Close() })
	return rc
}

// got is how many deliveries of event i reached path.
func (rc *receiver) got(path string, i int) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.seen[path+" "+strconv.Itoa(i)]
}

func (rc *receiver) total() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.n
}

// tseSim is a `posbox tse-sim` process.
type tseSim struct {
	cmd    *exec.Cmd
	addr   string
	exited chan struct{}
}

// startTSESimProc runs `posbox tse-sim` on addr with its state in dir and
// waits until it accepts connections.
func startTSESimProc(tb testing.TB, bin, dir, addr string, latency time.Duration) *tseSim {
	tb.Helper()
	s := &tseSim{addr: addr, exited: make(chan struct{})}
	s.cmd = exec.Command(bin, "tse-sim", "--addr", addr, "--api-key", "key_bench", "--api-secret", "secret_bench",
		"--data-dir", dir, "--latency", latency.String())
	s.cmd.Env = append(os.Environ(), "POSBOX_LOG_LEVEL=warn")
	logFile, err := os.OpenFile(filepath.Join(dir, "tse-sim.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	s.cmd.Stderr = logFile
	if err := s.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() { s.cmd.Wait(); logFile.Close(); close(s.exited) }()
	tb.Cleanup(func() { s.cmd.Process.Kill(); <-s.exited })
	poll.Until(tb, 20*time.Second, "tse-sim to listen", func() bool {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return true
		}
		select {
		case <-s.exited:
			raw, _ := os.ReadFile(logFile.Name())
			tb.Fatalf("tse-sim exited:\n%s", raw)
		default:
		}
		return false
	})
	return s
}

// setupTSESim points the appliance in dataDir (stopped) at the tse-sim.
func setupTSESim(tb testing.TB, bin, dataDir, addr string) {
	tb.Helper()
	out, err := exec.Command(bin, "tse", "setup", "--url", "http://"+addr, "--api-key", "key_bench",
		"--api-secret", "secret_bench", "--data-dir", dataDir).CombinedOutput()
	if err != nil {
		tb.Fatalf("posbox tse setup: %v\n%s", err, out)
	}
}
