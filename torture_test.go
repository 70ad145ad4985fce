//go:build torture

package main

// `make torture`: a real `posbox serve`, signing through a `posbox
// tse-sim` process and delivering webhooks to a local receiver, is killed
// with SIGKILL at a random moment under mixed load, TORTURE_ROUNDS times
// (default 20). After each kill the database passes PRAGMA
// integrity_check (opened read-only); after each restart every
// acknowledged clock-in and clock-out is there and no redemption passed
// its limit; at the end every acknowledged sale is signed once with
// gap-free numbers and every acknowledged event reached the receiver.

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
)

// tortureState is what the load generator saw acknowledged.
type tortureState struct {
	mu       sync.Mutex
	entries  map[string]bool // time entry id → acknowledged closed
	redeemed int
	sales    []string
	events   []int
	failures []string // errors while posbox was up: not the kill's doing
}

func (s *tortureState) fail(format string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.failures) < 20 {
		s.failures = append(s.failures, fmt.Sprintf(format, a...))
	}
}

func TestTorture(t *testing.T) {
	rounds := 20
	if v := os.Getenv("TORTURE_ROUNDS"); v != "" {
		fmt.Sscan(v, &rounds)
	}
	const (
		clockers, redeemers, sellers, publishers = 6, 4, 4, 2
		limit                                    = 300
	)
	bin := buildRelease(t)
	tmp := t.TempDir()
	dataDir, simDir := filepath.Join(tmp, "data"), filepath.Join(tmp, "tse-sim")
	for _, d := range []string{dataDir, simDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	addr, simAddr := freeAddr(t), freeAddr(t)
	rc := startReceiver(t)
	startTSESimProc(t, bin, simDir, simAddr, 2*time.Millisecond)

	bx, _ := startBox(t, bin, dataDir, addr, false)
	bx.stop(t)
	emails := seedStaff(t, dataDir, clockers+redeemers+sellers+publishers)
	setupTSESim(t, bin, dataDir, simAddr)
	toks := tokens(t, bin, dataDir, append([]string{"admin@posbox.local"}, emails...)...)
	admin, staff := toks[0], toks[1:]
	bx, _ = startBox(t, bin, dataDir, addr, false)
	base := bx.base
	var d struct{ Discount struct{ ID string } }
	json.Unmarshal(mustCall(t, 201, "POST", base+"/api/discounts", admin, map[string]any{
		"name": "Torture", "discount_type": "fixed", "value": 1, "usage_limit": limit}), &d)
	redeemURL := base + "/api/discounts/" + d.Discount.ID + "/redeem"
	mustCall(t, 201, "POST", base+"/api/notifications/settings", admin, map[string]any{
		"channel": "webhook", "event_type": "pos.torture", "is_enabled": true, "destination": rc.url + "/t"})

	st := &tortureState{entries: map[string]bool{}}
	in := make([]bool, clockers) // staff w is clocked in (as last acknowledged)
	var eventNo atomic.Int64
	for round := range rounds {
		if round > 0 {
			bx, _ = startBox(t, bin, dataDir, addr, false)
			checkAfterRestart(t, bx.base, admin, staff[:clockers], in, st, limit, d.Discount.ID)
		}
		var killed atomic.Bool
		var wg sync.WaitGroup
		worker := func(w int, fn func(w, i int) (string, error)) {
			wg.Go(func() {
				for i := 0; !killed.Load(); i++ {
					what, err := fn(w, i)
					if err != nil && !killed.Load() {
						st.fail("round %d: %s: %v", round, what, err)
					}
					if err != nil {
						return
					}
				}
			})
		}
		for w := range clockers {
			worker(w, func(w, i int) (string, error) {
				path, okCode := "/api/shifts/clock-in", 201
				if in[w] {
					path, okCode = "/api/shifts/clock-out", 200
				}
				code, raw, err := call("POST", base+path, staff[w], nil)
				if err := want(code, raw, err, okCode); err != nil {
					return path, err
				}
				var res struct {
					TimeEntry struct{ ID string } `json:"time_entry"`
				}
				json.Unmarshal(raw, &res)
				st.mu.Lock()
				st.entries[res.TimeEntry.ID] = in[w]
				st.mu.Unlock()
				in[w] = !in[w]
				return path, nil
			})
		}
		for w := clockers; w < clockers+redeemers; w++ {
			worker(w, func(w, i int) (string, error) {
				code, raw, err := call("POST", redeemURL, staff[w], []byte(`{"order_total":12.5}`))
				if code == 409 && strings.Contains(string(raw), "usage_limit_reached") {
					time.Sleep(5 * time.Millisecond)
					return "redeem", nil
				}
				if err := want(code, raw, err, 200); err != nil {
					return "redeem", err
				}
				st.mu.Lock()
				st.redeemed++
				st.mu.Unlock()
				return "redeem", nil
			})
		}
		for w := clockers + redeemers; w < clockers+redeemers+sellers; w++ {
			worker(w, func(w, i int) (string, error) {
				code, raw, err := call("POST", base+"/api/tse/transactions", staff[w], saleBody(fmt.Sprintf("KASSE-%d", w), 100+i))
				if err := want(code, raw, err, 201, 202); err != nil {
					return "sale", err
				}
				var res struct{ Transaction struct{ ID string } }
				json.Unmarshal(raw, &res)
				st.mu.Lock()
				st.sales = append(st.sales, res.Transaction.ID)
				st.mu.Unlock()
				return "sale", nil
			})
		}
		for w := clockers + redeemers + sellers; w < len(staff); w++ {
			worker(w, func(w, i int) (string, error) {
				n := int(eventNo.Add(1))
				code, raw, err := call("POST", base+"/api/events", staff[w], fmt.Appendf(nil, `{"type":"pos.torture","data":{"i":%d}}`, n))
				if err := want(code, raw, err, 202); err != nil {
					return "event", err
				}
				st.mu.Lock()
				st.events = append(st.events, n)
				st.mu.Unlock()
				return "event", nil
			})
		}
		time.Sleep(time.Duration(500+rand.IntN(1500)) * time.Millisecond)
		killed.Store(true)
		bx.kill(t)
		wg.Wait()
		client.CloseIdleConnections()
		integrityCheck(t, dataDir, round)
		st.mu.Lock()
		t.Logf("round %d: killed; so far %d time entries, %d redemptions, %d sales, %d events acknowledged",
			round+1, len(st.entries), st.redeemed, len(st.sales), len(st.events))
		st.mu.Unlock()
	}

	// The last start: everything queued must come out.
	bx, _ = startBox(t, bin, dataDir, addr, false)
	checkAfterRestart(t, bx.base, admin, staff[:clockers], in, st, limit, d.Discount.ID)
	checkSalesAndDeliveries(t, bx.base, admin, st, rc)
	for _, f := range st.failures {
		t.Errorf("while posbox was up: %s", f)
	}
	bx.stop(t)
	integrityCheck(t, dataDir, rounds)
	t.Logf("torture: %d kill -9 rounds; %d time entries, %d redemptions (limit %d), %d sales, %d events acknowledged: all there",
		rounds, len(st.entries), st.redeemed, limit, len(st.sales), len(st.events))
}

// integrityCheck opens the database read-only and runs PRAGMA
// integrity_check.
func integrityCheck(t *testing.T, dataDir string, round int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, store.FileName)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Fatalf("after kill %d: integrity_check %q %v", round+1, res, err)
	}
}

