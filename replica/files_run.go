package replica

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"time"

	"filippo.io/age"
)

// filesRun is the uploader's goroutine.
type filesRun struct {
	u      *fileUploader
	cancel context.CancelFunc
	done   chan struct{}
	now    chan chan error
}

// startFiles starts uploading the data dir's files (nil when opts turn
// it off: no DataDir or no Include); through is the database's
// replication (Status.ReplicatedThrough).
func startFiles(opts Options, recips []age.Recipient, through func() time.Time, log *slog.Logger) (*filesRun, error) {
	if opts.DataDir == "" || opts.Include == nil {
		return nil, nil
	}
	s, err := openObjects(opts.URL, opts.CallTimeout)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, err
	}
	u := &fileUploader{store: s, recips: recips, ids: []age.Identity{opts.Identity}, dataDir: dir,
		include: opts.Include, appendOnly: opts.AppendOnly, extra: opts.ExtraFiles, log: log, now: time.Now,
		recovery: opts.Identity.Recipient().String(), through: through}
	interval := opts.FilesInterval
	if interval <= 0 {
		interval = defaultFilesInterval
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &filesRun{u: u, cancel: cancel, done: make(chan struct{}), now: make(chan chan error)}
	go func() {
		defer close(f.done)
		u.run(ctx, interval, f.now)
	}()
	return f, nil
}

// sync runs a scan now and returns its outcome.
func (f *filesRun) sync(ctx context.Context) error {
	reply := make(chan error, 1)
	select {
	case f.now <- reply:
	case <-ctx.Done():
		return ctx.Err()
	case <-f.done:
		return errors.New("replica: files: stopped")
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// close stops the scans and makes a last one, bounded by ctx.
func (f *filesRun) close(ctx context.Context) error {
	f.cancel()
	<-f.done
	err := f.u.sync(ctx)
	f.u.record(err)
	f.u.store.Close()
	return err
}

// SyncFiles uploads the data dir's files as they are now and returns
// once they are on the replica and verified (or the upload failed).
func (r *Replicator) SyncFiles(ctx context.Context) error {
	if r.files == nil {
		return errors.New("replica: files are not replicated (no data dir given)")
	}
	return r.files.sync(ctx)
}
