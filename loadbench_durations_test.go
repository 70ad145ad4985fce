//go:build loadbench

package main

// The year benchmark's durations, each through the real binary or the
// route that starts it: a closing (POST /api/tse/closings after 300
// sales), `posbox backup` (database only and --complete), `posbox
// restore` of the complete backup, the nightly TSE archive run (its
// archives' created_at to archived_at), replication's catch-up from
// the start of `posbox serve` with replica_url to the replica holding
// everything, and `posbox restore --from` that replica.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"posbox/internal/poll"
	"posbox/replica"
)

// timed runs the binary with args and returns how long it took.
func (yb *yearBench) timed(args ...string) (time.Duration, error) {
	began := time.Now()
	out, err := exec.Command(yb.bin, args...).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("posbox %v: %v: %s", args, err, out)
	}
	return time.Since(began), nil
}

// repeat records the median of reps runs of fn (a failed run is noted
// and ends the scenario).
func (yb *yearBench) repeat(e *era, name string, reps int, fn func(i int) (time.Duration, error)) {
	full := fmt.Sprintf("%s (median of %d)", name, reps)
	if reps == 1 {
		full = name + " (once)"
	}
	var ds []time.Duration
	for i := range reps {
		d, err := fn(i)
		if err != nil {
			yb.rep.note("%s: %s: FAILED: %v", e.label, name, err)
			e.put(full, measure{dur: true, note: "failed"})
			return
		}
		ds = append(ds, d)
	}
	yb.rep.note("%s: %s: %v", e.label, name, ds)
	e.put(full, measure{v: msOf(median(ds)), dur: true})
}

// closings: 300 sales at one register, then its closing, timed.
func (yb *yearBench) closings(e *era, b *bench) {
	yb.repeat(e, "closing of 300 sales", yb.reps, func(int) (time.Duration, error) {
		b.sellN(300)
		began := time.Now()
		code, raw, err := call("POST", b.box.base+"/api/tse/closings", b.admin, []byte(`{"client_serial":"`+closingSerial+`"}`))
		return time.Since(began), want(code, raw, err, 201)
	})
}

// backups: `posbox backup` of the database and complete, and `posbox
// restore` of the complete one into a new folder, while posbox serves.
func (yb *yearBench) backups(e *era, b *bench) {
	dir := yb.t.TempDir()
	dataDir := b.box.dataDir
	yb.repeat(e, "posbox backup (database)", yb.slowReps, func(i int) (time.Duration, error) {
		f := filepath.Join(dir, fmt.Sprintf("b%d.db", i))
		defer os.Remove(f)
		return yb.timed("backup", "--data-dir", dataDir, f)
	})
	pass := filepath.Join(dir, "passphrase")
	os.WriteFile(pass, []byte("bench passphrase 1234\n"), 0o600)
	complete := filepath.Join(dir, "complete.posbox-backup")
	yb.repeat(e, "posbox backup --complete", yb.slowReps, func(i int) (time.Duration, error) {
		os.Remove(complete)
		return yb.timed("backup", "--complete", "--passphrase-file", pass, "--data-dir", dataDir, complete)
	})
	if fi, err := os.Stat(complete); err == nil {
		yb.rep.note("%s: complete backup %.1f MiB", e.label, mib(fi.Size()))
	}
	yb.repeat(e, "posbox restore (complete backup)", yb.slowReps, func(i int) (time.Duration, error) {
		to := filepath.Join(dir, fmt.Sprintf("restored%d", i))
		defer os.RemoveAll(to)
		return yb.timed("restore", "--passphrase-file", pass, "--data-dir", to, complete)
	})
	os.Remove(complete)
}

type archiveRow struct {
	Kind       string     `json:"kind"`
	State      string     `json:"state"`
	CreatedAt  time.Time  `json:"created_at"`
	ArchivedAt *time.Time `json:"archived_at"`
	SizeBytes  *int64     `json:"size_bytes"`
	LogMsgs    *int64     `json:"log_messages"`
	First      *int64     `json:"first_signature_counter"`
	Last       *int64     `json:"last_signature_counter"`
	Reason     *string    `json:"reason"`
}

func (a archiveRow) String() string {
	s := a.State
	if a.First != nil && a.Last != nil {
		s += fmt.Sprintf(" %d-%d", *a.First, *a.Last)
	}
	if a.Reason != nil {
		s += ": " + *a.Reason
	}
	return s
}

// archivesSince lists the incremental archives created at or after t.
func (b *bench) archivesSince(t time.Time) []archiveRow {
	var l struct{ Archives []archiveRow }
	json.Unmarshal(mustCall(b.t, 200, "GET", b.box.base+"/api/tse/archives", b.admin, nil), &l)
	var out []archiveRow
	for _, a := range l.Archives {
		if a.Kind == "incremental" && !a.CreatedAt.Before(t.Truncate(time.Millisecond)) {
			out = append(out, a)
		}
	}
	return out
}

