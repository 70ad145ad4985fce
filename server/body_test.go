package server

import (
	"net/http"
	"testing"
)

// Invalid UTF-8 anywhere in a JSON body is refused and stores nothing: it
// would otherwise reach signed webhook bodies that are not valid JSON.
func TestBodyInvalidUTF8Refused(t *testing.T) {
	e := newTestEnv(t)
	_, staff := e.staff(t, "Sam Staff")
	e.notifyOn(t, "new_order") // else even an accepted one would not be stored
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/events", "{\"type\":\"new_order\",\"data\":{\"table\":\"\xff\xfe\"}}"},
		{"POST", "/api/users", "{\"email\":\"x@test.local\",\"name\":\"Bad \xc3\x28\",\"role\":\"staff\",\"password\":\"password1\"}"},
		{"POST", "/api/discounts", "{\"name\":\"\xe2\x82\",\"discount_type\":\"fixed\",\"value\":1}"},
	} {
		tok := e.adminToken
		if c.path == "/api/events" {
			tok = staff
		}
		rec := e.do(t, c.method, c.path, c.body, tok)
		if p := wantProblem(t, rec, http.StatusUnprocessableEntity, "validation_failed"); p["errors"].([]any)[0].(map[string]any)["field"] != "body" {
			t.Errorf("%s %s: %v", c.method, c.path, p)
		}
	}
	if n := len(e.storedEvents(t, "new_order")); n != 0 {
		t.Fatalf("%d events stored", n)
	}
}

// NUL and other control characters are refused in names.
func TestNamesRefuseControlCharacters(t *testing.T) {
	e := newTestEnv(t)
	for _, c := range []struct{ path, body, field string }{
		{"/api/users", `{"email":"x@test.local","name":"Sam\u0000Staff","role":"staff","password":"password1"}`, "name"},
		{"/api/discounts", `{"name":"Happy\u0007Hour","discount_type":"fixed","value":1}`, "name"},
		{"/api/discounts", `{"name":"Two\nlines","discount_type":"fixed","value":1}`, "name"},
	} {
		p := wantProblem(t, e.do(t, "POST", c.path, c.body, e.adminToken), http.StatusUnprocessableEntity, "validation_failed")
		if p["errors"].([]any)[0].(map[string]any)["field"] != c.field {
			t.Errorf("%s: %v", c.path, p)
		}
	}
}

// A PUT whose body is null is refused and changes nothing (it used to be
// read as {} and bump updated_at).
func TestPutNullRefused(t *testing.T) {
	e := newTestEnv(t)
	rec := e.do(t, "POST", "/api/discounts", map[string]any{"name": "Lunch", "discount_type": "fixed", "value": 2}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	d := decodeJSON(t, rec)["discount"].(map[string]any)
	e.clock.Add(1e9)
	wantProblem(t, e.do(t, "PUT", "/api/discounts/"+d["id"].(string), "null", e.adminToken), http.StatusBadRequest, eMalformedJSON)
	wantProblem(t, e.do(t, "PUT", "/api/users/"+e.admin.ID, " null ", e.adminToken), http.StatusBadRequest, eMalformedJSON)
	rec = e.do(t, "GET", "/api/discounts", nil, e.adminToken)
	if got := decodeJSON(t, rec)["discounts"].([]any)[0].(map[string]any); got["updated_at"] != d["updated_at"] {
		t.Fatalf("updated_at moved: %v -> %v", d["updated_at"], got["updated_at"])
	}
	// clock-out documents null as "no body".
	_, staff := e.staff(t, "Sam Staff")
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, staff), http.StatusCreated)
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-out", "null", staff), http.StatusOK)
}
