package notify

import (
	"context"
	"time"
)

// Message is what one attempt sends. Each channel reads its part: email the
// subject, text and HTML; SMS the text; a webhook the body, id and secret.
type Message struct {
	Channel     string
	Destination string
	EventType   string

	Subject string
	Text    string
	HTML    string

	Body      []byte    // webhook JSON, the exact bytes signed and sent
	WebhookID string    // webhook-id, the same on every retry
	Secret    string    // whsec_...; no signature header when empty
	Now       time.Time // this attempt's instant (webhook-timestamp)
	Language  string    // de or en (Content-Language)
}

// Sender sends a message over one channel. A nil error means the far side
// accepted it; any other error should be a *Failure.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Failure is a failed attempt, classified.
type Failure struct {
	Text       string        // the log's error text
	Retryable  bool          // worth another attempt (webhooks only act on it)
	Temporary  bool          // the far side called it transient
	RetryAfter time.Duration // the receiver's Retry-After, if any
}

func (f *Failure) Error() string { return f.Text }

// failure classifies any error a sender returned.
func failure(err error) *Failure {
	if f, ok := err.(*Failure); ok {
		return f
	}
	return &Failure{Text: err.Error()}
}
