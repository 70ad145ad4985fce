// Package storetest holds what the tests of several packages share: a
// settable clock (Clock) that the store, the simulator and the workers
// read, so a test moves time instead of waiting for it. It imports nothing
// of posbox, so the store's own tests can use it too. Only tests import it.
package storetest

import (
	"sync"
	"time"
)

// Clock is a settable clock for store.Options.Now, the simulator and the
// workers: tests move time instead of waiting for it.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a clock stopped at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
