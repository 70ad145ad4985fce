package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

// receiverFromDocs is the receiver of docs/NOTIFICATIONS.md, verbatim, so
// the documented example is known to work.
func receiverFromDocs(secret string, handle func(id string, body []byte)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		id, ts := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp")
		key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		mac := hmac.New(sha256.New, key)
		fmt.Fprintf(mac, "%s.%s.%s", id, ts, body)
		want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
		sec, _ := strconv.ParseInt(ts, 10, 64)
		ok := false
		for _, sig := range strings.Fields(r.Header.Get("webhook-signature")) {
			ok = ok || hmac.Equal([]byte(sig), []byte(want))
		}
		if !ok || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		handle(id, body) // dedupe on id: a retry carries the same one
	}
}

func TestDocumentedReceiverVerifiesOurWebhooks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.clock.Set(time.Now().UTC()) // the documented receiver checks the real clock
	var got []string
	rule := e.rule(t, store.ChannelWebhook, "new_order", "http://placeholder/")
	srv := httptest.NewServer(receiverFromDocs(rule.Secret, func(id string, _ []byte) { got = append(got, id) }))
	defer srv.Close()
	wrong := httptest.NewServer(receiverFromDocs(store.NewWebhookSecret(), func(string, []byte) { t.Error("accepted a foreign signature") }))
	defer wrong.Close()
	ctx := t.Context()
	if _, err := e.st.UpdateNotificationSetting(ctx, e.rest.ID, rule.ID, store.NotificationSettingUpdate{Destination: store.Of(srv.URL)}); err != nil {
		t.Fatal(err)
	}
	e.rule(t, store.ChannelWebhook, "new_order", wrong.URL)
	e.event(t, "new_order", map[string]any{"order_number": 1})
	runOnce(t, e.webhookDispatcher(t))
	if len(got) != 1 {
		t.Fatalf("documented receiver accepted %d", len(got))
	}
	logs := e.logs(t)
	failed := 0
	for _, l := range logs {
		if l.Status == store.LogFailed && *l.Error == "HTTP 401 - Unauthorized" {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("the receiver with the wrong secret did not refuse: %+v", logs)
	}
}
