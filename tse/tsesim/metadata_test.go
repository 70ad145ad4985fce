package tsesim_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// Finding: GET and PATCH /tss/{tss_id}/metadata (retrieveTssMetadata,
// updateTssMetadata) answered 404, and updateTss dropped the metadata it
// was sent. The metadata object is the body and the answer, unwrapped;
// an update is merged into what the TSS has, kept across a restart and
// shown in the TSS; the schema's limits are validated.
func TestSimServerTSSMetadata(t *testing.T) {
	dir := t.TempDir()
	clk := simtest.NewClock()
	sim := simtest.Open(t, dir, clk)
	h := &simHTTP{&simtest.HTTP{Sim: sim, Clk: clk, Srv: tsesim.NewServer(sim, simtest.Key, simtest.Secret)}}
	h.TS = httptest.NewServer(h.Srv)
	defer h.TS.Close()
	tok := h.accessToken(t)
	tss := "/api/v2/tss/" + sim.TSSID()
	path := tss + "/metadata"

	if ex := h.do(t, "GET", path, tok, nil); ex.status != 200 || string(ex.body) != "{}\n" {
		t.Fatalf("no metadata yet: %d %s", ex.status, ex.body)
	}
	if ex := h.do(t, "PATCH", path, tok, map[string]string{"store": "Berlin", "till": "1"}); ex.status != 200 || len(ex.obj) != 2 || ex.obj["store"] != "Berlin" {
		t.Fatalf("first update: %d %s", ex.status, ex.body)
	}
	ex := h.do(t, "PATCH", path, tok, map[string]string{"till": "2", "owner": "Ada"})
	if ex.status != 200 || len(ex.obj) != 3 || ex.obj["store"] != "Berlin" || ex.obj["till"] != "2" || ex.obj["owner"] != "Ada" {
		t.Fatalf("merged update: %d %s", ex.status, ex.body)
	}
	if ex := h.do(t, "PATCH", path, tok, nil); ex.status != 200 || len(ex.obj) != 3 {
		t.Fatalf("empty update: %d %s", ex.status, ex.body)
	}
	// updateTss merges its metadata the same way.
	ex = h.do(t, "PATCH", tss, tok, map[string]any{"metadata": map[string]string{"owner": "Grace"}})
	if m, _ := ex.obj["metadata"].(map[string]any); ex.status != 200 || m["owner"] != "Grace" || m["store"] != "Berlin" {
		t.Fatalf("updateTss metadata: %d %s", ex.status, ex.body)
	}

	many := map[string]string{}
	for i := range 41 {
		many[fmt.Sprintf("k%d", i)] = "v"
	}
	for what, c := range map[string]struct {
		path string
		body any
		msg  string
	}{
		"41 keys":     {path, many, "body must NOT have more than 40 properties"},
		"long value":  {path, map[string]string{"note": strings.Repeat("x", 501)}, "body/note must NOT have more than 500 characters"},
		"long key":    {path, map[string]string{strings.Repeat("k", 41): "v"}, `body property name "` + strings.Repeat("k", 41) + `" must NOT have more than 40 characters`},
		"updateTss's": {tss, map[string]any{"metadata": many}, "body/metadata must NOT have more than 40 properties"},
	} {
		ex := h.do(t, "PATCH", c.path, tok, c.body)
		wantFiskalyError(t, what, ex, 400, "E_FAILED_SCHEMA_VALIDATION")
		if ex.obj["message"] != c.msg {
			t.Fatalf("%s: message %q, want %q", what, ex.obj["message"], c.msg)
		}
	}
	wantFiskalyError(t, "unknown TSS", h.do(t, "GET", "/api/v2/tss/"+tse.NewUUID4()+"/metadata", tok, nil), 404, "E_TSS_NOT_FOUND")
	wantFiskalyError(t, "unknown TSS", h.do(t, "PATCH", "/api/v2/tss/"+tse.NewUUID4()+"/metadata", tok, map[string]string{"a": "b"}), 404, "E_TSS_NOT_FOUND")
	wantFiskalyError(t, "no token", h.do(t, "GET", path, "", nil), 401, "E_UNAUTHORIZED")

	// The journal keeps it.
	sim.Close()
	again := simtest.Open(t, dir, clk)
	h2 := &simHTTP{&simtest.HTTP{Sim: again, Clk: clk, Srv: tsesim.NewServer(again, simtest.Key, simtest.Secret)}}
	h2.TS = httptest.NewServer(h2.Srv)
	defer h2.TS.Close()
	ex = h2.do(t, "GET", path, h2.accessToken(t), nil)
	if ex.status != 200 || len(ex.obj) != 3 || ex.obj["owner"] != "Grace" || ex.obj["till"] != "2" {
		t.Fatalf("after a restart: %d %s", ex.status, ex.body)
	}
}
