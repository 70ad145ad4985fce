package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/wneessen/go-mail"
)

// EmailConfig is the SMTP relay of the email channel.
type EmailConfig struct {
	Host     string // empty: email is not configured
	Port     int
	Username string
	Password string
	From     string
	// TLS is starttls (STARTTLS mandatory, the default), tls (implicit
	// TLS, usually port 465), opportunistic (STARTTLS when offered) or none.
	TLS       string
	Timeout   time.Duration // per SMTP command; 10 s when zero
	TLSConfig *tls.Config   // nil: system roots, server name from Host
	HELO      string        // optional: some relays reject "localhost"
}

// ErrEmailNotConfigured is the failure of an email delivery without smtp_host.
var ErrEmailNotConfigured = &Failure{Text: "email is not configured (set smtp_host)"}

// EmailSender sends one message per SMTP connection: volume is tiny and
// a fresh connection survives a relay restart.
type EmailSender struct{ cfg EmailConfig }

// NewEmailSender checks the configuration; an empty Host is allowed and
// makes every send fail with ErrEmailNotConfigured.
func NewEmailSender(cfg EmailConfig) (*EmailSender, error) {
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.TLS == "" {
		cfg.TLS = "starttls"
	}
	switch cfg.TLS {
	case "starttls", "tls", "opportunistic", "none":
	default:
		return nil, fmt.Errorf("smtp_tls: %q is not starttls, tls, opportunistic or none", cfg.TLS)
	}
	if cfg.Port == 0 {
		cfg.Port = 587
		if cfg.TLS == "tls" {
			cfg.Port = 465
		}
	}
	if cfg.Host != "" && cfg.From == "" {
		return nil, errors.New("smtp_from is required when smtp_host is set")
	}
	return &EmailSender{cfg: cfg}, nil
}

func (s *EmailSender) options() []mail.Option {
	c := s.cfg
	opts := []mail.Option{mail.WithPort(c.Port), mail.WithTimeout(c.Timeout)}
	switch c.TLS {
	case "starttls":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	case "tls":
		opts = append(opts, mail.WithSSL())
	case "opportunistic":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	case "none":
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	}
	if c.TLSConfig != nil {
		opts = append(opts, mail.WithTLSConfig(c.TLSConfig))
	}
	if c.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover),
			mail.WithUsername(c.Username), mail.WithPassword(c.Password))
	}
	if c.HELO != "" {
		opts = append(opts, mail.WithHELO(c.HELO))
	}
	return opts
}

// Send delivers m to one address. Errors say whether the relay called the
// failure temporary (4xx) or permanent (5xx); the dispatcher never
// retries email either way.
func (s *EmailSender) Send(ctx context.Context, m Message) error {
	if s.cfg.Host == "" {
		return ErrEmailNotConfigured
	}
	msg := mail.NewMsg()
	if err := msg.FromFormat("posbox", s.cfg.From); err != nil {
		return &Failure{Text: "bad smtp_from: " + err.Error()}
	}
	if err := msg.To(m.Destination); err != nil {
		return &Failure{Text: "bad destination: " + err.Error()}
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBulk() // Precedence: bulk, X-Auto-Response-Suppress: stops autoreply loops
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	if m.Language != "" {
		msg.SetGenHeader(mail.HeaderContentLang, m.Language)
	}
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(mail.TypeTextHTML, m.HTML)
	}
	client, err := mail.NewClient(s.cfg.Host, s.options()...)
	if err != nil {
		return &Failure{Text: "smtp client: " + err.Error()}
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return classifySMTP(err)
	}
	return nil
}

// classifySMTP turns a go-mail error into a Failure: an SMTP reply code
// decides temporary (4xx) or permanent (5xx); dial errors and timeouts are
// temporary; TLS and other local errors are permanent (fix the settings).
func classifySMTP(err error) *Failure {
	var se *mail.SendError
	if errors.As(err, &se) && se.ErrorCode() > 0 {
		kind := "permanent"
		if se.IsTemp() {
			kind = "temporary"
		}
		code := fmt.Sprint(se.ErrorCode())
		if esc := se.EnhancedStatusCode(); esc != "" {
			code += " " + esc
		}
		return &Failure{Text: fmt.Sprintf("SMTP %s (%s): %s", code, kind, oneLine(err.Error())), Temporary: se.IsTemp()}
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) {
		return &Failure{Text: "SMTP server unreachable (temporary): " + oneLine(err.Error()), Temporary: true}
	}
	return &Failure{Text: "SMTP: " + oneLine(err.Error())}
}

// oneLine keeps an error readable in one log field.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}
