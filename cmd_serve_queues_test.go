package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"posbox/internal/poll"
)

// TestQueuesSurviveSIGTERM: SIGTERM arrives while webhook deliveries are
// queued or on the wire to a slow receiver and TSE sales are being
// forwarded. The appliance exits 0 within the bound, and after a restart
// on the same data dir every acknowledged event reaches the receiver and
// every acknowledged sale is signed: nothing queued is lost.
func TestQueuesSurviveSIGTERM(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGTERM is a Unix signal; the Windows service stops through program.Stop")
	}
	const events, sales = 10, 6
	var mu sync.Mutex
	seen := map[int]int{} // event data "i" → deliveries received
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Data struct{ I int } `json:"data"`
		}
		raw, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(raw, &body); err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		time.Sleep(200 * time.Millisecond) // slow enough that SIGTERM finds work queued
		mu.Lock()
		seen[body.Data.I]++
		mu.Unlock()
	}))
	defer rcv.Close()

	bin := buildPosbox(t)
	a := startAppliance(t, bin)
	token := a.token(t)
	rule := fmt.Sprintf(`{"channel":"webhook","event_type":"pos.lifecycle_test","is_enabled":true,"destination":%q}`, rcv.URL)
	if code, body, err := a.call("POST", "/api/notifications/settings", token, rule, nil); err != nil || code != http.StatusCreated {
		t.Fatalf("create rule: %d %s %v", code, body, err)
	}

	var wg sync.WaitGroup
	saleIDs := make([]string, sales)
	for i := range events {
		wg.Go(func() {
			code, body, err := a.call("POST", "/api/events", token, fmt.Sprintf(`{"type":"pos.lifecycle_test","data":{"i":%d}}`, i), nil)
			if err != nil || code != http.StatusAccepted {
				t.Errorf("event %d: %d %s %v", i, code, body, err)
			}
		})
	}
	for i := range sales {
		wg.Go(func() {
			sale := fmt.Sprintf(`{"client_serial":"KASSE-0%d","receipt_type":"RECEIPT",
				"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":%d.50}],
				"amounts_per_payment_type":[{"payment_type":"CASH","amount":%d.50}]}`, i%3+1, i+1, i+1)
			code, body, err := a.call("POST", "/api/tse/transactions", token, sale, nil)
			if err != nil || (code != http.StatusCreated && code != http.StatusAccepted) {
				t.Errorf("sale %d: %d %s %v", i, code, body, err)
				return
			}
			var res struct {
				Transaction struct{ ID string } `json:"transaction"`
			}
			json.Unmarshal(body, &res)
			saleIDs[i] = res.Transaction.ID
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	mu.Lock()
	before := len(seen)
	mu.Unlock()
	if before == events {
		t.Fatalf("all %d deliveries arrived before the signal; the test proves nothing", events)
	}
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := a.waitExit(t, 30*time.Second); err != nil {
		t.Fatalf("posbox exited with %v after SIGTERM; want status 0\n%s", err, a.logText())
	}

	b := startApplianceIn(t, bin, a.dataDir)
	deadline := time.Now().Add(30 * time.Second)
	missing := 0
	if !poll.Wait(30*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		missing = events - len(seen)
		return missing == 0
	}) {
		t.Fatalf("%d of %d events never delivered after the restart\n%s", missing, events, b.logText())
	}
	for i, id := range saleIDs {
		var (
			code int
			body []byte
			err  error
		)
		if !poll.Wait(time.Until(deadline), func() bool {
			code, body, err = b.call("GET", "/api/tse/transactions/"+id, token, "", nil)
			var res struct {
				Transaction struct {
					Signed bool
					Number *int
				} `json:"transaction"`
			}
			json.Unmarshal(body, &res)
			return err == nil && code == http.StatusOK && res.Transaction.Signed && res.Transaction.Number != nil
		}) {
			t.Fatalf("sale %d (%s) not signed after the restart: %d %s %v", i, id, code, body, err)
		}
	}
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := b.waitExit(t, 30*time.Second); err != nil {
		t.Fatalf("second stop: %v\n%s", err, b.logText())
	}
}
