package metering

import (
	"testing"
	"time"
)

// Many small refills add up exactly to one large one.
func TestBucketRefillCarry(t *testing.T) {
	for _, rate := range []int64{1, 7, 13, 59, 61, 997, 1_000_000} {
		a := newBucket(rate, 1000, 0)
		a.tokens = 0
		b := a
		var now int64
		for range 10_000 {
			now += 1_234_567 // ns
			a.refill(now)
		}
		b.refill(now)
		if a != b {
			t.Errorf("rate %d: stepwise %+v, at once %+v", rate, a, b)
		}
	}
}

// wait returns the least time after which the tokens are there.
func TestBucketWaitIsExact(t *testing.T) {
	for _, c := range []struct{ rate, burst, tokens, carry, cost int64 }{
		{7, 1, 0, 0, 1},
		{7, 5, 123_456, 59_999, 5},
		{60, 10, 999_999, 0, 1},
		{1, 1000, 0, 0, 1000},
		{1_000_000_000_000, 1_000_000_000_000, 0, 0, 1_000_000_000_000},
		{3, 2, 1, 12_345, 2},
	} {
		b := bucket{tokens: c.tokens, carry: c.carry, rate: c.rate, burst: c.burst}
		w := b.wait(c.cost)
		if w <= 0 || w > MaxRetryAfter {
			t.Errorf("%+v: wait %v", c, w)
			continue
		}
		if w == MaxRetryAfter {
			continue
		}
		early, onTime := b, b
		early.refill(int64(w) - 1)
		onTime.refill(int64(w))
		if early.take(c.cost) || !onTime.take(c.cost) {
			t.Errorf("%+v: wait %v is not the least sufficient time", c, w)
		}
	}
}

func TestBucketWaitCapped(t *testing.T) {
	b := bucket{rate: 1, burst: maxLimitValue}
	if w := b.wait(maxLimitValue); w != MaxRetryAfter {
		t.Errorf("wait %v, want %v", w, MaxRetryAfter)
	}
	b = bucket{rate: 0, burst: 5}
	if w := b.wait(1); w != MaxRetryAfter {
		t.Errorf("rate 0: wait %v", w)
	}
	b = bucket{rate: 60, burst: 1000}
	if w := b.wait(1000); w != 1000*time.Second {
		t.Errorf("wait %v, want 1000s", w)
	}
}

func TestBucketRefillHuge(t *testing.T) {
	b := bucket{rate: maxLimitValue, burst: maxLimitValue, last: 0}
	b.refill(1<<63 - 1)
	if b.tokens != b.full() || b.carry != 0 {
		t.Fatalf("%+v", b)
	}
}
