package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// SMSConfig is the SMS provider.
type SMSConfig struct {
	Provider string // twilio or generic; empty: SMS is not configured
	URL      string // base URL (twilio: https://api.twilio.com)
	Account  string // Twilio account SID
	Token    string // Twilio auth token, or the generic provider's bearer token
	From     string // sender number or alphanumeric id
	Timeout  time.Duration
}

// ErrSMSNotConfigured is the failure of an SMS delivery without sms_provider.
var ErrSMSNotConfigured = &Failure{Text: "SMS is not configured (set sms_provider and sms_url)"}

// SMSSender posts one message to the provider; "delivered" means the
// provider accepted it (receipts cannot reach a box behind NAT).
type SMSSender struct {
	cfg    SMSConfig
	client *http.Client
}

// NewSMSSender checks the configuration.
func NewSMSSender(cfg SMSConfig) (*SMSSender, error) {
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	switch cfg.Provider {
	case "":
	case "twilio":
		if cfg.URL == "" {
			cfg.URL = "https://api.twilio.com"
		}
		if cfg.Account == "" || cfg.Token == "" || cfg.From == "" {
			return nil, fmt.Errorf("sms_provider twilio needs sms_account, sms_token and sms_from")
		}
	case "generic":
		if cfg.URL == "" {
			return nil, fmt.Errorf("sms_provider generic needs sms_url")
		}
	default:
		return nil, fmt.Errorf("sms_provider: %q is not twilio or generic", cfg.Provider)
	}
	if cfg.URL != "" {
		if u, err := url.Parse(cfg.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("sms_url: %q is not an http(s) URL", cfg.URL)
		}
	}
	return &SMSSender{cfg: cfg, client: &http.Client{Timeout: cfg.Timeout}}, nil
}

// Send submits one SMS; it is never retried.
func (s *SMSSender) Send(ctx context.Context, m Message) error {
	var req *http.Request
	var err error
	switch s.cfg.Provider {
	case "twilio":
		form := url.Values{"To": {m.Destination}, "From": {s.cfg.From}, "Body": {m.Text}}
		endpoint := strings.TrimRight(s.cfg.URL, "/") + "/2010-04-01/Accounts/" + url.PathEscape(s.cfg.Account) + "/Messages.json"
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
		if err == nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.SetBasicAuth(s.cfg.Account, s.cfg.Token)
		}
	case "generic":
		body, _ := json.Marshal(map[string]string{"to": m.Destination, "from": s.cfg.From, "text": m.Text})
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.URL, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			if s.cfg.Token != "" {
				req.Header.Set("Authorization", "Bearer "+s.cfg.Token)
			}
		}
	default:
		return ErrSMSNotConfigured
	}
	if err != nil {
		return &Failure{Text: "sms request: " + err.Error()}
	}
	req.Header.Set("User-Agent", userAgent)
	resp, err := s.client.Do(req)
	if err != nil {
		return transportFailure(err, s.cfg.Timeout)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return nil
	}
	f := httpFailure(resp)
	if detail := providerError(raw); detail != "" {
		f.Text += ": " + detail
	}
	return f
}

// providerError reads Twilio's {"code","message"} or a generic
// {"error"|"message"} body into one short line.
func providerError(raw []byte) string {
	var b struct {
		Code    any    `json:"code"`
		Message string `json:"message"`
		Error   string `json:"error"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return ""
	}
	msg := b.Message
	if msg == "" {
		msg = b.Error
	}
	if b.Code != nil && msg != "" {
		msg = fmt.Sprint(b.Code) + " " + msg
	}
	return oneLine(msg)
}
