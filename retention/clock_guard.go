package retention

import (
	"context"
	"time"
)

// clockLeadMax is how far the wall clock may run ahead of the newest
// record before the job distrusts it: a restaurant closed for a week
// writes nothing, a clock years ahead (no real-time clock, a bad time
// server) has nothing from "now".
const clockLeadMax = 7 * 24 * time.Hour

// timeRecordsTrusted says whether now may decide which time records go:
// deleting them is irrecoverable, so a clock that runs far ahead of every
// record, or a cutoff that would jump more than a year past the last
// run's, is not trusted. It logs why not (no personal data); the next run
// tries again.
func (j *Job) timeRecordsTrusted(ctx context.Context, restaurantID string, now, cutoff time.Time) (bool, error) {
	newest, err := j.st.NewestRecord(ctx, restaurantID)
	if err != nil {
		return false, err
	}
	if !newest.IsZero() && now.Sub(newest) > clockLeadMax {
		j.opt.Logger.Warn("retention: the clock is far ahead of the newest record; time records are not pruned this run",
			"now", now.UTC(), "newest_record", newest.UTC())
		return false, nil
	}
	last, ok, err := j.st.TimeRecordsCutoff(ctx, restaurantID)
	if err != nil {
		return false, err
	}
	if ok && cutoff.After(last.AddDate(1, 0, 0)) {
		j.opt.Logger.Warn("retention: the time records' cutoff would move more than a year at once; time records are not pruned this run",
			"cutoff", cutoff.UTC(), "last_cutoff", last.UTC())
		return false, nil
	}
	return true, nil
}
