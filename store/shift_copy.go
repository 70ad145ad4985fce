package store

import (
	"context"
	"time"
)

// Copying the plan of one week into another (docs/TIMECLOCK.md "Copy a
// week").

// Reasons a shift is not copied.
const (
	CopySkipOverlap      = "overlap"       // it would overlap a shift the person already has
	CopySkipUserInactive = "user_inactive" // its person is disabled or deleted
	CopySkipNoLength     = "no_length"     // its wall times do not exist on the new date (DST)
)

// CopySkip is a shift of the source week that was not copied, and why.
type CopySkip struct {
	Source *Shift
	Reason string
}

// CopyWeek copies every non-cancelled shift of week from into week to,
// weekday for weekday, at the same local wall times (so a shift keeps its
// 22:00-06:00 across a DST change, its real length follows the clocks),
// with its break, role and notes. The copies are pending drafts. A shift
// that would overlap one its person already has, whose person is no
// longer active, or whose times do not exist on the new date is skipped
// and named. It all happens in one write transaction, so two copies at
// once cannot both land: the second finds the first's shifts and skips
// them all as overlaps.
func (s *Store) CopyWeek(ctx context.Context, r *Restaurant, from, to ShiftWeek) (copied []*Shift, skipped []CopySkip, err error) {
	if from == to {
		return nil, nil, Invalid("to_week", FEqualsField, "must be another week than from_week", "field", "from_week")
	}
	f0, _ := time.Parse(DateFormat, from.From)
	t0, _ := time.Parse(DateFormat, to.From)
	days := int((t0.Unix() - f0.Unix()) / 86400) // not Sub: a Duration ends at 292 years
	loc := r.Location()
	err = s.write(ctx, func(tx *Tx) error {
		copied, skipped = nil, nil
		src, err := queryAll(ctx, tx, scanShift, `SELECT `+shiftColumns+` FROM shifts s JOIN users u ON u.id = s.user_id
			WHERE s.restaurant_id = ? AND s.shift_date >= ? AND s.shift_date <= ? AND s.status <> 'cancelled'
			ORDER BY s.shift_date, s.start_time, u.name, s.id`, r.ID, from.From, from.To)
		if err != nil {
			return err
		}
		for _, old := range src {
			if !old.UserActive {
				skipped = append(skipped, CopySkip{old, CopySkipUserInactive})
				continue
			}
			d, _ := time.Parse(DateFormat, old.ShiftDate)
			sh := &Shift{UserID: old.UserID, UserName: old.UserName, UserActive: true,
				ShiftDate: d.AddDate(0, 0, days).Format(DateFormat), StartTime: old.StartTime, EndTime: old.EndTime,
				BreakMinutes: old.BreakMinutes, Role: old.Role, Notes: old.Notes}
			var f Fields
			sh.resolve(&f, loc)
			if f.Err() != nil {
				skipped = append(skipped, CopySkip{old, CopySkipNoLength})
				continue
			}
			if err := checkOverlap(ctx, tx, sh); err != nil {
				if ErrorCode(err) == EShiftOverlap {
					skipped = append(skipped, CopySkip{old, CopySkipOverlap})
					continue
				}
				return err
			}
			if err := insertShift(ctx, tx, r, sh); err != nil {
				return err
			}
			if sh.Warnings, err = shiftWarnings(ctx, tx, r, sh); err != nil {
				return err
			}
			copied = append(copied, sh)
		}
		return nil
	})
	return copied, skipped, err
}
