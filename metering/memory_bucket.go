package metering

import (
	"math"
	"math/bits"
	"time"
)

const (
	// micro is the number of internal units per token. Keeping micro-tokens
	// as integers avoids float drift.
	micro = 1_000_000
	// nanosPerMinuteMicro converts refill: a rate of r tokens per minute adds
	// r*micro micro-tokens per 60e9 ns, that is r/60000 micro-tokens per ns.
	nanosPerMinuteMicro = 60_000
	// maxLimitValue caps RatePerMinute and Burst so that Burst in
	// micro-tokens fits an int64. No negotiated limit comes near it.
	maxLimitValue = 1_000_000_000_000
)

// bucket is one consumer's token bucket: 40 bytes.
type bucket struct {
	tokens int64 // micro-tokens, 0..burst*micro
	carry  int64 // refill remainder below one micro-token, in rate·ns units (< 60000)
	last   int64 // ns since the limiter's epoch of the last refill
	rate   int64 // tokens per minute
	burst  int64 // tokens
}

// newBucket returns a full bucket for limit at now.
func newBucket(rate, burst, now int64) bucket {
	return bucket{tokens: burst * micro, last: now, rate: rate, burst: burst}
}

// full is the bucket's capacity in micro-tokens.
func (b *bucket) full() int64 { return b.burst * micro }

// refill adds the tokens accrued between the last refill and now, capped at
// the burst. The remainder below one micro-token is carried, so any sequence
// of refills equals one refill over the whole interval. A clock that stalls
// or goes backwards adds nothing and never moves last back.
func (b *bucket) refill(now int64) {
	if now <= b.last {
		return
	}
	elapsed := uint64(now - b.last)
	b.last = now
	full := b.full()
	if b.tokens >= full || b.rate == 0 {
		b.tokens = min(b.tokens, full)
		b.carry = 0
		return
	}
	hi, lo := bits.Mul64(elapsed, uint64(b.rate))
	lo, c := bits.Add64(lo, uint64(b.carry), 0)
	hi += c
	if hi >= nanosPerMinuteMicro { // the quotient overflows: certainly full
		b.tokens, b.carry = full, 0
		return
	}
	added, rem := bits.Div64(hi, lo, nanosPerMinuteMicro)
	if added >= uint64(full-b.tokens) {
		b.tokens, b.carry = full, 0
		return
	}
	b.tokens += int64(added)
	b.carry = int64(rem)
}

// setLimit applies a renegotiated limit from now on (refill first under the
// old one), clamping the tokens to the new burst.
func (b *bucket) setLimit(rate, burst int64) {
	if rate == b.rate && burst == b.burst {
		return
	}
	b.rate, b.burst, b.carry = rate, burst, 0
	b.tokens = min(b.tokens, b.full())
}

// take removes cost tokens if they are there.
func (b *bucket) take(cost int64) bool {
	if b.tokens < cost*micro {
		return false
	}
	b.tokens -= cost * micro
	return true
}

// give adds cost tokens back, capped at the burst.
func (b *bucket) give(cost int64) {
	b.tokens = min(b.tokens+min(cost, b.burst)*micro, b.full())
}

// whole is the whole tokens in the bucket.
func (b *bucket) whole() int { return int(b.tokens / micro) }

// wait is the exact time until the bucket holds cost tokens, at most
// MaxRetryAfter. The bucket must have been refilled to the current time and
// cost must not exceed the burst.
func (b *bucket) wait(cost int64) time.Duration {
	need := cost * micro
	if b.tokens >= need {
		return 0
	}
	if b.rate == 0 {
		return MaxRetryAfter
	}
	// Smallest t with (t*rate + carry) / 60000 >= deficit, that is
	// t = ceil((deficit*60000 - carry) / rate).
	deficit := uint64(need - b.tokens)
	rate := uint64(b.rate)
	hi, lo := bits.Mul64(deficit, nanosPerMinuteMicro)
	lo, borrow := bits.Sub64(lo, uint64(b.carry), 0)
	hi -= borrow
	lo, c := bits.Add64(lo, rate-1, 0)
	hi += c
	if hi >= rate {
		return MaxRetryAfter
	}
	t, _ := bits.Div64(hi, lo, rate)
	if t > math.MaxInt64 || time.Duration(t) > MaxRetryAfter {
		return MaxRetryAfter
	}
	return time.Duration(t)
}
