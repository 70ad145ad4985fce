package archive

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"slices"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Provider error codes the job treats on their own.
const (
	codeTooManyExports    = "E_TOO_MANY_EXPORTS"
	codeDuplicateLimited  = "E_EXPORT_DUPLICATE_RATE_LIMITED"
	codeDuplicateExport   = "E_DUPLICATE_EXPORT"
	codeExportInProgress  = "E_EXPORT_IN_PROGRESS"
	codeExportNotFound    = "E_EXPORT_NOT_FOUND"
	codeExportNotComplete = "E_EXPORT_NOT_COMPLETED"
	codeTempUnavailable   = "E_EXPORT_TEMPORARILY_UNAVAILABLE"
)

// Run is the scheduled job: it plans the signature-counter ranges not yet
// archived, from the end of the last planned range up to the TSS's
// current signature counter (split at MaxRecords), then works every open
// export until each is archived, rejected (tried again at a later run) or
// ctx ends (resumed by the next run under the same export id).
func (a *Archive) Run(ctx context.Context) error {
	a.run.Lock()
	defer a.run.Unlock()
	info, err := a.p.TSS(ctx)
	if err != nil {
		return fmt.Errorf("archive: read the TSS: %w", err)
	}
	planned, err := a.st.PlanTSEArchiveRanges(ctx, a.o.RestaurantID, a.p.TSSID(), info.SerialNumber,
		int64(info.SignatureCounter), a.o.MaxRecords)
	if err != nil {
		return fmt.Errorf("archive: plan: %w", err)
	}
	for _, r := range planned {
		a.log.Info("archive: range planned", "archive_id", r.ID, "first_counter", *r.FirstCounter, "last_counter", *r.LastCounter,
			"export_id", r.ExportID)
	}
	return a.work(ctx, info, true)
}

// Resume goes on with the exports already triggered (an export a restart
// interrupted, under its export id) and an admin's exports of dates; it
// plans nothing and starts no range that waits for the nightly run, so
// it may run at any hour (at start, and after POST /api/tse/archives).
func (a *Archive) Resume(ctx context.Context) error {
	a.run.Lock()
	defer a.run.Unlock()
	rows, err := a.st.OpenTSEArchives(ctx, a.p.TSSID())
	if err != nil || len(rows) == 0 {
		return err
	}
	info, err := a.p.TSS(ctx)
	if err != nil {
		return fmt.Errorf("archive: read the TSS: %w", err)
	}
	return a.work(ctx, info, false)
}

// flight is an export triggered at the provider that this run follows.
type flight struct {
	row       *store.TSEArchive
	completed bool          // the provider said COMPLETED: download next
	nextCall  time.Time     // no retrieve before (Retry-After, 12 a minute)
	interval  time.Duration // the poll interval, growing while it works
}

// errBusy: the provider has no room for another export right now.
var errBusy = errors.New("archive: the provider has no room for another export")

// work starts the due exports (at most MaxRunning at once), polls them
// within fiskaly's limits, and files each completed one. It returns when
// no export is due or in flight, or when ctx ends.
// all false leaves incremental ranges not yet triggered alone.
func (a *Archive) work(ctx context.Context, info tse.TSSInfo, all bool) error {
	pub := publicKey(info.PublicKey)
	w := &workState{flights: map[string]*flight{}, backoff: startBackoff}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		now := a.now()
		due, err := a.due(ctx, w, all, now)
		if err != nil {
			return err
		}
		if len(w.flights) == 0 && len(due) == 0 {
			return nil
		}
		if due, err = a.startDue(ctx, w, due, now); err != nil {
			return err
		}
		if err := a.poll(ctx, w, info, pub); err != nil {
			return err
		}
		if err := a.sleep(ctx, w, due); err != nil {
			return err
		}
	}
}

// workState is what one work call keeps between its rounds.
type workState struct {
	flights      map[string]*flight // the exports in flight, by archive id
	blockedUntil time.Time          // no new export before (E_TOO_MANY_EXPORTS, 429)
	backoff      time.Duration      // before the next start after a refused one
	transient    int                // provider errors in a row
}

// due reads the open archives: the in-flight ones get their fresh row
// (and leave w.flights once no longer open), the others are returned
// when their next attempt is due.
func (a *Archive) due(ctx context.Context, w *workState, all bool, now time.Time) ([]*store.TSEArchive, error) {
	rows, err := a.st.OpenTSEArchives(ctx, a.p.TSSID())
	if err != nil {
		return nil, err
	}
	var due []*store.TSEArchive
	open := map[string]bool{}
	for _, r := range rows {
		open[r.ID] = true
		if f, ok := w.flights[r.ID]; ok {
			f.row = r
		} else if !all && r.Kind == store.TSEArchiveIncremental && r.State == store.TSEArchivePending {
			continue
		} else if !r.NextAttemptAt.After(now) {
			due = append(due, r)
		}
	}
	for id := range w.flights {
		if !open[id] {
			delete(w.flights, id)
		}
	}
	return due, nil
}

