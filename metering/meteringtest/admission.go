package meteringtest

import (
	"errors"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
)

// testBurstThenRefusal: a full bucket admits its burst, then refuses with the
// time until the next token, and admits again once that time has passed.
func testBurstThenRefusal(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 60, Burst: 5}
	seen := map[string]bool{}
	for i := range 5 {
		r := h.reserveLeft(1, 1, lim, 4-i)
		if seen[r.ID] {
			t.Fatalf("reservation id %q issued twice", r.ID)
		}
		seen[r.ID] = true
	}
	ref := h.refuseFor(1, 1, lim, 0, time.Second)
	h.clock.Advance(ref.RetryAfter)
	h.reserveLeft(1, 1, lim, 0)
	h.refuseFor(1, 1, lim, 0, time.Second)
}

// testCostBased: a call takes its cost; a refused call takes nothing.
func testCostBased(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 60, Burst: 10}
	h.reserveLeft(1, 4, lim, 6)
	h.reserveLeft(1, 4, lim, 2)
	h.refuseFor(1, 4, lim, 2, 2*time.Second)
	h.reserveLeft(1, 2, lim, 0)
}

// testRefillOverTime: tokens refill continuously, fractions are kept, and the
// bucket never holds more than its burst.
func testRefillOverTime(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 60, Burst: 10}
	h.reserveLeft(1, 10, lim, 0)
	h.clock.Advance(2500 * time.Millisecond)
	h.reserveLeft(1, 2, lim, 0) // 2.5 tokens, half a token left
	h.refuseFor(1, 1, lim, 0, 500*time.Millisecond)
	h.clock.Advance(250 * time.Millisecond)
	h.refuseFor(1, 1, lim, 0, 250*time.Millisecond)
	h.clock.Advance(time.Hour)
	h.reserveLeft(1, 10, lim, 0)
	h.refuseFor(1, 1, lim, 0, time.Second)
}

// testRetryAfterExact: RetryAfter is the exact duration (not rounded to
// seconds) for a rate that does not divide a minute evenly.
func testRetryAfterExact(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 7, Burst: 1}
	const exact = 8571428572 * time.Nanosecond // ceil(60s / 7)
	h.reserveLeft(1, 1, lim, 0)
	ref := h.refuseFor(1, 1, lim, 0, exact)
	h.clock.Advance(ref.RetryAfter - RetryAfterSlack)
	h.refuse(1, 1, lim, false, 0)
	h.clock.Advance(RetryAfterSlack)
	h.reserveLeft(1, 1, lim, 0)
}

// testNever: a cost above the burst is refused as Never, takes nothing, and
// a zero burst admits nothing.
func testNever(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 60, Burst: 5}
	h.refuse(1, 6, lim, true, 5)
	h.reserveLeft(1, 5, lim, 0)
	h.refuse(1, 6, lim, true, 0)

	zero := metering.Limit{RatePerMinute: 60, Burst: 0}
	h.refuse(2, 1, zero, true, 0)
	h.clock.Advance(time.Hour)
	h.refuse(2, 1, zero, true, 0)
}

// testRateZero: RatePerMinute 0 is burst only; a drained bucket reports
// MaxRetryAfter and is refilled only by refunds.
func testRateZero(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 0, Burst: 3}
	r := h.reserveLeft(1, 3, lim, 0)
	h.refuseFor(1, 1, lim, 0, metering.MaxRetryAfter)
	h.clock.Advance(48 * time.Hour)
	h.refuseFor(1, 1, lim, 0, metering.MaxRetryAfter)
	h.settle(r, true)
	h.reserveLeft(1, 3, lim, 0)
}

// testInvalidArguments: a cost below 1 or a negative limit is an error that is
// not a refusal (callers fail closed).
func testInvalidArguments(t *testing.T, h *harness) {
	ok := metering.Limit{RatePerMinute: 60, Burst: 5}
	for _, c := range []struct {
		cost int
		lim  metering.Limit
	}{
		{0, ok},
		{-1, ok},
		{1, metering.Limit{RatePerMinute: -1, Burst: 5}},
		{1, metering.Limit{RatePerMinute: 60, Burst: -1}},
	} {
		_, err := h.l.Reserve(t.Context(), 1, c.cost, c.lim)
		var ref *metering.Refusal
		if err == nil || errors.As(err, &ref) {
			t.Errorf("Reserve(cost %d, %+v) = %v, want a non-refusal error", c.cost, c.lim, err)
		}
	}
	h.reserveLeft(1, 5, ok, 0) // nothing was taken
}

// testLimitChange: a renegotiated limit applies from the next call: tokens
// are clamped to a lower burst, not topped up to a higher one, and the new
// rate governs refill.
func testLimitChange(t *testing.T, h *harness) {
	h.reserveLeft(1, 2, metering.Limit{RatePerMinute: 60, Burst: 10}, 8)
	lower := metering.Limit{RatePerMinute: 60, Burst: 4}
	h.refuse(1, 5, lower, true, 4)
	h.reserveLeft(1, 1, lower, 3)
	higher := metering.Limit{RatePerMinute: 60, Burst: 20}
	h.reserveLeft(1, 1, higher, 2)
	faster := metering.Limit{RatePerMinute: 120, Burst: 20}
	h.reserveLeft(1, 2, faster, 0)
	h.refuseFor(1, 1, faster, 0, 500*time.Millisecond)
	h.clock.Advance(10 * time.Second)
	h.reserveLeft(1, 20, faster, 0)
	// A slower rate after time passed: tokens accrued before the change are
	// kept, later ones accrue at the new rate.
	h.clock.Advance(time.Second) // 2 tokens at 120/min
	slower := metering.Limit{RatePerMinute: 30, Burst: 20}
	h.reserveLeft(1, 2, slower, 0)
	h.refuseFor(1, 1, slower, 0, 2*time.Second)
}

// testConsumersIndependent: all calls of one consumer (whichever key made
// them) draw from one bucket; other consumers are unaffected.
func testConsumersIndependent(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 60, Burst: 3}
	keyA := h.reserveLeft(1, 1, lim, 2)
	h.reserveLeft(1, 1, lim, 1) // key B of the same consumer
	h.reserveLeft(1, 1, lim, 0)
	h.refuseFor(1, 1, lim, 0, time.Second)
	h.reserveLeft(2, 3, lim, 0)
	h.reserveLeft(3, 1, metering.Limit{RatePerMinute: 60, Burst: 7}, 6)
	h.settle(keyA, true)
	h.refuseFor(2, 1, lim, 0, time.Second)
	h.reserveLeft(1, 1, lim, 0)
}
