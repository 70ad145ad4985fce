package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
)

// events are the data of the webhooks a receiver got, by event type.
func (h *hookReceiver) events(t *testing.T) map[string][]map[string]any {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string][]map[string]any{}
	for _, b := range h.bodies {
		var m struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("webhook body %s: %v", b, err)
		}
		out[m.Type] = append(out[m.Type], m.Data)
	}
	return out
}

// Issue 23: posbox raises the events of the sales it records, through a
// real rule to a real webhook receiver: an order new_order, a paid
// receipt payment_received, a storno order_cancelled, a training receipt
// none. A retry of a sale with its Idempotency-Key raises nothing more,
// and the POS's own new_order is answered "ignored" and sent nowhere.
func TestSalesRaiseTheirEvents(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	d := e.withNotifier(t)
	rcv := newHookReceiver(t, http.StatusOK)
	for _, typ := range store.SaleEventTypes {
		wantStatus(t, e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": "webhook", "event_type": typ,
			"is_enabled": true, "destination": rcv.URL}, e.adminToken), http.StatusCreated)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = d.Run(ctx) }()
	defer func() { stop(); <-done }()
	_, staff := e.staff(t, "Sam Staff")

	order := map[string]any{"client_serial": "KASSE-01", "kind": "order", "allocation_group": "Tisch 4",
		"line_items": []any{line("Bier 0,5 l", "2", "3.90", "NORMAL"), line("Schnitzel", "1", "12.90", "REDUCED_1")}}
	_, ord := e.sell(t, order, staff)
	key := []string{"Idempotency-Key", "receipt-1"}
	_, paid := e.sell(t, sale("KASSE-01", 2070), staff, key...)
	e.sell(t, sale("KASSE-01", 2070), staff, key...) // the till's retry: the same sale
	_, sto := e.sell(t, stornoBody("KASSE-01", "RECEIPT", 2070, paid["id"]), staff)
	training := sale("KASSE-01", 500)
	training["receipt_type"] = "TRAINING"
	e.sell(t, training, staff)
	rec := e.do(t, "POST", "/api/events", map[string]any{"type": "new_order", "data": map[string]any{"order_number": 99}}, staff)
	wantStatus(t, rec, http.StatusOK)
	if b := decodeJSON(t, rec); b["ignored"] != true || b["event"] != nil || !strings.Contains(b["reason"].(string), "raised by posbox") {
		t.Fatalf("the POS's new_order: %v", b)
	}

	poll.Until(t, 20*time.Second, "three webhooks", func() bool { return rcv.count() >= 3 })
	e.advance(time.Minute) // anything late would be due by now
	if _, err := d.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := rcv.events(t)
	if len(got["new_order"]) != 1 || len(got["payment_received"]) != 1 || len(got["order_cancelled"]) != 1 || rcv.count() != 3 {
		t.Fatalf("webhooks %v", got)
	}
	o := got["new_order"][0]
	if o["source"] != "posbox" || o["transaction_id"] != ord["id"] || o["client_serial"] != "KASSE-01" || o["table"] != "Tisch 4" ||
		o["total_cents"] != 2070.0 || o["lines"] != 2.0 || o["operator"] != "Sam Staff" || o["order_number"] == nil {
		t.Fatalf("new_order %v", o)
	}
	p := got["payment_received"][0]
	if p["transaction_id"] != paid["id"] || p["amount_cents"] != 2070.0 || p["method"] != "cash" || p["receipt_type"] != "RECEIPT" {
		t.Fatalf("payment_received %v", p)
	}
	c := got["order_cancelled"][0]
	if c["transaction_id"] != paid["id"] || c["order_number"] != p["order_number"] || c["total_cents"] != 2070.0 ||
		c["storno_transaction_id"] != sto["id"] || c["reason"] != "Storno" {
		t.Fatalf("order_cancelled %v (payment %v)", c, p)
	}
	// The log says it as the owner reads it.
	var logs []any
	poll.Until(t, 20*time.Second, "the log entries", func() bool {
		logs = decodeJSON(t, e.do(t, "GET", "/api/notifications/logs", nil, e.adminToken))["logs"].([]any)
		return len(logs) == 3
	})
	want := map[string]bool{
		fmt.Sprintf("Neue Bestellung #%v: 20,70 €", o["order_number"]): true,
		fmt.Sprintf("Zahlung #%v: 20,70 € (cash)", p["order_number"]):  true,
		fmt.Sprintf("Storno #%v: Storno (20,70 €)", p["order_number"]): true,
	}
	for _, l := range logs {
		if m := l.(map[string]any)["message"].(string); !want[m] {
			t.Errorf("log message %q, want one of %v", m, want)
		}
	}
}

// A till that retries one sale with the same Idempotency-Key from many
// connections at once, for many sales at once: each sale raises its
// payment_received exactly once.
func TestSaleEventsExactlyOnceUnderConcurrency(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.notifyOn(t, store.EventPaymentReceived)
	const sales, tries = 8, 4
	var wg sync.WaitGroup
	errs := make(chan string, sales*tries)
	for i := range sales {
		for range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := e.do(t, "POST", "/api/tse/transactions", sale("KASSE-01", 100+i), e.adminToken, "Idempotency-Key", fmt.Sprintf("sale-%d", i))
				if rec.Code != http.StatusCreated && rec.Code != http.StatusAccepted {
					errs <- rec.Body.String()
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for s := range errs {
		t.Fatalf("a sale failed: %s", s)
	}
	evs := e.storedEvents(t, store.EventPaymentReceived)
	seen := map[string]int{}
	for _, ev := range evs {
		var d store.SaleEvent
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		seen[d.TransactionID]++
	}
	if len(evs) != sales || len(seen) != sales {
		t.Fatalf("%d payment_received events for %d sales: %v", len(evs), sales, seen)
	}
}

// With the setting on "the POS": posbox raises none, a POS's new_order
// is recorded (202); a bad value is refused and changes nothing.
func TestSaleEventsFromThePOS(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.notifyOn(t, store.SaleEventTypes...)
	rec := e.do(t, "PATCH", "/api/restaurant", map[string]any{"sale_events_by": "till"}, e.adminToken)
	wantFieldError(t, rec, "sale_events_by")
	if r := decodeJSON(t, e.do(t, "GET", "/api/restaurant", nil, e.adminToken))["restaurant"].(map[string]any); r["sale_events_by"] != "posbox" {
		t.Fatalf("after a refused change %v", r)
	}
	rec = e.do(t, "PATCH", "/api/restaurant", map[string]any{"sale_events_by": "pos"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if r := decodeJSON(t, rec)["restaurant"].(map[string]any); r["sale_events_by"] != "pos" {
		t.Fatalf("restaurant %v", r)
	}
	_, s := e.sell(t, sale("KASSE-01", 1000), e.adminToken)
	e.sell(t, stornoBody("KASSE-01", "RECEIPT", 1000, s["id"]), e.adminToken)
	e.sell(t, map[string]any{"client_serial": "KASSE-01", "kind": "order", "line_items": []any{line("Bier", "1", "3.90", "NORMAL")}}, e.adminToken)
	for _, typ := range store.SaleEventTypes {
		if n := len(e.storedEvents(t, typ)); n != 0 {
			t.Fatalf("posbox raised %d %s while the POS posts them", n, typ)
		}
	}
	wantStatus(t, e.do(t, "POST", "/api/events", map[string]any{"type": "new_order", "data": map[string]any{"order_number": 7}}, e.adminToken),
		http.StatusAccepted)
	if n := len(e.storedEvents(t, "new_order")); n != 1 {
		t.Fatalf("the POS's new_order: %d stored", n)
	}
}
