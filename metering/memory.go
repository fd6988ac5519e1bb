package metering

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

const (
	shardBits = 8
	numShards = 1 << shardBits
	shardMask = numShards - 1
	// shrinkAbove is the reservation count past which a shard's map is
	// rebuilt once Reclaim has emptied most of it (Go maps never shrink).
	shrinkAbove = 1024
)

// MemoryLimiter is the in-process [Limiter]: buckets and reservations live in
// this process only, so every replica has its own allowance. It is the store
// when no Redis is configured.
//
// State is split over 256 shards by consumer id, each with its own mutex; a
// consumer's bucket takes 40 bytes and each outstanding reservation about as
// much. Settled reservations are dropped at once, lost ones by Reclaim, which
// the server must run periodically (at least once per reservation TTL);
// Reclaim also drops buckets that have refilled to their burst, which is the
// state a new bucket starts in. The limiter never blocks on I/O and ignores
// ctx. The zero value is not usable; call NewMemoryLimiter.
type MemoryLimiter struct {
	clock    func() time.Time
	epoch    time.Time // bucket times are ns since epoch
	ttl      time.Duration
	idPrefix string // distinguishes this limiter's reservation ids
	shards   [numShards]shard
}

// shard holds the buckets of the consumers whose id maps to it and their
// outstanding reservations, padded so that shards do not share cache lines.
type shard struct {
	shardState
	_ [128 - unsafe.Sizeof(shardState{})%128]byte
}

// shardState is a shard's content, guarded by mu.
type shardState struct {
	mu      sync.Mutex
	buckets map[int]*bucket
	held    map[uint64]hold // by reservation number
	seq     uint64          // last reservation sequence in this shard
	peak    int             // largest len(held) since the map was made
}

// hold is an outstanding reservation.
type hold struct {
	consumerID int
	cost       int64
	expires    time.Time
}

var _ Limiter = (*MemoryLimiter)(nil)

// NewMemoryLimiter returns an in-process limiter; see WithClock and
// WithReservationTTL.
func NewMemoryLimiter(opts ...MemoryOption) *MemoryLimiter {
	l := &MemoryLimiter{clock: time.Now, ttl: DefaultReservationTTL}
	for _, o := range opts {
		o(l)
	}
	l.epoch = l.clock()
	var r [4]byte
	_, _ = rand.Read(r[:]) // never fails (crypto/rand crashes the program instead)
	l.idPrefix = "m" + hex.EncodeToString(r[:]) + "-"
	for i := range l.shards {
		l.shards[i].buckets = make(map[int]*bucket)
		l.shards[i].held = make(map[uint64]hold)
	}
	return l
}

// Reserve takes cost tokens from the consumer's bucket, creating it full on
// first use. It returns a *Refusal error when the tokens are not there, and a
// plain error for a cost below 1 or a negative limit. Limit values above 10^12
// are treated as 10^12.
func (l *MemoryLimiter) Reserve(_ context.Context, consumerID, cost int, limit Limit) (Reservation, error) {
	if cost < 1 {
		return Reservation{}, fmt.Errorf("metering: reserve: cost %d is not positive", cost)
	}
	if limit.RatePerMinute < 0 || limit.Burst < 0 {
		return Reservation{}, fmt.Errorf("metering: reserve: negative limit %+v", limit)
	}
	rate := min(int64(limit.RatePerMinute), maxLimitValue)
	burst := min(int64(limit.Burst), maxLimitValue)
	now := l.clock()
	at := l.since(now)
	idx := shardIndex(consumerID)
	s := &l.shards[idx]

	s.mu.Lock()
	b := s.buckets[consumerID]
	if b == nil {
		b = &bucket{}
		*b = newBucket(rate, burst, at)
		s.buckets[consumerID] = b
	} else {
		b.refill(at)
		b.setLimit(rate, burst)
	}
	if int64(cost) > b.burst {
		ref := &Refusal{Never: true, Remaining: b.whole()}
		s.mu.Unlock()
		return Reservation{}, ref
	}
	if !b.take(int64(cost)) {
		ref := &Refusal{RetryAfter: b.wait(int64(cost)), Remaining: b.whole()}
		s.mu.Unlock()
		return Reservation{}, ref
	}
	s.seq++
	n := s.seq<<shardBits | idx
	expires := now.Add(l.ttl)
	s.held[n] = hold{consumerID: consumerID, cost: int64(cost), expires: expires}
	s.peak = max(s.peak, len(s.held))
	remaining := b.whole()
	s.mu.Unlock()

	return Reservation{
		ID:         l.formatID(n),
		ConsumerID: consumerID,
		Cost:       cost,
		Remaining:  remaining,
		Expires:    expires,
	}, nil
}

// Settle ends the reservation, refunding its recorded cost (capped at the
// burst) when refund is set. Unknown, already settled or reclaimed
// reservations are a no-op. It never fails.
func (l *MemoryLimiter) Settle(_ context.Context, r Reservation, refund bool) error {
	n, ok := l.parseID(r.ID)
	if !ok || n&shardMask != shardIndex(r.ConsumerID) {
		return nil
	}
	var at int64
	if refund {
		at = l.since(l.clock())
	}
	s := &l.shards[n&shardMask]

	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.held[n]
	if !ok || h.consumerID != r.ConsumerID {
		return nil
	}
	delete(s.held, n)
	if !refund {
		return nil
	}
	// A missing bucket was dropped full; a refund to it changes nothing.
	if b := s.buckets[h.consumerID]; b != nil {
		b.refill(at)
		b.give(h.cost)
	}
	return nil
}

// Reclaim ends every reservation that expired before now, keeping its cost,
// and returns how many it ended. It also drops buckets that are full at the
// limiter's current time, since a bucket starts full. It never fails.
func (l *MemoryLimiter) Reclaim(_ context.Context, now time.Time) (int, error) {
	at := l.since(l.clock())
	ended := 0
	for i := range l.shards {
		ended += l.shards[i].sweep(now, at)
	}
	return ended, nil
}

// sweep is Reclaim for one shard.
func (s *shard) sweep(now time.Time, at int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	ended := 0
	for n, h := range s.held {
		if h.expires.Before(now) {
			delete(s.held, n)
			ended++
		}
	}
	if s.peak > shrinkAbove && len(s.held) < s.peak/8 {
		held := make(map[uint64]hold, len(s.held))
		for n, h := range s.held {
			held[n] = h
		}
		s.held, s.peak = held, len(held)
	}
	for id, b := range s.buckets {
		b.refill(at)
		if b.tokens >= b.full() {
			delete(s.buckets, id)
		}
	}
	return ended
}

// since converts t to the bucket time base.
func (l *MemoryLimiter) since(t time.Time) int64 { return int64(t.Sub(l.epoch)) }

// shardIndex maps a consumer to its shard.
func shardIndex(consumerID int) uint64 { return uint64(consumerID) & shardMask }

// formatID renders reservation number n as an opaque id.
func (l *MemoryLimiter) formatID(n uint64) string {
	var buf [32]byte
	return string(strconv.AppendUint(append(buf[:0], l.idPrefix...), n, 16))
}

// parseID reverses formatID; ids of other limiters do not parse.
func (l *MemoryLimiter) parseID(id string) (uint64, bool) {
	rest, ok := strings.CutPrefix(id, l.idPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(rest, 16, 64)
	return n, err == nil
}
