package console_test

// The console's end-to-end tests: a real appliance (SQLite file, the TSE
// simulator behind the real queue, the notification dispatcher, the HTTP
// server on loopback) driven by a real headless Chromium. Every request
// the pages make is checked against the route table and docs/API.md, and
// any script error or CSP violation fails the test.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"posbox/console"
	"posbox/fiscal/archive"
	"posbox/fiscal/dsfinvk"
	"posbox/fiscal/procdoc"
	"posbox/fiscal/queue"
	"posbox/internal/poll"
	"posbox/notify"
	"posbox/server"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
)

const adminPassword = "correct-horse-battery"

// testFingerprint stands for the HTTPS certificate's (the tests speak
// plain HTTP on loopback); the login page shows it.
const testFingerprint = "3A:91:0C:5E:77:12:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD"

// appliance is posbox as serve builds it, on loopback.
type appliance struct {
	st         *store.Store
	sim        *tsesim.Simulator
	archive    *archive.Archive
	srv        *server.Server
	url        string
	restaurant *store.Restaurant
	admin      *store.User
}

func newAppliance(tb testing.TB) *appliance {
	tb.Helper()
	return newApplianceWith(tb, nil)
}

// newApplianceWith is newAppliance signing with provider (nil: the
// built-in simulator, in process), e.g. the fiskaly client against a
// served simulator, which the console takes for a real TSE; and, when
// given, with replication whose state rep reports.
func newApplianceWith(tb testing.TB, provider tse.Provider, rep ...server.Replica) *appliance {
	tb.Helper()
	return newApplianceConfigured(tb, provider, nil, rep...)
}

// newApplianceConfigured is newApplianceWith whose server configuration
// mod completes (e.g. a TSE replacer) before the server starts.
func newApplianceConfigured(tb testing.TB, provider tse.Provider, mod func(*appliance, *server.Config), rep ...server.Replica) *appliance {
	tb.Helper()
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, tb.TempDir(), store.Options{Logger: log, BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
	if err != nil {
		tb.Fatal(err)
	}
	a := &appliance{st: st, restaurant: &store.Restaurant{Name: "Gasthaus Linde", Timezone: "Europe/Berlin"}}
	if err := st.CreateRestaurant(ctx, a.restaurant); err != nil {
		tb.Fatal(err)
	}
	a.admin = &store.User{RestaurantID: a.restaurant.ID, Email: "chef@linde.test", Name: "Clara Chef", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, a.admin, adminPassword); err != nil {
		tb.Fatal(err)
	}
	// Exports are ready at the first look, so an export of dates is
	// archived after the archive's first poll (5 s).
	a.sim, err = tsesim.Open(tsesim.Config{Dir: tb.TempDir(), ExportDelay: -1})
	if err != nil {
		tb.Fatal(err)
	}
	var p tse.Provider = a.sim
	var ex tse.Exporter = a.sim
	if provider != nil {
		p = provider
		ex, _ = provider.(tse.Exporter)
	}
	if ex != nil {
		a.archive, err = archive.New(p, ex, st, archive.Options{RestaurantID: a.restaurant.ID, Dir: tb.TempDir(), Logger: log})
		if err != nil {
			tb.Fatal(err)
		}
	}
	q, err := queue.New(ctx, p, st, queue.Options{RestaurantID: a.restaurant.ID, Budget: 3 * time.Second, Logger: log})
	if err != nil {
		tb.Fatal(err)
	}
	hook, err := notify.NewWebhookSender(notify.WebhookConfig{AllowedHosts: "loopback"})
	if err != nil {
		tb.Fatal(err)
	}
	email, _ := notify.NewEmailSender(notify.EmailConfig{})
	d := notify.New(st, notify.Options{Senders: map[string]notify.Sender{store.ChannelWebhook: hook, store.ChannelEmail: email}, Logger: log})
	workCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); q.Run(workCtx) }()
	go func() { defer wg.Done(); _ = d.Run(workCtx) }()
	var arc server.Archive // a nil *archive.Archive would be a non-nil interface
	if a.archive != nil {
		arc = a.archive
	}
	cfg := server.Config{Version: "test", JWTKey: []byte("0123456789abcdef0123456789abcdef"),
		TSE: q, Archive: arc, DSFinVK: &dsfinvk.Exporter{St: st, SoftwareVersion: "test"},
		Notifier: d, Console: console.Files, TLSFingerprint: testFingerprint,
		ProcDoc: &procdoc.Builder{St: st, TSE: q, Setup: procdoc.Setup{Version: "test"}}}
	if len(rep) > 0 {
		cfg.Replica = rep[0]
	}
	if mod != nil {
		mod(a, &cfg)
	}
	a.srv = server.New(st, cfg, log)
	ts := httptest.NewServer(a.srv.Handler())
	a.url = ts.URL
	tb.Cleanup(func() {
		ts.Close()
		stop()
		wg.Wait()
		if a.archive != nil {
			a.archive.Close()
		}
		a.srv.Close()
		a.sim.Close()
		st.Close()
	})
	return a
}

