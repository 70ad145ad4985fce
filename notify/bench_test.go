package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"posbox/store"
)

// What fan-out adds to every event write: the rule lookup and one row per
// matching rule, inside the producer's transaction.
func BenchmarkPublishEvent(b *testing.B) {
	for _, rules := range []int{0, 3} {
		b.Run(fmt.Sprintf("rules=%d", rules), func(b *testing.B) {
			e := newEnv(b)
			for i := 0; i < rules; i++ {
				e.rule(b, store.ChannelWebhook, "new_order", "http://192.168.1.10/hook")
			}
			e.rule(b, store.ChannelEmail, "low_stock", "chef@trattoria.example") // another type
			data := map[string]any{"order_number": 1042, "total_cents": 4580}
			b.ResetTimer()
			for b.Loop() {
				if _, err := e.st.PublishEvent(context.Background(), e.rest.ID, "new_order", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Draining the queue to a local receiver: claim, re-read, render, sign,
// POST, record.
func BenchmarkDispatchWebhooks(b *testing.B) {
	e := newEnv(b)
	rcv := newReceiver(b)
	e.rule(b, store.ChannelWebhook, "new_order", rcv.URL)
	ws, _ := NewWebhookSender(WebhookConfig{})
	d := New(e.st, Options{Senders: map[string]Sender{store.ChannelWebhook: ws}, Now: e.clock.Now, Logger: discard})
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		for i := 0; i < 100; i++ {
			e.event(b, "new_order", map[string]any{"i": i})
		}
		b.StartTimer()
		if n, err := d.RunOnce(context.Background()); err != nil || n != 100 {
			b.Fatal(n, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100)/1e6, "ms/delivery")
}

func BenchmarkRender(b *testing.B) {
	data := json.RawMessage(`{"action":"clock_out","local_time":"2026-11-22 18:30","time_entry":{"user_name":"Ben","worked_hours":8.25}}`)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	for b.Loop() {
		Render(LangDE, "clock_out", data, berlin)
	}
}
