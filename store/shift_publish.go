package store

import (
	"context"
	"time"
)

// Publishing the plan of a week (docs/TIMECLOCK.md "Drafts and
// publishing"): a new shift is a draft until its week is published; then
// staff see it in their own plan (UserShifts) and shift_change is
// raised.

// ShiftWeek is a week of the plan, Monday to Sunday (local dates).
type ShiftWeek struct {
	From, To string
}

// WeekOf is the week (Monday to Sunday) of a local date YYYY-MM-DD; field
// names the member in the error of a date that is no date.
func WeekOf(field, date string) (ShiftWeek, error) {
	d, err := time.Parse(DateFormat, date)
	if err != nil {
		return ShiftWeek{}, Invalid(field, FNotDate, "must be a date YYYY-MM-DD")
	}
	monday := d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	return ShiftWeek{monday.Format(DateFormat), monday.AddDate(0, 0, 6).Format(DateFormat)}, nil
}

// PublishWeek publishes every draft shift of the week that is not
// cancelled and raises one shift_change ("published") per shift, in one
// transaction. Publishing again publishes only what was drafted since:
// a second call finds nothing and raises nothing (the conditional UPDATE
// makes it idempotent also when two run at once). A cancelled draft stays
// a draft: nobody was told about it, so there is nothing to take back.
func (s *Store) PublishWeek(ctx context.Context, r *Restaurant, by *User, w ShiftWeek) ([]*Shift, error) {
	var out []*Shift
	err := s.write(ctx, func(tx *Tx) error {
		drafts, err := queryAll(ctx, tx, scanShift, `SELECT `+shiftColumns+` FROM shifts s JOIN users u ON u.id = s.user_id
			WHERE s.restaurant_id = ? AND s.shift_date >= ? AND s.shift_date <= ?
			AND s.published_at IS NULL AND s.status <> 'cancelled'
			ORDER BY s.shift_date, s.start_time, u.name, s.id`, r.ID, w.From, w.To)
		if err != nil {
			return err
		}
		now := tx.Now
		for _, sh := range drafts {
			res, err := tx.ExecContext(ctx, `UPDATE shifts SET published_at = ? WHERE id = ? AND published_at IS NULL`,
				FormatTime(now), sh.ID)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				continue
			}
			sh.PublishedAt = &now
			if err := shiftEvent(ctx, tx, r, by, "published", sh, nil, nil); err != nil {
				return err
			}
			out = append(out, sh)
		}
		return nil
	})
	return out, err
}
