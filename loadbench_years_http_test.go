//go:build loadbench

package main

// The year benchmark's requests: each a closed loop for BENCH_TIME
// between two runs of B0 with the same terminals and answer size. The
// day's and month's reads ask for yesterday and last month (the
// seeder's history is the same shape in both eras; only its length
// differs).

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// yearEnv is what every start of the year benchmark sets: no automatic
// closing and the nightly archive far from now (both measured on
// purpose, not when the clock happens to pass them).
func yearEnv(loc *time.Location, extra ...string) []string {
	away := time.Now().In(loc).Add(4 * time.Hour).Format("15:04")
	return append([]string{"POSBOX_CLOSING_TIME=", "POSBOX_TSE_ARCHIVE_TIME=" + away}, extra...)
}

// start measures the first start on the era's data dir and three
// restarts, seeds the bench's 64 staff and leaves posbox running.
func (yb *yearBench) start(e *era, dataDir string) *bench {
	t := yb.t
	b := &bench{t: t, rep: yb.rep, b0: yb.b0, b0s: yb.b0s, dur: yb.dur}
	addr := freeAddr(t)
	loc, _ := time.LoadLocation("Europe/Berlin")
	bx, first := startBox(t, yb.bin, dataDir, addr, false, yearEnv(loc)...)
	e.put("first start on the data dir, to health", measure{v: msOf(first), dur: true})
	bx.stop(t)
	emails := seedStaff(t, dataDir, 64)
	toks := tokens(t, yb.bin, dataDir, append([]string{"admin@posbox.local"}, emails...)...)
	b.admin, b.staff = toks[0], toks[1:]
	var restarts []time.Duration
	for i := range 3 {
		bx, d := startBox(t, yb.bin, dataDir, addr, false, yearEnv(loc)...)
		restarts = append(restarts, d)
		b.box = bx
		if i < 2 {
			bx.stop(t)
		}
	}
	e.put("restart, to health (median of 3)", measure{v: msOf(median(restarts)), dur: true})
	return b
}

// loc is the restaurant's timezone, which decides "today".
func (b *bench) loc() *time.Location {
	var r struct{ Restaurant struct{ Timezone string } }
	json.Unmarshal(mustCall(b.t, 200, "GET", b.box.base+"/api/restaurant", b.admin, nil), &r)
	loc, err := time.LoadLocation(r.Restaurant.Timezone)
	if err != nil {
		b.t.Fatalf("restaurant timezone %q: %v", r.Restaurant.Timezone, err)
	}
	return loc
}

// rate runs fn as one scenario between two runs of B0 and records its
// requests per second and ratio to B0.
func (yb *yearBench) rate(e *era, b *bench, name string, conc, size int, method string, body []byte, fn op) {
	before := b.b0Run(conc, size, method, body, false)
	s := closedLoop(e.label+": "+name, conc, yb.dur, fn, nil)
	after := b.b0Run(conc, size, method, body, false)
	b0 := &stat{name: "B0", n: before.n + after.n, elapsed: before.elapsed + after.elapsed}
	yb.rep.row(s, size, b0, nil, "-")
	m := measure{v: s.rps(), b0: s.rps() / b0.rps()}
	if s.errs > 0 {
		m.note = fmt.Sprintf("%d errors", s.errs)
	}
	e.put(name, m)
}

// get is a read by the admin as a scenario of conc terminals.
func (yb *yearBench) get(e *era, b *bench, name string, conc int, path string) {
	u := b.box.base + path
	raw := mustCall(yb.t, 200, "GET", u, b.admin, nil)
	yb.rate(e, b, fmt.Sprintf("%s (%d terminals)", name, conc), conc, len(raw), "GET", nil, func(w, i int) error {
		code, raw, err := call("GET", u, b.admin, nil)
		return want(code, raw, err, 200)
	})
}

// requests runs every request scenario on the running box.
func (yb *yearBench) requests(e *era, b *bench) {
	loc := b.loc()
	now := time.Now().In(loc)
	y0 := time.Date(now.Year(), now.Month(), now.Day()-1, 0, 0, 0, 0, loc)
	day := y0.Format(time.DateOnly)
	m0 := time.Date(now.Year(), now.Month()-1, 1, 0, 0, 0, 0, loc)
	month := "from=" + m0.Format(time.DateOnly) + "&to=" + m0.AddDate(0, 1, -1).Format(time.DateOnly)
	base := b.box.base
	_, raw, _ := call("GET", base+"/api/shifts/my-status", b.staff[0], nil)
	yb.rate(e, b, "my-status (32 terminals)", 32, len(raw), "GET", nil, func(w, i int) error {
		code, raw, err := call("GET", base+"/api/shifts/my-status", b.staff[w%len(b.staff)], nil)
		return want(code, raw, err, 200)
	})
	yb.get(e, b, "week of 200 shifts", 32, yb.week(b, now))
	yb.get(e, b, "dashboard", 16, "/api/dashboard")
	yb.get(e, b, "TSE status", 16, "/api/tse/status")
	yb.get(e, b, "yesterday's time entries", 8, "/api/time-entries?date="+day)
	from, to := y0.Format(time.RFC3339), y0.AddDate(0, 0, 1).Add(-time.Second).Format(time.RFC3339)
	yb.get(e, b, "yesterday's TSE transactions", 4, "/api/tse/transactions?from="+url.QueryEscape(from)+"&to="+url.QueryEscape(to))
	yb.get(e, b, "last month's MiLoG record", 4, "/api/time-entries/report?"+month)
	yb.get(e, b, "last month's payroll CSV", 4, "/api/time-entries/payroll?"+month)
	yb.get(e, b, "yesterday's DSFinV-K export", 2, "/api/fiscal/dsfinvk?from="+day+"&to="+day)
	yb.writes(e, b)
}

