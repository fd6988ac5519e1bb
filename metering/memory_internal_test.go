package metering

import (
	"strings"
	"testing"
	"time"
)

// manualClock is a clock the test moves by hand.
type manualClock struct{ now time.Time }

func (c *manualClock) Now() time.Time { return c.now }

func newTestLimiter(opts ...MemoryOption) (*MemoryLimiter, *manualClock) {
	c := &manualClock{now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	return NewMemoryLimiter(append([]MemoryOption{WithClock(c.Now)}, opts...)...), c
}

func (l *MemoryLimiter) counts() (buckets, held int) {
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		buckets += len(s.buckets)
		held += len(s.held)
		s.mu.Unlock()
	}
	return buckets, held
}

func TestMemoryReservationTTL(t *testing.T) {
	l, c := newTestLimiter()
	r, err := l.Reserve(t.Context(), 1, 1, Limit{60, 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Expires.Sub(c.now); got != DefaultReservationTTL {
		t.Errorf("default TTL %v, want %v", got, DefaultReservationTTL)
	}
	l, c = newTestLimiter(WithReservationTTL(30*time.Second), WithReservationTTL(0), WithClock(nil))
	r, err = l.Reserve(t.Context(), 1, 1, Limit{60, 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Expires.Sub(c.now); got != 30*time.Second {
		t.Errorf("TTL %v, want 30s", got)
	}
}

func TestMemoryReclaimBoundsState(t *testing.T) {
	l, c := newTestLimiter()
	lim := Limit{RatePerMinute: 60, Burst: 100}
	const consumers, calls = 300, 20
	for id := range consumers {
		for range calls {
			if _, err := l.Reserve(t.Context(), id, 1, lim); err != nil {
				t.Fatal(err)
			}
		}
	}
	if b, h := l.counts(); b != consumers || h != consumers*calls {
		t.Fatalf("before reclaim: %d buckets, %d held", b, h)
	}
	// Not yet expired, buckets not yet refilled: nothing is dropped.
	if n, _ := l.Reclaim(t.Context(), c.now); n != 0 {
		t.Fatalf("Reclaim before expiry ended %d", n)
	}
	c.now = c.now.Add(DefaultReservationTTL + time.Second)
	n, err := l.Reclaim(t.Context(), c.now)
	if err != nil || n != consumers*calls {
		t.Fatalf("Reclaim = %d, %v; want %d", n, err, consumers*calls)
	}
	if b, h := l.counts(); b != 0 || h != 0 {
		t.Fatalf("after reclaim: %d buckets, %d held; want none", b, h)
	}
	for i := range l.shards {
		if p := l.shards[i].peak; p > shrinkAbove {
			t.Fatalf("shard %d peak %d not reset", i, p)
		}
	}
}

func TestMemoryReclaimShrinksLargeShard(t *testing.T) {
	l, c := newTestLimiter()
	lim := Limit{RatePerMinute: 60, Burst: 10 * shrinkAbove}
	for range 2 * shrinkAbove {
		if _, err := l.Reserve(t.Context(), 0, 1, lim); err != nil {
			t.Fatal(err)
		}
	}
	c.now = c.now.Add(time.Hour)
	if n, _ := l.Reclaim(t.Context(), c.now); n != 2*shrinkAbove {
		t.Fatalf("Reclaim ended %d", n)
	}
	if s := &l.shards[0]; s.peak != 0 || len(s.held) != 0 {
		t.Fatalf("shard 0 peak %d held %d after reclaim", s.peak, len(s.held))
	}
}

// A drained bucket must survive Reclaim: dropping it would refill it.
func TestMemoryReclaimKeepsPartialBuckets(t *testing.T) {
	l, c := newTestLimiter()
	lim := Limit{RatePerMinute: 0, Burst: 3}
	r, err := l.Reserve(t.Context(), 7, 1, lim)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Settle(t.Context(), r, false); err != nil {
		t.Fatal(err)
	}
	c.now = c.now.Add(24 * time.Hour)
	if _, err := l.Reclaim(t.Context(), c.now); err != nil {
		t.Fatal(err)
	}
	if b, _ := l.counts(); b != 1 {
		t.Fatalf("%d buckets after reclaim, want 1", b)
	}
	r, err = l.Reserve(t.Context(), 7, 2, lim)
	if err != nil || r.Remaining != 0 {
		t.Fatalf("Reserve = %+v, %v", r, err)
	}
}

// A refund to a bucket dropped while full is a no-op, as it would be capped.
func TestMemoryRefundAfterBucketDropped(t *testing.T) {
	l, c := newTestLimiter()
	lim := Limit{RatePerMinute: 60, Burst: 3}
	r, err := l.Reserve(t.Context(), 7, 2, lim)
	if err != nil {
		t.Fatal(err)
	}
	c.now = c.now.Add(10 * time.Second)
	if n, _ := l.Reclaim(t.Context(), c.now); n != 0 {
		t.Fatalf("Reclaim ended %d", n)
	}
	if b, h := l.counts(); b != 0 || h != 1 {
		t.Fatalf("%d buckets, %d held; want 0, 1", b, h)
	}
	if err := l.Settle(t.Context(), r, true); err != nil {
		t.Fatal(err)
	}
	r, err = l.Reserve(t.Context(), 7, 1, lim)
	if err != nil || r.Remaining != 2 {
		t.Fatalf("Reserve = %+v, %v", r, err)
	}
}

func TestMemoryClockBackwards(t *testing.T) {
	l, c := newTestLimiter()
	lim := Limit{RatePerMinute: 60, Burst: 2}
	for range 2 {
		if _, err := l.Reserve(t.Context(), 1, 1, lim); err != nil {
			t.Fatal(err)
		}
	}
	c.now = c.now.Add(-time.Hour)
	if _, err := l.Reserve(t.Context(), 1, 1, lim); err == nil {
		t.Fatal("admitted after the clock went back")
	}
	c.now = c.now.Add(time.Hour + time.Second)
	if _, err := l.Reserve(t.Context(), 1, 1, lim); err != nil {
		t.Fatalf("not admitted one second after the original time: %v", err)
	}
}

func TestMemoryReservationIDs(t *testing.T) {
	l1, _ := newTestLimiter()
	l2, _ := newTestLimiter()
	r, err := l1.Reserve(t.Context(), 1, 1, Limit{0, 5})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.ID, l1.idPrefix) || l1.idPrefix == l2.idPrefix {
		t.Fatalf("id %q, prefixes %q %q", r.ID, l1.idPrefix, l2.idPrefix)
	}
	// Another limiter's reservation is foreign.
	if err := l2.Settle(t.Context(), r, true); err != nil {
		t.Fatal(err)
	}
	if _, h := l1.counts(); h != 1 {
		t.Fatalf("held %d, want 1", h)
	}
	for _, id := range []string{"", l1.idPrefix, l1.idPrefix + "zz", l1.idPrefix + "-1"} {
		if _, ok := l1.parseID(id); ok {
			t.Errorf("parseID(%q) succeeded", id)
		}
	}
}

func TestMemoryLargeLimits(t *testing.T) {
	l, c := newTestLimiter()
	huge := Limit{RatePerMinute: int(^uint(0) >> 1), Burst: int(^uint(0) >> 1)}
	r, err := l.Reserve(t.Context(), 1, maxLimitValue, huge)
	if err != nil || r.Remaining != 0 {
		t.Fatalf("Reserve = %+v, %v", r, err)
	}
	c.now = c.now.Add(time.Nanosecond)
	if _, err := l.Reserve(t.Context(), 1, 1, huge); err != nil {
		t.Fatalf("Reserve after 1ns: %v", err)
	}
	if _, err := l.Reserve(t.Context(), 1, maxLimitValue+1, huge); err == nil {
		t.Fatal("admitted a cost above the clamped burst")
	}
}

// A reservation relabelled to another consumer of the same shard is foreign.
func TestMemorySettleChecksConsumer(t *testing.T) {
	l, _ := newTestLimiter()
	lim := Limit{RatePerMinute: 0, Burst: 5}
	other := 1 + numShards
	r, err := l.Reserve(t.Context(), 1, 2, lim)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Reserve(t.Context(), other, 2, lim); err != nil {
		t.Fatal(err)
	}
	moved := r
	moved.ConsumerID = other
	if err := l.Settle(t.Context(), moved, true); err != nil {
		t.Fatal(err)
	}
	if _, h := l.counts(); h != 2 {
		t.Fatalf("held %d, want 2 (the relabelled settle ended nothing)", h)
	}
	if got, err := l.Reserve(t.Context(), other, 3, lim); err != nil || got.Remaining != 0 {
		t.Fatalf("other consumer: %+v, %v; want 3 tokens left before", got, err)
	}
}
