package api

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// lazyDeadline is a context with a deadline whose timer starts only when something waits on it:
// Done, Err, or a child context (which asks its parent for Done). Until then it is its parent plus a
// deadline that Deadline reports, so a handler answering from memory, as a cached read does, pays
// neither a timer nor a registration with its parent. Once something waits, a context.WithDeadline
// of the parent answers everything, Value too, so context.Cause sees the deadline's cause.
type lazyDeadline struct {
	parent context.Context
	at     time.Time
	once   sync.Once
	timed  atomic.Pointer[timedContext] // set by wait
}

type timedContext struct {
	context.Context
	cancel context.CancelFunc
}

// withLazyDeadline returns the parent with a deadline d from now. Call release when the work ends,
// as the cancel function of context.WithTimeout.
func withLazyDeadline(parent context.Context, d time.Duration) *lazyDeadline {
	return &lazyDeadline{parent: parent, at: time.Now().Add(d)}
}

// wait returns the timed context, made the first time.
func (c *lazyDeadline) wait() *timedContext {
	c.once.Do(func() {
		ctx, cancel := context.WithDeadline(c.parent, c.at)
		c.timed.Store(&timedContext{ctx, cancel})
	})
	return c.timed.Load()
}

// release stops the timer, if one started.
func (c *lazyDeadline) release() {
	if t := c.timed.Load(); t != nil {
		t.cancel()
	}
}

// Deadline is the earlier of the parent's deadline and this one.
func (c *lazyDeadline) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.at) {
		return d, true
	}
	return c.at, true
}

func (c *lazyDeadline) Done() <-chan struct{} { return c.wait().Done() }

func (c *lazyDeadline) Err() error { return c.wait().Err() }

func (c *lazyDeadline) Value(key any) any {
	if t := c.timed.Load(); t != nil {
		return t.Value(key)
	}
	return c.parent.Value(key)
}
