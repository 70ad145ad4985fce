package replace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Old is the TSS being replaced: the fiskaly client the queue signs with
// (also against `posbox tse-sim`).
type Old interface {
	tse.Provider
	Disable(ctx context.Context) (tse.TSSInfo, error)
}

// Archiver is the old TSS's archive (fiscal/archive): its run pulls and
// verifies every range up to the TSS's counter.
type Archiver interface {
	Run(ctx context.Context) error
	Status(ctx context.Context, restaurantID string) (*store.TSEArchiveState, error)
}

// Options configure a replacer.
type Options struct {
	RestaurantID string
	DataDir      string
	// Old is nil while the built-in simulator signs: there is no TSS to
	// replace (set up fiskaly instead, docs/TSE.md).
	Old      Old
	Settings tse.Settings // the old TSS's tse.json
	Archive  Archiver
	// Setup sets up the new TSS; nil is tse.SetupReplacement.
	Setup func(ctx context.Context) (tse.Settings, error)
	// Restart is called once tse.json names the new TSS: main stops the
	// service so that it starts again signing with it.
	Restart func()
	Logger  *slog.Logger
}

// Replacer runs the replacement of the appliance's TSS.
type Replacer struct {
	st  *store.Store
	o   Options
	log *slog.Logger
	mu  sync.Mutex // one run at a time
	bg  background
}

// New builds the replacer.
func New(st *store.Store, o Options) *Replacer {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Setup == nil {
		o.Setup = func(ctx context.Context) (tse.Settings, error) {
			return tse.SetupReplacement(ctx, o.DataDir, o.Settings, logWriter{o.Logger}, o.Logger)
		}
	}
	return &Replacer{st: st, o: o, log: o.Logger.With("component", "tse-replace")}
}

func (r *Replacer) serves(restaurantID string) error {
	if restaurantID != r.o.RestaurantID {
		return store.Errorf(store.ETSENotConfigured, "no TSE is set up for this restaurant: the appliance's TSS signs for another restaurant only")
	}
	if r.o.Old == nil {
		return store.Errorf(store.ETSEReplacementRefused, "the built-in simulator signs: there is no TSE to replace; set up fiskaly with `posbox tse setup` (docs/TSE.md)")
	}
	return nil
}

// Current is the replacement under way, nil when none.
func (r *Replacer) Current(ctx context.Context, restaurantID string) (*store.TSEReplacement, error) {
	rep, err := r.st.OpenTSEReplacement(ctx, restaurantID)
	if store.IsNotFound(err) {
		return nil, nil
	}
	return rep, err
}

// Blocking says whether sales must wait: from the final export on the
// old TSS must sign nothing more, and until the restart the new one
// cannot (503 with Retry-After meanwhile).
func (r *Replacer) Blocking(ctx context.Context, restaurantID string) bool {
	rep, err := r.Current(ctx, restaurantID)
	return err == nil && rep != nil && rep.Step != store.ReplaceClosing
}

// Start begins a replacement of the TSS the queue signs with and runs
// it as far as it goes. forceReason ("" normally) lets it close the
// registers while sales still wait unsigned, only when the TSE can no
// longer sign them.
func (r *Replacer) Start(ctx context.Context, restaurantID, userID, forceReason string) (*store.TSEReplacement, error) {
	if err := r.serves(restaurantID); err != nil {
		return nil, err
	}
	if _, err := r.record(ctx, restaurantID, userID, forceReason); err != nil {
		return nil, err
	}
	return r.Continue(ctx, restaurantID)
}

// record writes a new replacement of the TSS the queue signs with.
func (r *Replacer) record(ctx context.Context, restaurantID, userID, forceReason string) (*store.TSEReplacement, error) {
	info, err := r.o.Old.TSS(ctx)
	serial := info.SerialNumber
	if err != nil {
		last, ok, lerr := r.st.CachedTSEInfo(ctx, r.o.Old.TSSID())
		if lerr != nil || !ok {
			return nil, store.Errorf(store.ETSEUnavailable, "the TSE cannot be reached and its serial number is not known yet")
		}
		serial = last.SerialNumber
	}
	rep, err := r.st.StartTSEReplacement(ctx, restaurantID, r.o.Old.TSSID(), serial, userID, forceReason)
	if err != nil {
		return nil, err
	}
	r.log.Warn("TSS replacement started", "replacement_id", rep.ID, "old_tss_id", rep.OldTSSID, "forced", rep.ForceReason != "")
	return rep, nil
}

// Continue runs the replacement under way from the step it reached up
// to the restart; a step that fails records why and stays, to be
// continued. It answers the replacement as it then stands.
func (r *Replacer) Continue(ctx context.Context, restaurantID string) (*store.TSEReplacement, error) {
	if err := r.serves(restaurantID); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		rep, err := r.st.OpenTSEReplacement(ctx, restaurantID)
		if err != nil {
			return nil, err
		}
		if rep.Step == store.ReplaceSwitch {
			if r.o.Restart != nil && r.o.Old.TSSID() == rep.OldTSSID {
				r.log.Warn("TSS replacement: restarting to sign with the new TSS", "new_tss_id", rep.NewTSSID)
				r.o.Restart()
			}
			return rep, nil
		}
		done, err := r.step(ctx, rep)
		if err != nil {
			why := err.Error()
			var se *store.Error
			if errors.As(err, &se) {
				why = se.Message
			}
			r.log.Warn("TSS replacement: step not finished", "step", rep.Step, "err", err)
			if ferr := r.st.FailTSEReplacementStep(context.WithoutCancel(ctx), rep.ID, why); ferr != nil {
				return nil, ferr
			}
			return r.st.TSEReplacement(ctx, restaurantID, rep.ID)
		}
		if err := r.st.FinishTSEReplacementStep(ctx, rep.ID, rep.Step, done); err != nil {
			return nil, err
		}
		r.log.Info("TSS replacement: step done", "step", rep.Step)
	}
}

// Finish ends a replacement at its switch once the appliance signs with
// the new TSS (after the restart): the change is recorded. newTSSID is
// the TSS the queue signs with now.
func (r *Replacer) Finish(ctx context.Context, restaurantID, newTSSID string) (*store.TSEReplacement, error) {
	rep, err := r.Current(ctx, restaurantID)
	if err != nil || rep == nil || rep.Step != store.ReplaceSwitch || rep.NewTSSID != newTSSID {
		return rep, err
	}
	if err := r.st.RecordTSEReplaced(ctx, rep.ID, localDate(r.st.Now(), r.loc(ctx, restaurantID))); err != nil {
		return nil, err
	}
	r.log.Warn("TSS replaced: the appliance signs with the new TSS; report the change to the tax office (§ 146a (4) AO)",
		"old_serial", rep.OldSerial, "new_serial", rep.NewSerial)
	return r.st.TSEReplacement(ctx, restaurantID, rep.ID)
}

func (r *Replacer) loc(ctx context.Context, restaurantID string) *time.Location {
	if rs, err := r.st.Restaurant(ctx, restaurantID); err == nil {
		return rs.Location()
	}
	return time.UTC
}

func localDate(t time.Time, loc *time.Location) string { return t.In(loc).Format(store.DateFormat) }

// logWriter passes the setup's progress lines to the log.
type logWriter struct{ log *slog.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	w.log.Info("TSS replacement: setup", "progress", strings.TrimSpace(string(p)))
	return len(p), nil
}

// refused is a step that cannot go on as things stand.
func refused(format string, args ...any) error {
	return store.Errorf(store.ETSEReplacementRefused, "%s", fmt.Sprintf(format, args...))
}
