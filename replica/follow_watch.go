package replica

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

// applyClient is the decrypting client as the follower's restore sees
// it: an LTX file opened while the copy exists is a change about to be
// applied to it (the first restore writes a temporary file instead). Such
// a file is downloaded whole into a spool file first, then the open takes
// the follower's apply lock until the file is closed: readers wait for
// the disk writes only, never for a slow or hung download. Every file's
// header timestamp is noted for ReplicatedAt.
type applyClient struct {
	*cryptClient
	f *Follower
}

// LTXFiles notes that the replica answered: Litestream's follow lists
// level 0 at every poll.
func (c *applyClient) LTXFiles(ctx context.Context, level int, seek ltx.TXID, useMetadata bool) (ltx.FileIterator, error) {
	itr, err := c.cryptClient.LTXFiles(ctx, level, seek, useMetadata)
	if err == nil {
		c.f.mu.Lock()
		c.f.st.CheckedAt = time.Now()
		c.f.mu.Unlock()
	}
	return itr, err
}

func (c *applyClient) OpenLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, offset, size int64) (io.ReadCloser, error) {
	rc, err := c.cryptClient.OpenLTXFile(ctx, level, minTXID, maxTXID, offset, size)
	if err != nil {
		return nil, err
	}
	sr := &stampReader{ReadCloser: rc, f: c.f, level: level, maxTXID: maxTXID, whole: offset == 0}
	if !fileExists(c.f.dest) {
		return sr, nil
	}
	spool, err := spoolFile(filepath.Dir(c.f.dest), sr)
	if err != nil {
		return nil, err
	}
	c.f.apply.Lock()
	return &lockedFile{File: spool, unlock: c.f.apply.Unlock}, nil
}

