//go:build loadbench

package main

// `make bench`: the load benchmark of docs/PERFORMANCE.md. It builds the
// binary as `make build` does, runs a real `posbox serve` on loopback
// with a fresh data dir and measures, each scenario right after a run of
// B0 (a bare net/http JSON handler in its own process) with the same
// terminals and answer size, so every figure is a ratio from the same
// run on the same (shared) cores.
//
//	BENCH_TIME          each closed-loop run (default 5s)
//	BENCH_RUSH          the lunch rush (default 20s)
//	BENCH_SOAK          the soak after the rush, at its rate (default 60s)
//	BENCH_OUTAGE_SALES  sales queued during the outage (default 5000)
//	FSYNC_DELAY         run posbox under strace, every fsync delayed (10ms; 0: traced only)
//	BENCH_BIN           measure this posbox binary instead of building one

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
)

func envDur(tb testing.TB, key string, def time.Duration) time.Duration {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		tb.Fatalf("%s=%q: %v", key, v, err)
	}
	return d
}

func envInt(tb testing.TB, key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		tb.Fatalf("%s=%q: %v", key, v, err)
	}
	return n
}

// bench is the state of one benchmark run.
type bench struct {
	t      *testing.T
	rep    *report
	b0     string
	b0s    map[string]*stat
	dur    time.Duration
	box    *box
	admin  string
	staff  []string
	traced bool
}

// b0Run measures B0 with conc terminals, an answer of size bytes and the
// scenario's request body (cached per combination when cache is true).
func (b *bench) b0Run(conc, size int, method string, body []byte, cache bool) *stat {
	key := fmt.Sprintf("%d %d %s %d", conc, size, method, len(body))
	if s, ok := b.b0s[key]; ok && cache {
		return s
	}
	url := fmt.Sprintf("%s/b0/%d", b.b0, size)
	s := closedLoop("B0", conc, b.dur, func(w, i int) error {
		code, raw, err := call(method, url, "", body)
		return want(code, raw, err, 200)
	}, nil)
	b.b0s[key] = s
	return s
}

// scenario runs the scenario between two runs of B0 with its shape (the
// ratio is to their mean, so a neighbour's load drifting during the run
// shows in both) and adds the row; B0 with a 200-byte answer is measured
// once per shape.
func (b *bench) scenario(name string, conc, size int, method string, body []byte, fn op) *stat {
	return b.scenarioUntil(name, conc, size, method, body, fn, nil)
}

// scenarioUntil is scenario ending early when stop is set.
func (b *bench) scenarioUntil(name string, conc, size int, method string, body []byte, fn op, stop *atomic.Bool) *stat {
	b0t := b.b0Run(conc, 200, method, body, true)
	before := b.b0Run(conc, size, method, body, false)
	f0, d0 := b.box.fsyncs()
	s := closedLoop(name, conc, b.dur, fn, stop)
	f1, d1 := b.box.fsyncs()
	after := b.b0Run(conc, size, method, body, false)
	b0s := &stat{name: "B0", n: before.n + after.n, elapsed: before.elapsed + after.elapsed}
	b.rep.row(s, size, b0s, b0t, perReq(f0, f1, d0, d1, s.n))
	return s
}

// perReq is the fsyncs per request, all and the database's ("" when not
// counted).
func perReq(before, after, dbBefore, dbAfter, n int) string {
	if before < 0 || n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f (db %.2f)", float64(after-before)/float64(n), float64(dbAfter-dbBefore)/float64(n))
}