// week schedules 200 shifts of the bench's staff in the week two weeks
// ahead (none of the seeder's) and returns its list's path.
func (yb *yearBench) week(b *bench, now time.Time) string {
	var users struct {
		Users []struct{ ID, Role, Email string } `json:"users"`
	}
	if err := json.Unmarshal(mustCall(yb.t, 200, "GET", b.box.base+"/api/users", b.admin, nil), &users); err != nil {
		yb.t.Fatal(err)
	}
	var ids []string
	for _, u := range users.Users {
		if u.Role == "staff" && strings.HasSuffix(u.Email, "@bench.local") {
			ids = append(ids, u.ID)
		}
	}
	monday := now.AddDate(0, 0, 14-(int(now.Weekday())+6)%7)
	for i := range 200 {
		mustCall(yb.t, 201, "POST", b.box.base+"/api/shifts", b.admin, map[string]any{
			"user_id": ids[i%len(ids)], "shift_date": monday.AddDate(0, 0, i/len(ids)).Format(time.DateOnly),
			"start_time": "10:00", "end_time": "18:30", "break_minutes": 30, "role": "service",
			"notes": fmt.Sprintf("Lunch and dinner, section %d", i%9)})
	}
	return "/api/shifts?date_from=" + monday.Format(time.DateOnly) + "&date_to=" + monday.AddDate(0, 0, 6).Format(time.DateOnly)
}

// writes: clock-in/out pairs, a redemption, a signed sale.
func (yb *yearBench) writes(e *era, b *bench) {
	base := b.box.base
	in := make([]bool, 64)
	_, raw, _ := call("POST", base+"/api/shifts/clock-in", b.staff[0], nil)
	call("POST", base+"/api/shifts/clock-out", b.staff[0], nil)
	yb.rate(e, b, "clock-in/out pairs (64 staff)", 64, len(raw), "POST", nil, func(w, i int) error {
		path, ok := "/api/shifts/clock-in", 201
		if in[w] {
			path, ok = "/api/shifts/clock-out", 200
		}
		code, raw, err := call("POST", base+path, b.staff[w], nil)
		if code == ok {
			in[w] = !in[w]
		}
		return want(code, raw, err, ok)
	})
	for w, open := range in {
		if open {
			mustCall(yb.t, 200, "POST", base+"/api/shifts/clock-out", b.staff[w], nil)
		}
	}
	d := b.newDiscount("Happy hour", nil)
	body := []byte(`{"order_total":33.33}`)
	u := base + "/api/discounts/" + d.ID + "/redeem"
	_, raw, _ = call("POST", u, b.staff[0], body)
	yb.rate(e, b, "discount redemption (64 terminals)", 64, len(raw), "POST", body, func(w, i int) error {
		code, raw, err := call("POST", u, b.staff[w%len(b.staff)], body)
		return want(code, raw, err, 200)
	})
	// Each register's first sale registers it at the TSS: not measured.
	for w := range 16 {
		raw = mustCall(yb.t, 201, "POST", base+"/api/tse/transactions", b.admin, saleBody(serial(w), 950+w))
	}
	mustCall(yb.t, 201, "POST", base+"/api/tse/transactions", b.admin, saleBody(closingSerial, 990))
	yb.rate(e, b, "TSE sale, embedded simulator (16 terminals)", 16, len(raw), "POST", saleBody(serial(0), 1234), func(w, i int) error {
		code, raw, err := call("POST", base+"/api/tse/transactions", b.staff[w], saleBody(serial(w), 100+i%5000))
		return want(code, raw, err, 201)
	})
}

// closingSerial is the register whose closings are timed.
const closingSerial = "KASSE-49"

// sellN makes n signed sales at closingSerial from 8 terminals.
func (b *bench) sellN(n int) {
	var left atomic.Int64
	left.Store(int64(n))
	var stop atomic.Bool
	s := closedLoop("sales before a closing", 8, time.Minute, func(w, i int) error {
		if left.Add(-1) < 0 {
			stop.Store(true)
			return errSkip
		}
		code, raw, err := call("POST", b.box.base+"/api/tse/transactions", b.staff[w], saleBody(closingSerial, 200+i))
		return want(code, raw, err, 201)
	}, &stop)
	if s.errs > 0 {
		b.t.Fatalf("sales before a closing: %d errors, the first: %s", s.errs, s.firstEr)
	}
}
