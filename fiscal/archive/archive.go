package archive

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Limits of fiskaly's export API (docs/TSE.md, "TAR exports"; research:
// at most 10 exports PENDING or WORKING per TSS, retrieveExport and
// retrieveExportFile 12 requests a minute per export).
const (
	DefaultMaxRunning = 10
	minPollInterval   = 5 * time.Second // 12 a minute
	maxPollInterval   = time.Minute
	// startBackoff is the first wait after E_TOO_MANY_EXPORTS or a rate
	// limit without Retry-After when starting exports; it doubles up to
	// maxStartBackoff.
	startBackoff    = 30 * time.Second
	maxStartBackoff = 10 * time.Minute
	// retryRejected is how long a range whose TAR failed verification or
	// whose export the provider failed waits before a new export: the
	// next night's run, not the same one.
	retryRejected = 12 * time.Hour
	// DefaultWarnAfter is the age of the oldest transaction not yet
	// archived at which the TSE status warns: fiskaly deletes after three
	// months, so a month is left to act.
	DefaultWarnAfter = 60 * 24 * time.Hour
	// transientLimit ends a run after this many network failures in a row;
	// what is open is resumed by the next run.
	transientLimit = 5
)

// Options configure an archive.
type Options struct {
	// RestaurantID is the restaurant the TSS signs for; its events and
	// archive rows are recorded there.
	RestaurantID string
	// Dir is where the TARs are kept (DATA_DIR/archive/tse); created 0700.
	Dir string
	// MaxRecords splits the incremental ranges (default and at most
	// tse.MaxExportRecords).
	MaxRecords int64
	// MaxRunning bounds the exports PENDING or WORKING at once (default
	// and at most DefaultMaxRunning).
	MaxRunning int
	// WarnAfter: see DefaultWarnAfter.
	WarnAfter time.Duration
	// Sleep waits d or until ctx ends; nil sleeps. Tests pass one that
	// moves their clock instead (compressed time).
	Sleep  func(ctx context.Context, d time.Duration) error
	Logger *slog.Logger
}

// Archive is the fiscal archive of one TSS.
type Archive struct {
	p   tse.Provider
	ex  tse.Exporter
	st  *store.Store
	log *slog.Logger
	now func() time.Time
	o   Options

	run sync.Mutex // one run at a time: the job, a resume, an admin's export

	bgCtx    context.Context // runs started by an admin's export
	bgCancel context.CancelFunc
	bg       sync.WaitGroup
}

