package notify

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
)

// A receiver that never answers holds one worker, not the queue: the
// deliveries of a healthy rule go out while it hangs.
func TestHangingReceiverDoesNotHoldUpOthers(t *testing.T) {
	e := newEnv(t)
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hung.Close)
	healthy := newReceiver(t, http.StatusNoContent)
	// The hanging rule is older, so its deliveries are due first.
	e.rule(t, store.ChannelWebhook, "new_order", hung.URL)
	e.rule(t, store.ChannelWebhook, "new_order", healthy.URL)
	for range 6 {
		e.event(t, "new_order", map[string]any{})
	}
	ws, err := NewWebhookSender(WebhookConfig{})
	if err != nil {
		t.Fatal(err)
	}
	d := New(e.st, Options{Senders: map[string]Sender{store.ChannelWebhook: ws}, Now: e.clock.Now, Jitter: func() float64 { return 1 },
		Logger: discard, Poll: 20 * time.Millisecond, SendTimeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = d.Run(ctx) }()
	defer func() { close(release); cancel(); <-done }()
	poll.Until(t, 20*time.Second, "the healthy rule's six deliveries", func() bool { return len(healthy.got()) == 6 })
}
