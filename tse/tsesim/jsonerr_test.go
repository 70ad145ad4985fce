package tsesim_test

import (
	"context"
	"strings"
	"testing"

	"posbox/tse"
	"posbox/tse/simtest"
)

// Finding: a body of the wrong JSON type (an array where an object is
// expected, a number where a string is) was answered with Go's decoder
// text, "body: json: cannot unmarshal array into Go value of type struct
// {...}". fiskaly answers a schema violation 400 E_FAILED_SCHEMA_VALIDATION
// with its validator's message, "<JSON path> must be <JSON type>"; so does
// the simulator, and no answer names a Go type.
func TestSimServerAnswersWrongJSONTypesAsSchemaViolations(t *testing.T) {
	h := newSimHTTP(t)
	f := h.Client(t)
	if _, err := f.EnsureClient(context.Background(), simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	tok := h.accessToken(t)
	tss := "/api/v2/tss/" + h.Sim.TSSID()
	tx := func() string { return tss + "/tx/" + tse.NewUUID4() + "?tx_revision=1" }
	start := `{"state":"ACTIVE","client_id":"` + simtest.ClientID + `",`
	for _, c := range []struct {
		method, path, token, body, msg string
	}{
		{"POST", "/api/v2/auth", "", `[]`, "body must be object"},
		{"POST", "/api/v2/auth", "", `{"api_key":42,"api_secret":"x"}`, "body/api_key must be string"},
		{"PUT", "/api/v2/tss/" + tse.NewUUID4(), tok, `["metadata"]`, "body must be object"},
		{"PUT", "/api/v2/tss/" + tse.NewUUID4(), tok, `{"metadata":[]}`, "body/metadata must be object"},
		{"PATCH", tss, tok, `[{"state":"DISABLED"}]`, "body must be object"},
		{"PATCH", tss, tok, `{"state":true}`, "body/state must be string"},
		{"PATCH", tss, tok, `null`, "body must be object"},
		{"PATCH", tss, tok, `"INITIALIZED"`, "body must be object"},
		{"PATCH", tss + "/admin", tok, `{"admin_puk":123456,"new_admin_pin":"12345678"}`, "body/admin_puk must be string"},
		{"POST", tss + "/admin/auth", tok, `[]`, "body must be object"},
		{"POST", tss + "/admin/logout", tok, `[]`, "body must be object"},
		{"PUT", tss + "/client/" + tse.NewUUID4(), tok, `{"serial_number":["K"]}`, "body/serial_number must be string"},
		{"PUT", tss + "/client/" + tse.NewUUID4(), tok, `{"serial_number":"K","metadata":{"a":"1","b":2}}`, "body/metadata/b must be string"},
		{"PATCH", tss + "/metadata", tok, `[]`, "body must be object"},
		{"PATCH", tss + "/metadata", tok, `{"note":{"x":"y"}}`, "body/note must be string"},
		{"PUT", tx(), tok, `[]`, "body must be object"},
		{"PUT", tx(), tok, `{"state":1,"client_id":"` + simtest.ClientID + `"}`, "body/state must be string"},
		{"PUT", tx(), tok, start + `"metadata":{"receipt":7}}`, "body/metadata/receipt must be string"},
		{"PUT", tx(), tok, start + `"schema":[]}`, "body/schema must be object"},
		{"PUT", tx(), tok, start + `"schema":{"standard_v1":"receipt"}}`, "body/schema/standard_v1 must be object"},
		{"PUT", tx(), tok, start + `"schema":{"raw":{"process_type":5,"process_data":""}}}`, "body/schema/raw/process_type must be string"},
		{"PUT", tx(), tok, start + `"schema":{"standard_v1":{"receipt":{"receipt_type":"RECEIPT","amounts_per_vat_rate":` +
			`[{"vat_rate":"NORMAL","amount":"1.00"},{"vat_rate":"REDUCED_1","amount":2.5}]}}}}`,
			"body/schema/standard_v1/receipt/amounts_per_vat_rate/1/amount must be string"},
		{"PUT", tx(), tok, start + `"schema":{"standard_v1":{"receipt":{"receipt_type":"RECEIPT","amounts_per_vat_rate":{}}}}}`,
			"body/schema/standard_v1/receipt/amounts_per_vat_rate must be array"},
		{"PUT", tx(), tok, start + `"schema":{"standard_v1":{"order":{"line_items":{"quantity":"1"}}}}}`,
			"body/schema/standard_v1/order/line_items must be array"},
		{"PUT", tx(), tok, start + `"schema":{"standard_v1":{"other":[1]}}}`, "body/schema/standard_v1/other must be object"},
		// Unknown keys and broken JSON are violations as well, without Go's text.
		{"PATCH", tss, tok, `{"stat":"DISABLED"}`, "body must NOT have additional properties"},
		{"PATCH", tss, tok, `{"state":`, "body is not valid JSON"},
		{"PUT", tx(), tok, `{"state":"ACTIVE",`, "body is not valid JSON"},
	} {
		what := c.method + " " + c.path + " " + c.body
		ex := h.do(t, c.method, c.path, c.token, c.body)
		wantFiskalyError(t, what, ex, 400, "E_FAILED_SCHEMA_VALIDATION")
		msg, _ := ex.obj["message"].(string)
		if msg != c.msg {
			t.Fatalf("%s: message %q, want %q", what, msg, c.msg)
		}
		for _, goText := range []string{"Go ", "unmarshal", "struct", "json:", "tsesim", "map["} {
			if strings.Contains(msg, goText) {
				t.Fatalf("%s: message %q leaks Go's decoder text", what, msg)
			}
		}
	}
}
