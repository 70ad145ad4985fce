package seed

import (
	"context"
	"time"

	"posbox/store"
)

// The plan: a lunch and an evening service every day, each person at
// most one shift a day (11 hours' rest between them). The evening shift
// is six hours with a 30-minute break.
var services = []struct {
	start, end   string
	breakMinutes int
	people       int
	role         string
}{
	{"11:00", "15:00", 0, 5, "Service"},
	{"17:00", "23:00", 30, 8, "Küche"},
}

// correctionsPerHundred of the time entries an admin corrects the next
// morning (a forgotten clock-out, a break not taken).
const correctionsPerHundred = 3

// planWeek drafts the week (Monday to Sunday) around date for the active
// staff and publishes it, as an admin does on the Thursday before.
func (g *gen) planWeek(ctx context.Context, date time.Time) error {
	w, err := store.WeekOf("date", date.Format(store.DateFormat))
	if err != nil {
		return err
	}
	monday, _ := time.ParseInLocation(store.DateFormat, w.From, g.loc)
	if pub := g.at(monday.AddDate(0, 0, -4), 10, 0); pub.After(g.clock.Now()) {
		g.clock.Set(pub)
	}
	for d := range 7 {
		day := monday.AddDate(0, 0, d).Format(store.DateFormat)
		order := g.rnd.Perm(len(g.staff))
		k := 0
		for _, sv := range services {
			for range sv.people {
				u := g.staff[order[k%len(order)]]
				k++
				sh := &store.Shift{RestaurantID: g.r.ID, UserID: u.ID, ShiftDate: day, StartTime: sv.start, EndTime: sv.end,
					BreakMinutes: sv.breakMinutes, Role: sv.role}
				if err := g.st.CreateShift(ctx, g.r, g.admin, sh, false); err != nil {
					return err
				}
				g.res.Shifts++
			}
		}
	}
	_, err = g.st.PublishWeek(ctx, g.r, g.admin, w)
	return err
}

// timeEntries punches the day's shifts of the staff still there, a few
// minutes off the plan; today only up to the present (who is in now stays
// clocked in).
func (g *gen) timeEntries(ctx context.Context, day time.Time, today bool) error {
	shifts, err := g.st.Shifts(ctx, g.r.ID, day.Format(store.DateFormat), day.Format(store.DateFormat))
	if err != nil {
		return err
	}
	active := map[string]*store.User{}
	for _, u := range g.staff {
		active[u.ID] = u
	}
	for _, sh := range shifts {
		u := active[sh.UserID]
		if u == nil || sh.Status == store.ShiftCancelled {
			continue
		}
		in := sh.StartsAt.Add(time.Duration(g.rnd.IntN(15)-10) * time.Minute)
		out := sh.EndsAt.Add(time.Duration(g.rnd.IntN(25)-5) * time.Minute)
		if today && in.After(g.o.Now) {
			continue
		}
		g.clock.Set(in)
		e, err := g.st.ClockIn(ctx, g.r, u)
		if err != nil {
			return err
		}
		g.res.TimeEntries++
		if today && out.After(g.o.Now) {
			continue
		}
		g.clock.Set(out)
		if _, err := g.st.ClockOut(ctx, g.r, u, sh.BreakMinutes); err != nil {
			return err
		}
		if !today && g.rnd.IntN(100) < correctionsPerHundred {
			if err := g.correct(ctx, e, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// correct is the admin's correction the next morning: the clock-out a
// quarter of an hour later (forgotten at the door).
func (g *gen) correct(ctx context.Context, e *store.TimeEntry, out time.Time) error {
	g.clock.Set(out.Add(10 * time.Hour))
	_, err := g.st.CorrectTimeEntry(ctx, g.r, g.admin, e.ID, store.EntryUpdate{ClockOut: store.Of(out.Add(15 * time.Minute))},
		"Ausstempeln vergessen, Ende laut Kollegin")
	if err == nil {
		g.res.Corrections++
	}
	return err
}