func TestLoadBench(t *testing.T) {
	skipUnlessOnly(t, "load")
	delay, traced := fsyncDelay()
	b := &bench{t: t, rep: newReport(), b0s: map[string]*stat{}, dur: envDur(t, "BENCH_TIME", 5*time.Second), traced: traced}
	rushDur := envDur(t, "BENCH_RUSH", 20*time.Second)
	soakDur := envDur(t, "BENCH_SOAK", 60*time.Second)
	outageN := envInt(t, "BENCH_OUTAGE_SALES", 5000)

	bin := buildRelease(t)
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	b.rep.note("binary %s (make build flags: -trimpath -s -w): %.1f MiB", os.Getenv("BENCH_BIN"), float64(fi.Size())/(1<<20))
	switch {
	case traced && delay > 0:
		b.rep.note("posbox runs under strace -f --seccomp-bpf; every fsync/fdatasync delayed by %s", delay)
	case traced:
		b.rep.note("posbox runs under strace -f --seccomp-bpf, fsync/fdatasync traced, not delayed (strace's own cost)")
	}
	b.b0 = startB0(t)
	tmp := t.TempDir()
	dataDir := filepath.Join(tmp, "data")
	if err := os.Mkdir(dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)

	// First start on an empty data dir: migrations, the admin (bcrypt),
	// the JWT key and the HTTPS certificate.
	bx, first := startBox(t, bin, dataDir, addr, traced)
	b.rep.note("first start (empty data dir) to /api/health 200: %s ms", ms(first))
	bx.stop(t)
	emails := seedStaff(t, dataDir, 64)
	toks := tokens(t, bin, dataDir, append([]string{"admin@posbox.local"}, emails...)...)
	b.admin, b.staff = toks[0], toks[1:]
	var restarts []time.Duration
	for i := range 3 {
		bx, d := startBox(t, bin, dataDir, addr, traced)
		restarts = append(restarts, d)
		b.box = bx
		if i < 2 {
			bx.stop(t)
		}
	}
	sort.Slice(restarts, func(i, j int) bool { return restarts[i] < restarts[j] })
	b.rep.note("restart to /api/health 200 (3 restarts): median %s ms, max %s ms", ms(restarts[1]), ms(restarts[2]))
	time.Sleep(3 * time.Second)
	cur, _ := b.box.rss()
	b.rep.note("idle RSS after the restart: %.1f MiB", float64(cur)/1024)

	b.reads()
	b.clockPairs()
	b.redemptions()
	b.sales()
	b.fanOut()
	b.rush(rushDur, soakDur)
	b.outage(bin, tmp, dataDir, addr, outageN)

	host, _ := os.Hostname()
	b.rep.print(fmt.Sprintf("posbox load benchmark: %s, %d CPUs (GOMAXPROCS %d), %s, BENCH_TIME=%s, FSYNC_DELAY=%q",
		host, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), b.dur, os.Getenv("FSYNC_DELAY")))
}

// reads: a staff member's status, and a week of 200 scheduled shifts.
func (b *bench) reads() {
	t, base := b.t, b.box.base
	_, raw, _ := call("GET", base+"/api/shifts/my-status", b.staff[0], nil)
	b.scenario("my-status (staff read)", 32, len(raw), "GET", nil, func(w, i int) error {
		code, raw, err := call("GET", base+"/api/shifts/my-status", b.staff[w%len(b.staff)], nil)
		return want(code, raw, err, 200)
	})

	// 200 shifts in one week: staff i%64 on day i/64, so none overlaps.
	var users struct {
		Users []struct {
			ID   string `json:"id"`
			Role string `json:"role"`
		} `json:"users"`
	}
	if err := json.Unmarshal(mustCall(t, 200, "GET", base+"/api/users", b.admin, nil), &users); err != nil {
		t.Fatal(err)
	}
	var staffIDs []string
	for _, u := range users.Users {
		if u.Role == "staff" {
			staffIDs = append(staffIDs, u.ID)
		}
	}
	for i := range 200 {
		mustCall(t, 201, "POST", base+"/api/shifts", b.admin, map[string]any{
			"user_id": staffIDs[i%len(staffIDs)], "shift_date": fmt.Sprintf("2026-12-%02d", 7+i/len(staffIDs)),
			"start_time": "10:00", "end_time": "18:30", "break_minutes": 30, "role": "service",
			"notes": "Lunch and dinner, section " + strconv.Itoa(i%9)})
	}
	week := base + "/api/shifts?date_from=2026-12-07&date_to=2026-12-13"
	raw = mustCall(t, 200, "GET", week, b.admin, nil)
	b.scenario("week of 200 shifts (admin read)", 32, len(raw), "GET", nil, func(w, i int) error {
		code, raw, err := call("GET", week, b.admin, nil)
		return want(code, raw, err, 200)
	})
	b.pocketBase(week, raw, 32)
}