// token logs a user in through the API (for a till's actions in a test).
func (a *appliance) token(tb testing.TB, email, password string) string {
	tb.Helper()
	res, err := http.Post(a.url+"/api/auth/login", "application/json",
		strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)))
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`"access_token":"([^"]+)"`).FindSubmatch(b)
	if res.StatusCode != http.StatusOK || m == nil {
		tb.Fatalf("login %s: %d %s", email, res.StatusCode, b)
	}
	return string(m[1])
}

// call sends one API request as a till would and returns status and body.
func (a *appliance) call(tb testing.TB, method, path, token, body string) (int, string) {
	tb.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, a.url+path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// browser is one headless Chromium tab on the appliance.
type browser struct {
	tb       testing.TB
	ctx      context.Context
	a        *appliance
	download string // the folder downloads land in

	mu       sync.Mutex
	requests []string // "METHOD /api/path" of every API request the pages made
	problems []string // script errors and CSP violations
}

// chromium finds the browser; in CI (CI=true) a missing one fails.
func chromium(tb testing.TB) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatal("no Chromium on this machine: CI must install it (apt-get install chromium)")
	}
	tb.Skip("no Chromium on this machine (apt-get install chromium)")
	return ""
}

func newBrowser(tb testing.TB, a *appliance) *browser {
	tb.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(tb)), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 900), chromedp.Flag("lang", "de-DE"), chromedp.Flag("accept-lang", "de-DE,de"))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	b := &browser{tb: tb, ctx: ctx, a: a, download: tb.TempDir()}
	requests := chromedp.Events(ctx, network.RequestWillBeSent)
	messages := chromedp.Console(ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		tb.Fatal(err)
	}
	if _, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: b.download}); err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for ev, err := range requests {
			if err != nil {
				return
			}
			if u := ev.Request.URL; strings.HasPrefix(u, a.url+"/api/") {
				path, _, _ := strings.Cut(strings.TrimPrefix(u, a.url), "?")
				b.mu.Lock()
				b.requests = append(b.requests, ev.Request.Method+" "+path)
				b.mu.Unlock()
			}
		}
	}()
	go func() {
		defer wg.Done()
		for m, err := range messages {
			if err != nil {
				return
			}
			text := m.String()
			// A 4xx the page asked for on purpose is logged by the browser
			// as a failed resource; it is not a script error.
			if m.IsException() || (m.Type == "error" && !strings.Contains(text, "status of 4")) ||
				strings.Contains(text, "Content Security Policy") {
				b.mu.Lock()
				b.problems = append(b.problems, text)
				b.mu.Unlock()
			}
		}
	}()
	tb.Cleanup(func() {
		cancel()
		cancelAlloc()
		wg.Wait()
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, p := range b.problems {
			tb.Errorf("browser console: %s", p)
		}
		checkDocumented(tb, a.srv.Routes(), b.requests)
	})
	return b
}

// checkDocumented fails for any request that is not a route of the route
// table listed in docs/API.md: the console uses the public API only.
func checkDocumented(tb testing.TB, routes []server.Route, requests []string) {
	tb.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "API.md"))
	if err != nil {
		tb.Fatal(err)
	}
	seen := map[string]bool{}
	for _, req := range requests {
		if seen[req] {
			continue
		}
		seen[req] = true
		method, path, _ := strings.Cut(req, " ")
		i := slices.IndexFunc(routes, func(r server.Route) bool { return r.Method == method && matches(r.Path, path) })
		if i < 0 {
			tb.Errorf("the console called %s, which is no route of the API", req)
			continue
		}
		if !strings.Contains(string(doc), "`"+method+" "+routes[i].Path) {
			tb.Errorf("the console called %s (%s %s), which docs/API.md does not list", req, method, routes[i].Path)
		}
	}
}

// matches reports whether a path fits a route pattern (":id" is one segment).
func matches(pattern, path string) bool {
	p, s := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(p) != len(s) {
		return false
	}
	for i := range p {
		if p[i] != s[i] && !(strings.HasPrefix(p[i], ":") && s[i] != "") {
			return false
		}
	}
	return true
}

