package store

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/store/storetest"
)

// Shared helpers of tse_outbox_test.go, delivery_test.go, shift_test.go and
// redemption_limit_test.go: a store on a real SQLite file in a temporary
// directory, with a settable clock.

// testStart is where every test clock starts.
var testStart = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// testStoreOptions are the options of every store these tests open.
func testStoreOptions(clock *storetest.Clock) Options {
	return Options{Now: clock.Now, Logger: slog.New(slog.DiscardHandler), BcryptCost: bcrypt.MinCost}
}

// openTestStore opens (creating if needed) the store in dir on clock; it
// is closed when the test ends (closing it earlier is fine).
func openTestStore(tb testing.TB, dir string, clock *storetest.Clock) *Store {
	tb.Helper()
	st, err := Open(context.Background(), dir, testStoreOptions(clock))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// newTestStore is a fresh store in its own directory with a clock at
// testStart.
func newTestStore(tb testing.TB) (*Store, *storetest.Clock) {
	tb.Helper()
	clock := storetest.NewClock(testStart)
	return openTestStore(tb, tb.TempDir(), clock), clock
}

// mustRestaurant creates a restaurant in Europe/Berlin.
func mustRestaurant(tb testing.TB, st *Store, name string) *Restaurant {
	tb.Helper()
	r := &Restaurant{Name: name, Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(context.Background(), r); err != nil {
		tb.Fatal(err)
	}
	return r
}

// mustUser creates an active user of r with a unique email.
func mustUser(tb testing.TB, st *Store, r *Restaurant, name, role string) *User {
	tb.Helper()
	u := &User{RestaurantID: r.ID, Email: NewID() + "@test.local", Name: name, Role: role}
	if err := st.CreateUser(context.Background(), u, "password1"); err != nil {
		tb.Fatal(err)
	}
	return u
}

// queryInt runs a one-number query on the reader pool (assertions only).
func queryInt(tb testing.TB, st *Store, query string, args ...any) int64 {
	tb.Helper()
	var n int64
	if err := st.ReadDB().QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	return n
}

// eventsOf lists r's events of type typ, newest first.
func eventsOf(tb testing.TB, st *Store, restaurantID, typ string) []*Event {
	tb.Helper()
	evs, err := st.Events(context.Background(), restaurantID, typ, 1000)
	if err != nil {
		tb.Fatal(err)
	}
	return evs
}

// notifyOn subscribes r to each event type with an enabled rule
// (mustRule), so the events of those types are stored: one no enabled
// rule wants is not written (InsertEvent). Call it before the action
// that raises them.
func notifyOn(tb testing.TB, st *Store, r *Restaurant, types ...string) {
	tb.Helper()
	for _, typ := range types {
		mustRule(tb, st, r, typ, true)
	}
}

// eventData decodes an event's JSON data.
func eventData(tb testing.TB, e *Event) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Data, &m); err != nil {
		tb.Fatalf("event %s data %s: %v", e.ID, e.Data, err)
	}
	return m
}
