package tsesim_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"posbox/tse"
	"posbox/tse/simtest"
)

// listOf checks fiskaly's list envelope and returns its data.
func listOf(t testing.TB, what string, ex exchange, typ string) []map[string]any {
	t.Helper()
	raw, _ := ex.obj["data"].([]any)
	if ex.status != http.StatusOK || ex.obj["_type"] != typ || ex.obj["_env"] != "TEST" || ex.obj["_version"] == nil ||
		raw == nil || ex.obj["count"] != float64(len(raw)) {
		t.Fatalf("%s: %d %s, want a %s", what, ex.status, ex.body, typ)
	}
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i], _ = r.(map[string]any)
	}
	return out
}

// field lists one field of every item.
func field(items []map[string]any, name string) string {
	var vs []string
	for _, it := range items {
		vs = append(vs, fmt.Sprint(it[name]))
	}
	return strings.Join(vs, ",")
}

// Finding: GET /tss/{tss_id}/client (listClients) answered 404. It lists
// the TSS's clients in fiskaly's envelope (CLIENT_LIST), filtered by
// serial_number and state, ordered by serial_number or time_creation,
// paged by limit and offset, and validates those as fiskaly's schema does.
func TestSimServerListsClients(t *testing.T) {
	h := newSimHTTP(t)
	f := h.Client(t)
	ctx := context.Background()
	ids := map[string]string{"KASSE-02": tse.NewUUID4(), "KASSE-01": tse.NewUUID4(), "KASSE-03": tse.NewUUID4()}
	for _, serial := range []string{"KASSE-02", "KASSE-01", "KASSE-03"} {
		h.Clk.Add(time.Second)
		if _, err := f.EnsureClient(ctx, ids[serial], serial); err != nil {
			t.Fatal(err)
		}
	}
	tok := h.accessToken(t)
	path := "/api/v2/tss/" + h.Sim.TSSID() + "/client"
	all := listOf(t, "all", h.do(t, "GET", path, tok, nil), "CLIENT_LIST")
	if got := field(all, "serial_number"); got != "KASSE-02,KASSE-01,KASSE-03" {
		t.Fatalf("clients in creation order: %s", got)
	}
	c := all[1]
	if c["_id"] != ids["KASSE-01"] || c["_type"] != "CLIENT" || c["state"] != "REGISTERED" || c["tss_id"] != h.Sim.TSSID() ||
		c["time_creation"] == nil || c["time_update"] == nil || c["metadata"] == nil || c["_env"] != "TEST" {
		t.Fatalf("client: %v", c)
	}
	for query, want := range map[string]string{
		"order_by=serial_number&order=desc":       "KASSE-03,KASSE-02,KASSE-01",
		"order_by=time_creation&order=desc":       "KASSE-03,KASSE-01,KASSE-02",
		"order_by=serial_number&limit=1&offset=1": "KASSE-02",
		"offset=5":                                   "",
		"serial_number=KASSE-03":                     "KASSE-03",
		"state=REGISTERED&show_deleted=false":        "KASSE-02,KASSE-01,KASSE-03",
		"state=DEREGISTERED":                         "",
		"order_by=serial_number&limit=100&offset=0":  "KASSE-01,KASSE-02,KASSE-03",
		"serial_number=KASSE-03&state=DEREGISTERED":  "",
		"order=asc&order_by=time_creation&limit=2":   "KASSE-02,KASSE-01",
		"serial_number=kasse-03":                     "",
		"order_by=serial_number&order=desc&offset=2": "KASSE-01",
	} {
		if got := field(listOf(t, query, h.do(t, "GET", path+"?"+query, tok, nil), "CLIENT_LIST"), "serial_number"); got != want {
			t.Fatalf("%s: %s, want %s", query, got, want)
		}
	}
	for query, msg := range map[string]string{
		"limit=0":             "querystring/limit must be >= 1",
		"limit=101":           "querystring/limit must be <= 100",
		"limit=ten":           "querystring/limit must be integer",
		"offset=-1":           "querystring/offset must be >= 0",
		"order=up":            "querystring/order must be equal to one of the allowed values",
		"order_by=state":      "querystring/order_by must be equal to one of the allowed values",
		"state=ACTIVE":        "querystring/state must be equal to one of the allowed values",
		"show_deleted=maybe":  "querystring/show_deleted must be boolean",
		"limit=1&offset=zero": "querystring/offset must be integer",
	} {
		ex := h.do(t, "GET", path+"?"+query, tok, nil)
		wantFiskalyError(t, query, ex, 400, "E_FAILED_SCHEMA_VALIDATION")
		if ex.obj["message"] != msg {
			t.Fatalf("%s: message %q, want %q", query, ex.obj["message"], msg)
		}
	}
	wantFiskalyError(t, "unknown TSS", h.do(t, "GET", "/api/v2/tss/"+tse.NewUUID4()+"/client", tok, nil), 404, "E_TSS_NOT_FOUND")
	wantFiskalyError(t, "malformed TSS", h.do(t, "GET", "/api/v2/tss/nope/client", tok, nil), 400, "E_FAILED_SCHEMA_VALIDATION")
	wantFiskalyError(t, "no token", h.do(t, "GET", path, "", nil), 401, "E_UNAUTHORIZED")
}

