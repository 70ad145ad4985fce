package notify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http/httptest"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"posbox/notify/smtptest"
	"posbox/store"
)

func emailSender(t testing.TB, cfg EmailConfig) *EmailSender {
	t.Helper()
	s, err := NewEmailSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// plainConfig talks to s without TLS and without AUTH: go-mail (rightly)
// sends no password over an unencrypted connection.
func plainConfig(s *smtptest.Server) EmailConfig {
	return EmailConfig{Host: "127.0.0.1", Port: s.Port(), From: "kasse@trattoria.example", TLS: "none", Timeout: 5 * time.Second}
}

// An event with an email rule arrives as a proper mail: headers, text and
// HTML alternatives, the German text of the event.
func TestEmailDeliveredWithHeadersAndBothParts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := smtptest.Start(t, smtptest.Options{})
	e.rule(t, store.ChannelEmail, "clock_in", "chef@trattoria.example")
	e.event(t, "clock_in", map[string]any{"action": "clock_in", "local_time": "2026-11-22 10:00",
		"time_entry": map[string]any{"user_name": "Jörg <Koch>"}})
	d := e.dispatcher(t, map[string]Sender{store.ChannelEmail: emailSender(t, plainConfig(srv))})
	runOnce(t, d)

	msgs := srv.Received()
	if len(msgs) != 1 {
		t.Fatalf("%d mails, want 1; logs %+v", len(msgs), e.logs(t))
	}
	if msgs[0].From != "kasse@trattoria.example" || len(msgs[0].To) != 1 || msgs[0].To[0] != "chef@trattoria.example" {
		t.Fatalf("envelope %q -> %q", msgs[0].From, msgs[0].To)
	}
	m, err := mail.ReadMessage(strings.NewReader(string(msgs[0].Data)))
	if err != nil {
		t.Fatal(err)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	want := "Jörg <Koch> hat eingestempelt: 2026-11-22 10:00"
	if subject != want {
		t.Fatalf("Subject %q, want %q", subject, want)
	}
	if _, err := m.Header.Date(); err != nil {
		t.Fatalf("Date: %v", err)
	}
	if id := m.Header.Get("Message-ID"); !strings.HasPrefix(id, "<") || !strings.Contains(id, "@") {
		t.Fatalf("Message-ID %q", id)
	}
	if m.Header.Get("Auto-Submitted") != "auto-generated" || m.Header.Get("Content-Language") != "de" {
		t.Fatalf("headers %v", m.Header)
	}
	if to := m.Header.Get("To"); !strings.Contains(to, "chef@trattoria.example") {
		t.Fatalf("To %q", to)
	}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q", m.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	var types []string
	var parts []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		b, _ := io.ReadAll(p) // multipart decodes quoted-printable
		types, parts = append(types, ct), append(parts, string(b))
	}
	if len(types) != 2 || types[0] != "text/plain" || types[1] != "text/html" {
		t.Fatalf("parts %v", types)
	}
	if !strings.Contains(parts[0], want) || !strings.Contains(parts[0], "time_entry.user_name: Jörg <Koch>") {
		t.Fatalf("text part %q", parts[0])
	}
	if !strings.Contains(parts[1], "Jörg &lt;Koch&gt;") || strings.Contains(parts[1], "<Koch>") {
		t.Fatalf("html part not escaped: %q", parts[1])
	}
	if l := e.logs(t)[0]; l.Status != store.LogDelivered || *l.Message != want {
		t.Fatalf("log %+v", l)
	}
}

