// Package meteringtest is the conformance suite every [metering.Limiter]
// backend runs: the in-process store now, a shared (Redis) store later.
package meteringtest

import (
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
)

// RetryAfterSlack is how far a backend may round [metering.Refusal.RetryAfter]
// up to its clock resolution; the suite accepts RetryAfter in
// [exact, exact+RetryAfterSlack).
const RetryAfterSlack = time.Millisecond

// Run runs the conformance suite. For every subtest it calls newLimiter with
// a manual clock that the suite advances; the returned limiter must read the
// time only from that clock, start with no state, and share none with other
// limiters newLimiter returned. Limits in the suite stay small; consumer ids
// are small positive integers.
func Run(t *testing.T, newLimiter func(t *testing.T, clock func() time.Time) metering.Limiter) {
	t.Helper()
	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) {
			clk := newClock()
			c.run(t, &harness{t: t, l: newLimiter(t, clk.Now), clock: clk})
		})
	}
}

// testCase is one subtest of the suite.
type testCase struct {
	name string
	run  func(t *testing.T, h *harness)
}

// cases lists the suite's subtests.
func cases() []testCase {
	return []testCase{
		{"BurstThenRefusal", testBurstThenRefusal},
		{"CostBased", testCostBased},
		{"RefillOverTime", testRefillOverTime},
		{"RetryAfterExact", testRetryAfterExact},
		{"NeverWhenCostExceedsBurst", testNever},
		{"NoRefillAtRateZero", testRateZero},
		{"InvalidArguments", testInvalidArguments},
		{"LimitChangeApplied", testLimitChange},
		{"ConsumersIndependent", testConsumersIndependent},
		{"RefundRestoresTokens", testRefund},
		{"DoubleSettleIsNoop", testDoubleSettle},
		{"ForeignReservationIsNoop", testForeignReservation},
		{"ReclaimKeepsCost", testReclaim},
		{"ConcurrentReserveAdmitsExactlyBurst", testConcurrentReserve},
		{"ConcurrentConsumers", testConcurrentConsumers},
	}
}
