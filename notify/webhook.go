package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"posbox/internal/retryafter"
)

const userAgent = "posbox-Webhooks/1"

// WebhookConfig tunes the webhook channel.
type WebhookConfig struct {
	AllowedHosts string        // Gitea syntax; "external,private,loopback" when empty
	Timeout      time.Duration // whole request; 10 s when zero
}

// WebhookSender posts Standard Webhooks v1 requests. Redirects are not
// followed and the allowed-host list is checked on the address actually
// dialled, after DNS resolution.
type WebhookSender struct {
	client  *http.Client
	timeout time.Duration
}

// NewWebhookSender builds the guarded HTTP client.
func NewWebhookSender(cfg WebhookConfig) (*WebhookSender, error) {
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.AllowedHosts == "" {
		cfg.AllowedHosts = "external,private,loopback"
	}
	hosts, err := ParseHostList(cfg.AllowedHosts)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{
		Proxy: nil, // a proxy would dial for us and bypass the host check
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, _, _ := net.SplitHostPort(addr)
			d := net.Dialer{Timeout: 5 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
				ipText, _, _ := net.SplitHostPort(address)
				ip := net.ParseIP(ipText)
				if !hosts.Allowed(host, ip) {
					return &blockedError{ip: ipText}
				}
				return nil
			}}
			return d.DialContext(ctx, network, addr)
		},
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConns:          10,
		IdleConnTimeout:       30 * time.Second,
	}
	return &WebhookSender{timeout: cfg.Timeout, client: &http.Client{
		Transport:     tr,
		Timeout:       cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}, nil
}

// blockedError is a target outside the allowed-host list.
type blockedError struct{ ip string }

func (e *blockedError) Error() string {
	return "blocked destination " + e.ip + " (not allowed by webhook_allowed_hosts)"
}

// Send posts m.Body once. Network errors, timeouts, 408, 425, 429 and 5xx
// are retryable; anything else that is not 2xx, a 3xx included, is final.
func (s *WebhookSender) Send(ctx context.Context, m Message) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.Destination, bytes.NewReader(m.Body))
	if err != nil {
		return &Failure{Text: "bad webhook URL: " + err.Error()}
	}
	ts := strconv.FormatInt(m.Now.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("webhook-id", m.WebhookID)
	req.Header.Set("webhook-timestamp", ts)
	if m.Secret != "" {
		sig, err := Sign(m.Secret, m.WebhookID, ts, m.Body)
		if err != nil {
			return &Failure{Text: err.Error()}
		}
		req.Header.Set("webhook-signature", sig)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return transportFailure(err, s.timeout)
	}
	defer resp.Body.Close()
	// Read a little so the connection can be reused; never echo it.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return nil
	}
	return httpFailure(resp)
}

// httpFailure is a non-2xx answer: "HTTP 503 - Service Unavailable".
func httpFailure(resp *http.Response) *Failure {
	code := resp.StatusCode
	reason := strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(code)))
	if reason == "" {
		reason = http.StatusText(code)
	}
	f := &Failure{Text: fmt.Sprintf("HTTP %d - %s", code, reason)}
	switch {
	case code == http.StatusRequestTimeout, code == http.StatusTooEarly, code == http.StatusTooManyRequests, code >= 500:
		f.Retryable, f.Temporary = true, true
		f.RetryAfter = retryafter.Parse(resp.Header.Get("Retry-After"), time.Now())
	}
	return f
}

// transportFailure names a failed request briefly; a blocked target is
// final, anything else on the way is worth a retry.
func transportFailure(err error, timeout time.Duration) *Failure {
	var blocked *blockedError
	if errors.As(err, &blocked) {
		return &Failure{Text: blocked.Error()}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return &Failure{Text: fmt.Sprintf("timeout after %s", timeout), Retryable: true, Temporary: true}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &Failure{Text: oneLine(err.Error()), Retryable: true, Temporary: true}
}

// Sign is the Standard Webhooks v1 signature of one request:
// "v1," + base64(HMAC-SHA256(key, id + "." + timestamp + "." + body)),
// the key being the base64 after "whsec_".
func Sign(secret, id, timestamp string, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return "", fmt.Errorf("webhook secret is not whsec_ + base64: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