// checkAfterRestart: every acknowledged time entry is there (closed when
// its clock-out was acknowledged), each clock worker's state is read
// back (a request the kill cut off may or may not have committed), and
// the discount's count is at least the acknowledged redemptions and at
// most its limit.
func checkAfterRestart(t *testing.T, base, admin string, clockers []string, in []bool, st *tortureState, limit int, discountID string) {
	t.Helper()
	from := time.Now().Add(-48 * time.Hour).Format(time.DateOnly)
	to := time.Now().Add(48 * time.Hour).Format(time.DateOnly)
	var list struct {
		TimeEntries []struct {
			ID       string  `json:"id"`
			ClockOut *string `json:"clock_out"`
		} `json:"time_entries"`
	}
	json.Unmarshal(mustCall(t, 200, "GET", base+"/api/time-entries?from="+from+"&to="+to, admin, nil), &list)
	stored := map[string]bool{}
	for _, e := range list.TimeEntries {
		stored[e.ID] = e.ClockOut != nil
	}
	st.mu.Lock()
	for id, closed := range st.entries {
		got, ok := stored[id]
		switch {
		case !ok:
			t.Errorf("acknowledged time entry %s lost", id)
		case closed && !got:
			t.Errorf("acknowledged clock-out of %s lost", id)
		}
	}
	st.mu.Unlock()
	for w, tok := range clockers {
		var s struct {
			ClockedIn bool `json:"clocked_in"`
			TimeEntry *struct {
				ID string `json:"id"`
			} `json:"time_entry"`
		}
		json.Unmarshal(mustCall(t, 200, "GET", base+"/api/shifts/my-status", tok, nil), &s)
		in[w] = s.ClockedIn
		if s.TimeEntry != nil {
			st.mu.Lock()
			if _, ok := st.entries[s.TimeEntry.ID]; !ok {
				st.entries[s.TimeEntry.ID] = false // committed, answer cut off
			}
			st.mu.Unlock()
		}
	}
	var ds struct {
		Discounts []struct {
			ID         string `json:"id"`
			UsageCount int    `json:"usage_count"`
		} `json:"discounts"`
	}
	json.Unmarshal(mustCall(t, 200, "GET", base+"/api/discounts", admin, nil), &ds)
	for _, d := range ds.Discounts {
		if d.ID != discountID {
			continue
		}
		st.mu.Lock()
		if d.UsageCount < st.redeemed || d.UsageCount > limit {
			t.Errorf("usage_count %d: acknowledged %d, limit %d", d.UsageCount, st.redeemed, limit)
		}
		st.mu.Unlock()
	}
	if t.Failed() {
		t.FailNow()
	}
}

