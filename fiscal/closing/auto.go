package closing

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"posbox/store"
)

// AutoCloser takes the daily closing (Kassenabschluss) of every register
// that had sales, once the restaurant's local time has passed At: the
// closing of the previous local day, covering every sale recorded before
// local midnight that no closing covers yet (a register the POS closed
// itself has nothing left and is skipped). It keeps no state of its own:
// what is closed is in the database, so a restart or an extra run closes
// nothing twice. cron calls it every minute (restaurants keep their own
// clocks).
type AutoCloser struct {
	St  *store.Store
	At  string           // HH:MM local
	Now func() time.Time // the store's clock when nil
	Log *slog.Logger
}

// Run checks every restaurant once.
func (a *AutoCloser) Run(ctx context.Context) error {
	now := a.St.Now()
	if a.Now != nil {
		now = a.Now()
	}
	if _, err := time.Parse(store.ClockFormat, a.At); err != nil || len(a.At) != 5 {
		return fmt.Errorf("closing_time: %q is not HH:MM", a.At)
	}
	rs, err := a.St.Restaurants(ctx)
	if err != nil {
		return err
	}
	for _, r := range rs {
		loc := r.Location()
		local := now.In(loc)
		if local.Format(store.ClockFormat) < a.At {
			continue
		}
		y, m, d := local.Date()
		today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		midnight, _ := store.LocalDayBounds(today, loc)
		serials, err := a.St.UnclosedRegisters(ctx, r.ID, midnight)
		if err != nil {
			return err
		}
		date := today.AddDate(0, 0, -1).Format(store.DateFormat)
		for _, serial := range serials {
			c, err := a.St.CreateTSEClosing(ctx, store.NewTSEClosing{RestaurantID: r.ID, ClientSerial: serial,
				BusinessDate: date, Until: midnight, Automatic: true})
			if store.ErrorCode(err) == store.EClosingEmpty {
				continue // the POS closed it meanwhile
			}
			if err != nil {
				return err
			}
			if a.Log != nil {
				a.Log.Info("daily closing taken", "restaurant", r.ID, "register", serial, "z_nr", c.ZNr, "date", date)
			}
		}
	}
	return nil
}
