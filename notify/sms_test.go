package notify

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"posbox/store"
)

// smsFake is an httptest stand-in for a provider: it checks what the
// provider would check, records the message and answers from a script.
type smsFake struct {
	*httptest.Server
	mu     sync.Mutex
	got    []map[string]string
	status int
	body   string
}

func newTwilioFake(t testing.TB, status int, body string) *smsFake {
	f := &smsFake{status: status, body: body}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if r.Method != http.MethodPost || r.URL.Path != "/2010-04-01/Accounts/AC123/Messages.json" ||
			!ok || user != "AC123" || pass != "tok" || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"code":20003,"message":"Authenticate","status":401}`)
			return
		}
		_ = r.ParseForm()
		f.record(map[string]string{"To": r.PostForm.Get("To"), "From": r.PostForm.Get("From"), "Body": r.PostForm.Get("Body")})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		_, _ = io.WriteString(w, f.body)
	}))
	t.Cleanup(f.Close)
	return f
}

func newGenericFake(t testing.TB, status int) *smsFake {
	f := &smsFake{status: status}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m map[string]string
		if r.Header.Get("Authorization") != "Bearer tok" || r.Header.Get("Content-Type") != "application/json" ||
			json.NewDecoder(r.Body).Decode(&m) != nil || len(m) != 3 {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		f.record(m)
		w.WriteHeader(f.status)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *smsFake) record(m map[string]string) {
	f.mu.Lock()
	f.got = append(f.got, m)
	f.mu.Unlock()
}

func (f *smsFake) messages() []map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]string(nil), f.got...)
}

func smsSender(t testing.TB, cfg SMSConfig) *SMSSender {
	t.Helper()
	s, err := NewSMSSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSMSTwilioDelivered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fake := newTwilioFake(t, http.StatusCreated, `{"sid":"SM1","status":"queued"}`)
	e.rule(t, store.ChannelSMS, "discount_exhausted", "+4915112345678")
	e.event(t, "discount_exhausted", map[string]any{"name": "Happy Hour", "usage_limit": 50, "usage_count": 50})
	s := smsSender(t, SMSConfig{Provider: "twilio", URL: fake.URL, Account: "AC123", Token: "tok", From: "+4930123456"})
	runOnce(t, e.dispatcher(t, map[string]Sender{store.ChannelSMS: s}))
	got := fake.messages()
	want := `Rabatt "Happy Hour" ist aufgebraucht (50 von 50 Einlösungen)`
	if len(got) != 1 || got[0]["To"] != "+4915112345678" || got[0]["From"] != "+4930123456" || got[0]["Body"] != want {
		t.Fatalf("provider got %v", got)
	}
	if l := e.logs(t)[0]; l.Status != store.LogDelivered || *l.Message != want {
		t.Fatalf("log %+v", l)
	}
}

func TestSMSTwilioRejectedIsNotRetried(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fake := newTwilioFake(t, http.StatusBadRequest, `{"code":21211,"message":"The 'To' number +4915112345678 is not a valid phone number.","status":400}`)
	e.rule(t, store.ChannelSMS, "tse_error", "+4915112345678")
	e.event(t, "tse_error", map[string]any{"message": "TSE down"})
	d := e.dispatcher(t, map[string]Sender{store.ChannelSMS: smsSender(t, SMSConfig{Provider: "twilio", URL: fake.URL, Account: "AC123", Token: "tok", From: "posbox"})})
	runOnce(t, d)
	e.clock.Add(48 * time.Hour)
	runOnce(t, d)
	if n := len(fake.messages()); n != 1 {
		t.Fatalf("%d attempts, want 1", n)
	}
	l := e.logs(t)
	want := "HTTP 400 - Bad Request: 21211 The 'To' number +4915112345678 is not a valid phone number."
	if len(l) != 1 || l[0].Status != store.LogFailed || *l[0].Error != want {
		t.Fatalf("log %+v", l[0])
	}
	if del := e.deliveries(t)[0]; del.Status != store.DeliveryFailed {
		t.Fatalf("delivery %+v", del)
	}
}

// Even a 503 from the SMS provider is one attempt: the spec says failed
// SMS are not retried.
func TestSMSGenericDeliveredAndServerErrorNotRetried(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ok := newGenericFake(t, http.StatusOK)
	s := smsSender(t, SMSConfig{Provider: "generic", URL: ok.URL + "/send", Token: "tok", From: "posbox"})
	e.rule(t, store.ChannelSMS, "low_stock", "+4915112345678")
	e.event(t, "low_stock", map[string]any{"name": "Tomaten", "quantity_on_hand": 2.5, "unit": "kg", "threshold": 5})
	runOnce(t, e.dispatcher(t, map[string]Sender{store.ChannelSMS: s}))
	got := ok.messages()
	if len(got) != 1 || got[0]["to"] != "+4915112345678" || got[0]["from"] != "posbox" || got[0]["text"] != "Bestand niedrig: Tomaten 2,5 kg (min. 5)" {
		t.Fatalf("provider got %v", got)
	}

	down := newGenericFake(t, http.StatusServiceUnavailable)
	e2 := newEnv(t)
	e2.rule(t, store.ChannelSMS, "low_stock", "+4915112345678")
	e2.event(t, "low_stock", map[string]any{})
	d := e2.dispatcher(t, map[string]Sender{store.ChannelSMS: smsSender(t, SMSConfig{Provider: "generic", URL: down.URL, Token: "tok"})})
	runOnce(t, d)
	e2.clock.Add(48 * time.Hour)
	runOnce(t, d)
	if n := len(down.messages()); n != 1 {
		t.Fatalf("%d attempts, want 1", n)
	}
	if l := e2.logs(t)[0]; *l.Error != "HTTP 503 - Service Unavailable" || !l.Temporary {
		t.Fatalf("log %+v", l)
	}
}

func TestSMSConfiguration(t *testing.T) {
	t.Parallel()
	s := smsSender(t, SMSConfig{})
	if err := s.Send(t.Context(), Message{Destination: "+4915112345678"}); err == nil || err.Error() != ErrSMSNotConfigured.Text {
		t.Fatalf("unconfigured: %v", err)
	}
	for _, bad := range []SMSConfig{
		{Provider: "nexmo"},
		{Provider: "twilio", URL: "http://x"}, // no account, token, from
		{Provider: "generic"},                 // no URL
		{Provider: "generic", URL: "ftp://x"}, // not http
	} {
		if _, err := NewSMSSender(bad); err == nil {
			t.Errorf("%+v was accepted", bad)
		}
	}
}