// clockPairs: 64 staff clock in and out as fast as they are answered;
// afterwards every acknowledged clock-in is one stored entry.
func (b *bench) clockPairs() {
	t, base := b.t, b.box.base
	var acked atomic.Int64
	in := make([]bool, 64)
	_, raw, _ := call("POST", base+"/api/shifts/clock-in", b.staff[0], nil)
	call("POST", base+"/api/shifts/clock-out", b.staff[0], nil)
	acked.Add(1)
	b.scenario("clock-in/out pairs (64 staff)", 64, len(raw), "POST", nil, func(w, i int) error {
		if !in[w] {
			code, raw, err := call("POST", base+"/api/shifts/clock-in", b.staff[w], nil)
			if code == 201 {
				in[w] = true
				acked.Add(1)
			}
			return want(code, raw, err, 201)
		}
		code, raw, err := call("POST", base+"/api/shifts/clock-out", b.staff[w], nil)
		if code == 200 {
			in[w] = false
		}
		return want(code, raw, err, 200)
	})
	for w, open := range in {
		if open {
			mustCall(t, 200, "POST", base+"/api/shifts/clock-out", b.staff[w], nil)
		}
	}
	var entries struct {
		TimeEntries []struct {
			ClockOut *string `json:"clock_out"`
		} `json:"time_entries"`
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	day := time.Now().In(berlin).Format(time.DateOnly)
	json.Unmarshal(mustCall(t, 200, "GET", base+"/api/time-entries?date="+day, b.admin, nil), &entries)
	if n := int64(len(entries.TimeEntries)); n != acked.Load() {
		b.rep.note("clock-in/out: FAILED: %d acknowledged clock-ins, %d stored entries (the local day may have turned)", acked.Load(), n)
	} else {
		b.rep.note("clock-in/out: every one of %d acknowledged clock-ins is one stored entry", n)
	}
}

type discount struct {
	ID         string `json:"id"`
	UsageCount int    `json:"usage_count"`
}

func (b *bench) newDiscount(name string, limit any) discount {
	var d struct{ Discount discount }
	raw := mustCall(b.t, 201, "POST", b.box.base+"/api/discounts", b.admin, map[string]any{
		"name": name, "discount_type": "percentage", "value": 10, "usage_limit": limit})
	json.Unmarshal(raw, &d)
	return d.Discount
}

func (b *bench) usageCount(id string) int {
	var list struct{ Discounts []discount }
	json.Unmarshal(mustCall(b.t, 200, "GET", b.box.base+"/api/discounts", b.admin, nil), &list)
	for _, d := range list.Discounts {
		if d.ID == id {
			return d.UsageCount
		}
	}
	b.t.Fatalf("discount %s not listed", id)
	return 0
}

// redemptions: 64 terminals redeem one discount; then exactly N of them
// win a discount limited to N.
func (b *bench) redemptions() {
	base := b.box.base
	open := b.newDiscount("Happy hour", nil)
	body := []byte(`{"order_total":33.33}`)
	url := base + "/api/discounts/" + open.ID + "/redeem"
	_, raw, _ := call("POST", url, b.staff[0], body)
	var acked atomic.Int64
	acked.Add(1)
	b.scenario("discount redemption (64 terminals)", 64, len(raw), "POST", body, func(w, i int) error {
		code, raw, err := call("POST", url, b.staff[w%len(b.staff)], body)
		if code == 200 {
			acked.Add(1)
		}
		return want(code, raw, err, 200)
	})
	if got := b.usageCount(open.ID); int64(got) != acked.Load() {
		b.rep.note("redemption: FAILED: %d acknowledged, usage_count %d", acked.Load(), got)
	}

	const limit = 1000
	capped := b.newDiscount("First thousand", limit)
	url = base + "/api/discounts/" + capped.ID + "/redeem"
	var won, refused atomic.Int64
	var stop atomic.Bool
	s := closedLoop("redemption, exactly-N", 64, time.Minute, func(w, i int) error {
		code, raw, err := call("POST", url, b.staff[w%len(b.staff)], body)
		switch {
		case code == 200:
			won.Add(1)
		case code == 409 && strings.Contains(string(raw), "usage_limit_reached"):
			if refused.Add(1) >= 64 {
				stop.Store(true)
			}
		default:
			return want(code, raw, err, 200)
		}
		return nil
	}, &stop)
	got := b.usageCount(capped.ID)
	verdict := "ok"
	if won.Load() != limit || got != limit {
		verdict = "FAILED"
	}
	b.rep.note("redemption exactly-N under 64 terminals: limit %d, %d answered 200, usage_count %d, %d refused, %d errors: %s",
		limit, won.Load(), got, refused.Load(), s.errs, verdict)
}

// serial is terminal w's client serial (50 terminals).
func serial(w int) string { return fmt.Sprintf("KASSE-%02d", w%50+1) }

// sales: signed sales through the embedded simulator, 16 terminals.
func (b *bench) sales() {
	t, base := b.t, b.box.base
	// Each terminal's first sale registers it at the TSS: not measured.
	var raw []byte
	for w := range 50 {
		raw = mustCall(t, 201, "POST", base+"/api/tse/transactions", b.admin, saleBody(serial(w), 950+w))
	}
	body := saleBody(serial(0), 1234)
	b.scenario("TSE sale, embedded simulator (16 terminals)", 16, len(raw), "POST", body, func(w, i int) error {
		code, raw, err := call("POST", base+"/api/tse/transactions", b.staff[w], saleBody(serial(w), 100+i%5000))
		return want(code, raw, err, 201)
	})
}

// fanOut: events (at most maxEvents) with three webhook rules each, to
// a local receiver.
func (b *bench) fanOut() {
	const maxEvents = 1000
	t, base := b.t, b.box.base
	rc := startReceiver(t)
	paths := []string{"/a", "/b", "/c"}
	for _, p := range paths {
		mustCall(t, 201, "POST", base+"/api/notifications/settings", b.admin, map[string]any{
			"channel": "webhook", "event_type": "pos.bench_fanout", "is_enabled": true, "destination": rc.url + p})
	}
	var mu sync.Mutex
	var ackedIDs []int
	var next atomic.Int64
	began := time.Now()
	body := []byte(`{"type":"pos.bench_fanout","data":{"i":0,"table":12,"items":3}}`)
	var stop atomic.Bool
	b.scenarioUntil("event with 3 webhook rules (16 terminals)", 16, 120, "POST", body, func(w, i int) error {
		n := int(next.Add(1))
		if n >= maxEvents {
			stop.Store(true)
		}
		code, raw, err := call("POST", base+"/api/events", b.staff[w], fmt.Appendf(nil, `{"type":"pos.bench_fanout","data":{"i":%d,"table":12,"items":3}}`, n))
		if code == 202 {
			mu.Lock()
			ackedIDs = append(ackedIDs, n)
			mu.Unlock()
		}
		return want(code, raw, err, 202)
	}, &stop)
	wantN := len(ackedIDs) * len(paths)
	poll.Wait(3*time.Minute, func() bool { return rc.total() >= wantN })
	took := time.Since(began)
	missing, dup := 0, 0
	for _, i := range ackedIDs {
		for _, p := range paths {
			switch g := rc.got(p, i); {
			case g == 0:
				missing++
			case g > 1:
				dup += g - 1
			}
		}
	}
	verdict := "ok"
	if missing > 0 {
		verdict = "FAILED"
	}
	b.rep.note("fan-out: %d events acknowledged, %d deliveries received in %.1f s from the first event (%.0f deliveries/s end to end); %d missing, %d duplicates: %s",
		len(ackedIDs), rc.total(), took.Seconds(), float64(rc.total())/took.Seconds(), missing, dup, verdict)
}

// rushOp is the lunch-rush mix for terminal w's j-th request: of 20,
// 11 status reads, 1 sale (25 a second from 50 terminals: more than a
// real lunch, which the issue's own figure of 150-195 sales/s at most
// allows), 3 events (orders to the kitchen), 2 redemptions, 2 clock-ins
// or -outs, 1 restaurant read.
func (b *bench) rushOp(discountURL string, sales, unsigned *atomic.Int64) op {
	base := b.box.base
	in := make([]bool, 50)
	redeem := []byte(`{"order_total":18.40}`)
	return func(w, j int) error {
		tok := b.staff[w]
		switch (j*7 + w) % 20 {
		case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10:
			code, raw, err := call("GET", base+"/api/shifts/my-status", tok, nil)
			return want(code, raw, err, 200)
		case 11:
			code, raw, err := call("POST", base+"/api/tse/transactions", tok, saleBody(serial(w), 500+j))
			sales.Add(1)
			if code == 202 {
				unsigned.Add(1)
			}
			return want(code, raw, err, 201, 202)
		case 12, 13, 14:
			code, raw, err := call("POST", base+"/api/events", tok, fmt.Appendf(nil, `{"type":"low_stock","data":{"table":%d}}`, w))
			return want(code, raw, err, 202)
		case 15, 16:
			code, raw, err := call("POST", discountURL, tok, redeem)
			return want(code, raw, err, 200)
		case 17, 18:
			if !in[w] {
				code, raw, err := call("POST", base+"/api/shifts/clock-in", tok, nil)
				if code == 201 {
					in[w] = true
				}
				return want(code, raw, err, 201)
			}
			code, raw, err := call("POST", base+"/api/shifts/clock-out", tok, nil)
			if code == 200 {
				in[w] = false
			}
			return want(code, raw, err, 200)
		default:
			code, raw, err := call("GET", base+"/api/restaurant", tok, nil)
			return want(code, raw, err, 200)
		}
	}
}

// rush: 50 terminals at 500 requests/s in all, then the soak at the same
// rate, then RSS.
func (b *bench) rush(rushDur, soakDur time.Duration) {
	d := b.newDiscount("Lunch menu", nil)
	url := b.box.base + "/api/discounts/" + d.ID + "/redeem"
	f0, d0 := b.box.fsyncs()
	var sales, unsigned atomic.Int64
	mix := b.rushOp(url, &sales, &unsigned)
	s := openLoop("lunch rush: 50 terminals, 500 req/s mix", 50, 500, rushDur, mix)
	f1, d1 := b.box.fsyncs()
	b.rep.row(s, 0, nil, nil, perReq(f0, f1, d0, d1, s.n))
	b.rep.note("lunch rush: %d sales, %d of them answered 202 (not signed within the budget)", sales.Load(), unsigned.Load())
	if soakDur > 0 {
		soak := openLoop(fmt.Sprintf("soak: rush mix for %s", soakDur), 50, 500, soakDur, mix)
		b.rep.row(soak, 0, nil, nil, "-")
		time.Sleep(3 * time.Second)
		cur, peak := b.box.rss()
		b.rep.note("RSS after the rush and a %s soak: %.1f MiB (peak %.1f MiB)", soakDur, float64(cur)/1024, float64(peak)/1024)
	}
}

// pending is the TSE queue's pending revisions.
func (b *bench) pending() int {
	var q struct{ Queue struct{ Pending int } }
	json.Unmarshal(mustCall(b.t, 200, "GET", b.box.base+"/api/tse/queue", b.admin, nil), &q)
	return q.Queue.Pending
}

// outage: the TSE is `posbox tse-sim` and unreachable while n sales are
// queued; then it comes back with 20 ms per answer and the queue drains.
// Every sale must be signed, numbers gap-free, each terminal's sales in
// the order it made them.
func (b *bench) outage(bin, tmp, dataDir, addr string, n int) {
	t := b.t
	if n <= 0 {
		return
	}
	// Sales the rush left queued (slow storage) are signed first: the
	// drain below must see only the outage's.
	began := time.Now()
	poll.Wait(3*time.Minute, func() bool { return b.pending() == 0 })
	if p := b.pending(); p > 0 {
		b.rep.note("outage: %d revisions of earlier sales still queued after 3 minutes", p)
	} else if time.Since(began) > time.Second {
		b.rep.note("outage: the sales queued before it took %.1f s to be signed", time.Since(began).Seconds())
	}
	b.box.stop(t)
	simDir := filepath.Join(tmp, "tse-sim")
	os.Mkdir(simDir, 0o700)
	simAddr := freeAddr(t)
	sim := startTSESimProc(t, bin, simDir, simAddr, 0)
	setupTSESim(t, bin, dataDir, simAddr)
	sim.stop()
	bx, _ := startBox(t, bin, dataDir, addr, b.traced)
	b.box = bx
	base := bx.base

	const terminals = 16
	ids := make([][]string, terminals) // per terminal, in the order sold
	var left atomic.Int64
	left.Store(int64(n))
	var stop atomic.Bool
	f0, d0 := bx.fsyncs()
	s := closedLoop(fmt.Sprintf("sale during TSE outage (queued; %d sales)", n), terminals, time.Hour, func(w, i int) error {
		if left.Add(-1) < 0 {
			stop.Store(true)
			return errSkip
		}
		code, raw, err := call("POST", base+"/api/tse/transactions", b.staff[w], saleBody(serial(w), 200+i))
		if code == 202 || code == 201 {
			var res struct{ Transaction struct{ ID string } }
			json.Unmarshal(raw, &res)
			ids[w] = append(ids[w], res.Transaction.ID)
		}
		return want(code, raw, err, 202)
	}, &stop)
	f1, d1 := bx.fsyncs()
	b.rep.row(s, 0, nil, nil, perReq(f0, f1, d0, d1, s.n))

	pending := b.pending
	p0 := pending()
	back := time.Now()
	startTSESimProc(t, bin, simDir, simAddr, 20*time.Millisecond)
	var firstDone time.Time
	deadline := back.Add(time.Duration(n)*80*time.Millisecond + 3*time.Minute)
	poll.Wait(time.Until(deadline), func() bool {
		p := pending()
		if firstDone.IsZero() && p < p0 {
			firstDone = time.Now()
		}
		return p == 0
	})
	done := time.Now()
	if firstDone.IsZero() {
		b.rep.note("outage drain: FAILED: nothing signed within %s", done.Sub(back))
		return
	}

	// The signed list: every queued sale once, numbers 1..n without a gap.
	var list []struct {
		ID     string `json:"id"`
		Number int    `json:"number"`
	}
	from := time.Now().Add(-48 * time.Hour).UTC().Format(time.RFC3339)
	to := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	json.Unmarshal(mustCall(t, 200, "GET", base+"/api/tse/transactions?from="+from+"&to="+to, b.admin, nil), &list)
	number := map[string]int{}
	for _, tx := range list {
		number[tx.ID] = tx.Number
	}
	var problems []string
	total, unsigned := 0, 0
	for w, seq := range ids {
		last := 0
		for _, id := range seq {
			total++
			nr, ok := number[id]
			switch {
			case !ok:
				unsigned++
				if unsigned <= 3 {
					problems = append(problems, "sale "+id+" not signed")
				}
			case nr <= last:
				problems = append(problems, fmt.Sprintf("terminal %d: sale number %d after %d", w, nr, last))
			}
			last = nr
		}
	}
	// The outage's TSS (the tse-sim's) signed nothing before: its numbers
	// are 1..total.
	nums := make([]int, 0, total)
	for _, seq := range ids {
		for _, id := range seq {
			if nr, ok := number[id]; ok {
				nums = append(nums, nr)
			}
		}
	}
	sort.Ints(nums)
	for i, nr := range nums {
		if nr != i+1 {
			problems = append(problems, fmt.Sprintf("numbers not gap-free: %d at position %d", nr, i+1))
			break
		}
	}
	if unsigned > 0 {
		problems = append(problems, fmt.Sprintf("%d of %d sales not signed when the wait ended", unsigned, total))
	}
	verdict := "ok: every sale signed once, numbers 1..n gap-free, each terminal's sales in its order"
	if len(problems) > 0 {
		if len(problems) > 5 {
			problems = problems[:5]
		}
		verdict = "FAILED: " + strings.Join(problems, "; ")
	}
	drain := done.Sub(firstDone)
	b.rep.note("outage drain through posbox tse-sim --latency 20ms: %d sales (%d revisions) in %.1f s = %.1f sales/s (first signature %.1f s after the TSE came back); %s",
		total-unsigned, p0, drain.Seconds(), float64(total-unsigned)/drain.Seconds(), firstDone.Sub(back).Seconds(), verdict)
}

// fsyncs counts the fsync and fdatasync calls strace saw since the
// first start on this data dir, all and those of the database (-1 when
// posbox is not traced). strace -y names each call's file, which tells
// the database from the embedded TSE simulator's journal.
func (b *box) fsyncs() (all, db int) {
	if !b.traced {
		return -1, -1
	}
	raw, _ := os.ReadFile(b.dataDir + ".fsyncs")
	for _, line := range bytes.Split(raw, []byte("\n")) {
		// A call another thread interrupted is split in two lines; only
		// the first has the opening parenthesis ("fsync(" also matches
		// "fdatasync(").
		if !bytes.Contains(line, []byte("fsync(")) {
			continue
		}
		all++
		if bytes.Contains(line, []byte(store.FileName)) {
			db++
		}
	}
	return all, db
}

// rss reads VmRSS and VmHWM (peak) of posbox in KiB from /proc.
func (b *box) rss() (cur, peak int) {
	raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", b.pid()))
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "VmRSS:":
			cur, _ = strconv.Atoi(f[1])
		case "VmHWM:":
			peak, _ = strconv.Atoi(f[1])
		}
	}
	return cur, peak
}

func (s *tseSim) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	<-s.exited
}