// nightlyArchive starts posbox (stopped) with tse_archive_time a minute
// ago, so the next minute's check runs the nightly export, and records
// its ranges' created_at to the last one's archived_at.
func (yb *yearBench) nightlyArchive(e *era, b *bench) {
	const name = "nightly TSE archive run (once)"
	loc := time.Now().Location()
	if l, err := time.LoadLocation("Europe/Berlin"); err == nil {
		loc = l
	}
	began := time.Now()
	at := began.In(loc).Add(-time.Minute).Format("15:04")
	bx, _ := startBox(yb.t, yb.bin, b.box.dataDir, b.box.addr, false, "POSBOX_CLOSING_TIME=", "POSBOX_TSE_ARCHIVE_TIME="+at)
	b.box = bx
	defer bx.stop(yb.t)
	var rows []archiveRow
	finished := func() bool {
		for _, a := range rows {
			if a.State != "archived" && a.State != "failed" {
				return false
			}
		}
		return len(rows) > 0
	}
	// A range that failed verification waits for a retry: not finished.
	poll.Wait(4*time.Minute, func() bool {
		rows = b.archivesSince(began)
		return finished() || slices.ContainsFunc(rows, func(a archiveRow) bool { return a.Reason != nil })
	})
	if !finished() {
		yb.rep.note("%s: %s: not finished (waited up to 4 minutes): %v", e.label, name, rows)
		e.put(name, measure{dur: true, note: "not finished"})
		return
	}
	first, last := rows[0].CreatedAt, rows[0].CreatedAt
	var msgs, size int64
	for _, a := range rows {
		if a.CreatedAt.Before(first) {
			first = a.CreatedAt
		}
		if a.ArchivedAt != nil && a.ArchivedAt.After(last) {
			last = *a.ArchivedAt
		}
		if a.LogMsgs != nil && a.SizeBytes != nil {
			msgs, size = msgs+*a.LogMsgs, size+*a.SizeBytes
		}
	}
	yb.rep.note("%s: nightly archive: %d ranges, %d log messages, %.1f MiB", e.label, len(rows), msgs, mib(size))
	if msgs > 0 {
		// A day of the seeder's 300 receipts is 600 log messages (start
		// and finish of each).
		yb.rep.note("%s: TSE archive growth at %.0f bytes per log message: %.0f MiB a year of 300 receipts a day",
			e.label, float64(size)/float64(msgs), mib(size*600*365/msgs))
	}
	e.put(name, measure{v: msOf(last.Sub(first)), dur: true})
}

// hasManifest reports whether the replica holds a manifest of the data
// dir's files (written after the files it names; a restore needs one).
func hasManifest(dir string) bool {
	found := false
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && strings.Contains(p, "/manifests/") {
			found = true
		}
		return nil
	})
	return found
}

// replicaRun: posbox serve (stopped) with a file:// replica; the time
// from its start until the replica holds every change and a manifest of
// the files, then `posbox
// restore --from` that replica into a new folder.
func (yb *yearBench) replicaRun(e *era, b *bench) {
	t := yb.t
	dir := filepath.Join(t.TempDir(), "replica")
	os.Mkdir(dir, 0o700)
	began := time.Now()
	bx, _ := startBox(t, yb.bin, b.box.dataDir, b.box.addr, false, "POSBOX_CLOSING_TIME=", "POSBOX_REPLICA_URL=file://"+dir)
	b.box = bx
	defer bx.stop(t)
	var st struct {
		Replica struct {
			ReplicatedAt *string  `json:"replicated_at"`
			Lag          *float64 `json:"lag_seconds"`
			Backlog      *int64   `json:"backlog_files"`
			LastError    *string  `json:"last_error"`
		}
	}
	caught := poll.Wait(15*time.Minute, func() bool {
		json.Unmarshal(mustCall(t, 200, "GET", bx.base+"/api/replica", b.admin, nil), &st)
		r := st.Replica
		return r.ReplicatedAt != nil && r.Lag != nil && *r.Lag == 0 && r.Backlog != nil && *r.Backlog == 0 && hasManifest(dir)
	})
	const name = "replica catch-up from start (once)"
	if !caught {
		yb.rep.note("%s: %s: not caught up within 15 minutes (last error %v)", e.label, name, st.Replica.LastError)
		e.put(name, measure{dur: true, note: "not caught up"})
		return
	}
	e.put(name, measure{v: msOf(time.Since(began)), dur: true})
	yb.rep.note("%s: replica holds %.1f MiB", e.label, mib(dirSize(dir)))
	defer os.RemoveAll(dir)
	key := filepath.Join(b.box.dataDir, replica.KeyFile)
	yb.repeat(e, "posbox restore --from the replica", yb.slowReps, func(i int) (time.Duration, error) {
		to := filepath.Join(t.TempDir(), "from-replica")
		defer os.RemoveAll(to)
		return yb.timed("restore", "--from", "file://"+dir, "--key-file", key, "--data-dir", to)
	})
}