// Finding: GET /tss/{tss_id}/client/{client_id}/tx (listClientTransactions)
// answered 404. It lists the transactions whose latest revision the
// client sent, in fiskaly's TRANSACTION_LIST envelope, with
// listTransactions' filters, order and paging.
func TestSimServerListsAClientsTransactions(t *testing.T) {
	h := newSimHTTP(t)
	f := h.Client(t)
	ctx := context.Background()
	other := tse.NewUUID4()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.EnsureClient(ctx, other, "KASSE-02"); err != nil {
		t.Fatal(err)
	}
	simtest.Sell(t, f, tse.NewUUID4()) // 1 by KASSE-01
	simtest.Sell(t, f, tse.NewUUID4()) // 2 by KASSE-01
	moved := tse.NewUUID4()            // 3: started by KASSE-01, finished by KASSE-02
	if _, err := f.Upsert(ctx, tse.UpsertRequest{TxID: moved, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)}); err != nil {
		t.Fatal(err)
	}
	fin, err := tse.UpsertBody(tse.TxFinished, other, simtest.SampleReceipt(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Upsert(ctx, tse.UpsertRequest{TxID: moved, Revision: 2, Body: fin}); err != nil {
		t.Fatal(err)
	}
	open := tse.NewUUID4() // 4: ACTIVE, KASSE-01
	if _, err := f.Upsert(ctx, tse.UpsertRequest{TxID: open, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)}); err != nil {
		t.Fatal(err)
	}

	tok := h.accessToken(t)
	base := "/api/v2/tss/" + h.Sim.TSSID() + "/client/"
	mine := listOf(t, "KASSE-01", h.do(t, "GET", base+simtest.ClientID+"/tx", tok, nil), "TRANSACTION_LIST")
	if got := field(mine, "number"); got != "1,2,4" || field(mine, "client_id") != strings.Repeat(simtest.ClientID+",", 2)+simtest.ClientID {
		t.Fatalf("KASSE-01's transactions: %s (%s)", got, field(mine, "client_id"))
	}
	if mine[0]["_type"] != "TRANSACTION" || mine[0]["signature"] == nil || mine[0]["state"] != tse.TxFinished {
		t.Fatalf("transaction: %v", mine[0])
	}
	for query, want := range map[string]string{
		"order=desc&limit=1":            "4",
		"states[0]=FINISHED":            "1,2",
		"states[]=ACTIVE":               "4",
		"limit=2&offset=1":              "2,4",
		"order_by=state&order=desc":     "2,1,4",
		"states[0]=CANCELLED&offset=0":  "",
		"order_by=time_start&limit=100": "1,2,4",
		"states=FINISHED&states=ACTIVE": "1,2,4",
		"order_by=number&order=asc":     "1,2,4",
		"show_deleted=true&order=desc":  "4,2,1",
	} {
		ex := h.do(t, "GET", base+simtest.ClientID+"/tx?"+query, tok, nil)
		if got := field(listOf(t, query, ex, "TRANSACTION_LIST"), "number"); got != want {
			t.Fatalf("%s: %s, want %s", query, got, want)
		}
	}
	if got := field(listOf(t, "KASSE-02", h.do(t, "GET", base+other+"/tx", tok, nil), "TRANSACTION_LIST"), "number"); got != "3" {
		t.Fatalf("KASSE-02's transactions: %s", got)
	}
	// fiskaly declares no 429 for this operation: it is not counted
	// against listTransactions' 20 calls a minute.
	for i := range 25 {
		if ex := h.do(t, "GET", base+other+"/tx", tok, nil); ex.status != 200 {
			t.Fatalf("call %d: %d %s", i+1, ex.status, ex.body)
		}
	}
	wantFiskalyError(t, "unknown client", h.do(t, "GET", base+tse.NewUUID4()+"/tx", tok, nil), 404, "E_CLIENT_NOT_FOUND")
	wantFiskalyError(t, "malformed client", h.do(t, "GET", base+"KASSE-01/tx", tok, nil), 400, "E_FAILED_SCHEMA_VALIDATION")
	for _, query := range []string{"limit=500", "order_by=time", "states[0]=OPEN", "offset=x"} {
		wantFiskalyError(t, query, h.do(t, "GET", base+simtest.ClientID+"/tx?"+query, tok, nil), 400, "E_FAILED_SCHEMA_VALIDATION")
	}
	wantFiskalyError(t, "unknown TSS", h.do(t, "GET", "/api/v2/tss/"+tse.NewUUID4()+"/client/"+simtest.ClientID+"/tx", tok, nil), 404, "E_TSS_NOT_FOUND")
}
