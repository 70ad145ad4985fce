package archive

import (
	"context"
	"fmt"
	"time"

	"posbox/store"
)

// DefaultAt is when the nightly export starts, restaurant-local: after
// closing, before the morning, off the TSE self-test (02:00 UTC) and the
// backup (03:00 UTC), as fiskaly asks exports to run off-peak.
const DefaultAt = "04:30"

// window is how long after At a run may still start: a box that was off
// at 04:30 catches up until 07:30, never in the middle of service (a
// large export can keep the TSS from signing).
const window = 3 * time.Hour

// Nightly starts Run once per restaurant-local date at At. cron runs in
// UTC, so main calls Check every minute and Check decides: the local time
// is within [At, At+3h) and today's run has not started. The date is
// recorded in kv before the run, so a restart during it does not start a
// second one that day (the open exports are resumed at start anyway). A
// run that failed (the provider unreachable at 04:30) is tried again every
// retryFailed while the window lasts.
type Nightly struct {
	A   *Archive
	At  string           // HH:MM local; DefaultAt when empty
	Now func() time.Time // the store's clock when nil

	again time.Time // after a failed run: the next try (zero: none)
}

// retryFailed is how soon a failed nightly run is tried again.
const retryFailed = 15 * time.Minute

func (n *Nightly) key() string { return "tse.archive.last_run." + n.A.p.TSSID() }

// Check runs the export when it is due; it returns after the run.
func (n *Nightly) Check(ctx context.Context) error {
	at := n.At
	if at == "" {
		at = DefaultAt
	}
	start, err := time.Parse(store.ClockFormat, at)
	if err != nil || len(at) != 5 {
		return fmt.Errorf("tse_archive_time: %q is not HH:MM", at)
	}
	now := n.A.now()
	if n.Now != nil {
		now = n.Now()
	}
	r, err := n.A.st.Restaurant(ctx, n.A.o.RestaurantID)
	if err != nil {
		return err
	}
	local := now.In(r.Location())
	y, m, d := local.Date()
	from := store.LocalInstant(time.Date(y, m, d, 0, 0, 0, 0, time.UTC), start.Hour()*60+start.Minute(), r.Location())
	if now.Before(from) || !now.Before(from.Add(window)) {
		return nil
	}
	date := local.Format(store.DateFormat)
	last, _, err := n.A.st.KV(ctx, n.key())
	if err != nil {
		return err
	}
	if last >= date && (n.again.IsZero() || now.Before(n.again)) {
		return nil
	}
	if err := n.A.st.SetKV(ctx, n.key(), date); err != nil {
		return err
	}
	n.again = time.Time{}
	err = n.A.Run(ctx)
	if err != nil && ctx.Err() == nil {
		n.again = now.Add(retryFailed)
	}
	return err
}
