package meteringtest

import (
	"errors"
	"sort"
	"sync"
	"testing"

	"github.com/partner-platform/partnerd/metering"
)

const (
	concurrentCalls = 200
	concurrentBurst = 37
)

// outcome is one concurrent Reserve's result.
type outcome struct {
	r   metering.Reservation
	err error
}

// reserveTogether runs one Reserve per consumer in consumers, all released
// at once, and returns the outcomes in no particular order.
func reserveTogether(t *testing.T, l metering.Limiter, consumers []int, lim metering.Limit) []outcome {
	t.Helper()
	start := make(chan struct{})
	out := make([]outcome, len(consumers))
	var wg sync.WaitGroup
	for i, c := range consumers {
		wg.Go(func() {
			<-start
			r, err := l.Reserve(t.Context(), c, 1, lim)
			out[i] = outcome{r, err}
		})
	}
	close(start)
	wg.Wait()
	return out
}

// admitted splits outcomes into admitted reservations, failing the test on
// any error that is not a refusal (or a Never refusal).
func admitted(t *testing.T, out []outcome) []metering.Reservation {
	t.Helper()
	var rs []metering.Reservation
	for _, o := range out {
		var ref *metering.Refusal
		switch {
		case o.err == nil:
			rs = append(rs, o.r)
		case !errors.As(o.err, &ref):
			t.Fatalf("Reserve: %v", o.err)
		case ref.Never || ref.Remaining != 0 || ref.RetryAfter <= 0:
			t.Fatalf("Reserve refused with %+v, want a drained-bucket refusal", *ref)
		}
	}
	return rs
}

// CheckAdmitted checks that rs are exactly burst distinct reservations whose
// Remaining values are burst-1 down to 0, each once: what a bucket of that burst
// must give concurrent callers, from one limiter or several sharing a store.
func CheckAdmitted(t *testing.T, rs []metering.Reservation, burst int) {
	t.Helper()
	if len(rs) != burst {
		t.Fatalf("%d admitted, want exactly %d", len(rs), burst)
	}
	ids := map[string]bool{}
	var left []int
	for _, r := range rs {
		if ids[r.ID] {
			t.Fatalf("reservation id %q issued twice", r.ID)
		}
		ids[r.ID] = true
		left = append(left, r.Remaining)
	}
	sort.Ints(left)
	for i, n := range left {
		if n != i {
			t.Fatalf("Remaining values %v, want 0..%d each once", left, burst-1)
		}
	}
}

// testConcurrentReserve: 200 simultaneous calls on a frozen clock admit
// exactly the burst; racing double refunds count once.
func testConcurrentReserve(t *testing.T, h *harness) {
	lim := metering.Limit{RatePerMinute: 60, Burst: concurrentBurst}
	consumers := make([]int, concurrentCalls)
	for i := range consumers {
		consumers[i] = 1
	}
	rs := admitted(t, reserveTogether(t, h.l, consumers, lim))
	CheckAdmitted(t, rs, concurrentBurst)

	const refunded = 20
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, r := range rs[:refunded] {
		for range 2 {
			wg.Go(func() {
				<-start
				if err := h.l.Settle(t.Context(), r, true); err != nil {
					t.Errorf("Settle: %v", err)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	rs = admitted(t, reserveTogether(t, h.l, consumers, lim))
	CheckAdmitted(t, rs, refunded)
}

// testConcurrentConsumers: simultaneous calls of several consumers admit
// exactly each consumer's burst.
func testConcurrentConsumers(t *testing.T, h *harness) {
	const perConsumer, burst = 40, 7
	lim := metering.Limit{RatePerMinute: 60, Burst: burst}
	var consumers []int
	for i := range concurrentCalls {
		consumers = append(consumers, 1+i%(concurrentCalls/perConsumer))
	}
	rs := admitted(t, reserveTogether(t, h.l, consumers, lim))
	by := map[int][]metering.Reservation{}
	for _, r := range rs {
		by[r.ConsumerID] = append(by[r.ConsumerID], r)
	}
	if len(by) != concurrentCalls/perConsumer {
		t.Fatalf("admitted calls of %d consumers, want %d", len(by), concurrentCalls/perConsumer)
	}
	for _, rs := range by {
		CheckAdmitted(t, rs, burst)
	}
}
