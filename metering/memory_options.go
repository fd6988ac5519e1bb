package metering

import "time"

// DefaultReservationTTL is how long a reservation of a [MemoryLimiter] stays
// unsettled before [Limiter.Reclaim] may end it, unless WithReservationTTL
// says otherwise.
const DefaultReservationTTL = 2 * time.Minute

// MemoryOption configures a [MemoryLimiter].
type MemoryOption func(*MemoryLimiter)

// WithClock makes the limiter read the time from clock instead of time.Now;
// for tests. A nil clock is ignored.
func WithClock(clock func() time.Time) MemoryOption {
	return func(l *MemoryLimiter) {
		if clock != nil {
			l.clock = clock
		}
	}
}

// WithReservationTTL sets how long a reservation may stay unsettled before it
// can be reclaimed (default DefaultReservationTTL). It must exceed the longest
// handler deadline; a non-positive d is ignored.
func WithReservationTTL(d time.Duration) MemoryOption {
	return func(l *MemoryLimiter) {
		if d > 0 {
			l.ttl = d
		}
	}
}