// New builds the archive of provider p's TSS; ex is the same provider's
// export API. It creates o.Dir.
func New(p tse.Provider, ex tse.Exporter, st *store.Store, o Options) (*Archive, error) {
	if o.MaxRecords <= 0 || o.MaxRecords > tse.MaxExportRecords {
		o.MaxRecords = tse.MaxExportRecords
	}
	if o.MaxRunning <= 0 || o.MaxRunning > DefaultMaxRunning {
		o.MaxRunning = DefaultMaxRunning
	}
	if o.WarnAfter <= 0 {
		o.WarnAfter = DefaultWarnAfter
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Dir == "" {
		return nil, errors.New("archive: no folder")
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Archive{p: p, ex: ex, st: st, log: o.Logger.With("component", "tse-archive"), now: st.Now, o: o,
		bgCtx: ctx, bgCancel: cancel}, nil
}

// Close stops a run an admin's export started and waits for it; what it
// left open is resumed by the next run.
func (a *Archive) Close() {
	a.bgCancel()
	a.bg.Wait()
}

// Dir is the folder of the TARs.
func (a *Archive) Dir() string { return a.o.Dir }

// ProtectFiles makes the archived files 0400 again: a restore writes
// every file 0600, and a TAR that counts as archived is never written
// again (a new one gets its mode before its name). It reads the mode of
// every file, two a night for ten years, 40-100 ms on a box, so serve
// runs it in the background after the start, not in New.
func (a *Archive) ProtectFiles() error {
	if err := readOnly(a.o.Dir); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// readOnly makes the TARs and their .sha256 files in dir 0400.
func readOnly(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(name, ".") || !(strings.HasSuffix(name, ".tar") || strings.HasSuffix(name, ".tar.sha256")) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().Perm() != 0o400 {
			if err := os.Chmod(filepath.Join(dir, name), 0o400); err != nil {
				return err
			}
		}
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// serves refuses another restaurant's request: the TSS signs for one.
func (a *Archive) serves(restaurantID string) error {
	if restaurantID != a.o.RestaurantID {
		return store.Errorf(store.ETSENotConfigured,
			"no TSE is set up for this restaurant: the appliance's TSS signs for another restaurant only (see docs/TSE.md, \"Several restaurants\")")
	}
	return nil
}

// Open opens an archived TAR for reading (the caller closes it).
func (a *Archive) Open(ar *store.TSEArchive) (*os.File, error) {
	if ar.State != store.TSEArchiveArchived || ar.FileName == "" {
		return nil, store.Errorf(store.EConflict, "archive %s is %s: there is no file yet", ar.ID, ar.State)
	}
	return os.Open(filepath.Join(a.o.Dir, ar.FileName))
}

// Status is how far the archive has come (GET /api/tse/status), with a
// warning when the oldest transaction not yet archived nears fiskaly's
// three months, or when a range failed verification.
func (a *Archive) Status(ctx context.Context, restaurantID string) (*store.TSEArchiveState, error) {
	if err := a.serves(restaurantID); err != nil {
		return nil, err
	}
	s, err := a.st.TSEArchiveStateOf(ctx, a.p.TSSID())
	if err != nil {
		return nil, err
	}
	out := s
	if s.OldestUnarchived != nil {
		age := a.now().Sub(*s.OldestUnarchived)
		days := int(age / (24 * time.Hour))
		out.OldestUnarchivedDays = &days
		if age >= a.o.WarnAfter {
			out.Warning = fmt.Sprintf("the oldest transaction not yet archived is %d days old; fiskaly deletes a TSS's data after three months: "+
				"check the archive (GET /api/tse/archives) before it is lost", days)
		}
	}
	if out.Warning == "" && s.Rejected > 0 {
		out.Warning = fmt.Sprintf("%d archive range(s) failed verification and are tried again: %s", s.Rejected, s.LastProblem)
	}
	return out, nil
}

// ExportDates records an admin's export of the log messages between two
// instants (start inclusive, end exclusive) and starts it at once in the
// background; the row answers how it goes. It is for handing records
// over: it is verified like the incremental ranges but is no part of
// their chain (docs/API.md, "POST /api/tse/archives").
func (a *Archive) ExportDates(ctx context.Context, restaurantID string, start, end time.Time) (*store.TSEArchive, error) {
	if err := a.serves(restaurantID); err != nil {
		return nil, err
	}
	info, err := a.p.TSS(ctx)
	if err != nil {
		_, why := tse.Describe(err)
		return nil, store.Errorf(store.ETSEUnavailable, "the TSE cannot be reached to start the export: %s", why)
	}
	row, err := a.st.CreateTSEDateArchive(ctx, a.o.RestaurantID, a.p.TSSID(), info.SerialNumber, start, end)
	if err != nil {
		return nil, err
	}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		if err := a.Resume(a.bgCtx); err != nil && a.bgCtx.Err() == nil {
			a.log.Warn("archive: export of dates", "archive_id", row.ID, "err", err)
		}
	}()
	return row, nil
}

// publicKey reads the TSS's key: base64 of the uncompressed EC point.
// nil (the TAR's own certificate is used) when it is not a curve Go knows.
func publicKey(b64 string) *ecdsa.PublicKey {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil
	}
	for _, c := range []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521()} {
		if k, err := ecdsa.ParseUncompressedPublicKey(c, raw); err == nil {
			return k
		}
	}
	return nil
}
