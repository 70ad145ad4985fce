package notify

import (
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"posbox/store"
)

// Options configure a Dispatcher; zero values get defaults.
type Options struct {
	Senders     map[string]Sender // by channel: email, sms, webhook
	Language    string            // de (default) or en
	Workers     int               // concurrent sends; 4
	Poll        time.Duration     // look for due retries this often; 1 s
	SendTimeout time.Duration     // one attempt at most; 30 s
	Now         func() time.Time  // the store's clock when nil
	Jitter      func() float64    // retry delay factor; ±20 % random when nil
	Schedule    []time.Duration   // delay before each webhook attempt; DefaultSchedule
	Logger      *slog.Logger
	HELO        string // the SMTP greeting name of senders built from saved settings
}

// Dispatcher drains the delivery queue with a small worker pool.
type Dispatcher struct {
	st       *store.Store
	senders  map[string]Sender
	lang     string
	workers  int
	poll     time.Duration
	timeout  time.Duration
	now      func() time.Time
	jitter   func() float64
	schedule []time.Duration
	log      *slog.Logger
	helo     string
}

// New builds a dispatcher over st.
func New(st *store.Store, o Options) *Dispatcher {
	d := &Dispatcher{st: st, senders: o.Senders, lang: o.Language, workers: o.Workers, poll: o.Poll,
		timeout: o.SendTimeout, now: o.Now, jitter: o.Jitter, schedule: o.Schedule, log: o.Logger, helo: o.HELO}
	if d.lang != LangEN {
		d.lang = LangDE
	}
	if d.workers <= 0 {
		d.workers = 4
	}
	if d.poll <= 0 {
		d.poll = time.Second
	}
	if d.timeout <= 0 {
		d.timeout = 30 * time.Second
	}
	if d.now == nil {
		d.now = st.Now
	}
	if d.jitter == nil {
		d.jitter = randomJitter
	}
	if d.schedule == nil {
		d.schedule = DefaultSchedule
	}
	if d.log == nil {
		d.log = slog.Default()
	}
	return d
}

// Run sends due deliveries until ctx ends. It first puts deliveries a
// crash left in flight back in the queue; it wakes on a commit that queued
// deliveries and polls for due retries. On stop, sends already under way
// finish and are recorded; claimed ones not yet started are handed back.
//
// Recovery assumes one dispatcher per database, as the appliance runs:
// a second one starting later would take back rows the first is sending.
// Claims themselves are atomic, so dispatchers that share a queue (work)
// never send a row twice.
func (d *Dispatcher) Run(ctx context.Context) error {
	if n, err := d.st.RequeueInFlight(ctx); err != nil {
		return err
	} else if n > 0 {
		d.log.Warn("notifications: deliveries left in flight by a crash are queued again", "count", n)
	}
	d.work(ctx)
	return nil
}

// work is Run without the start-up recovery.
func (d *Dispatcher) work(ctx context.Context) {
	var wg sync.WaitGroup
	defer wg.Wait()
	busy := make(chan struct{}, d.workers) // one token per running send
	freed := make(chan struct{}, d.workers)
	var mu sync.Mutex
	sending := map[string]bool{} // rules with a send under way: one each
	tick := time.NewTicker(d.poll)
	defer tick.Stop()
	for ctx.Err() == nil {
		if free := d.workers - len(busy); free > 0 {
			mu.Lock()
			skip := slices.Collect(maps.Keys(sending))
			mu.Unlock()
			items, err := d.st.ClaimDeliveries(ctx, d.now(), free, &store.DeliverySpread{Busy: skip})
			if err != nil && ctx.Err() == nil {
				d.log.Error("notifications: claim", "err", err)
			}
			for _, it := range items {
				busy <- struct{}{}
				mu.Lock()
				sending[it.SettingID] = true
				mu.Unlock()
				wg.Add(1)
				go func() {
					defer wg.Done()
					d.deliver(ctx, it)
					mu.Lock()
					delete(sending, it.SettingID)
					mu.Unlock()
					<-busy
					select {
					case freed <- struct{}{}:
					default:
					}
				}()
			}
			if len(items) == free {
				continue // maybe more are due; wait only when the pool is full
			}
		}
		select {
		case <-ctx.Done():
		case <-d.st.DeliveriesQueued():
		case <-tick.C:
		case <-freed:
		}
	}
}

