package server

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxBuckets bounds the limiter's memory: past it the bucket seen least
// recently is dropped (it was the fullest anyway).
const maxBuckets = 10000

// knownGoodFor is how long a client address that logged in to an account
// stays exempt from that account's global ceiling.
const knownGoodFor = 30 * 24 * time.Hour

// loginLimiter throttles password guessing without letting a stranger
// lock an account's owner out (docs/DESIGN.md, "Users"):
//
//   - per client address: every login from one address (perIP);
//   - per account and address: guesses at one account from one address
//     (perAccountIP, the strict one);
//   - per account: a slower ceiling on all addresses together
//     (perAccount), which does not apply to an address that logged in to
//     the account before (knownGood), so the owner's till or laptop gets
//     in while strangers guess from elsewhere.
//
// Buckets idle long enough to be full again are forgotten, and there are
// never more than maxBuckets.
type loginLimiter struct {
	perIP, perAccountIP, perAccount Limit
	mu                              sync.Mutex
	buckets                         map[string]*bucket
	knownGood                       map[string]time.Time // account+address → last success
	done                            chan struct{}
	stopOnce                        sync.Once
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLoginLimiter(perIP, perAccountIP, perAccount Limit) *loginLimiter {
	l := &loginLimiter{perIP: perIP, perAccountIP: perAccountIP, perAccount: perAccount,
		buckets: map[string]*bucket{}, knownGood: map[string]time.Time{}, done: make(chan struct{})}
	go l.evict()
	return l
}

// allow takes one attempt from every bucket that applies. When one is
// empty it takes nothing and says how long to wait.
func (l *loginLimiter) allow(ip, account string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rs := []*rate.Reservation{
		l.reserve("ip:"+ip, l.perIP, now),
		l.reserve("acct-ip:"+account+"\x00"+ip, l.perAccountIP, now),
	}
	if good, ok := l.knownGood[account+"\x00"+ip]; !ok || now.Sub(good) > knownGoodFor {
		rs = append(rs, l.reserve("acct:"+account, l.perAccount, now))
	}
	var wait time.Duration
	for _, r := range rs {
		wait = max(wait, r.DelayFrom(now))
	}
	if wait > 0 {
		for _, r := range rs {
			r.CancelAt(now)
		}
		return false, wait
	}
	return true, 0
}

// succeeded remembers that ip logged in to account.
func (l *loginLimiter) succeeded(ip, account string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := account + "\x00" + ip
	if _, ok := l.knownGood[k]; !ok && len(l.knownGood) >= maxBuckets {
		dropOldest(l.knownGood, func(t time.Time) time.Time { return t })
	}
	l.knownGood[k] = now
}

func (l *loginLimiter) reserve(key string, lim Limit, now time.Time) *rate.Reservation {
	bk := l.buckets[key]
	if bk == nil {
		if len(l.buckets) >= maxBuckets {
			dropOldest(l.buckets, func(b *bucket) time.Time { return b.seen })
		}
		bk = &bucket{lim: rate.NewLimiter(rate.Every(lim.Every), lim.Burst)}
		l.buckets[key] = bk
	}
	bk.seen = now
	return bk.lim.ReserveN(now, 1)
}

// dropOldest deletes the entry seen least recently (a scan: it runs only
// when the map is full, which a LAN's tills never make it).
func dropOldest[V any](m map[string]V, seen func(V) time.Time) {
	var oldest string
	var at time.Time
	for k, v := range m {
		if t := seen(v); oldest == "" || t.Before(at) {
			oldest, at = k, t
		}
	}
	delete(m, oldest)
}

// evict drops buckets idle for ten minutes and known-good addresses older
// than knownGoodFor, every minute.
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
			for k, at := range l.knownGood {
				if now.Sub(at) > knownGoodFor {
					delete(l.knownGood, k)
				}
			}
			l.mu.Unlock()
		}
	}
}

// size is how many buckets and known-good addresses are held.
func (l *loginLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets) + len(l.knownGood)
}

func (l *loginLimiter) stop() { l.stopOnce.Do(func() { close(l.done) }) }