// startDue starts due exports while there is room and the provider has
// not asked to wait, backing off when it is busy; it returns the ones not
// started.
func (a *Archive) startDue(ctx context.Context, w *workState, due []*store.TSEArchive, now time.Time) ([]*store.TSEArchive, error) {
	for len(due) > 0 && len(w.flights) < a.o.MaxRunning && !now.Before(w.blockedUntil) {
		r := due[0]
		due = due[1:]
		f, err := a.start(ctx, r, now)
		switch {
		case err == nil:
			if f != nil {
				w.flights[r.ID] = f
			}
			w.backoff, w.transient = startBackoff, 0
		case errors.Is(err, errBusy):
			w.blockedUntil = now.Add(max(retryAfter(err), w.backoff))
			w.backoff = min(2*w.backoff, maxStartBackoff)
			a.log.Info("archive: provider busy, waiting before the next export", "until", w.blockedUntil, "err", err)
		case ctx.Err() != nil:
			return nil, ctx.Err()
		default:
			if w.transient++; w.transient >= transientLimit {
				return nil, fmt.Errorf("archive: provider unreachable, the next run goes on: %w", err)
			}
			w.blockedUntil = now.Add(max(retryAfter(err), w.backoff))
			w.backoff = min(2*w.backoff, maxStartBackoff)
		}
	}
	return due, nil
}

// poll steps every export in flight whose next call is allowed, oldest
// first; a finished one leaves w.flights.
func (a *Archive) poll(ctx context.Context, w *workState, info tse.TSSInfo, pub *ecdsa.PublicKey) error {
	ids := make([]string, 0, len(w.flights))
	for id := range w.flights {
		ids = append(ids, id)
	}
	slices.Sort(ids) // UUIDv7: oldest first
	for _, id := range ids {
		f := w.flights[id]
		if a.now().Before(f.nextCall) {
			continue
		}
		done, err := a.step(ctx, f, info, pub)
		if done {
			delete(w.flights, id)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if w.transient++; w.transient >= transientLimit {
				return fmt.Errorf("archive: provider unreachable, the next run goes on: %w", err)
			}
			a.log.Warn("archive: export", "archive_id", id, "err", err)
		} else {
			w.transient = 0
		}
	}
	return nil
}

// sleep waits until the next poll is allowed or a start of the exports
// still due may be tried; with nothing in flight it returns at once (the
// next round finds what is due, or ends).
func (a *Archive) sleep(ctx context.Context, w *workState, due []*store.TSEArchive) error {
	var next time.Time
	for _, f := range w.flights {
		if next.IsZero() || f.nextCall.Before(next) {
			next = f.nextCall
		}
	}
	if len(due) > 0 && len(w.flights) < a.o.MaxRunning && (next.IsZero() || w.blockedUntil.Before(next)) {
		next = w.blockedUntil
	}
	if next.IsZero() {
		return nil
	}
	if d := next.Sub(a.now()); d > 0 {
		return a.o.Sleep(ctx, d)
	}
	return nil
}

// filterOf is the provider filter of a row.
func filterOf(r *store.TSEArchive) tse.ExportFilter {
	if r.Kind == store.TSEArchiveDates {
		return tse.ExportFilter{StartDate: *r.StartDate, EndDate: *r.EndDate}
	}
	return tse.ExportFilter{StartSignatureCounter: *r.FirstCounter, EndSignatureCounter: *r.LastCounter,
		MaximumRecords: *r.LastCounter - *r.FirstCounter + 1}
}

// start triggers (or, after a restart, finds again) the row's export.
// The row is marked exporting before the request leaves: its export id
// was recorded when it was planned, so whatever happens to this process,
// the next run asks for the same export. A nil flight and nil error mean
// the row was settled (refused for good, or back to pending for later).
func (a *Archive) start(ctx context.Context, r *store.TSEArchive, now time.Time) (*flight, error) {
	if err := a.st.StartTSEArchiveExport(ctx, r.ID); err != nil {
		return nil, err
	}
	exp, err := a.ex.StartExport(ctx, r.ExportID, filterOf(r))
	if err != nil {
		code, why := tse.Describe(err)
		switch {
		case code == codeDuplicateExport || code == codeExportInProgress:
			// It exists already (triggered before a restart): follow it.
			exp, err = a.ex.Export(ctx, r.ExportID)
			if err != nil {
				return nil, a.retry(ctx, r, now, false, err)
			}
		case code == codeTooManyExports || code == codeDuplicateLimited || tse.ClassOf(err) == tse.RateLimited:
			if rerr := a.st.RetryTSEArchive(ctx, r.ID, now, false, code, why); rerr != nil {
				return nil, rerr
			}
			return nil, fmt.Errorf("%w: %w", errBusy, err)
		default:
			return nil, a.retry(ctx, r, now, false, err)
		}
	}
	a.log.Info("archive: export triggered", "archive_id", r.ID, "export_id", r.ExportID, "state", exp.State)
	f := &flight{row: r, interval: minPollInterval, nextCall: now.Add(max(minPollInterval, exp.RetryAfter))}
	return f, a.follow(ctx, f, exp, now)
}

