package replica

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"posbox/internal/diskfree"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

// The local backlog's bound. While the replica is unreachable Litestream
// keeps every change as a local LTX file (it cannot prune what it has not
// uploaded), and a box offline for weeks would fill its card and stop
// selling. So the backlog may take at most DefaultBacklogMax (or
// Options.BacklogMax), and never more than half of the disk's free space
// (its own size counted in): past that it is given up, and once the
// replica answers again a complete fresh copy of the database goes up
// (docs/REPLICATION.md, "Offline for days").
const (
	DefaultBacklogMax   = 2 << 30
	defaultBacklogCheck = 10 * time.Second
	defaultRejoinAfter  = 30 * time.Second
	maxRejoinWait       = time.Hour
	giveUpClose         = 10 * time.Second // Litestream's close, its last upload tried once
	// diskFloor: with less free space than this Litestream stops, replica
	// or not. It could not stage its files anyway, and while its copies
	// fail it holds a read transaction that keeps SQLite from
	// checkpointing: the WAL would grow into the last free bytes.
	diskFloor = 64 << 20
)

// diskFullText begins the error a backlog given up for the disk floor
// records (Status.BacklogGivenUpReason tells it apart).
const diskFullText = "replication stopped: the disk is nearly full"

var errBacklogGivenUp = errors.New("replica: the backlog was given up; replication resumes with a complete copy once the replica answers")

// backlogState is the bound's side of the Replicator, guarded by its mu.
type backlogState struct {
	limit     int64     // the bound at the last check
	givenUpAt time.Time // the last backlog given up, until the replica is whole again
	givenUp   int64     // its size
	reason    string    // why (Status.BacklogGivenUpReason)
	resume    ltx.TXID  // after a rejoin: the fresh copy's transaction
	allowance int64     // the fresh copy's size, allowed beyond the bound until it is up
	nextTry   time.Time // when to try the replica again while given up
	wait      time.Duration
	stop      context.CancelFunc
	done      chan struct{}
}

// backlogLimit is the bound: max, and at most half of what the backlog
// and the free space add up to (free < 0: not known).
func backlogLimit(max, used, free int64) int64 {
	if max <= 0 {
		max = DefaultBacklogMax
	}
	if free >= 0 {
		max = min(max, (free+used)/2)
	}
	return max
}

// watchBacklog checks the bound every Options.BacklogCheck until Close.
func (r *Replicator) watchBacklog() {
	every := r.opts.BacklogCheck
	if every <= 0 {
		every = defaultBacklogCheck
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	r.backlog.stop, r.backlog.done = cancel, done
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				r.checkBacklog(ctx)
			}
		}
	}()
}

func (r *Replicator) stopBacklogWatch() {
	if r.backlog.stop != nil {
		r.backlog.stop()
		<-r.backlog.done
	}
}

// backlogStatus adds the bound's fields to s; r.mu is held.
func (r *Replicator) backlogStatus(s *Status) {
	r.wholeAgainLocked()
	s.BacklogLimit, s.BacklogGivenUpAt, s.BacklogGivenUpBytes = r.backlog.limit, r.backlog.givenUpAt, r.backlog.givenUp
	if !r.backlog.givenUpAt.IsZero() {
		s.BacklogGivenUpReason = r.backlog.reason
	}
}

// wholeAgainLocked ends a given-up backlog once the fresh copy is on the
// replica; r.mu is held.
func (r *Replicator) wholeAgainLocked() {
	b := &r.backlog
	if b.givenUpAt.IsZero() || b.resume == 0 || r.rep == nil || r.rep.Pos().TXID < b.resume {
		return
	}
	r.log.Info("the replica is whole again: the complete copy of the database is uploaded", "given_up_at", b.givenUpAt)
	b.givenUpAt, b.givenUp, b.resume, b.wait, b.allowance, b.reason = time.Time{}, 0, 0, 0, 0, ""
}

