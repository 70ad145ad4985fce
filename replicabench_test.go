//go:build loadbench

package main

// `make bench`, replication (docs/PERFORMANCE.md, "Replication"): the
// lag of every acknowledged write of the lunch rush on a real `posbox
// serve` replicating to a file:// folder and to Debian's sshd over SFTP,
// idle RSS with replication off and on, and the shipped binary's size.
// Figures are reported as benchmark metrics; nothing here fails on a
// figure (speed is never checked by a timed test).
//
//	BENCH_REPLICA_RUSH   the rush replicated (default 20s)

import (
	"encoding/binary"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/internal/replicatest"
)

// BenchmarkBinarySize is the stripped linux/amd64 binary as `make build`
// makes it, every replica target (file, SFTP, S3) compiled in.
func BenchmarkBinarySize(b *testing.B) {
	fi, err := os.Stat(buildRelease(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/(1<<20), "MiB")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkIdleRSS is VmRSS of `posbox serve` left alone for 10 s after
// its start (and, with replication, after its first upload): off, and
// replicating to a file:// folder.
func BenchmarkIdleRSS(b *testing.B) {
	bin := buildRelease(b)
	b.Run("off", func(b *testing.B) { idleRSS(b, bin, "", "") })
	b.Run("file", func(b *testing.B) {
		dir := replicaFolder(b)
		idleRSS(b, bin, "file://"+dir, dir)
	})
}

func idleRSS(b *testing.B, bin, replicaURL, replicaDir string) {
	bx := startReplicating(b, bin, replicaURL, replicaDir)
	time.Sleep(10 * time.Second)
	cur, _ := bx.rss()
	b.ReportMetric(float64(cur)/1024, "RSS-MiB")
	b.ReportMetric(0, "ns/op")
}

// startReplicating starts posbox serve on a fresh data dir (twice: the
// first start makes the admin, the keys and replica.key) and, with a
// replica, returns once the first file is on it.
func startReplicating(b *testing.B, bin, replicaURL, replicaDir string) *box {
	dataDir := filepath.Join(b.TempDir(), "data")
	if err := os.Mkdir(dataDir, 0o700); err != nil {
		b.Fatal(err)
	}
	env := []string{"POSBOX_REPLICA_URL=" + replicaURL, "POSBOX_LOG_LEVEL=warn"}
	first, _ := startBox(b, bin, dataDir, freeAddr(b), false, env...)
	first.stop(b)
	bx, _ := startBox(b, bin, dataDir, freeAddr(b), false, env...)
	if replicaURL != "" {
		poll.Until(b, time.Minute, "the first file on the replica", func() bool { return len(replicaL0(replicaDir)) > 0 })
	}
	return bx
}

// BenchmarkReplicationLagRush is the replication lag of every write the
// lunch rush (rushOp: 50 terminals, 500 requests/s, 9 of 20 writes)
// acknowledged: from its answer to the first file on the replica whose
// LTX timestamp (when Litestream read the WAL; every commit before it is
// in the file) is not before the answer. The replica's folder is watched
// from outside, every 5 ms: the objects' 100-byte stubs carry that
// timestamp in clear (replica/envelope.go). Production intervals (an
// upload a second).
func BenchmarkReplicationLagRush(b *testing.B) {
	bin := buildRelease(b)
	rushDur := envDur(b, "BENCH_REPLICA_RUSH", 20*time.Second)
	// Off: the same rush without replication, in the same hour, for its
	// requests' p99 (no lag to measure).
	b.Run("off", func(b *testing.B) { rushLag(b, bin, "", "", rushDur) })
	b.Run("file", func(b *testing.B) {
		dir := replicaFolder(b)
		rushLag(b, bin, "file://"+dir, dir, rushDur)
	})
	b.Run("sftp", func(b *testing.B) {
		s := replicatest.SFTP(b)
		u := s.URL + "?key=" + url.QueryEscape(s.KeyPath) + "&host-key=" + url.QueryEscape(s.HostKey)
		rushLag(b, bin, u, s.Dir, rushDur)
	})
}

func rushLag(b *testing.B, bin, replicaURL, replicaDir string, rushDur time.Duration) {
	bx := startReplicating(b, bin, replicaURL, replicaDir)
	bx.stop(b)
	emails := seedStaff(b, bx.dataDir, 50)
	toks := tokens(b, bin, bx.dataDir, append([]string{"admin@posbox.local"}, emails...)...)
	bx = restartBox(b, bin, bx, replicaURL)
	var w *replicaWatch
	if replicaURL != "" {
		w = watchReplica(replicaDir)
		defer w.stop()
	}

	bn := &bench{box: bx, admin: toks[0], staff: toks[1:]}
	var d struct{ Discount discount }
	decodeInto(b, mustCall(b, 201, "POST", bx.base+"/api/discounts", bn.admin, map[string]any{
		"name": "Lunch menu", "discount_type": "percentage", "value": 10}), &d)

	// A trickle first (one event every 20 ms, as the replica package's
	// BenchmarkReplicationLag writes), then the rush.
	trickle := func(wk, j int) error {
		code, raw, err := call("POST", bx.base+"/api/events", bn.staff[0], []byte(`{"type":"low_stock","data":{"table":1}}`))
		return want(code, raw, err, 202)
	}
	_, lags := replicatedLoop(b, w, 1, 50, 10*time.Second, trickle, func(int, int) bool { return true })
	reportLags(b, "trickle-", lags)

	var sales, unsigned atomic.Int64
	mix := bn.rushOp(bx.base+"/api/discounts/"+d.Discount.ID+"/redeem", &sales, &unsigned)
	isWrite := func(wk, j int) bool { k := (j*7 + wk) % 20; return k >= 11 && k <= 18 }
	s, lags := replicatedLoop(b, w, 50, 500, rushDur, mix, isWrite)
	reportLags(b, "", lags)
	b.ReportMetric(float64(s.pct(0.99).Microseconds())/1000, "req-p99-ms")
	b.ReportMetric(float64(s.errs), "req-errors")
	b.ReportMetric(0, "ns/op")
	if s.errs > 0 {
		b.Logf("rush: %d errors, the first: %s", s.errs, s.firstEr)
	}
}

// replicatedLoop runs fn as openLoop does and returns, per acknowledged
// write (isWrite), the lag until the replica held it, sorted (none
// without a replica: w nil).
func replicatedLoop(b *testing.B, w *replicaWatch, conc int, rate float64, d time.Duration, fn op, isWrite func(w, j int) bool) (*stat, []float64) {
	var mu sync.Mutex
	var acks []time.Time
	s := openLoop("replicated", conc, rate, d, func(wk, j int) error {
		err := fn(wk, j)
		if err == nil && isWrite(wk, j) {
			now := time.Now()
			mu.Lock()
			acks = append(acks, now)
			mu.Unlock()
		}
		return err
	})
	if w == nil {
		return s, nil
	}
	if len(acks) == 0 {
		b.Fatalf("no write acknowledged: %d errors, the first: %s", s.errs, s.firstEr)
	}
	slices.SortFunc(acks, func(x, y time.Time) int { return x.Compare(y) })
	last := acks[len(acks)-1]
	poll.Until(b, 2*time.Minute, "every acknowledged write on the replica", func() bool { return w.covered(last) })
	return s, w.lags(acks)
}

func reportLags(b *testing.B, prefix string, lags []float64) {
	if len(lags) == 0 {
		return
	}
	q := func(p float64) float64 { return lags[min(len(lags)-1, int(p*float64(len(lags))))] }
	b.ReportMetric(float64(len(lags)), prefix+"writes")
	b.ReportMetric(q(0.50), prefix+"lag-p50-ms")
	b.ReportMetric(q(0.99), prefix+"lag-p99-ms")
	b.ReportMetric(lags[len(lags)-1], prefix+"lag-max-ms")
}

// restartBox stops nothing: it starts posbox again on bx's data dir (bx
// is stopped) with the same replica.
func restartBox(b *testing.B, bin string, bx *box, replicaURL string) *box {
	nb, _ := startBox(b, bin, bx.dataDir, bx.addr, false, "POSBOX_REPLICA_URL="+replicaURL, "POSBOX_LOG_LEVEL=warn")
	return nb
}

// replicaFolder is a file:// target's folder: it must exist (posbox
// refuses to make it: an unmounted share would fill the box's own disk).
func replicaFolder(b *testing.B) string {
	dir := filepath.Join(b.TempDir(), "replica")
	if err := os.Mkdir(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	return dir
}

// replicaL0 lists the level-0 files on the replica (Litestream's layout:
// ltx/0/MIN-MAX.ltx under the replica's path).
func replicaL0(root string) []string {
	m, _ := filepath.Glob(filepath.Join(root, "ltx", "0", "*.ltx"))
	return m
}

// replicaWatch records when each level-0 file appeared on the replica
// and the LTX timestamp its stub carries.
type replicaWatch struct {
	mu    sync.Mutex
	seen  map[string]bool
	files []seenFile // in the order seen
	done  chan struct{}
	wg    sync.WaitGroup
}

type seenFile struct{ stamp, at time.Time }

func watchReplica(root string) *replicaWatch {
	w := &replicaWatch{seen: map[string]bool{}, done: make(chan struct{})}
	w.wg.Go(func() {
		for {
			for _, f := range replicaL0(root) {
				if w.seen[f] || strings.HasSuffix(f, ".tmp") {
					continue
				}
				at := time.Now()
				hdr := make([]byte, 40)
				fh, err := os.Open(f)
				if err != nil {
					continue // compacted away meanwhile
				}
				n, _ := fh.Read(hdr)
				fh.Close()
				if n < 40 {
					continue
				}
				w.mu.Lock()
				w.seen[f] = true
				w.files = append(w.files, seenFile{stamp: time.UnixMilli(int64(binary.BigEndian.Uint64(hdr[32:40]))), at: at})
				w.mu.Unlock()
			}
			select {
			case <-w.done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	return w
}

func (w *replicaWatch) stop() { close(w.done); w.wg.Wait() }

// covered reports whether a file stamped at or after t is on the replica.
func (w *replicaWatch) covered(t time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.ContainsFunc(w.files, func(f seenFile) bool { return !f.stamp.Before(t.Truncate(time.Millisecond)) })
}

// lags is, per acknowledged write (sorted), the ms from its answer to the
// first file seen that holds it; sorted.
func (w *replicaWatch) lags(acks []time.Time) []float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]float64, 0, len(acks))
	for _, a := range acks {
		first := time.Time{}
		for _, f := range w.files {
			if !f.stamp.Before(a.Truncate(time.Millisecond)) && (first.IsZero() || f.at.Before(first)) {
				first = f.at
			}
		}
		if !first.IsZero() {
			out = append(out, float64(first.Sub(a).Microseconds())/1000)
		}
	}
	slices.Sort(out)
	return out
}

func decodeInto(tb testing.TB, raw []byte, v any) {
	tb.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		tb.Fatalf("%v: %s", err, raw)
	}
}
