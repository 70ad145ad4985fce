package server

import (
	"net/http"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/store"
	"posbox/tse"
)

// A terminal the TSS refuses (its client limit is reached) is held: its
// sales answer 202 at once and wait in order, the other terminals keep
// signing, tse_error is raised once naming the terminal, and once the
// TSS takes it (the limit is raised) everything is signed and the outage
// closes with its count.
func TestTSETerminalOverClientLimitIsHeldAlone(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{maxClients: 1, budget: time.Hour})
	e.notifyOn(t, store.EventTSEError) // so the event is stored
	if s, _ := e.sell(t, sale("KASSE-01", 100), e.adminToken); s != http.StatusCreated {
		t.Fatalf("first terminal: %d", s)
	}
	var held []string
	for i := range 2 {
		s, tx := e.sellAtOnce(t, "KASSE-02", 200+i)
		if s != http.StatusAccepted || tx["tse_unavailable"] != true || tx["outage_id"] == nil {
			t.Fatalf("refused terminal's sale %d: %d %v", i, s, tx)
		}
		held = append(held, tx["id"].(string))
	}
	// The first terminal is not affected.
	if s, tx := e.sellAtOnce(t, "KASSE-01", 300); s != http.StatusCreated || num(tx["number"]) != 2 {
		t.Fatalf("other terminal during the hold: %d %v", s, tx)
	}
	st := e.status(t)
	refused, _ := st["refused_terminals"].([]any)
	if st["healthy"] != false || st["circuit"] != "closed" || len(refused) != 1 ||
		refused[0].(map[string]any)["client_serial"] != "KASSE-02" || refused[0].(map[string]any)["code"] != tse.CodeClientLimitReached {
		t.Fatalf("status during the hold %v", st)
	}
	q := e.queue(t)
	first := q["items"].([]any)[0].(map[string]any)
	if num(q["pending"]) != 4 || num(q["attention"]) != 0 || first["last_error_code"] != tse.CodeClientLimitReached ||
		first["last_error"] != "TSS terminal limit reached: this terminal cannot be registered" {
		t.Fatalf("queue during the hold %v", q)
	}
	// Tried again every 30 s; failing again raises nothing new.
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "second refusal filed", func() bool { return e.filed(t, 2) })
	errs := e.storedEvents(t, store.EventTSEError)
	if len(errs) != 1 {
		t.Fatalf("%d tse_error events, want 1", len(errs))
	}
	var data map[string]any
	decodeInto(t, errs[0].Data, &data)
	if data["reason"] != "terminal_refused" || data["error_code"] != tse.CodeClientLimitReached {
		t.Fatalf("event %v", data)
	}

	// The owner frees a slot at the provider; the next try registers it.
	e.sim.SetMaxClients(2)
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	for i, id := range held {
		got := e.tx(t, id)
		if got["signed"] != true || got["signed_late"] != true || num(got["number"]) != 3+i {
			t.Fatalf("held sale %d: %v", i, got)
		}
	}
	rec := e.do(t, "GET", "/api/tse/outages", nil, e.adminToken)
	o := decodeJSON(t, rec)["outages"].([]any)[0].(map[string]any)
	if o["ended_at"] == nil || num(o["affected_transactions"]) != 2 || o["reason_code"] != tse.CodeClientLimitReached {
		t.Fatalf("outage %v", o)
	}
	if st := e.status(t); st["healthy"] != true || len(st["refused_terminals"].([]any)) != 0 {
		t.Fatalf("status after %v", st)
	}
}

// A restart keeps a refused terminal held (from the queue in the
// database): its next sale answers 202 at once, and no second tse_error
// is raised.
func TestTSERefusedTerminalStaysHeldAfterRestart(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{maxClients: 1, budget: time.Hour})
	e.notifyOn(t, store.EventTSEError) // so the events are stored (the rule outlives the restart)
	e.sell(t, sale("KASSE-01", 100), e.adminToken)
	if s, _ := e.sellAtOnce(t, "KASSE-02", 200); s != http.StatusAccepted {
		t.Fatalf("status %d", s)
	}
	e.close()
	e2 := newTSEEnv(t, tseEnvOpts{dbDir: e.dbDir, simDir: e.simDir, clock: e.clock, maxClients: 1, budget: time.Hour,
		restaurant: e.restaurant, admin: e.admin, adminToken: e.adminToken})
	if s, tx := e2.sellAtOnce(t, "KASSE-02", 300); s != http.StatusAccepted || tx["tse_unavailable"] != true {
		t.Fatalf("after restart: %d %v", s, tx)
	}
	if s, _ := e2.sellAtOnce(t, "KASSE-01", 400); s != http.StatusCreated {
		t.Fatalf("other terminal after restart: %d", s)
	}
	if n := len(e2.events(t, store.EventTSEError)); n != 1 {
		t.Fatalf("%d tse_error events, want 1", n)
	}
}
