package tsesim_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"posbox/tse"
)

// Finding (third-party clients, docs/TSE.md "Checked with third-party
// clients"): drechsler-development/fiskaly triggers an export with the
// body `[]` (PHP's json_encode of an empty array) and the simulator
// refused it, "400 body must be object". fiskaly's OpenAPI (2.1.35 and
// 2.2.2) declares no request body for triggerExport, so its validator
// checks none: whatever JSON a client sends is accepted and the export
// starts. Only JSON that does not parse is refused.
func TestSimServerTriggerExportTakesAnyBody(t *testing.T) {
	h := newSimHTTP(t)
	tok := h.accessToken(t)
	tss := "/api/v2/tss/" + h.Sim.TSSID()
	// Distinct filters: identical exports may not run side by side.
	for i, body := range []any{`[]`, `{}`, nil, `{"client_id":"not a filter"}`, `"x"`, `null`} {
		ex := h.do(t, "PUT", tss+"/export/"+tse.NewUUID4()+"?end_signature_counter="+strconv.Itoa(100+i), tok, body)
		if ex.status != 200 || ex.obj["_type"] != "EXPORT" || ex.obj["state"] != "PENDING" {
			t.Fatalf("trigger export with body %v: %d %s", body, ex.status, ex.body)
		}
	}
	ex := h.do(t, "PUT", tss+"/export/"+tse.NewUUID4(), tok, `{"x":`)
	wantFiskalyError(t, "broken JSON", ex, 400, "E_FAILED_SCHEMA_VALIDATION")
	if ex.obj["message"] != "body is not valid JSON" {
		t.Fatalf("broken JSON: message %q", ex.obj["message"])
	}
}

// Finding: the simulator refused a key it did not know in every body,
// "body must NOT have additional properties". fiskaly's OpenAPI forbids
// additional properties only for updateTss (additionalProperties: false);
// createTss, createClient, changeAdminPin, authenticateAdmin and
// logoutAdmin declare their properties without forbidding others, so a
// JSON Schema validator accepts (and the operation ignores) extra keys.
func TestSimServerAcceptsExtraKeysWhereTheSchemaAllowsThem(t *testing.T) {
	h := newSimHTTP(t)
	tok := h.accessToken(t)
	id := tse.NewUUID4()
	tss := "/api/v2/tss/" + id
	ok := func(what string, ex exchange) exchange {
		t.Helper()
		if ex.status != 200 {
			t.Fatalf("%s: %d %s", what, ex.status, ex.body)
		}
		return ex
	}
	puk, _ := ok("createTss", h.do(t, "PUT", tss, tok, `{"metadata":{"a":"b"},"internal_reference":"x"}`)).obj["admin_puk"].(string)
	ok("updateTss", h.do(t, "PATCH", tss, tok, `{"state":"UNINITIALIZED"}`))
	ok("changeAdminPin", h.do(t, "PATCH", tss+"/admin", tok, `{"admin_puk":"`+puk+`","new_admin_pin":"98765432","note":"x"}`))
	ok("authenticateAdmin", h.do(t, "POST", tss+"/admin/auth", tok, `{"admin_pin":"98765432","note":"x"}`))
	ok("updateTss", h.do(t, "PATCH", tss, tok, `{"state":"INITIALIZED"}`))
	c := ok("createClient", h.do(t, "PUT", tss+"/client/"+tse.NewUUID4(), tok, `{"serial_number":"KASSE-9","lane":"3"}`))
	if c.obj["serial_number"] != "KASSE-9" || c.obj["state"] != "REGISTERED" {
		t.Fatalf("createClient: %s", c.body)
	}
	ok("logoutAdmin", h.do(t, "POST", tss+"/admin/logout", tok, `{"reason":"done"}`))

	// updateTss forbids them, as its schema says.
	ex := h.do(t, "PATCH", tss, tok, `{"state":"INITIALIZED","note":"x"}`)
	wantFiskalyError(t, "updateTss with an extra key", ex, 400, "E_FAILED_SCHEMA_VALIDATION")
	// An extra key still has to be valid JSON, and a known key of the
	// wrong type is still refused.
	ex = h.do(t, "PUT", tss+"/client/"+tse.NewUUID4(), tok, `{"serial_number":7,"lane":"3"}`)
	wantFiskalyError(t, "createClient serial as a number", ex, 400, "E_FAILED_SCHEMA_VALIDATION")
	if ex.obj["message"] != "body/serial_number must be string" {
		t.Fatalf("createClient serial as a number: %q", ex.obj["message"])
	}
}

// Finding: the export resource carried "href", a property fiskaly's
// OpenAPI does not declare for it (neither 2.1.35 nor 2.2.2); a client
// reading it would work against the simulator and fail against fiskaly.
// Every property of the simulator's export answer is a declared one.
func TestSimServerExportHasOnlyDeclaredProperties(t *testing.T) {
	h := newSimHTTP(t)
	tok := h.accessToken(t)
	path := "/api/v2/tss/" + h.Sim.TSSID() + "/export/" + tse.NewUUID4()
	declared := map[string]bool{"state": true, "exception": true, "time_request": true, "time_start": true,
		"time_end": true, "time_expiration": true, "time_error": true, "estimated_time_of_completion": true,
		"metadata": true, "tss_id": true, "_type": true, "_id": true, "_env": true, "_version": true}
	for _, ex := range []exchange{h.do(t, "PUT", path, tok, `{}`), h.do(t, "GET", path, tok, nil)} {
		var extra []string
		for k := range ex.obj {
			if !declared[k] {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		if ex.status != 200 || len(extra) > 0 {
			t.Fatalf("export answer %d has undeclared properties [%s]: %s", ex.status, strings.Join(extra, " "), ex.body)
		}
	}
}