// checkSalesAndDeliveries waits for the TSE queue and the webhook queue
// to drain, then checks every acknowledged sale is signed once with
// gap-free numbers and every acknowledged event was delivered.
func checkSalesAndDeliveries(t *testing.T, base, admin string, st *tortureState, rc *receiver) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	pending := 0
	if !poll.Wait(2*time.Minute, func() bool {
		var q struct {
			Queue struct{ Pending, Attention int }
		}
		json.Unmarshal(mustCall(t, 200, "GET", base+"/api/tse/queue", admin, nil), &q)
		if q.Queue.Attention > 0 {
			t.Fatalf("%d TSE revisions need attention", q.Queue.Attention)
		}
		pending = q.Queue.Pending
		return pending == 0
	}) {
		t.Fatalf("TSE queue still holds %d revisions", pending)
	}
	var list []struct {
		ID     string `json:"id"`
		Number int    `json:"number"`
	}
	from := time.Now().Add(-48 * time.Hour).UTC().Format(time.RFC3339)
	to := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	json.Unmarshal(mustCall(t, 200, "GET", base+"/api/tse/transactions?from="+from+"&to="+to, admin, nil), &list)
	byID := map[string]int{}
	var nums []int
	for _, tx := range list {
		if _, dup := byID[tx.ID]; dup {
			t.Errorf("transaction %s listed twice", tx.ID)
		}
		byID[tx.ID] = tx.Number
		nums = append(nums, tx.Number)
	}
	sort.Ints(nums)
	for i, n := range nums {
		if n != i+1 {
			t.Fatalf("sale numbers not gap-free: %d at position %d of %d", n, i+1, len(nums))
		}
	}
	for _, id := range st.sales {
		if _, ok := byID[id]; !ok {
			t.Errorf("acknowledged sale %s not signed", id)
		}
	}
	for _, i := range st.events {
		if !poll.Wait(time.Until(deadline), func() bool { return rc.got("/t", i) > 0 }) {
			t.Fatalf("acknowledged event %d never delivered", i)
		}
	}
	dups := rc.total() - len(st.events)
	t.Logf("%d sales signed, numbers 1..%d gap-free; %d events delivered (%d deliveries more: events whose answer a kill cut off, and at-least-once resends)",
		len(nums), len(nums), len(st.events), dups)
}

// kill ends posbox with SIGKILL: a power cut as far as the process knows.
func (b *box) kill(tb testing.TB) {
	tb.Helper()
	b.signal(syscall.SIGKILL)
	<-b.exited
}
