package notify

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
)

func TestDisablingARuleStopsItsPendingRetries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, http.StatusServiceUnavailable)
	rule := e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
	e.event(t, "new_order", map[string]any{})
	d := e.webhookDispatcher(t)
	runOnce(t, d)
	if _, err := e.st.UpdateNotificationSetting(context.Background(), e.rest.ID, rule.ID,
		store.NotificationSettingUpdate{IsEnabled: store.Of(false)}); err != nil {
		t.Fatal(err)
	}
	e.clock.Add(48 * time.Hour)
	runOnce(t, d)
	if n := len(rcv.got()); n != 1 {
		t.Fatalf("%d requests, want 1: the disabled rule was retried", n)
	}
	if del := e.deliveries(t)[0]; del.Status != store.DeliveryCancelled || *del.LastError != "rule disabled" {
		t.Fatalf("delivery %+v", del)
	}
	// A new event for the disabled rule queues nothing.
	e.event(t, "new_order", map[string]any{})
	if n := len(e.deliveries(t)); n != 1 {
		t.Fatalf("%d deliveries, want 1", n)
	}
}

// The dispatcher re-reads the rule at send time: a delivery claimed just
// before its rule was disabled, deleted or moved to another event type is
// dropped, not sent.
func TestDeliveryDroppedWhenRuleChangedAfterClaim(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"disable", "delete", "retype"} {
		t.Run(action, func(t *testing.T) {
			e := newEnv(t)
			rcv := newReceiver(t)
			rule := e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
			e.event(t, "new_order", map[string]any{})
			ctx := context.Background()
			claimed, err := e.st.ClaimDeliveries(ctx, e.clock.Now(), 10, nil)
			if err != nil || len(claimed) != 1 {
				t.Fatalf("claimed %d, %v", len(claimed), err)
			}
			switch action {
			case "disable":
				_, err = e.st.UpdateNotificationSetting(ctx, e.rest.ID, rule.ID, store.NotificationSettingUpdate{IsEnabled: store.Of(false)})
			case "delete":
				err = e.st.DeleteNotificationSetting(ctx, e.rest.ID, rule.ID)
			case "retype": // the rule now wants another event type
				_, err = e.st.UpdateNotificationSetting(ctx, e.rest.ID, rule.ID, store.NotificationSettingUpdate{EventType: store.Of("low_stock")})
			}
			if err != nil {
				t.Fatal(err)
			}
			e.webhookDispatcher(t).deliver(ctx, claimed[0])
			if len(rcv.got()) != 0 || len(e.logs(t)) != 0 {
				t.Fatal("a delivery of a disabled or deleted rule was sent")
			}
			if del := e.deliveries(t)[0]; del.Status != store.DeliveryCancelled {
				t.Fatalf("delivery %+v", del)
			}
		})
	}
}

// countingReceiver counts requests per webhook-id.
type countingReceiver struct {
	*receiver
}

func (r countingReceiver) perID() map[string]int {
	m := map[string]int{}
	for _, h := range r.got() {
		m[h.Header.Get("webhook-id")]++
	}
	return m
}

func wantExactlyOnce(t testing.TB, e *env, r countingReceiver, n int) {
	t.Helper()
	per := r.perID()
	if len(per) != n {
		t.Fatalf("%d distinct deliveries arrived, want %d", len(per), n)
	}
	for id, c := range per {
		if c != 1 {
			t.Fatalf("%s arrived %d times", id, c)
		}
	}
	for _, d := range e.deliveries(t) {
		if d.Status != store.DeliveryDelivered || d.Attempts != 1 {
			t.Fatalf("delivery %+v", d)
		}
	}
}

// Stopping the dispatcher mid-queue and reopening the store (a restart):
// every delivery still arrives, exactly once.
func TestStopMidQueueAndRestartDeliversEverythingOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := countingReceiver{newReceiver(t)}
	e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
	const n = 16
	for i := 0; i < n; i++ {
		e.event(t, "new_order", map[string]any{"order_number": i})
	}
	ctx, stop := context.WithCancel(context.Background())
	rcv.mu.Lock()
	rcv.onHit = func(c int) {
		if c == 5 {
			stop() // stop while sends are under way
		}
	}
	rcv.mu.Unlock()
	done := make(chan error)
	go func() { done <- e.webhookDispatcher(t).Run(ctx) }()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	first := len(rcv.got())
	if first >= n {
		t.Fatalf("the stop came too late to test anything (%d sent)", first)
	}
	for _, d := range e.deliveries(t) {
		if d.Status == store.DeliveryInFlight {
			t.Fatalf("a stop left %s in flight", d.ID)
		}
	}
	// Restart: close and reopen the store, start a new dispatcher.
	e.st.Close()
	e.open(t)
	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	go func() { done <- e.webhookDispatcher(t).Run(ctx2) }()
	poll.Until(t, 20*time.Second, "all deliveries", func() bool { return len(rcv.got()) >= n })
	stop2()
	<-done
	wantExactlyOnce(t, e, rcv, n)
}

