package registration

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
)

// fakeTSS answers as the queue does: the TSS it signs with now.
type fakeTSS struct {
	kind, serial, restaurant string
	err                      error
}

func (f *fakeTSS) TSS(context.Context, string) (store.TSEInfo, bool, error) {
	return store.TSEInfo{SerialNumber: f.serial}, true, f.err
}
func (f *fakeTSS) Kind() string         { return f.kind }
func (f *fakeTSS) RestaurantID() string { return f.restaurant }

// TestTSEWatchRaisesOncePerNewTSS: the first certified TSS and each one
// replacing it raise registration_due once (the replaced one out of
// service too), however often the watch runs; the simulator and an
// unreachable provider raise nothing.
func TestTSEWatchRaisesOncePerNewTSS(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	st, err := store.Open(ctx, t.TempDir(), store.Options{Now: clock.Now, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Trattoria", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateNotificationSetting(ctx, &store.NotificationSetting{RestaurantID: r.ID, Channel: store.ChannelWebhook,
		EventType: store.EventRegistrationDue, Destination: "https://hooks.example.test/x", IsEnabled: true}); err != nil {
		t.Fatal(err)
	}
	q := &fakeTSS{kind: tse.KindSimulator, serial: "51m", restaurant: r.ID}
	w := TSEWatch{Store: st, TSS: q}
	run := func() {
		t.Helper()
		if err := w.Check(ctx); err != nil {
			t.Fatal(err)
		}
	}
	count := func() int {
		t.Helper()
		evs, err := st.Events(ctx, r.ID, store.EventRegistrationDue, 100)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	run()
	if n := count(); n != 0 {
		t.Fatalf("the simulator raised %d", n)
	}
	q.kind, q.serial, q.err = tse.KindFiskaly, "", store.Errorf(store.ETSEUnavailable, "unreachable")
	run()
	q.serial, q.err = "aaaa", nil
	run()
	run()
	if n := count(); n != 1 {
		t.Fatalf("the first TSS raised %d, want 1", n)
	}
	clock.Set(time.Date(2027, 1, 31, 12, 0, 0, 0, time.UTC))
	q.serial = "bbbb" // a replacement, whatever made it
	run()
	run()
	open, err := st.OpenRegistrationChanges(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 3 || len(open) != 3 || open[1].Change != store.TSEOutOfService || open[1].Subject != "aaaa" ||
		open[2].Change != store.TSEInService || open[2].Subject != "bbbb" || open[2].DueOn != "2027-02-28" {
		t.Fatalf("%d events, open %+v", n, open)
	}
}
