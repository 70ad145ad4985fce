package notify

import (
	"math/rand/v2"
	"time"

	"posbox/store"
)

// DefaultSchedule is the delay before each webhook attempt: 8 attempts
// over about 20.6 hours, enough to bridge a night with the internet down.
// Email and SMS get exactly one attempt.
var DefaultSchedule = []time.Duration{0, 5 * time.Second, time.Minute, 5 * time.Minute,
	30 * time.Minute, 2 * time.Hour, 6 * time.Hour, 12 * time.Hour}

// maxRetryAfter caps a receiver's Retry-After.
const maxRetryAfter = 6 * time.Hour

// randomJitter spreads retries by ±20 % so receivers that come back are
// not hit by every box at once.
func randomJitter() float64 { return 0.8 + 0.4*rand.Float64() }

// nextAttempt is when attempt number done+1 is due, or zero when done
// attempts are all the channel gets or the failure is final.
func (d *Dispatcher) nextAttempt(channel string, done int, f *Failure, now time.Time) time.Time {
	if channel != store.ChannelWebhook || !f.Retryable || done >= len(d.schedule) {
		return time.Time{}
	}
	delay := time.Duration(float64(d.schedule[done]) * d.jitter())
	if ra := min(f.RetryAfter, maxRetryAfter); ra > delay {
		delay = ra
	}
	return now.Add(delay)
}
