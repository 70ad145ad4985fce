package afterrestore

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Retry timing while the TSE does not answer: the box sells meanwhile,
// and the page says the comparison is pending.
const (
	retryFirst = 30 * time.Second
	retryCap   = 5 * time.Minute
)

// Checker runs the comparison after a restore for the restaurant whose
// TSS p signs (the appliance's one TSS).
type Checker struct {
	p            tse.Provider
	st           *store.Store
	restaurantID string
	log          *slog.Logger
}

// New is the checker of restaurantID's TSS.
func New(p tse.Provider, st *store.Store, restaurantID string, log *slog.Logger) *Checker {
	if log == nil {
		log = slog.Default()
	}
	return &Checker{p: p, st: st, restaurantID: restaurantID, log: log.With("component", "after-restore")}
}

// Begin turns a restore's marker in dataDir into a pending comparison and
// removes the marker; started is false without a marker. Call it before
// the tills can sell: the newest sale the database has then is the
// restored one.
func (c *Checker) Begin(ctx context.Context, dataDir string) (started bool, err error) {
	m, ok, err := readMarker(dataDir)
	if err != nil || !ok {
		return false, err
	}
	newest, err := c.st.LatestTSESaleStart(ctx, c.p.TSSID())
	if err != nil {
		return false, err
	}
	from := readBackTo(m.ReplicatedThrough, newest)
	if _, err := c.st.StartTSEAfterRestore(ctx, m.ID, c.restaurantID, c.p.TSSID(), m.RestoredAt, m.ReplicatedThrough, from); err != nil {
		return false, err
	}
	if err := os.Remove(filepath.Join(dataDir, MarkerFile)); err != nil {
		return false, fmt.Errorf("restore marker: %w", err)
	}
	c.log.Info("restored from the replica: comparing the TSE's transactions with the database",
		"replicated_through", m.ReplicatedThrough, "read_back_to", from)
	return true, nil
}

// Attempt runs the pending comparison once, if there is one: pending
// stays true when the TSE did not answer (the attempt is recorded).
func (c *Checker) Attempt(ctx context.Context) (pending bool, err error) {
	a, err := c.st.PendingTSEAfterRestore(ctx, c.restaurantID)
	if store.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	missing, err := Compare(ctx, c.p, c.st, a.ComparedFrom)
	if err != nil {
		if rerr := c.st.RecordTSEAfterRestoreAttempt(ctx, a.ID, err.Error()); rerr != nil {
			c.log.Error("record the comparison's attempt", "err", rerr)
		}
		return true, err
	}
	if err := c.st.FinishTSEAfterRestore(ctx, a.ID, missing); err != nil {
		return true, err
	}
	if len(missing) > 0 {
		c.log.Warn("the TSE signed sales the restored database does not have: re-enter them (console: dashboard)", "missing", len(missing))
	} else {
		c.log.Info("the TSE signed nothing the restored database lacks")
	}
	return c.Attempt(ctx) // an older restore may wait behind it
}

// Run retries Attempt until nothing is pending or ctx ends, waiting
// longer after each failure (30 s up to 5 minutes).
func (c *Checker) Run(ctx context.Context) {
	wait := retryFirst
	for {
		pending, err := c.Attempt(ctx)
		if !pending || ctx.Err() != nil {
			return
		}
		c.log.Warn("comparison with the TSE after the restore waits for the TSE", "err", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, retryCap)
	}
}
