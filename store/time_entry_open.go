package store

import (
	"context"
	"time"
)

// An entry open longer than its restaurant's limit (default 16 h) is a
// forgotten clock-out: it is flagged for review and raises
// time_entry_open_too_long once. It is never closed silently: an admin
// closes it with a reason (CloseTimeEntry).

// OpenTooLongEvent is the data of a time_entry_open_too_long event.
type OpenTooLongEvent struct {
	TimeEntry  eventTimeEntry `json:"time_entry"`
	LocalTime  string         `json:"local_time"` // the clock-in on the wall clock
	OpenHours  int            `json:"open_hours"` // whole hours open when flagged
	LimitHours int            `json:"limit_hours"`
	Timezone   string         `json:"timezone"`
}

// OpenTooLong reports whether e is open past the restaurant's limit at now.
func (r *Restaurant) OpenTooLong(e *TimeEntry, now time.Time) bool {
	return e.ClockOut == nil && now.Sub(e.ClockIn) > time.Duration(r.OpenEntryLimitHours)*time.Hour
}

// FlagOpenEntries flags every open entry past its restaurant's limit that
// is not flagged yet, and raises its event, in one transaction: the flag
// is stored with the event, so a restart or a second run raises nothing
// again. It answers how many it flagged.
func (s *Store) FlagOpenEntries(ctx context.Context) (int, error) {
	rs, err := s.Restaurants(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rs {
		// Most runs find nothing: look on the reader first, so the check
		// does not take the writer every five minutes for nothing.
		var due int
		if err := s.rdb.QueryRowContext(ctx, `SELECT count(*) FROM time_entries INDEXED BY time_entries_one_open WHERE restaurant_id = ? AND clock_out IS NULL
			AND open_flagged_at IS NULL AND clock_in < ?`, r.ID, FormatTime(s.now().Add(-time.Duration(r.OpenEntryLimitHours)*time.Hour))).Scan(&due); err != nil {
			return n, err
		}
		if due == 0 {
			continue
		}
		err := s.write(ctx, func(tx *Tx) error {
			limit := tx.Now.Add(-time.Duration(r.OpenEntryLimitHours) * time.Hour)
			es, err := queryAll(ctx, tx, scanTimeEntry, `SELECT `+timeEntryColumns+` FROM time_entries t INDEXED BY time_entries_one_open JOIN users u ON u.id = t.user_id
				WHERE t.restaurant_id = ? AND t.clock_out IS NULL AND t.open_flagged_at IS NULL AND t.clock_in < ? ORDER BY t.clock_in`,
				r.ID, FormatTime(limit))
			if err != nil {
				return err
			}
			for _, e := range es {
				if _, err := tx.ExecContext(ctx, `UPDATE time_entries SET open_flagged_at = ? WHERE id = ? AND open_flagged_at IS NULL`,
					FormatTime(tx.Now), e.ID); err != nil {
					return err
				}
				d := OpenTooLongEvent{
					TimeEntry: eventTimeEntry{ID: e.ID, UserID: e.UserID, UserName: e.UserName, ClockIn: FormatTime(e.ClockIn), BreakMinutes: e.BreakMinutes},
					LocalTime: e.ClockIn.In(r.Location()).Format("2006-01-02 15:04"), OpenHours: int(tx.Now.Sub(e.ClockIn) / time.Hour),
					LimitHours: r.OpenEntryLimitHours, Timezone: r.Timezone}
				if _, err := InsertEvent(ctx, tx, r.ID, EventTimeEntryOpenTooLong, d); err != nil {
					return err
				}
				n++
			}
			return nil
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
