package retention

import (
	"context"
	"time"

	"posbox/store"
)

// clockLeadMax is how far the wall clock may run ahead of the newest
// record before the job distrusts it: a restaurant closed for a week
// writes nothing, a clock years ahead (no real-time clock, a bad time
// server) has nothing from "now".
const clockLeadMax = 7 * 24 * time.Hour

// timeRecordsTrusted says whether now may decide which time records go:
// deleting them is irrecoverable, so a clock that runs far ahead of every
// record, or a cutoff that would jump more than a year past the last
// run's, is not trusted unless an admin confirmed the clock for this
// cutoff (docs/RETENTION.md). A doubt is logged (no personal data) and
// kept as the restaurant's hold for the console; the next run tries again.
func (j *Job) timeRecordsTrusted(ctx context.Context, restaurantID string, now time.Time, c store.RetentionCutoffs, loc *time.Location) (bool, error) {
	hold, err := j.clockDoubt(ctx, restaurantID, now, c, loc)
	if err != nil {
		return false, err
	}
	if hold == nil {
		return true, j.st.ReleaseRetention(ctx, restaurantID)
	}
	confirmed, err := j.st.RetentionConfirmedBefore(ctx, restaurantID)
	if err != nil {
		return false, err
	}
	if confirmed != "" && c.TimeRecordsDate <= confirmed {
		j.opt.Logger.Info("retention: an admin confirmed the clock; time records are pruned",
			"delete_before", c.TimeRecordsDate, "reason", hold.Reason)
		return true, j.st.ReleaseRetention(ctx, restaurantID)
	}
	if hold.Reason == store.HoldClockAhead {
		j.opt.Logger.Warn("retention: the clock is far ahead of the newest record; time records are not pruned this run",
			"now", now.UTC(), "newest_record", hold.NewestRecord.UTC())
	} else {
		j.opt.Logger.Warn("retention: the time records' cutoff would move more than a year at once; time records are not pruned this run",
			"delete_before", hold.DeleteBefore, "last_delete_before", hold.LastDeleteBefore)
	}
	return false, j.st.HoldRetention(ctx, restaurantID, *hold)
}

// clockDoubt is why the clock is not trusted for cutoff c, or nil.
func (j *Job) clockDoubt(ctx context.Context, restaurantID string, now time.Time, c store.RetentionCutoffs, loc *time.Location) (*store.RetentionHold, error) {
	newest, err := j.st.NewestRecord(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	last, ok, err := j.st.TimeRecordsCutoff(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	h := &store.RetentionHold{DeleteBefore: c.TimeRecordsDate}
	if !newest.IsZero() {
		h.NewestRecord = &newest
	}
	if ok {
		h.LastDeleteBefore = last.In(loc).Format(time.DateOnly)
	}
	switch {
	case !newest.IsZero() && now.Sub(newest) > clockLeadMax:
		h.Reason = store.HoldClockAhead
	case ok && c.TimeRecords.After(last.AddDate(1, 0, 0)):
		h.Reason = store.HoldCutoffJump
	default:
		return nil, nil
	}
	return h, nil
}