// follow acts on an export's state: wait, download next, or settle the
// row when the provider gave up on it.
func (a *Archive) follow(ctx context.Context, f *flight, exp tse.Export, now time.Time) error {
	switch exp.State {
	case tse.ExportCompleted:
		f.completed = true
	case tse.ExportError:
		code := exp.Exception
		if code == "" {
			code = "E_EXPORT_ERROR"
		}
		return a.giveUp(ctx, f.row, now, code, "the provider could not produce the export ("+code+")")
	case tse.ExportCancelled:
		return a.giveUp(ctx, f.row, now, "E_EXPORT_CANCELLED", "the export was cancelled at the provider")
	default: // PENDING, WORKING
		f.interval = min(2*f.interval, maxPollInterval)
		f.nextCall = now.Add(max(f.interval, exp.RetryAfter))
	}
	return nil
}

// giveUp settles a row whose export the provider will not deliver: an
// incremental range gets a new export id and waits for a later run; an
// admin's dates export ends failed.
func (a *Archive) giveUp(ctx context.Context, r *store.TSEArchive, now time.Time, code, reason string) error {
	a.log.Warn("archive: export failed at the provider", "archive_id", r.ID, "export_id", r.ExportID, "code", code)
	if r.Kind == store.TSEArchiveDates {
		return a.st.FailTSEArchive(ctx, r.ID, code, reason)
	}
	return a.st.RetryTSEArchive(ctx, r.ID, now.Add(retryRejected), true, code, reason)
}

// retry puts the row back after a provider error: a transient one for
// the next run with the same export id (returned, so the run counts it),
// anything else as the provider refusing the export.
func (a *Archive) retry(ctx context.Context, r *store.TSEArchive, now time.Time, newExport bool, err error) error {
	code, why := tse.Describe(err)
	if c := tse.ClassOf(err); c == tse.Transient || c == tse.Auth || code == codeTempUnavailable {
		if rerr := a.st.RetryTSEArchive(ctx, r.ID, now, newExport, code, why); rerr != nil {
			return rerr
		}
		return err
	}
	return a.giveUp(ctx, r, now, code, why)
}

// step makes one call for an export in flight: a poll, or the download
// once it is complete. done means the run no longer follows it.
func (a *Archive) step(ctx context.Context, f *flight, info tse.TSSInfo, pub *ecdsa.PublicKey) (done bool, err error) {
	now := a.now()
	f.nextCall = now.Add(minPollInterval) // every retrieve counts against 12 a minute
	if !f.completed {
		exp, err := a.ex.Export(ctx, f.row.ExportID)
		if err != nil {
			return a.callFailed(ctx, f, now, err)
		}
		if err := a.follow(ctx, f, exp, now); err != nil {
			return true, err
		}
		return exp.State == tse.ExportError || exp.State == tse.ExportCancelled, nil
	}
	err = a.file(ctx, f.row, info, pub)
	if err == nil {
		return true, nil
	}
	if code, _ := tse.Describe(err); code == codeExportNotComplete {
		// fiskaly: 404 with Retry-After 60 until the file is ready.
		f.completed = false
		f.nextCall = now.Add(max(minPollInterval, retryAfter(err)))
		return false, nil
	}
	var pe *tse.Error
	if !errors.As(err, &pe) {
		return true, err // the box (disk, database): the next run tries again
	}
	return a.callFailed(ctx, f, now, err)
}

// callFailed handles a failed retrieve or download.
func (a *Archive) callFailed(ctx context.Context, f *flight, now time.Time, err error) (bool, error) {
	code, _ := tse.Describe(err)
	switch {
	case tse.ClassOf(err) == tse.RateLimited:
		f.nextCall = now.Add(max(minPollInterval, retryAfter(err)))
		return false, nil
	case code == codeExportNotFound:
		// Expired or never arrived: a new export under a new id, now.
		return true, a.st.RetryTSEArchive(ctx, f.row.ID, now, true, code, "the provider no longer has the export; a new one is started")
	case tse.ClassOf(err) == tse.Transient || code == codeTempUnavailable:
		f.interval = min(2*f.interval, maxPollInterval)
		f.nextCall = now.Add(max(f.interval, retryAfter(err)))
		return false, err
	}
	return true, a.retry(ctx, f.row, now, true, err)
}

// retryAfter is the Retry-After a provider error asked for (0: none).
func retryAfter(err error) time.Duration {
	var pe *tse.Error
	if errors.As(err, &pe) {
		return pe.RetryAfter
	}
	return 0
}
