package dsfinvk

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/store"
	"posbox/store/storetest"
)

type exportEnv struct {
	st    *store.Store
	clock *storetest.Clock
	r     *store.Restaurant
}

// newExportEnv opens a real SQLite file with one restaurant.
func newExportEnv(t testing.TB, at time.Time) *exportEnv {
	t.Helper()
	clock := storetest.NewClock(at)
	st, err := store.Open(context.Background(), t.TempDir(), store.Options{Now: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &store.Restaurant{Name: "Zum Löwen", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return &exportEnv{st: st, clock: clock, r: r}
}
