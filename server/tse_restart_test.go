package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
)

// The fiskaly client loses its provider over real HTTP: the outage
// record, the queue, the status and the tse_error event say why in a
// short sentence with a stable code, never the Go error text (URL, EOF).
// Then the appliance restarts while the provider is still down: it
// starts with the circuit open, so the first sale answers 202 at once;
// when the provider is back everything is signed and the one outage
// closes with the right count.
func TestTSEOutageReasonIsReadableAndSurvivesRestart(t *testing.T) {
	clock := storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	proc := startSimProcess(t, clock)
	e := newTSEEnv(t, tseEnvOpts{clock: clock, external: proc.client(t, 0), budget: time.Hour})
	e.notifyOn(t, store.EventTSEError) // so the events are stored (the rule outlives the restart)
	if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusCreated {
		t.Fatalf("status %d", s)
	}
	proc.Stop()
	var ids []string
	s, tx := e.sellAtOnce(t, "KASSE-01", 200)
	if s != http.StatusAccepted {
		t.Fatalf("status %d", s)
	}
	ids = append(ids, tx["id"].(string))
	e.failUntilCircuitOpens(t)

	const want = "TSE provider unreachable (network error)"
	readable := func(where, s string) {
		t.Helper()
		if s != want || strings.Contains(s, "http") || strings.Contains(s, "EOF") {
			t.Fatalf("%s: %q, want %q", where, s, want)
		}
	}
	rec := e.do(t, "GET", "/api/tse/outages", nil, e.adminToken)
	o := decodeJSON(t, rec)["outages"].([]any)[0].(map[string]any)
	if o["reason_code"] != tse.CodeNetwork {
		t.Fatalf("outage %v", o)
	}
	readable("outage reason", o["reason"].(string))
	item := e.queue(t)["items"].([]any)[0].(map[string]any)
	readable("queue last_error", item["last_error"].(string))
	readable("status last_error", e.status(t)["last_error"].(map[string]any)["message"].(string))
	var data map[string]any
	decodeInto(t, e.storedEvents(t, store.EventTSEError)[0].Data, &data)
	readable("tse_error message", data["message"].(string))

	// Restart the appliance while the provider is still down.
	e.close()
	e2 := newTSEEnv(t, tseEnvOpts{dbDir: e.dbDir, clock: clock, external: proc.client(t, 0), budget: time.Hour,
		restaurant: e.restaurant, admin: e.admin, adminToken: e.adminToken})
	if st := e2.status(t); st["circuit"] != "open" || st["open_outage"] == nil {
		t.Fatalf("status after restart %v", st)
	}
	for i := range 3 {
		s, tx := e2.sellAtOnce(t, "KASSE-0"+strconv.Itoa(1+i%2), 300+i)
		if s != http.StatusAccepted || tx["tse_unavailable"] != true || tx["outage_id"] != o["id"] {
			t.Fatalf("sale after restart: %d %v", s, tx)
		}
		ids = append(ids, tx["id"].(string))
	}
	proc.Start(t)
	e2.advance(30 * time.Second) // the half-open probe
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e2.queueEmpty(t) })
	for i, id := range ids {
		if got := e2.tx(t, id); got["signed"] != true || num(got["number"]) != i+2 {
			t.Fatalf("sale %d: %v", i, got)
		}
	}
	rec = e2.do(t, "GET", "/api/tse/outages", nil, e2.adminToken)
	outages := decodeJSON(t, rec)["outages"].([]any)
	o = outages[0].(map[string]any)
	if len(outages) != 1 || o["ended_at"] == nil || num(o["affected_transactions"]) != len(ids) {
		t.Fatalf("outages %v, want one closed with %d", outages, len(ids))
	}
	if n := len(e2.events(t, store.EventTSEError)); n != 1 {
		t.Fatalf("%d tse_error events, want 1", n)
	}
}
