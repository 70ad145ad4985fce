package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

// Notification deliveries straight on the store: events fan out to one
// delivery per enabled rule in the event's transaction, and the claim
// hands each due delivery to exactly one dispatcher.

// mustRule creates an enabled (or disabled) webhook rule of r for typ.
func mustRule(tb testing.TB, st *Store, r *Restaurant, typ string, enabled bool) *NotificationSetting {
	tb.Helper()
	n := &NotificationSetting{RestaurantID: r.ID, Channel: ChannelWebhook, EventType: typ,
		Destination: "https://hooks.example.test/" + typ, IsEnabled: enabled}
	if err := st.CreateNotificationSetting(context.Background(), n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// deliveriesOf lists r's deliveries in status (all when "").
func deliveriesOf(tb testing.TB, st *Store, restaurantID, status string) []*Delivery {
	tb.Helper()
	ds, err := st.Deliveries(context.Background(), restaurantID, status)
	if err != nil {
		tb.Fatal(err)
	}
	return ds
}

// drainNudges empties the dispatcher's wake-up channel.
func drainNudges(st *Store) {
	for {
		select {
		case <-st.DeliveriesQueued():
		default:
			return
		}
	}
}

// TestEventsQueueOneDeliveryPerEnabledRule: every event written through
// the store's functions gets one pending delivery per enabled rule of its
// restaurant and type, due at once; disabled rules, other types and other
// restaurants get none; a commit that queued something wakes the
// dispatcher.
func TestEventsQueueOneDeliveryPerEnabledRule(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	other := mustRestaurant(t, st, "Other")
	sam := mustUser(t, st, r, "Sam", RoleStaff)
	orders := mustRule(t, st, r, "order.paid", true)
	clocks := mustRule(t, st, r, EventClockIn, true)
	mustRule(t, st, r, "order.paid", false)
	mustRule(t, st, r, "order.voided", true)
	mustRule(t, st, other, "order.paid", true)
	drainNudges(st)

	var published []*Event
	for i := range 5 {
		clock.Add(time.Second)
		e, err := st.PublishEvent(ctx, r.ID, "order.paid", map[string]int{"order": i})
		if err != nil {
			t.Fatal(err)
		}
		published = append(published, e)
	}
	select {
	case <-st.DeliveriesQueued():
	default:
		t.Fatal("publishing events with a rule did not wake the dispatcher")
	}
	if _, err := st.ClockIn(ctx, r, sam); err != nil {
		t.Fatal(err)
	}
	clockIn := eventsOf(t, st, r.ID, EventClockIn)
	if len(clockIn) != 1 {
		t.Fatalf("%d clock_in events, want 1", len(clockIn))
	}
	drainNudges(st)
	refunded, err := st.PublishEvent(ctx, r.ID, "order.refunded", nil)
	if err != nil || refunded.ID == "" {
		t.Fatal(refunded, err)
	}
	select {
	case <-st.DeliveriesQueued():
		t.Fatal("an event without a rule woke the dispatcher")
	default:
	}
	// Nothing would read it: it is not stored (nor is one of a disabled
	// rule's type or another restaurant's).
	if _, err := st.PublishEvent(ctx, other.ID, "order.voided", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(eventsOf(t, st, r.ID, "order.refunded")) + len(eventsOf(t, st, other.ID, "order.voided")); n != 0 {
		t.Fatalf("%d events without an enabled rule stored, want none", n)
	}

	ds := deliveriesOf(t, st, r.ID, "")
	if len(ds) != 6 {
		t.Fatalf("%d deliveries, want 6 (5 order.paid, 1 clock_in)", len(ds))
	}
	byEvent := map[string]*Delivery{}
	webhookIDs := map[string]bool{}
	for _, d := range ds {
		if byEvent[d.EventID] != nil {
			t.Fatalf("event %s has two deliveries", d.EventID)
		}
		byEvent[d.EventID] = d
		if d.Status != DeliveryPending || d.Attempts != 0 || !d.NextAttemptAt.Equal(d.CreatedAt) || d.LastError != nil {
			t.Fatalf("new delivery %+v", d)
		}
		if d.WebhookID != WebhookID(d.ID) || webhookIDs[d.WebhookID] {
			t.Fatalf("delivery %s webhook id %q", d.ID, d.WebhookID)
		}
		webhookIDs[d.WebhookID] = true
	}
	for _, e := range published {
		d := byEvent[e.ID]
		if d == nil || d.SettingID != orders.ID || !d.CreatedAt.Equal(e.CreatedAt) {
			t.Fatalf("event %s: delivery %+v, want one for rule %s", e.ID, d, orders.ID)
		}
	}
	if d := byEvent[clockIn[0].ID]; d == nil || d.SettingID != clocks.ID {
		t.Fatalf("clock_in event: delivery %+v, want one for rule %s", d, clocks.ID)
	}
	if ds := deliveriesOf(t, st, other.ID, ""); len(ds) != 0 {
		t.Fatalf("the other restaurant got %d deliveries", len(ds))
	}
	if c, err := st.CountDeliveries(ctx, r.ID, testStart); err != nil || c.Queued != 6 || c.FailedSince != 0 {
		t.Fatalf("CountDeliveries = %+v, %v; want 6 queued", c, err)
	}
}

// TestClaimDeliveriesConcurrent: eight dispatchers claiming small batches
// at once never get the same delivery, and between them claim every
// delivery exactly once; spread or not.
func TestClaimDeliveriesConcurrent(t *testing.T) {
	t.Run("any", func(t *testing.T) { claimConcurrently(t, nil) })
	t.Run("spread", func(t *testing.T) { claimConcurrently(t, &DeliverySpread{}) })
}

func claimConcurrently(t *testing.T, spread *DeliverySpread) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	mustRule(t, st, r, "order.paid", true)
	mustRule(t, st, r, "order.voided", true)
	// One transaction writes the fixture (a burst of sales at the tills):
	// 2×48 events, one delivery each.
	const events = 48
	if err := st.Write(ctx, func(tx *Tx) error {
		for i := range events {
			for _, typ := range []string{"order.paid", "order.voided"} {
				if _, err := InsertEvent(ctx, tx, r.ID, typ, map[string]int{"n": i}); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	clock.Add(time.Millisecond)
	all := deliveriesOf(t, st, r.ID, DeliveryPending)
	if len(all) != 2*events {
		t.Fatalf("%d pending deliveries, want %d", len(all), 2*events)
	}

	const claimers = 8
	var (
		mu      sync.Mutex
		claimed = map[string]int{} // delivery id → claimer
		wg      sync.WaitGroup
		start   = make(chan struct{})
	)
	for c := range claimers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			// More rounds than there are deliveries means something is
			// claimed twice (or claims never end).
			for round := 0; ; round++ {
				if round > len(all) {
					t.Errorf("claimer %d still claiming after %d rounds", c, round)
					return
				}
				batch, err := st.ClaimDeliveries(ctx, clock.Now(), 3, spread)
				if err != nil {
					t.Error(err)
					return
				}
				if len(batch) == 0 {
					return
				}
				if len(batch) > 3 {
					t.Errorf("claimer %d got %d deliveries, limit 3", c, len(batch))
				}
				rules := map[string]bool{}
				mu.Lock()
				for _, d := range batch {
					if prev, dup := claimed[d.ID]; dup {
						t.Errorf("delivery %s claimed by %d and %d", d.ID, prev, c)
					}
					claimed[d.ID] = c
					if d.Status != DeliveryInFlight {
						t.Errorf("claimed delivery %s has status %s", d.ID, d.Status)
					}
					if spread != nil && rules[d.SettingID] {
						t.Errorf("claimer %d got two deliveries of rule %s in one spread claim", c, d.SettingID)
					}
					rules[d.SettingID] = true
				}
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if len(claimed) != len(all) {
		t.Fatalf("%d deliveries claimed, want %d", len(claimed), len(all))
	}
	for _, d := range all {
		if _, ok := claimed[d.ID]; !ok {
			t.Fatalf("delivery %s was never claimed", d.ID)
		}
	}
	if n := len(deliveriesOf(t, st, r.ID, DeliveryInFlight)); n != len(all) {
		t.Fatalf("%d deliveries in flight, want %d", n, len(all))
	}
	if more, err := st.ClaimDeliveries(ctx, clock.Now(), 10, spread); err != nil || len(more) != 0 {
		t.Fatalf("claim after everything was claimed: %d, %v", len(more), err)
	}
}

// TestClaimDeliveriesSpread: a spread claim takes each rule's oldest due
// delivery, in due order, and none of a busy rule.
func TestClaimDeliveriesSpread(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	paid := mustRule(t, st, r, "order.paid", true)
	voided := mustRule(t, st, r, "order.voided", true)
	start := clock.Now()
	for i := range 3 {
		for _, typ := range []string{"order.voided", "order.paid"} {
			clock.Add(time.Second)
			if _, err := st.PublishEvent(ctx, r.ID, typ, map[string]int{"n": i}); err != nil {
				t.Fatal(err)
			}
		}
	}
	clock.Add(time.Second)
	got, err := st.ClaimDeliveries(ctx, clock.Now(), 10, &DeliverySpread{Busy: []string{paid.ID}})
	if err != nil || len(got) != 1 || got[0].SettingID != voided.ID {
		t.Fatalf("claim with order.paid busy = %d, %v; want order.voided's oldest alone", len(got), err)
	}
	// Due in publishing order: voided 1 s, paid 2 s, voided 3 s, ...; the
	// first voided one is in flight now.
	got, err = st.ClaimDeliveries(ctx, clock.Now(), 10, &DeliverySpread{})
	if err != nil || len(got) != 2 {
		t.Fatalf("spread claim = %d, %v; want one of each rule", len(got), err)
	}
	for i, want := range []struct {
		rule string
		due  time.Duration
	}{{paid.ID, 2 * time.Second}, {voided.ID, 3 * time.Second}} {
		if got[i].SettingID != want.rule || !got[i].NextAttemptAt.Equal(start.Add(want.due)) {
			t.Fatalf("spread claim %d: rule %s due %v; want %s due %v", i, got[i].SettingID, got[i].NextAttemptAt, want.rule, start.Add(want.due))
		}
	}
}

// TestReleasedDeliveryIsClaimableAgain: a delivery handed back unsent (a
// dispatcher stopping) is claimed again, and only it.
func TestReleasedDeliveryIsClaimableAgain(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	mustRule(t, st, r, "order.paid", true)
	for range 3 {
		if _, err := st.PublishEvent(ctx, r.ID, "order.paid", nil); err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Millisecond)
	}
	got, err := st.ClaimDeliveries(ctx, clock.Now(), 10, nil)
	if err != nil || len(got) != 3 {
		t.Fatalf("first claim: %d, %v; want 3", len(got), err)
	}
	for i := 1; i < len(got); i++ {
		if got[i-1].NextAttemptAt.After(got[i].NextAttemptAt) {
			t.Fatalf("claim not oldest first: %v after %v", got[i-1].NextAttemptAt, got[i].NextAttemptAt)
		}
	}
	if again, err := st.ClaimDeliveries(ctx, clock.Now(), 10, nil); err != nil || len(again) != 0 {
		t.Fatalf("second claim: %d, %v; want none", len(again), err)
	}

	released := got[1]
	if err := st.ReleaseDelivery(ctx, released.ID); err != nil {
		t.Fatal(err)
	}
	if d, err := st.Delivery(ctx, released.ID); err != nil || d.Status != DeliveryPending || d.Attempts != 0 {
		t.Fatalf("released delivery %+v, %v; want pending, no attempt", d, err)
	}
	again, err := st.ClaimDeliveries(ctx, clock.Now(), 10, nil)
	if err != nil || len(again) != 1 || again[0].ID != released.ID || again[0].Status != DeliveryInFlight {
		t.Fatalf("claim after release: %+v, %v; want only %s", again, err, released.ID)
	}
	// Releasing a delivery that is no longer in flight changes nothing.
	if err := st.CancelDelivery(ctx, got[0].ID, "rule deleted"); err != nil {
		t.Fatal(err)
	}
	if err := st.ReleaseDelivery(ctx, got[0].ID); err != nil {
		t.Fatal(err)
	}
	if d, err := st.Delivery(ctx, got[0].ID); err != nil || d.Status != DeliveryCancelled {
		t.Fatalf("cancelled then released: %+v, %v; want cancelled", d, err)
	}
	if more, err := st.ClaimDeliveries(ctx, clock.Now(), 10, nil); err != nil || len(more) != 0 {
		t.Fatalf("claim after releasing a cancelled delivery: %d, %v; want none", len(more), err)
	}
}

// TestDeliveryNotClaimedBeforeDue: a delivery whose retry lies in the
// future is left alone until the clock reaches it, also while other
// deliveries are due and claimed around it.
func TestDeliveryNotClaimedBeforeDue(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "R")
	rule := mustRule(t, st, r, "order.paid", true)
	if _, err := st.PublishEvent(ctx, r.ID, "order.paid", nil); err != nil {
		t.Fatal(err)
	}
	got, err := st.ClaimDeliveries(ctx, clock.Now(), 10, nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("claim: %d, %v; want 1", len(got), err)
	}
	d := got[0]
	retryAt := clock.Now().Add(5 * time.Minute)
	msg := "HTTP 503"
	if err := st.CompleteAttempt(ctx, d, Attempt{Log: &NotificationLog{RestaurantID: r.ID, SettingID: &rule.ID,
		DeliveryID: &d.ID, Channel: rule.Channel, EventType: rule.EventType, Destination: rule.Destination,
		Status: LogFailed, Error: &msg, Attempt: 1, Temporary: true}, RetryAt: retryAt}); err != nil {
		t.Fatal(err)
	}
	if d, err := st.Delivery(ctx, d.ID); err != nil || d.Status != DeliveryPending || d.Attempts != 1 ||
		!d.NextAttemptAt.Equal(retryAt) || d.LastError == nil || *d.LastError != msg {
		t.Fatalf("after a failed attempt: %+v, %v; want pending, 1 attempt, due %v", d, err, retryAt)
	}

	if got, err := st.ClaimDeliveries(ctx, clock.Now(), 10, nil); err != nil || len(got) != 0 {
		t.Fatalf("claim before the retry is due: %d, %v; want none", len(got), err)
	}
	// A new event is due at once; the claim takes it and only it.
	clock.Add(time.Minute)
	e, err := st.PublishEvent(ctx, r.ID, "order.paid", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err = st.ClaimDeliveries(ctx, clock.Now(), 10, nil)
	if err != nil || len(got) != 1 || got[0].EventID != e.ID {
		t.Fatalf("claim with one delivery due: %+v, %v; want only the new event's", got, err)
	}
	clock.Add(4*time.Minute - time.Millisecond)
	if got, err := st.ClaimDeliveries(ctx, clock.Now(), 10, nil); err != nil || len(got) != 0 {
		t.Fatalf("claim 1 ms before the retry is due: %d, %v; want none", len(got), err)
	}
	clock.Add(time.Millisecond)
	got, err = st.ClaimDeliveries(ctx, clock.Now(), 10, nil)
	if err != nil || len(got) != 1 || got[0].ID != d.ID || got[0].Attempts != 1 {
		t.Fatalf("claim when due: %+v, %v; want %s with 1 attempt", got, err, d.ID)
	}
}