// A crash leaves claimed deliveries in flight; the next start sends them.
func TestCrashLeftInFlightIsSentAfterRestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := countingReceiver{newReceiver(t)}
	e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
	for i := 0; i < 5; i++ {
		e.event(t, "new_order", map[string]any{"order_number": i})
	}
	// The "crashed" dispatcher claimed three and died before sending.
	if c, err := e.st.ClaimDeliveries(context.Background(), e.clock.Now(), 3, nil); err != nil || len(c) != 3 {
		t.Fatalf("claimed %d, %v", len(c), err)
	}
	e.st.Close()
	e.open(t)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- e.webhookDispatcher(t).Run(ctx) }()
	poll.Until(t, 20*time.Second, "all deliveries", func() bool { return len(rcv.got()) >= 5 })
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	wantExactlyOnce(t, e, rcv, 5)
}

// Several dispatchers, on one store and on a second store opened on the
// same file, never send a delivery twice: a claim is atomic.
func TestConcurrentDispatchersSendEachDeliveryOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := countingReceiver{newReceiver(t)}
	e.rule(t, store.ChannelWebhook, "new_order", rcv.URL)
	e.rule(t, store.ChannelWebhook, "new_order", rcv.URL+"/second")
	second, err := store.Open(context.Background(), e.dir, store.Options{Now: e.clock.Now, Logger: discard, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	ws, _ := NewWebhookSender(WebhookConfig{})
	senders := map[string]Sender{store.ChannelWebhook: ws}
	ds := []*Dispatcher{e.dispatcher(t, senders), e.dispatcher(t, senders),
		New(second, Options{Senders: senders, Now: e.clock.Now, Logger: discard, Poll: 5 * time.Millisecond})}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Add(1)
		go func() { defer wg.Done(); d.work(ctx) }() // no start-up recovery: see Run
	}
	// Events arrive while the dispatchers run, from several writers.
	const writers, each = 2, 6
	var pub sync.WaitGroup
	for w := 0; w < writers; w++ {
		pub.Add(1)
		go func() {
			defer pub.Done()
			for i := 0; i < each; i++ {
				if _, err := e.st.PublishEvent(ctx, e.rest.ID, "new_order", map[string]any{"w": w, "i": i}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	pub.Wait()
	want := writers * each * 2
	poll.Until(t, 20*time.Second, "all deliveries", func() bool { return len(rcv.got()) >= want })
	stop()
	wg.Wait()
	wantExactlyOnce(t, e, rcv, want)
	if n := len(e.logs(t)); n != min(want, store.MaxLogLimit) {
		t.Fatalf("%d log entries", n)
	}
}

// Fan-out happens inside the producer's transaction: a rolled-back change
// leaves no event and no delivery; only the event's restaurant's enabled
// rules of its type get one.
func TestFanOutIsTransactionalAndScoped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	mine := e.rule(t, store.ChannelWebhook, "new_order", "http://10.0.0.1/")
	e.rule(t, store.ChannelWebhook, "low_stock", "http://10.0.0.1/")
	off := e.rule(t, store.ChannelEmail, "new_order", "a@b.example")
	if _, err := e.st.UpdateNotificationSetting(ctx, e.rest.ID, off.ID, store.NotificationSettingUpdate{IsEnabled: store.Of(false)}); err != nil {
		t.Fatal(err)
	}
	other := &store.Restaurant{Name: "Other", Timezone: "Europe/Vienna"}
	if err := e.st.CreateRestaurant(ctx, other); err != nil {
		t.Fatal(err)
	}
	foreign := &store.NotificationSetting{RestaurantID: other.ID, Channel: "webhook", EventType: "new_order", Destination: "http://10.0.0.2/", IsEnabled: true}
	if err := e.st.CreateNotificationSetting(ctx, foreign); err != nil {
		t.Fatal(err)
	}

	boom := errors.New("the sale failed")
	err := e.st.Write(ctx, func(tx *store.Tx) error {
		if _, err := store.InsertEvent(ctx, tx, e.rest.ID, "new_order", map[string]any{}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) || len(e.deliveries(t)) != 0 {
		t.Fatalf("a rolled-back event left %d deliveries (%v)", len(e.deliveries(t)), err)
	}
	if evs, _ := e.st.Events(ctx, e.rest.ID, "", 10); len(evs) != 0 {
		t.Fatal("a rolled-back event was kept")
	}

	ev := e.event(t, "new_order", map[string]any{})
	ds := e.deliveries(t)
	if len(ds) != 1 || ds[0].SettingID != mine.ID || ds[0].EventID != ev.ID || ds[0].Status != store.DeliveryPending ||
		ds[0].WebhookID != store.WebhookID(ds[0].ID) {
		t.Fatalf("deliveries %+v", ds)
	}
	if theirs, _ := e.st.Deliveries(ctx, other.ID, ""); len(theirs) != 0 {
		t.Fatal("another restaurant's rule got a delivery")
	}
}
