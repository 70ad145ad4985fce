package server

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// loginLimiter keeps one token bucket per client address and per email,
// and forgets buckets that have been idle long enough to be full again.
type loginLimiter struct {
	perIP, perEmail Limit
	mu              sync.Mutex
	buckets         map[string]*bucket
	done            chan struct{}
	stopOnce        sync.Once
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLoginLimiter(perIP, perEmail Limit) *loginLimiter {
	l := &loginLimiter{perIP: perIP, perEmail: perEmail, buckets: map[string]*bucket{}, done: make(chan struct{})}
	go l.evict()
	return l
}

// allow takes one attempt from both buckets. When either is empty it
// takes nothing and says how long to wait.
func (l *loginLimiter) allow(ip, email string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.reserve("ip:"+ip, l.perIP, now)
	b := l.reserve("email:"+email, l.perEmail, now)
	wait := max(a.DelayFrom(now), b.DelayFrom(now))
	if wait > 0 {
		a.CancelAt(now)
		b.CancelAt(now)
		return false, wait
	}
	return true, 0
}

func (l *loginLimiter) reserve(key string, lim Limit, now time.Time) *rate.Reservation {
	bk := l.buckets[key]
	if bk == nil {
		bk = &bucket{lim: rate.NewLimiter(rate.Every(lim.Every), lim.Burst)}
		l.buckets[key] = bk
	}
	bk.seen = now
	return bk.lim.ReserveN(now, 1)
}

// evict drops buckets idle for ten minutes, every minute.
func (l *loginLimiter) evict() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-l.done:
			return
		case now := <-t.C:
			l.mu.Lock()
			for k, b := range l.buckets {
				if now.Sub(b.seen) > 10*time.Minute {
					delete(l.buckets, k)
				}
			}
			l.mu.Unlock()
		}
	}
}

func (l *loginLimiter) stop() { l.stopOnce.Do(func() { close(l.done) }) }
