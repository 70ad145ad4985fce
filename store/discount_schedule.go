package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxScheduleWindows caps a discount's schedule: four ranges on each day
// of the week.
const MaxScheduleWindows = 28

// ScheduleWindow is one weekly window of a discount, in the restaurant's
// local wall-clock time: Weekday 1 (Monday) to 7 (Sunday), From and To
// minutes of the local day (0-1439). To <= From runs past midnight into
// the next day (0-0 is the whole day); the window belongs to its start
// day. The rule itself is posbox/discount's OpenAt.
type ScheduleWindow struct {
	Weekday  int
	From, To int
}

// String is the window as messages show it: "5 17:00-19:00".
func (w ScheduleWindow) String() string {
	return fmt.Sprintf("%d %s-%s", w.Weekday, FormatClock(w.From), FormatClock(w.To))
}

// FormatClock renders minutes of the day as "HH:MM".
func FormatClock(m int) string {
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

// ParseClock reads a wall time "HH:MM" (00:00-23:59) as minutes after
// midnight.
func ParseClock(s string) (int, bool) { return parseClock(s) }

// sortSchedule orders windows by day, start and end: the order they are
// stored and shown in.
func sortSchedule(ws []ScheduleWindow) {
	slices.SortFunc(ws, func(a, b ScheduleWindow) int {
		return cmp.Or(cmp.Compare(a.Weekday, b.Weekday), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
}

// validSchedule checks a schedule as a whole (nil: always open). The
// server has named each malformed day or time already; these are the
// rules the table's CHECKs and key repeat.
func validSchedule(f *Fields, ws []ScheduleWindow) {
	if ws == nil {
		return
	}
	switch {
	case len(ws) == 0:
		f.Add("schedule", FTooFew, "must have at least 1 window, or be null for always", "min", 1)
		return
	case len(ws) > MaxScheduleWindows:
		f.Add("schedule", FTooMany, fmt.Sprintf("must have at most %d windows (a day with two ranges counts two)", MaxScheduleWindows),
			"max", MaxScheduleWindows)
		return
	}
	seen := make(map[ScheduleWindow]bool, len(ws))
	for _, w := range ws {
		switch {
		case w.Weekday < 1 || w.Weekday > 7:
			f.Add("schedule", FOutOfRange, "days must be from 1 (Monday) to 7 (Sunday)", "min", 1, "max", 7)
			return
		case w.From < 0 || w.From >= 24*60 || w.To < 0 || w.To >= 24*60:
			f.Add("schedule", FNotTime, "from and to must be times HH:MM")
			return
		case seen[w]:
			f.Add("schedule", FDuplicate, "has the window "+w.String()+" twice")
			return
		}
		seen[w] = true
	}
}

// scheduleColumn reads a discount's windows with its row, in one query,
// as "weekday:from:to,..." (NULL: no schedule).
const scheduleColumn = `(SELECT group_concat(weekday || ':' || from_minute || ':' || to_minute, ',')
	FROM discount_schedule_windows WHERE discount_id = discounts.id)`

// parseScheduleColumn reads scheduleColumn's text back.
func parseScheduleColumn(s sql.NullString) ([]ScheduleWindow, error) {
	if !s.Valid {
		return nil, nil
	}
	var ws []ScheduleWindow
	for part := range strings.SplitSeq(s.String, ",") {
		f := strings.Split(part, ":")
		if len(f) != 3 {
			return nil, fmt.Errorf("schedule window %q", part)
		}
		var n [3]int
		for i := range f {
			v, err := strconv.Atoi(f[i])
			if err != nil {
				return nil, fmt.Errorf("schedule window %q: %w", part, err)
			}
			n[i] = v
		}
		ws = append(ws, ScheduleWindow{Weekday: n[0], From: n[1], To: n[2]})
	}
	sortSchedule(ws)
	return ws, nil
}

// replaceSchedule stores d's windows in place of the ones it had.
func replaceSchedule(ctx context.Context, tx *Tx, d *Discount) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM discount_schedule_windows WHERE discount_id = ?`, d.ID); err != nil {
		return err
	}
	for _, w := range d.Schedule {
		if _, err := tx.ExecContext(ctx, `INSERT INTO discount_schedule_windows (discount_id, weekday, from_minute, to_minute)
			VALUES (?, ?, ?, ?)`, d.ID, w.Weekday, w.From, w.To); err != nil {
			return err
		}
	}
	return nil
}