// checkBacklog gives the backlog up when it outgrew its bound while the
// replica fails, or, given up, tries the replica again when it is time.
func (r *Replicator) checkBacklog(ctx context.Context) {
	r.mu.Lock()
	r.wholeAgainLocked()
	db, nextTry, allowance := r.db, r.backlog.nextTry, r.backlog.allowance
	r.mu.Unlock()
	if db == nil {
		if !r.now().Before(nextTry) {
			r.rejoin(ctx)
		}
		return
	}
	used := dirSize(db.LTXDir())
	free, err := diskfree.Available(filepath.Dir(r.path))
	if err != nil {
		free = -1
	}
	limit := backlogLimit(r.opts.BacklogMax, used, free)
	r.mu.Lock()
	r.backlog.limit = limit
	r.mu.Unlock()
	var st Status
	r.health.status(&st)
	switch {
	case free >= 0 && free < diskFloor:
		r.giveUp(ctx, used, GivenUpDiskFull, fmt.Errorf(diskFullText+" (%d bytes free); the box sells on, and a complete copy goes up once there is room again", free))
	case used > limit+allowance && st.LastError != "":
		r.giveUp(ctx, used, GivenUpLimit, fmt.Errorf("replica unreachable too long: %d bytes of changes not yet uploaded outgrew the bound of %d bytes and were given up to keep the disk free; a complete copy goes up once the replica answers", used, limit))
	}
}

// giveUp stops Litestream and removes its local files: sales go on, the
// database's WAL is checkpointed by SQLite's own auto-checkpoint while
// Litestream is stopped, and the replica keeps the consistent state it
// had. Tries to reach it again wait 30 s, doubling with each backlog
// given up in a row, up to an hour.
func (r *Replicator) giveUp(ctx context.Context, used int64, reason string, why error) {
	r.engineMu.Lock()
	defer r.engineMu.Unlock()
	r.mu.Lock()
	st, db := r.store, r.db
	r.db, r.rep, r.store = nil, nil, nil
	b := &r.backlog
	b.wait = min(max(2*b.wait, r.rejoinAfter()), maxRejoinWait)
	b.nextTry, b.givenUpAt, b.givenUp, b.resume, b.reason = r.now().Add(b.wait), r.now(), used, 0, reason
	wait := b.wait
	r.mu.Unlock()
	st.SetShutdownSyncTimeout(0)
	cctx, cancel := context.WithTimeout(ctx, giveUpClose)
	if err := st.Close(cctx); err != nil {
		r.log.Debug("replica: closing Litestream to give the backlog up", "err", err)
	}
	cancel()
	if err := os.RemoveAll(db.LTXDir()); err != nil {
		r.log.Error("replica: removing the backlog", "dir", db.LTXDir(), "err", err)
	}
	r.health.failed(why)
	r.log.Warn("replica: the local backlog is given up", "why", why.Error(), "backlog_bytes", used, "retry_in", wait)
}

func (r *Replicator) rejoinAfter() time.Duration {
	if r.opts.RejoinAfter > 0 {
		return r.opts.RejoinAfter
	}
	return defaultRejoinAfter
}

// rejoin starts Litestream again once the replica answers, seeded so
// that its first upload is a complete copy of the database.
func (r *Replicator) rejoin(ctx context.Context) {
	size, err := r.roomForACopy()
	if err == nil && r.fc != nil {
		err = folderGuard{root: r.fc.Path()}.check()
	}
	r.engineMu.Lock()
	defer r.engineMu.Unlock()
	e := r.newEngine()
	var resume ltx.TXID
	if err == nil {
		resume, err = seedFromReplica(ctx, r.client, e.db, r.path)
	}
	if err == nil {
		err = r.open(ctx, e)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.backlog.nextTry = r.now().Add(r.backlog.wait)
		r.log.Info("replication not resumed yet; the backlog stays given up", "err", err, "retry_in", r.backlog.wait)
		return
	}
	r.backlog.resume, r.backlog.allowance = resume, size
	r.log.Info("replica answers again: uploading a complete copy of the database", "txid", resume.String())
}

