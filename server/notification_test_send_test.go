package server

import (
	"net/http"
	"testing"

	"posbox/notify"
)

// A webhook test send is signed exactly as a delivery: with the rule's
// secret when a rule sends to that destination, else with a secret made
// for the test and returned, so a Standard Webhooks receiver accepts it.
func TestNotificationTestSendIsSigned(t *testing.T) {
	e := newTestEnv(t)
	e.withNotifier(t)
	hook := newHookReceiver(t, http.StatusNoContent)
	verify := func(i int, secret string) {
		t.Helper()
		hook.mu.Lock()
		r, body := hook.hits[i], hook.bodies[i]
		hook.mu.Unlock()
		want, err := notify.Sign(secret, r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), body)
		if err != nil || r.Header.Get("webhook-signature") != want {
			t.Fatalf("signature %q, want %q (%v)", r.Header.Get("webhook-signature"), want, err)
		}
	}

	rec := e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "webhook", "destination": hook.URL}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	res := decodeJSON(t, rec)["result"].(map[string]any)
	secret, _ := res["secret"].(string)
	if res["success"] != true || secret == "" {
		t.Fatalf("result %v", res)
	}
	verify(0, secret)

	rec = e.do(t, "POST", "/api/notifications/settings", map[string]any{"channel": "webhook", "event_type": "new_order",
		"is_enabled": true, "destination": hook.URL}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	ruleSecret := decodeJSON(t, rec)["setting"].(map[string]any)["secret"].(string)
	rec = e.do(t, "POST", "/api/notifications/test", map[string]any{"channel": "webhook", "destination": hook.URL}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if res := decodeJSON(t, rec)["result"].(map[string]any); res["success"] != true || res["secret"] != nil {
		t.Fatalf("result with a rule %v", res)
	}
	verify(1, ruleSecret)
}
