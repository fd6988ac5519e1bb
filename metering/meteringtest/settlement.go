package meteringtest

import (
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
)

// testRefund: a refund gives the cost back, capped at the burst; keeping the
// cost gives nothing back.
func testRefund(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 60, Burst: 5}
	r := h.reserveLeft(1, 3, lim, 2)
	h.settle(r, true)
	h.reserveLeft(1, 5, lim, 0)

	r = h.reserveLeft(2, 3, lim, 2)
	h.settle(r, false)
	h.refuseFor(2, 3, lim, 2, time.Second)

	r = h.reserveLeft(3, 2, lim, 3)
	h.clock.Advance(time.Hour) // full again
	h.settle(r, true)          // capped at the burst
	h.reserveLeft(3, 5, lim, 0)
	h.refuseFor(3, 1, lim, 0, time.Second)
}

// testDoubleSettle: only the first settlement of a reservation counts.
func testDoubleSettle(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 0, Burst: 10}
	r1 := h.reserveLeft(1, 4, lim, 6)
	r2 := h.reserveLeft(1, 4, lim, 2)
	h.settle(r1, true)
	h.settle(r1, true)
	h.settle(r1, false)
	h.refuse(1, 7, lim, false, 6)
	h.settle(r2, false)
	h.settle(r2, true)
	h.refuse(1, 7, lim, false, 6)
}

// testForeignReservation: settling a reservation the limiter did not issue,
// or one whose consumer was altered, changes nothing; a refund gives back the
// recorded cost, not the one the caller claims.
func testForeignReservation(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 0, Burst: 10}
	r := h.reserveLeft(1, 2, lim, 8)
	h.reserveLeft(2, 2, lim, 8)
	h.settle(metering.Reservation{}, true)
	h.settle(metering.Reservation{ID: "not-a-reservation", ConsumerID: 1, Cost: 2}, true)
	moved := r
	moved.ConsumerID = 2
	h.settle(moved, true)
	h.refuse(1, 9, lim, false, 8)
	h.refuse(2, 9, lim, false, 8)

	h.reserveLeft(1, 5, lim, 3)
	inflated := r
	inflated.Cost = 10
	h.settle(inflated, true)
	h.refuse(1, 6, lim, false, 5)
}

// testReclaim: Reclaim ends reservations that expired unsettled before now,
// keeps their cost, counts each once, and leaves settled and unexpired ones.
func testReclaim(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 0, Burst: 10}
	r1 := h.reserveLeft(1, 3, lim, 7)
	h.clock.Advance(time.Second)
	r2 := h.reserveLeft(1, 2, lim, 5)
	r3 := h.reserveLeft(2, 1, lim, 9)
	h.settle(r3, false)
	if !r2.Expires.After(r1.Expires) {
		t.Fatalf("later reservation expires at %v, earlier at %v", r2.Expires, r1.Expires)
	}

	h.reclaim(r1.Expires.Add(-time.Nanosecond), 0)
	h.reclaim(r1.Expires, 0) // strictly before now
	h.reclaim(r1.Expires.Add(time.Nanosecond), 1)
	h.settle(r1, true) // reclaimed: no refund
	h.refuse(1, 6, lim, false, 5)

	h.clock.Advance(time.Hour)
	h.reclaim(r2.Expires.Add(time.Nanosecond), 1)
	h.reclaim(r2.Expires.Add(time.Hour), 0)
	h.settle(r2, true)
	h.refuse(1, 6, lim, false, 5)
	h.refuse(2, 10, lim, false, 9)
}