// roomForACopy returns the size of a complete copy of the database
// (Litestream stages it locally, and the bound allows for it until it is
// up: a database larger than the bound would otherwise be given up again
// and again), or an error while the disk cannot take it and the floor.
func (r *Replicator) roomForACopy() (int64, error) {
	// The database file's size: the copy holds its pages. (The WAL file
	// keeps its largest size after checkpoints; it is no measure.)
	var size int64
	if fi, err := os.Stat(r.path); err == nil {
		size = fi.Size()
	}
	free, err := diskfree.Available(filepath.Dir(r.path))
	if err == nil && free < size+diskFloor {
		return 0, fmt.Errorf("the disk has %d bytes free, too few for a complete copy of the database (%d bytes)", free, size)
	}
	return size, nil
}

// seedFromReplica prepares Litestream's local state so that its next
// file is a complete copy of the database that follows the replica's
// newest transaction, and returns that file's transaction.
//
// Litestream's own way back (a database behind its replica: fetch the
// replica's newest L0 file) is not safe here: that file names the WAL
// offset and salts it ended at, and when the WAL has since been restarted
// once and still holds that frame, Litestream goes on from the new WAL's
// start and the frames given up in between would be a hole on the
// replica, skipped silently by a restore. So the copy keeps the file's
// pages (compaction reads local L0 files before remote ones) and names
// no WAL position: Litestream can only take a snapshot next.
func seedFromReplica(ctx context.Context, c litestream.ReplicaClient, db *litestream.DB, dbPath string) (ltx.TXID, error) {
	itr, err := c.LTXFiles(ctx, 0, 0, false)
	if err != nil {
		return 0, err
	}
	var newest *ltx.FileInfo
	for itr.Next() {
		if fi := itr.Item(); newest == nil || fi.MaxTXID > newest.MaxTXID {
			newest = fi
		}
	}
	if err := itr.Close(); err != nil {
		return 0, err
	}
	if err := os.RemoveAll(db.LTXDir()); err != nil {
		return 0, err
	}
	if newest == nil {
		return 1, nil // an empty replica: Litestream's first file is a snapshot
	}
	dirMode := os.FileMode(0o700)
	if fi, err := os.Stat(filepath.Dir(dbPath)); err == nil {
		dirMode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(db.LTXLevelDir(0), dirMode); err != nil {
		return 0, err
	}
	rc, err := c.OpenLTXFile(ctx, 0, newest.MinTXID, newest.MaxTXID, 0, 0)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	path := db.LTXPath(0, newest.MinTXID, newest.MaxTXID)
	if err := writeUnpositioned(path, rc); err != nil {
		return 0, fmt.Errorf("replica: copy of the newest file: %w", err)
	}
	return newest.MaxTXID + 1, nil
}

// writeUnpositioned writes the LTX file of r to path with its WAL
// position cleared (offset at the WAL header, no salts).
func writeUnpositioned(path string, r io.Reader) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	err = rewriteLTX(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func rewriteLTX(w io.Writer, r io.Reader) error {
	dec := ltx.NewDecoder(r)
	if err := dec.DecodeHeader(); err != nil {
		return err
	}
	h := dec.Header()
	h.WALOffset, h.WALSize, h.WALSalt1, h.WALSalt2 = litestream.WALHeaderSize, 0, 0, 0
	enc, err := ltx.NewEncoder(w)
	if err != nil {
		return err
	}
	if err := enc.EncodeHeader(h); err != nil {
		return err
	}
	buf := make([]byte, h.PageSize)
	for {
		var ph ltx.PageHeader
		if err := dec.DecodePage(&ph, buf); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return err
		}
		if err := enc.EncodePage(ph, buf); err != nil {
			return err
		}
	}
	if err := dec.Close(); err != nil {
		return err
	}
	enc.SetPostApplyChecksum(dec.Trailer().PostApplyChecksum)
	return enc.Close()
}

// dirSize is what the files below dir take.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
