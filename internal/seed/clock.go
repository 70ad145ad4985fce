package seed

import (
	"sync"
	"time"
)

// Clock is the store's and the simulator's clock while seeding: each
// write happens at the instant Set last named.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now is the clock's instant.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}