// RunOnce sends everything due now, in batches of the pool's size, and
// returns how many deliveries it handled. Tests drive the queue with it
// and an injected clock.
func (d *Dispatcher) RunOnce(ctx context.Context) (int, error) {
	total := 0
	for {
		items, err := d.st.ClaimDeliveries(ctx, d.now(), d.workers, nil)
		if err != nil || len(items) == 0 {
			return total, err
		}
		var wg sync.WaitGroup
		for _, it := range items {
			wg.Add(1)
			go func() { defer wg.Done(); d.deliver(ctx, it) }()
		}
		wg.Wait()
		total += len(items)
	}
}

// deliver makes one attempt of a claimed delivery and records it.
func (d *Dispatcher) deliver(ctx context.Context, del *store.Delivery) {
	// Bookkeeping outlives a stop request: an attempt made is recorded.
	bg := context.WithoutCancel(ctx)
	log := d.log.With("delivery", del.ID, "event", del.EventID, "setting", del.SettingID)
	if ctx.Err() != nil {
		if err := d.st.ReleaseDelivery(bg, del.ID); err != nil {
			log.Error("notifications: hand back", "err", err)
		}
		return
	}
	// The rule as it is now: a disabled or deleted rule sends nothing.
	rule, err := d.st.DeliveryRule(bg, del)
	if store.IsNotFound(err) {
		rule, err = nil, nil // deleted: cancelled below
	}
	var ev *store.Event
	if err == nil {
		ev, err = d.st.Event(bg, del.EventID)
	}
	if err != nil {
		log.Error("notifications: read delivery", "err", err)
		if err := d.st.ReleaseDelivery(bg, del.ID); err != nil {
			log.Error("notifications: hand back", "err", err) // queued again at the next start
		}
		return
	}
	var drop string
	switch {
	case rule == nil:
		drop = "rule deleted"
	case !rule.IsEnabled:
		drop = "rule disabled"
	case rule.EventType != ev.Type:
		drop = "rule changed to event type " + rule.EventType
	}
	if drop != "" {
		log.Info("notifications: delivery dropped", "reason", drop)
		if err := d.st.CancelDelivery(bg, del.ID, drop); err != nil {
			log.Error("notifications: cancel", "err", err)
		}
		return
	}
	loc := time.UTC
	if r, err := d.st.Restaurant(bg, del.RestaurantID); err == nil {
		loc = r.Location()
	}
	text := Render(d.lang, ev.Type, ev.Data, loc)
	now := d.now()
	msg := Message{Channel: rule.Channel, Destination: rule.Destination, EventType: ev.Type,
		Subject: text.Subject, Text: text.Body, HTML: text.HTML, Language: d.lang,
		Body: webhookBody(ev.Type, ev.CreatedAt, ev.Data), WebhookID: del.WebhookID, Secret: rule.Secret, Now: now}
	if rule.Channel == store.ChannelSMS {
		msg.Text = text.Subject
	}
	f := d.send(bg, del.RestaurantID, msg)
	attempt := del.Attempts + 1
	entry := &store.NotificationLog{RestaurantID: del.RestaurantID, SettingID: &rule.ID, DeliveryID: &del.ID,
		Channel: rule.Channel, EventType: ev.Type, Destination: rule.Destination, Status: store.LogDelivered,
		Message: &text.Subject, Attempt: attempt, SentAt: now}
	var retryAt time.Time
	if f != nil {
		entry.Status, entry.Error, entry.Temporary = store.LogFailed, &f.Text, f.Temporary
		retryAt = d.nextAttempt(rule.Channel, attempt, f, now)
		log.Warn("notifications: attempt failed", "channel", rule.Channel, "attempt", attempt, "err", f.Text,
			"temporary", f.Temporary, "retry_at", retryAt)
	}
	if err := d.st.CompleteAttempt(bg, del, store.Attempt{Log: entry, RetryAt: retryAt}); err != nil {
		log.Error("notifications: record attempt", "err", err)
	}
}

