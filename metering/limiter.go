// Package metering meters partner API calls per consumer.
//
// Admission ([Limiter]) uses cost-based token buckets: every consumer has one bucket,
// shared by all its keys (and, with a shared store, by all replicas). A call
// reserves its cost before the handler runs and settles the reservation
// afterwards, keeping the cost or refunding it for an observed caller
// cancellation. Reservations whose settlement was lost are reclaimed by a
// sweeper that calls [Limiter.Reclaim] periodically; they keep their cost.
package metering

import (
	"context"
	"fmt"
	"time"
)

// MaxRetryAfter bounds [Refusal.RetryAfter]. A bucket that cannot refill by
// time alone (RatePerMinute 0), or would take longer than this, reports
// MaxRetryAfter: only a refund or a renegotiated limit can help sooner.
const MaxRetryAfter = 24 * time.Hour

// Limit is a consumer's negotiated allowance: tokens refill at RatePerMinute
// per minute up to Burst. RatePerMinute 0 means no refill (burst only);
// Burst 0 means nothing is ever admitted. Negative values are invalid.
type Limit struct{ RatePerMinute, Burst int }

// Reservation is an admitted call's hold on its cost until it is settled.
type Reservation struct {
	ID         string    // unique, opaque
	ConsumerID int       // the consumer whose bucket was charged
	Cost       int       // tokens taken from the bucket
	Remaining  int       // whole tokens left in the bucket right after admission (for X-RateLimit-Remaining)
	Expires    time.Time // after this an unsettled reservation may be reclaimed
}

// Refusal describes a refused admission. Reserve returns it as a *Refusal
// error; callers answer 429 (with Retry-After unless Never is set).
type Refusal struct {
	// RetryAfter is the exact time until enough tokens will be there, at most
	// MaxRetryAfter; callers round it up to whole seconds. Zero when Never.
	RetryAfter time.Duration
	// Never reports that the cost exceeds the burst: the call can never be
	// admitted under the current limit.
	Never bool
	// Remaining is the whole tokens in the bucket at the time of refusal.
	Remaining int
}

// Error describes the refusal.
func (r *Refusal) Error() string {
	if r.Never {
		return "metering: cost exceeds the consumer's burst; it can never be admitted"
	}
	return fmt.Sprintf("metering: rate limit exceeded; retry after %s", r.RetryAfter)
}

// Limiter admits calls against per-consumer buckets shared by all the
// consumer's keys (and, for shared stores, all replicas). Implementations are
// safe for concurrent use. Backends are checked by the conformance suite in
// package meteringtest.
type Limiter interface {
	// Reserve takes cost tokens from the consumer's bucket, or returns a
	// *Refusal error. Any other error means the store failed or the arguments
	// were invalid (cost < 1, negative limit): callers answer 503, fail
	// closed. limit is the consumer's current allowance; when it differs from
	// the one the bucket last saw, it applies from now on and the tokens are
	// clamped to the new burst.
	Reserve(ctx context.Context, consumerID int, cost int, limit Limit) (Reservation, error)
	// Settle ends a reservation: keep the cost (refund=false) or give it back
	// (refund=true, for an observed caller cancellation); a refund is capped
	// at the burst. Settling twice, settling a reclaimed reservation or one
	// this limiter never issued is a no-op and returns nil. Callers settling
	// after a cancellation should pass a context that is not cancelled
	// (context.WithoutCancel), since shared stores honour ctx.
	Settle(ctx context.Context, r Reservation, refund bool) error
	// Reclaim ends every reservation that expired unsettled before now,
	// keeping its cost (a call whose settlement was lost is charged, never
	// refunded), and returns how many it ended. The server runs it
	// periodically, at least once per reservation TTL, so that lost
	// settlements do not accumulate.
	Reclaim(ctx context.Context, now time.Time) (int, error)
}
