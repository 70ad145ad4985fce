//go:build loadbench

package main

// B0: the bare net/http JSON handler every scenario is compared with. It
// runs in a process of its own (this test binary, started again with
// POSBOX_B0_ADDR set), so it competes for the same 2 cores as posbox
// would, and it does what any JSON API must: read the body, marshal an
// answer of the scenario's size, write it.

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/internal/poll"
)

type b0Item struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Date  string `json:"date"`
	Start string `json:"start_time"`
	End   string `json:"end_time"`
	N     int    `json:"n"`
	Pad   string `json:"pad,omitempty"`
}

// b0Payload is a list of items that marshals to size bytes (or a little
// more for very small sizes).
func b0Payload(size int) []b0Item {
	var items []b0Item
	for {
		it := b0Item{ID: "01a206b8-b1de-70fd-926a-3598b9551e70", Name: "Sam Weber-Krause", Date: "2026-11-27", Start: "18:00", End: "02:00", N: len(items)}
		next := append(items, it)
		raw, _ := json.Marshal(next)
		if len(raw) > size && len(items) > 0 {
			break
		}
		items = next
	}
	raw, _ := json.Marshal(items)
	if pad := size - len(raw) - len(`,"pad":""`); pad > 0 {
		items[len(items)-1].Pad = strings.Repeat("x", pad)
	}
	return items
}

// TestLoadBenchB0 is the B0 process; it only runs when started by the
// benchmark.
func TestLoadBenchB0(t *testing.T) {
	addr := os.Getenv("POSBOX_B0_ADDR")
	if addr == "" {
		t.Skip("B0 runs only as the benchmark's helper process")
	}
	var mu sync.Mutex
	payloads := map[int][]b0Item{}
	mux := http.NewServeMux()
	mux.HandleFunc("/b0/{size}", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		size, _ := strconv.Atoi(r.PathValue("size"))
		mu.Lock()
		p, ok := payloads[size]
		if !ok {
			p = b0Payload(size)
			payloads[size] = p
		}
		mu.Unlock()
		raw, err := json.Marshal(map[string]any{"items": p})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(raw)
	})
	t.Fatal(http.ListenAndServe(addr, mux))
}

// startB0 starts the B0 process and waits until it answers.
func startB0(tb testing.TB) string {
	tb.Helper()
	addr := freeAddr(tb)
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoadBenchB0$", "-test.count=1")
	cmd.Env = append(os.Environ(), "POSBOX_B0_ADDR="+addr)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := "http://" + addr
	poll.Until(tb, 10*time.Second, "B0 to answer", func() bool {
		code, _, err := call("GET", base+"/b0/200", "", nil)
		return err == nil && code == 200
	})
	return base
}
