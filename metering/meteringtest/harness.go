package meteringtest

import (
	"errors"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
)

// harness is one subtest's limiter and clock, with assertion helpers.
type harness struct {
	t     *testing.T
	l     metering.Limiter
	clock *clock
}

// reserve reserves and fails the test unless admitted.
func (h *harness) reserve(consumer, cost int, lim metering.Limit) metering.Reservation {
	h.t.Helper()
	r, err := h.l.Reserve(h.t.Context(), consumer, cost, lim)
	if err != nil {
		h.t.Fatalf("Reserve(consumer %d, cost %d, %+v): %v", consumer, cost, lim, err)
	}
	if r.ID == "" || r.ConsumerID != consumer || r.Cost != cost {
		h.t.Fatalf("Reserve(consumer %d, cost %d) = %+v: wrong fields", consumer, cost, r)
	}
	if !r.Expires.After(h.clock.Now()) {
		h.t.Fatalf("Reserve: Expires %v not after now %v", r.Expires, h.clock.Now())
	}
	return r
}

// reserveLeft reserves and checks Remaining.
func (h *harness) reserveLeft(consumer, cost int, lim metering.Limit, remaining int) metering.Reservation {
	h.t.Helper()
	r := h.reserve(consumer, cost, lim)
	if r.Remaining != remaining {
		h.t.Fatalf("Reserve(consumer %d, cost %d, %+v): Remaining %d, want %d", consumer, cost, lim, r.Remaining, remaining)
	}
	return r
}

// refuse reserves and fails the test unless refused with the given Never and
// Remaining.
func (h *harness) refuse(consumer, cost int, lim metering.Limit, never bool, remaining int) *metering.Refusal {
	h.t.Helper()
	r, err := h.l.Reserve(h.t.Context(), consumer, cost, lim)
	var ref *metering.Refusal
	if !errors.As(err, &ref) {
		h.t.Fatalf("Reserve(consumer %d, cost %d, %+v) = %+v, %v; want a *Refusal", consumer, cost, lim, r, err)
	}
	if ref.Never != never || ref.Remaining != remaining {
		h.t.Fatalf("Reserve(consumer %d, cost %d, %+v): refusal %+v, want Never %v Remaining %d", consumer, cost, lim, *ref, never, remaining)
	}
	if never && ref.RetryAfter != 0 {
		h.t.Fatalf("Never refusal with RetryAfter %v", ref.RetryAfter)
	}
	if ref.Error() == "" {
		h.t.Fatal("Refusal.Error() is empty")
	}
	return ref
}

// refuseFor refuses and checks RetryAfter against the exact want.
func (h *harness) refuseFor(consumer, cost int, lim metering.Limit, remaining int, want time.Duration) *metering.Refusal {
	h.t.Helper()
	ref := h.refuse(consumer, cost, lim, false, remaining)
	if ref.RetryAfter < want || ref.RetryAfter >= want+RetryAfterSlack {
		h.t.Fatalf("Reserve(consumer %d, cost %d, %+v): RetryAfter %v, want %v", consumer, cost, lim, ref.RetryAfter, want)
	}
	return ref
}

// settle settles and fails the test on error.
func (h *harness) settle(r metering.Reservation, refund bool) {
	h.t.Helper()
	if err := h.l.Settle(h.t.Context(), r, refund); err != nil {
		h.t.Fatalf("Settle(%+v, refund %v): %v", r, refund, err)
	}
}

// reclaim reclaims and checks the count.
func (h *harness) reclaim(now time.Time, want int) {
	h.t.Helper()
	n, err := h.l.Reclaim(h.t.Context(), now)
	if err != nil {
		h.t.Fatalf("Reclaim(%v): %v", now, err)
	}
	if n != want {
		h.t.Fatalf("Reclaim(%v) = %d, want %d", now, n, want)
	}
}
