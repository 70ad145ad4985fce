package replica

import (
	"context"
	"io/fs"
	"path/filepath"

	"github.com/benbjohnson/litestream"
)

// Litestream's own way back, when its local state is gone (a restart
// while the backlog was given up, a box restored from its replica, the
// folder deleted) but the replica holds files, is the one
// seedFromReplica explains is not safe: it may leave a hole on the
// replica that a restore skips silently. Such a start begins given up,
// with the rejoin due now, so that the next upload is a complete copy.

// startsGivenUp reports whether Start must begin in the given-up state:
// Litestream's local state of e is missing or empty and the replica
// holds files, or cannot be asked (then the rejoin keeps trying).
func (r *Replicator) startsGivenUp(ctx context.Context, e engine) bool {
	if hasLocalState(e.db.LTXDir()) {
		return false
	}
	if r.fc != nil {
		if err := (folderGuard{root: r.fc.Path()}).check(); err != nil {
			r.health.failed(err)
			return true
		}
	}
	empty, err := replicaEmpty(ctx, r.client.inner)
	if err != nil {
		r.health.failed(err)
		return true
	}
	return !empty
}

// hasLocalState reports whether dir holds any file.
func hasLocalState(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// replicaEmpty reports whether the replica holds no file at level 0 and
// no snapshot.
func replicaEmpty(ctx context.Context, c litestream.ReplicaClient) (bool, error) {
	for _, level := range []int{0, litestream.SnapshotLevel} {
		itr, err := c.LTXFiles(ctx, level, 0, false)
		if err != nil {
			return false, err
		}
		found := itr.Next()
		if err := itr.Close(); err != nil {
			return false, err
		}
		if found {
			return false, nil
		}
	}
	return true, nil
}

// beginGivenUp puts r in the given-up state with the rejoin due now.
func (r *Replicator) beginGivenUp() {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := &r.backlog
	b.wait, b.nextTry, b.givenUpAt, b.givenUp, b.resume, b.reason = r.rejoinAfter(), r.now(), r.now(), 0, 0, GivenUpRestart
	r.log.Warn("replica: Litestream's local state is missing and the replica holds files (or cannot be asked): a complete copy goes up once the replica answers")
}