// send makes one attempt through the restaurant's sender of the channel;
// nil is success.
func (d *Dispatcher) send(ctx context.Context, restaurantID string, m Message) *Failure {
	s, err := d.senderFor(ctx, restaurantID, m.Channel)
	if err != nil {
		return &Failure{Text: m.Channel + " settings: " + err.Error()}
	}
	if s == nil {
		return &Failure{Text: m.Channel + " is not configured"}
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	if err := s.Send(ctx, m); err != nil {
		return failure(err)
	}
	return nil
}

// webhookBody is the Standard Webhooks payload: {"type","timestamp","data"}.
func webhookBody(typ string, at time.Time, data json.RawMessage) []byte {
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	b, _ := json.Marshal(struct {
		Type      string          `json:"type"`
		Timestamp string          `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}{typ, store.FormatTime(at), data})
	return b
}

// TestTimeout bounds a test send: SMTP handshakes can be slow.
const TestTimeout = 15 * time.Second

// SendTest sends one test message synchronously (no retry, within the
// send timeout) and logs it with no rule and event type "test".
//
// A webhook test is signed exactly as a delivery is: with the secret of
// the restaurant's webhook rule for that destination, or, when no rule
// has it, with a new secret that is returned, so the receiver can check
// the signature it got.
func (d *Dispatcher) SendTest(ctx context.Context, restaurantID, channel, destination string) (*store.TestSend, error) {
	ctx, cancel := context.WithTimeout(ctx, TestTimeout)
	defer cancel()
	loc := time.UTC
	if r, err := d.st.Restaurant(ctx, restaurantID); err == nil {
		loc = r.Location()
	}
	now := d.now()
	text := Render(d.lang, store.EventTest, nil, loc)
	data, _ := json.Marshal(map[string]string{"message": text.Subject})
	msg := Message{Channel: channel, Destination: destination, EventType: store.EventTest,
		Subject: text.Subject, Text: text.Body, HTML: text.HTML, Language: d.lang,
		Body: webhookBody(store.EventTest, now, data), WebhookID: store.WebhookID(store.NewID()), Now: now}
	var out store.TestSend
	switch channel {
	case store.ChannelSMS:
		msg.Text = text.Subject
	case store.ChannelWebhook:
		secret, err := d.testSecret(ctx, restaurantID, destination)
		if err != nil {
			return nil, err
		}
		if secret == "" {
			secret = store.NewWebhookSecret()
			out.NewSecret = secret
		}
		msg.Secret = secret
	}
	f := d.send(ctx, restaurantID, msg)
	entry := &store.NotificationLog{RestaurantID: restaurantID, Channel: channel, EventType: store.EventTest,
		Destination: destination, Status: store.LogDelivered, Message: &text.Subject, Attempt: 1, SentAt: now}
	if f != nil {
		entry.Status, entry.Error, entry.Temporary = store.LogFailed, &f.Text, f.Temporary
	}
	if err := d.st.InsertNotificationLog(context.WithoutCancel(ctx), entry); err != nil {
		return nil, err
	}
	out.Log = entry
	return &out, nil
}

// testSecret is the secret of a webhook rule of the restaurant sending to
// destination ("" when none does); an enabled rule wins over a disabled one.
func (d *Dispatcher) testSecret(ctx context.Context, restaurantID, destination string) (string, error) {
	rules, err := d.st.NotificationSettings(ctx, restaurantID)
	if err != nil {
		return "", err
	}
	secret := ""
	for _, r := range rules {
		if r.Channel != store.ChannelWebhook || r.Destination != destination || r.Secret == "" {
			continue
		}
		if r.IsEnabled {
			return r.Secret, nil
		}
		secret = r.Secret
	}
	return secret, nil
}
