package meteringtest

import (
	"sync"
	"time"
)

// clock is a manual clock, safe for concurrent use.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

// newClock returns a clock stopped at a fixed instant.
func newClock() *clock {
	return &clock{now: time.Date(2030, time.January, 1, 0, 0, 0, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
