package notify

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"posbox/store"
)

// DailyReporter publishes each restaurant's daily_report once per local
// date. cron runs in UTC and restaurants keep their own clocks, so it is
// called every minute and decides per restaurant: once the local time has
// passed At, the previous local day's report is due. The published date
// is recorded with the event in one transaction (store.PublishDailyReport),
// so a restart or an extra run never sends it twice. A box that was off
// at report time sends yesterday's report when it is back the same day; a
// day the box missed entirely gets no report.
type DailyReporter struct {
	St  *store.Store
	At  string           // HH:MM local; 06:00 when empty
	Now func() time.Time // the store's clock when nil
	Log *slog.Logger
}

// Run checks every restaurant once; cron calls it every minute.
func (d *DailyReporter) Run(ctx context.Context) error {
	now := d.St.Now()
	if d.Now != nil {
		now = d.Now()
	}
	at := d.At
	if at == "" {
		at = "06:00"
	}
	if _, err := time.Parse(store.ClockFormat, at); err != nil {
		return fmt.Errorf("daily_report_time: %q is not HH:MM", at)
	}
	rs, err := d.St.Restaurants(ctx)
	if err != nil {
		return err
	}
	for _, r := range rs {
		local := now.In(r.Location())
		if local.Format(store.ClockFormat) < at {
			continue // yesterday's report is due from At on
		}
		y, m, day := local.Date()
		date := time.Date(y, m, day, 12, 0, 0, 0, time.UTC).AddDate(0, 0, -1).Format(store.DateFormat)
		last, err := d.St.LastDailyReport(ctx, r.ID)
		if err != nil {
			return err
		}
		if last >= date {
			continue
		}
		rep, err := d.St.BuildDailyReport(ctx, r, date)
		if err != nil {
			return err
		}
		sent, err := d.St.PublishDailyReport(ctx, r.ID, rep)
		if err != nil {
			return err
		}
		if sent && d.Log != nil {
			d.Log.Info("daily report published", "restaurant", r.ID, "date", date)
		}
	}
	return nil
}
