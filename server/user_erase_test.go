package server

import (
	"net/http"
	"strings"
	"testing"
)

// An admin erases a staff member who left: refused while she is active
// (409, nothing changes, her token still works), then erased once she is
// deactivated: the answer is the audit record, her token ends, she is
// gone from the list, and a second erasure is 409.
func TestEraseUserThroughTheAPI(t *testing.T) {
	e := newTestEnv(t)
	u, tok := e.staff(t, "Kim Koch")
	path := "/api/users/" + u.ID + "/erase"

	wantProblem(t, e.do(t, "POST", path, nil, e.adminToken), http.StatusConflict, "user_active")
	wantStatus(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok), http.StatusOK)
	wantProblem(t, e.do(t, "POST", path, nil, tok), http.StatusForbidden, "forbidden")

	wantStatus(t, e.do(t, "PUT", "/api/users/"+u.ID, map[string]any{"is_active": false}, e.adminToken), http.StatusOK)
	rec := e.do(t, "POST", path, nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	er := decodeJSON(t, rec)["erasure"].(map[string]any)
	if er["user_id"] != u.ID || er["erased_by"] != e.admin.ID || er["erased_at"] != "2026-11-22T09:00:00.000Z" {
		t.Errorf("erasure %v", er)
	}
	wantProblem(t, e.do(t, "GET", "/api/shifts/my-status", nil, tok), http.StatusUnauthorized, "unauthenticated")
	list := decodeJSON(t, e.do(t, "GET", "/api/users", nil, e.adminToken))["users"].([]any)
	for _, x := range list {
		if x.(map[string]any)["id"] == u.ID {
			t.Error("the erased user is still listed")
		}
	}
	wantProblem(t, e.do(t, "POST", path, nil, e.adminToken), http.StatusConflict, "user_erased")
	wantProblem(t, e.do(t, "POST", "/api/users/01a206b7-9fdf-7851-b7c1-ed7ecb0abdae/erase", nil, e.adminToken), http.StatusNotFound, "not_found")
}

// A staff member the owner deleted when she left is listed as former
// staff (name, staff number, when deleted) until her data is erased: the
// erasure must reach the people removed with "delete".
func TestFormerUsersListsTheDeletedUntilErased(t *testing.T) {
	e := newTestEnv(t)
	u, _ := e.staff(t, "Kim Koch")
	e.staff(t, "Lea Live")
	former := func() []any {
		rec := e.do(t, "GET", "/api/users/former", nil, e.adminToken)
		wantStatus(t, rec, http.StatusOK)
		return decodeJSON(t, rec)["former_users"].([]any)
	}
	if got := former(); len(got) != 0 {
		t.Fatalf("before any deletion: %v", got)
	}
	wantStatus(t, e.do(t, "DELETE", "/api/users/"+u.ID, nil, e.adminToken), http.StatusNoContent)
	got := former()
	if len(got) != 1 || got[0].(map[string]any)["id"] != u.ID || got[0].(map[string]any)["name"] != "Kim Koch" ||
		got[0].(map[string]any)["deleted_at"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("after the deletion: %v", got)
	}
	wantStatus(t, e.do(t, "POST", "/api/users/"+u.ID+"/erase", nil, e.adminToken), http.StatusOK)
	if got := former(); len(got) != 0 {
		t.Fatalf("after the erasure: %v", got)
	}
}

// A deactivated person still clocked in is not erased: her open time
// entry must be closed first (409 user_clocked_in, nothing changes).
func TestEraseRefusesAPersonStillClockedIn(t *testing.T) {
	e := newTestEnv(t)
	u, tok := e.staff(t, "Kim Koch")
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, tok), http.StatusCreated)
	wantStatus(t, e.do(t, "PUT", "/api/users/"+u.ID, map[string]any{"is_active": false}, e.adminToken), http.StatusOK)
	wantProblem(t, e.do(t, "POST", "/api/users/"+u.ID+"/erase", nil, e.adminToken), http.StatusConflict, "user_clocked_in")
	list := decodeJSON(t, e.do(t, "GET", "/api/users", nil, e.adminToken))["users"].([]any)
	found := false
	for _, x := range list {
		found = found || x.(map[string]any)["id"] == u.ID
	}
	if !found {
		t.Error("the refused erasure deleted her")
	}
}

// The erasures are listed for the admin: when and by whom, nothing of
// the erased person (no name, no id).
func TestErasuresAreListedWithoutThePerson(t *testing.T) {
	e := newTestEnv(t)
	u, _ := e.staff(t, "Kim Koch")
	wantStatus(t, e.do(t, "DELETE", "/api/users/"+u.ID, nil, e.adminToken), http.StatusNoContent)
	wantStatus(t, e.do(t, "POST", "/api/users/"+u.ID+"/erase", nil, e.adminToken), http.StatusOK)
	rec := e.do(t, "GET", "/api/users/erasures", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	body := rec.Body.String()
	list := decodeJSON(t, rec)["erasures"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["erased_by_name"] != e.admin.Name ||
		list[0].(map[string]any)["erased_at"] != "2026-11-22T09:00:00.000Z" || list[0].(map[string]any)["pseudonymised_at"] != nil {
		t.Fatalf("erasures: %s", body)
	}
	for _, leak := range []string{u.ID, "Kim", e.admin.ID} {
		if strings.Contains(body, leak) {
			t.Errorf("the list shows %q: %s", leak, body)
		}
	}
}