// spoolFile downloads r whole into a temporary file beside the copy
// (removed at once: it lives while open) and rewinds it.
func spoolFile(dir string, r io.ReadCloser) (*os.File, error) {
	f, err := os.CreateTemp(dir, ".follow-*.ltx")
	if err != nil {
		r.Close()
		return nil, err
	}
	os.Remove(f.Name()) // Windows refuses this while open: the name then goes at Close
	_, err = io.Copy(f, r)
	err = errors.Join(err, r.Close())
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// lockedFile is a spooled LTX file that holds the apply lock until Close.
type lockedFile struct {
	*os.File
	unlock func()
	once   sync.Once
}

func (l *lockedFile) Close() error {
	err := l.File.Close()
	os.Remove(l.File.Name())
	l.once.Do(l.unlock)
	return err
}

// stampReader notes the timestamp of the LTX header it reads.
type stampReader struct {
	io.ReadCloser
	f       *Follower
	level   int
	maxTXID ltx.TXID
	whole   bool // read from the start: the header comes first
	hdr     []byte
	once    sync.Once
}

func (r *stampReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if r.whole && len(r.hdr) < ltx.HeaderSize {
		r.hdr = append(r.hdr, p[:min(n, ltx.HeaderSize-len(r.hdr))]...)
	}
	return n, err
}

func (r *stampReader) Close() error {
	err := r.ReadCloser.Close()
	r.once.Do(func() {
		var h ltx.Header
		if len(r.hdr) == ltx.HeaderSize && h.UnmarshalBinary(r.hdr) == nil {
			r.f.noteStamp(r.maxTXID, time.UnixMilli(h.Timestamp))
			if r.level == 0 {
				r.f.noteL0(r.maxTXID, time.UnixMilli(h.Timestamp))
			}
		}
	})
	return err
}

// noteL0 remembers the level-0 file that ended at txid, to tell it from
// another database's file of the same number (noteL0 keeps the newest).
func (f *Follower) noteL0(txid ltx.TXID, t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if txid >= f.l0.txid {
		f.l0 = l0Note{txid, t}
	}
}

type l0Note struct {
	txid ltx.TXID
	at   time.Time
}

func (f *Follower) noteStamp(txid ltx.TXID, t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stamps[txid] = t
}

// replicatedAt is the timestamp of the change the copy's sidecar names,
// when known; older notes are dropped.
func (f *Follower) replicatedAt() (time.Time, bool) {
	applied, err := litestream.ReadTXIDFile(f.dest)
	if err != nil || applied == 0 {
		return time.Time{}, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.stamps[applied]
	if ok {
		for id := range f.stamps {
			if id < applied {
				delete(f.stamps, id)
			}
		}
		f.st.ReplicatedAt = t
	}
	return t, ok
}

// watch is what the follower's checks remember between ticks.
type watch struct {
	applied ltx.TXID
	stuck   int
}

// stuckChecks is how many checks in a row may find the copy behind the
// replica without progress before it is restored fresh: Litestream's
// follow waits silently when a gap cannot be bridged (the files it needs
// were compacted away) and never notices a replica that restarted lower.
const stuckChecks = 3

// check lists the replica: it answers (CheckedAt), the copy is up to
// date (the error clears), or it is stuck (errStartFresh).
func (f *Follower) check(ctx context.Context, bc litestream.ReplicaClient, cc *cryptClient, w *watch, exactTimes bool) error {
	top, l0, err := topTXID(ctx, bc)
	if err != nil {
		f.failed(fmt.Errorf("list: %w", err))
		return nil
	}
	f.mu.Lock()
	f.st.CheckedAt = time.Now()
	f.mu.Unlock()
	applied, err := litestream.ReadTXIDFile(f.dest)
	if err != nil || applied == 0 {
		return nil // the first restore is still running
	}
	if _, ok := f.replicatedAt(); !ok {
		if t, err := stampOf(ctx, bc, cc, applied); err == nil {
			f.noteStamp(applied, t)
			f.replicatedAt()
		}
	}
	f.mu.Lock()
	note := f.l0
	f.mu.Unlock()
	if listed, ok := l0[note.txid]; ok && exactTimes && note.txid == applied && !sameInstant(listed, note.at) {
		return errStartFresh{fmt.Sprintf("the replica's file ending at transaction %s is not the one the copy holds (%s, not %s): a new database on the replica",
			applied, listed.Format(time.RFC3339Nano), note.at.Format(time.RFC3339Nano))}
	}
	switch {
	case applied == top:
		w.applied, w.stuck = applied, 0
		f.mu.Lock()
		f.st.LastError, f.st.ErrorSince = "", time.Time{}
		f.mu.Unlock()
	case applied != w.applied:
		w.applied, w.stuck = applied, 0
	default:
		w.stuck++
		if w.stuck >= stuckChecks {
			return errStartFresh{fmt.Sprintf("the copy stays at transaction %s while the replica is at %s", applied, top)}
		}
	}
	return nil
}

// topTXID is the newest transaction on the replica, over every level,
// and when each level-0 file was made (its listed time).
func topTXID(ctx context.Context, c litestream.ReplicaClient) (ltx.TXID, map[ltx.TXID]time.Time, error) {
	var top ltx.TXID
	l0 := map[ltx.TXID]time.Time{}
	for level := 0; level <= litestream.SnapshotLevel; level++ {
		itr, err := c.LTXFiles(ctx, level, 0, false)
		if err != nil {
			return 0, nil, err
		}
		for itr.Next() {
			fi := itr.Item()
			top = max(top, fi.MaxTXID)
			if level == 0 {
				l0[fi.MaxTXID] = fi.CreatedAt
			}
		}
		err = errors.Join(itr.Err(), itr.Close())
		if err != nil {
			return 0, nil, err
		}
	}
	return top, l0, nil
}

// sameInstant compares a file's listed time with its header's timestamp:
// to the millisecond, or to the second where the listing has whole
// seconds only (SFTP's mtime).
func sameInstant(listed, stamp time.Time) bool {
	if listed.Nanosecond() == 0 {
		return listed.Unix() == stamp.Unix()
	}
	return listed.UnixMilli() == stamp.UnixMilli()
}

// stampOf reads the timestamp of the replica's file ending at txid (a
// copy resumed after a restart knows its transaction, not its time).
func stampOf(ctx context.Context, bc litestream.ReplicaClient, cc *cryptClient, txid ltx.TXID) (time.Time, error) {
	for level := 0; level <= litestream.SnapshotLevel; level++ {
		itr, err := bc.LTXFiles(ctx, level, 0, false)
		if err != nil {
			return time.Time{}, err
		}
		var found *ltx.FileInfo
		for itr.Next() {
			if fi := itr.Item(); fi.MaxTXID == txid {
				c := *fi
				found = &c
			}
		}
		itr.Close()
		if found == nil {
			continue
		}
		rc, err := cc.OpenLTXFile(ctx, found.Level, found.MinTXID, found.MaxTXID, 0, 0)
		if err != nil {
			return time.Time{}, err
		}
		defer rc.Close()
		hdr := make([]byte, ltx.HeaderSize)
		var h ltx.Header
		if _, err := io.ReadFull(rc, hdr); err != nil {
			return time.Time{}, err
		}
		if err := h.UnmarshalBinary(hdr); err != nil {
			return time.Time{}, err
		}
		return time.UnixMilli(h.Timestamp), nil
	}
	return time.Time{}, fmt.Errorf("no file ends at transaction %s", txid)
}

// errorTap passes Litestream's log on (its per-poll notes as debug) and
// records its errors in the follower's status: the follow loop logs a
// failed poll and goes on, it hands no error out. An error the same as
// the one before goes on as debug: a replica away for an hour is one
// error line, not one a second.
type errorTap struct {
	slog.Handler
	f *Follower
}

func (t *errorTap) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelError || t.Handler.Enabled(ctx, l)
}

func (t *errorTap) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "err" || a.Key == "error" {
				if !t.f.failed(errors.New(a.Value.String())) {
					r.Level = slog.LevelDebug
				}
				return false
			}
			return true
		})
	}
	if r.Level == slog.LevelInfo {
		r.Level = slog.LevelDebug
	}
	if !t.Handler.Enabled(ctx, r.Level) {
		return nil
	}
	return t.Handler.Handle(ctx, r)
}

func (t *errorTap) WithAttrs(as []slog.Attr) slog.Handler {
	return &errorTap{Handler: t.Handler.WithAttrs(as), f: t.f}
}

func (t *errorTap) WithGroup(name string) slog.Handler {
	return &errorTap{Handler: t.Handler.WithGroup(name), f: t.f}
}
