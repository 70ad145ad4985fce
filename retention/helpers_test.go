package retention

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/store"
	"posbox/store/storetest"
)

var berlin = mustLoad("Europe/Berlin")

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// local is a Berlin wall-clock instant.
func local(y int, m time.Month, d, h, mi int) time.Time {
	return time.Date(y, m, d, h, mi, 0, 0, berlin)
}

// fixture is a real store in a temporary data dir with one restaurant, an
// admin and a staff member, on a settable clock.
type fixture struct {
	st    *store.Store
	clock *storetest.Clock
	rest  *store.Restaurant
	admin *store.User
	staff *store.User
}

func newFixture(t *testing.T, now time.Time) *fixture {
	t.Helper()
	return openFixture(t, t.TempDir(), now)
}

func openFixture(t *testing.T, dir string, now time.Time) *fixture {
	t.Helper()
	ctx := context.Background()
	clock := storetest.NewClock(now)
	st, err := store.Open(ctx, dir, store.Options{Now: clock.Now, Logger: slog.New(slog.DiscardHandler), BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{st: st, clock: clock, rest: &store.Restaurant{Name: "Zur Linde", Timezone: "Europe/Berlin"}}
	if err := st.CreateRestaurant(ctx, f.rest); err != nil {
		t.Fatal(err)
	}
	f.admin = &store.User{RestaurantID: f.rest.ID, Email: "chefin@linde.test", Name: "Anna Admin", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, f.admin, "password1"); err != nil {
		t.Fatal(err)
	}
	f.staff = &store.User{RestaurantID: f.rest.ID, Email: "kim@linde.test", Name: "Kim Koch", Role: store.RoleStaff, StaffNumber: "0042"}
	if err := st.CreateUserWith(ctx, f.staff, "password1", "4711"); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) job() *Job {
	return New(f.st, Options{Logger: slog.New(slog.DiscardHandler)})
}

// exec runs statements as one write at the store's clock (rows the API
// cannot make: back-dated records).
func (f *fixture) exec(t *testing.T, stmts ...string) {
	t.Helper()
	err := f.st.Write(context.Background(), func(tx *store.Tx) error {
		for _, s := range stmts {
			if _, err := tx.ExecContext(context.Background(), s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) count(t *testing.T, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := f.st.ReadDB().QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func ts(t time.Time) string { return store.FormatTime(t) }

// tableSums is, for each table, its row count and a hash of every value
// of every row in rowid order: equal sums mean nothing was removed or
// changed.
func (f *fixture) tableSums(t *testing.T) map[string]string {
	t.Helper()
	db := f.st.ReadDB()
	names, err := queryStrings(db, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, name := range names {
		rows, err := db.Query(`SELECT * FROM "` + name + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		h, n := sha256.New(), 0
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%v\x00", vals)
			n++
		}
		rows.Close()
		out[name] = fmt.Sprintf("%d rows %x", n, h.Sum(nil)[:8])
	}
	return out
}

func queryStrings(db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// touch records an event at the store's clock: a box in use writes every
// day, and the job prunes time records only when the clock is near the
// newest record (timeRecordsTrusted).
func (f *fixture) touch(t *testing.T) {
	t.Helper()
	f.exec(t, fmt.Sprintf(`INSERT INTO events (id, restaurant_id, type, data, created_at) VALUES ('%s', '%s', 'clock_in', '{}', '%s')`,
		store.NewID(), f.rest.ID, ts(f.clock.Now())))
}