// Email is never retried: a permanent 550 and a temporary 451 both end
// the delivery after one attempt; the log tells them apart.
func TestEmailFailuresAreNotRetried(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		err       error
		temporary bool
		text      string
	}{
		{"550", &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}, false, "SMTP 550 5.1.1 (permanent)"},
		{"451", &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}, true, "SMTP 451 4.3.0 (temporary)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			srv := smtptest.Start(t, smtptest.Options{RcptErr: tc.err})
			e.rule(t, store.ChannelEmail, "tse_error", "chef@trattoria.example")
			e.event(t, "tse_error", map[string]any{"message": "TSE did not answer"})
			d := e.dispatcher(t, map[string]Sender{store.ChannelEmail: emailSender(t, plainConfig(srv))})
			runOnce(t, d)
			e.clock.Add(48 * time.Hour)
			runOnce(t, d)
			if srv.Sessions() != 1 || len(srv.Received()) != 0 {
				t.Fatalf("%d SMTP sessions, %d mails; want 1 session, 0 mails", srv.Sessions(), len(srv.Received()))
			}
			logs := e.logs(t)
			if len(logs) != 1 || logs[0].Status != store.LogFailed || logs[0].Temporary != tc.temporary ||
				!strings.HasPrefix(*logs[0].Error, tc.text) {
				t.Fatalf("logs %+v (error %q)", logs[0], *logs[0].Error)
			}
			t.Logf("error text: %s", *logs[0].Error)
			if del := e.deliveries(t)[0]; del.Status != store.DeliveryFailed || del.Attempts != 1 {
				t.Fatalf("delivery %+v", del)
			}
		})
	}
}

func TestEmailServerDownAndNotConfigured(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	down := emailSender(t, EmailConfig{Host: "127.0.0.1", Port: port, From: "a@b.example", TLS: "none", Timeout: 2 * time.Second})
	err = down.Send(context.Background(), Message{Destination: "x@y.example", Subject: "s", Text: "t"})
	var f *Failure
	if !errors.As(err, &f) || !f.Temporary || !strings.Contains(f.Text, "unreachable") {
		t.Fatalf("server down: %v", err)
	}
	none := emailSender(t, EmailConfig{})
	if err := none.Send(context.Background(), Message{Destination: "x@y.example"}); err == nil || err.Error() != "email is not configured (set smtp_host)" {
		t.Fatalf("not configured: %v", err)
	}
	if _, err := NewEmailSender(EmailConfig{Host: "h", From: "a@b.example", TLS: "ssl"}); err == nil {
		t.Fatal("a bad smtp_tls was accepted")
	}
}

// starttls (the default) upgrades the connection and refuses a server
// without STARTTLS; tls speaks TLS from the first byte.
func TestEmailTLSPolicies(t *testing.T) {
	t.Parallel()
	ts := httptest.NewUnstartedServer(nil)
	ts.StartTLS()
	defer ts.Close()
	pool := x509.NewCertPool()
	pool.AddCert(ts.Certificate())
	clientTLS := &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	serverTLS := &tls.Config{Certificates: ts.TLS.Certificates}

	secure := smtptest.Start(t, smtptest.Options{User: "posbox", Password: "secret", TLS: serverTLS})
	cfg := plainConfig(secure)
	cfg.TLS, cfg.TLSConfig, cfg.Username, cfg.Password = "starttls", clientTLS, "posbox", "secret"
	if err := emailSender(t, cfg).Send(context.Background(), Message{Destination: "x@y.example", Subject: "s", Text: "t"}); err != nil {
		t.Fatalf("starttls: %v", err)
	}
	if len(secure.Received()) != 1 || len(secure.Authenticated()) != 1 {
		t.Fatal("no authenticated mail over STARTTLS")
	}

	plain := smtptest.Start(t, smtptest.Options{}) // offers no STARTTLS
	cfg = plainConfig(plain)
	cfg.TLS, cfg.TLSConfig = "starttls", clientTLS
	if err := emailSender(t, cfg).Send(context.Background(), Message{Destination: "x@y.example", Subject: "s", Text: "t"}); err == nil {
		t.Fatal("starttls sent over a plain connection")
	}
	cfg.TLS = "opportunistic"
	if err := emailSender(t, cfg).Send(context.Background(), Message{Destination: "x@y.example", Subject: "s", Text: "t"}); err != nil {
		t.Fatalf("opportunistic: %v", err)
	}

	s2 := smtptest.Start(t, smtptest.Options{TLS: serverTLS, ImplicitTLS: true})
	cfg = plainConfig(s2)
	cfg.TLS, cfg.TLSConfig = "tls", clientTLS
	if err := emailSender(t, cfg).Send(context.Background(), Message{Destination: "x@y.example", Subject: "s", Text: "t"}); err != nil {
		t.Fatalf("tls: %v", err)
	}
	if len(s2.Received()) != 1 {
		t.Fatal("no mail over implicit TLS")
	}
}