// do runs browser actions or fails the test.
func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.tb.Fatal(err)
	}
}

// eval runs JavaScript in the page and decodes its value (promises are awaited).
func eval[T any](b *browser, js string) T {
	b.tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.tb.Fatalf("%s: %v", js, err)
	}
	return v
}

// wait polls a JavaScript condition until it is true (10 s at most).
func (b *browser) wait(what, cond string) {
	b.tb.Helper()
	if !poll.Wait(10*time.Second, func() bool {
		return eval[bool](b, "(() => { try { return !!("+cond+"); } catch { return false; } })()")
	}) {
		b.tb.Fatalf("waiting for %s: %s is still false; page: %s", what, cond, b.text("main, #app"))
	}
}

// open loads a console path.
func (b *browser) open(path string) {
	b.tb.Helper()
	b.do(chromedp.Navigate(b.a.url + path))
}

// text is the visible text of the first element sel matches ("" if none).
func (b *browser) text(sel string) string {
	b.tb.Helper()
	return eval[string](b, fmt.Sprintf(`(document.querySelector(%q) || {}).innerText || ""`, sel))
}

// fill sets a form control's value as a person would (input and change
// events); sel is a CSS selector.
func (b *browser) fill(sel, value string) {
	b.tb.Helper()
	ok := eval[bool](b, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false;
		if (el.type === 'checkbox') el.checked = %q === 'true'; else el.value = %q;
		el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, sel, value, value))
	if !ok {
		b.tb.Fatalf("fill: no %s on the page", sel)
	}
}

// click clicks the first element sel matches.
func (b *browser) click(sel string) {
	b.tb.Helper()
	if !eval[bool](b, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false; el.click(); return true; })()`, sel)) {
		b.tb.Fatalf("click: no %s on the page; page: %s", sel, b.text("main, #app"))
	}
}

// clickText clicks the first element matching sel whose text contains text.
func (b *browser) clickText(sel, text string) {
	b.tb.Helper()
	js := fmt.Sprintf(`(() => { const el = [...document.querySelectorAll(%q)].find((e) => e.innerText.includes(%q)); if (!el) return false; el.click(); return true; })()`, sel, text)
	// A page still rendering after a navigation shows it a moment later;
	// one missing for good fails after wait's time.
	if !poll.Wait(10*time.Second, func() bool { return eval[bool](b, js) }) {
		b.tb.Fatalf("click: no %s with %q; page: %s", sel, text, b.text("main, #app"))
	}
}

// login signs in through the login form and waits for the dashboard.
func (b *browser) login(email, password string) {
	b.tb.Helper()
	b.wait("the login form", `document.querySelector('form.login-form input[name=email]')`)
	b.fill(`input[name=email]`, email)
	b.fill(`input[name=password]`, password)
	b.click(`form.login-form button[type=submit]`)
	b.wait("the console after login", `document.querySelector('nav#nav')`)
}

// screenshot writes the page at a phone's and a desktop's width as test
// artifacts (POSBOX_ARTIFACTS, default test-artifacts/console).
func (b *browser) screenshot(name string) {
	b.tb.Helper()
	dir := os.Getenv("POSBOX_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "test-artifacts", "console")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.tb.Fatal(err)
	}
	for _, w := range []int64{375, 1280} {
		b.do(chromedp.EmulateViewport(w, 800))
		time.Sleep(150 * time.Millisecond) // let the layout settle
		b.checkNoSideScroll(name, w)
		ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		cancel()
		if err != nil {
			b.tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, w)), png, 0o644); err != nil {
			b.tb.Fatal(err)
		}
	}
	b.do(chromedp.EmulateViewport(1280, 900))
}

// checkNoSideScroll fails the test when the page is wider than the
// window: nothing may make an owner scroll sideways, at a phone's width
// or a desktop's. Every screenshot checks it, so every state a test
// reaches is checked. The message names the elements that stick out.
func (b *browser) checkNoSideScroll(name string, width int64) {
	b.tb.Helper()
	if eval[bool](b, `document.documentElement.scrollWidth <= window.innerWidth`) {
		return
	}
	b.tb.Errorf("%s at %d px: the page is %d px wide; sticking out: %v", name, width, eval[int](b, `document.documentElement.scrollWidth`),
		eval[[]string](b, `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
			.slice(-8).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().replace(/\s+/g, '.') : '') +
			' ' + Math.round(e.getBoundingClientRect().right) + ' px')`))
}
