package metering

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/partner-platform/partnerd/store"
)

// RedisLimiter is the shared [Limiter]: every replica that points at the same
// Redis (and key prefix) draws from the same buckets, so a consumer's limit
// holds across replicas. It is the store when PARTNER_REDIS_URL is set.
//
// Reserve, Settle with a refund and Reclaim each run one Lua script
// atomically on the server (EVALSHA; EVAL once more after Redis lost its
// script cache): one round trip each. Settle keeping the cost, what nearly
// every call does, makes no round trip of its own: it changes no bucket, only
// ends the reservation, so the limiter queues the reservation and the next
// script this limiter runs removes it first (Reserve carries up to 1,000 of
// them). An admitted call thus costs one round trip. A queued settlement that
// is lost (the script carrying it failed, the process died) leaves its
// reservation to the sweeper, which ends it keeping the cost: the outcome the
// settlement would have had. The scripts read the time from
// Redis (TIME), never from the replica, so replicas whose clocks disagree
// still agree on every bucket; see redis_scripts.go for the keys and the
// arithmetic, which is exact. Limit values above 10^8 are treated as 10^8.
//
// Fail closed: every call gives Redis at most the limiter's timeout
// (DefaultRedisTimeout: dialling, writing and reading included, no retries);
// past it, or when Redis refuses the connection, Reserve returns an error
// (callers answer 503) and nothing is admitted. The client reconnects by
// itself, so the limiter works again as soon as Redis does, without a
// restart. A Redis that lost its data (restarted without persistence) starts
// every bucket full again and forgets outstanding reservations, whose
// settlements then are no-ops.
type RedisLimiter struct {
	client   redis.UniversalClient
	prefix   string
	held     string // key of the reservation set
	ttl      time.Duration
	timeout  time.Duration
	local    func() time.Time // this replica's clock: only translates Reclaim's now
	test     func() time.Time // tests only: replaces Redis's TIME
	idPrefix string
	seq      atomic.Uint64

	keptMu sync.Mutex
	kept   []string // reservations settled keeping their cost, still in the held set
}

var _ Limiter = (*RedisLimiter)(nil)

// DefaultRedisPrefix is the key prefix of a [RedisLimiter] unless
// WithRedisPrefix says otherwise.
const DefaultRedisPrefix = "partnerd:ratelimit:"

// DefaultRedisTimeout bounds each call a [RedisLimiter] makes to Redis,
// unless WithRedisTimeout says otherwise.
const DefaultRedisTimeout = 250 * time.Millisecond

// reclaimChunk is the most reservations one reclaim script ends, so that no
// script holds Redis for long.
const reclaimChunk = 1000

// keptPerScript is the most queued settlements one script removes.
const keptPerScript = 1000

// NewRedisLimiter returns a limiter on client; see WithRedisPrefix,
// WithRedisTimeout, WithRedisReservationTTL and WithRedisClock. The client
// should not retry and should time out quickly, as the one NewRedisClient
// returns does; the limiter bounds each call by its timeout regardless. The
// limiter does not own the client: closing it is the caller's business.
func NewRedisLimiter(client redis.UniversalClient, opts ...RedisOption) *RedisLimiter {
	l := &RedisLimiter{client: client, prefix: DefaultRedisPrefix, ttl: DefaultReservationTTL, timeout: DefaultRedisTimeout, local: time.Now}
	for _, o := range opts {
		o(l)
	}
	l.held = l.prefix + "held"
	var r [6]byte
	_, _ = rand.Read(r[:]) // never fails (crypto/rand crashes the program instead)
	l.idPrefix = hex.EncodeToString(r[:]) + "-"
	return l
}

// Reserve takes cost tokens from the consumer's bucket in one script,
// creating the bucket full on first use. It returns a *Refusal error when the
// tokens are not there, and a plain error for a cost below 1, a negative
// limit, or a Redis that did not answer within the limiter's timeout (fail
// closed: nothing is admitted then).
func (l *RedisLimiter) Reserve(ctx context.Context, consumerID, cost int, limit Limit) (Reservation, error) {
	if cost < 1 {
		return Reservation{}, fmt.Errorf("metering: reserve: cost %d is not positive", cost)
	}
	if limit.RatePerMinute < 0 || limit.Burst < 0 {
		return Reservation{}, fmt.Errorf("metering: reserve: negative limit %+v", limit)
	}
	rate := min(int64(limit.RatePerMinute), redisMaxLimit)
	burst := min(int64(limit.Burst), redisMaxLimit)
	c := min(int64(cost), redisMaxLimit+1) // above the burst either way
	id := strconv.Itoa(consumerID) + "." + strconv.FormatInt(c, 10) + "." + l.idPrefix + strconv.FormatUint(l.seq.Add(1), 16)

	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	args := append([]any{l.testTime(), c, rate, burst, l.ttl.Microseconds(), id}, l.takeKept()...)
	v, err := reserveScript.Run(ctx, l.client, []string{l.bucketKey(consumerID), l.held}, args...).Int64Slice()
	if err != nil {
		return Reservation{}, redisError("reserve", err)
	}
	if len(v) != 4 {
		return Reservation{}, fmt.Errorf("metering: reserve: redis answered %v", v)
	}
	remaining := int(v[1])
	if v[0] != 1 {
		if v[3] == 1 {
			return Reservation{}, &Refusal{Never: true, Remaining: remaining}
		}
		wait := MaxRetryAfter
		if v[2] >= 0 && v[2] < MaxRetryAfter.Microseconds() {
			wait = time.Duration(v[2]) * time.Microsecond
		}
		return Reservation{}, &Refusal{RetryAfter: wait, Remaining: remaining}
	}
	// Expires on this replica's clock: the reservation's lifetime (measured
	// by Redis) from now.
	expires := l.local().Add(time.Duration(v[2]-v[3]) * time.Microsecond)
	if l.test != nil {
		expires = time.UnixMicro(v[2]).UTC()
	}
	return Reservation{ID: id, ConsumerID: consumerID, Cost: cost, Remaining: remaining, Expires: expires}, nil
}

// Settle ends the reservation. Keeping the cost, it queues the reservation
// for the next script to remove (see RedisLimiter) and returns nil at once.
// Refunding, it runs one script that refunds the recorded cost (capped at the
// burst), after removing the queued settlements, so that a refund after a
// settlement of the same reservation is the no-op it must be. Unknown,
// already settled or reclaimed reservations are a no-op. It returns an error
// only when Redis did not answer a refund within the limiter's timeout; the
// reservation is then reclaimed later, keeping its cost.
func (l *RedisLimiter) Settle(ctx context.Context, r Reservation, refund bool) error {
	consumer, cost, ok := l.parseID(r.ID)
	if !ok || consumer != r.ConsumerID {
		return nil
	}
	if !refund {
		l.keptMu.Lock()
		l.kept = append(l.kept, r.ID)
		l.keptMu.Unlock()
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	args := append([]any{l.testTime(), r.ID, cost}, l.takeKept()...)
	if err := settleScript.Run(ctx, l.client, []string{l.bucketKey(consumer), l.held}, args...).Err(); err != nil {
		return redisError("settle", err)
	}
	return nil
}

// takeKept takes up to keptPerScript queued settlements for a script to
// remove, oldest first.
func (l *RedisLimiter) takeKept() []any {
	l.keptMu.Lock()
	defer l.keptMu.Unlock()
	n := min(len(l.kept), keptPerScript)
	if n == 0 {
		return nil
	}
	ids := make([]any, n)
	for i, id := range l.kept[:n] {
		ids[i] = id
	}
	l.kept = append(l.kept[:0], l.kept[n:]...)
	return ids
}

// Reclaim ends every reservation that expired before now, keeping its cost,
// and returns how many it ended, in scripts of at most 1,000 reservations
// each (one round trip when fewer expired). now is read on this replica's
// clock and compared on Redis's: the scripts take Redis's time shifted by
// now minus the replica's current time, so a sweeper passing time.Now()
// reclaims by Redis's clock whatever its own clock's skew. It returns an
// error when Redis does not answer within the timeout (per script), with the
// count ended so far.
func (l *RedisLimiter) Reclaim(ctx context.Context, now time.Time) (int, error) {
	var cutoff string
	var offset int64
	if l.test != nil {
		cutoff = strconv.FormatInt(ceilMicro(now), 10)
	} else {
		offset = ceilMicro(now) - ceilMicro(l.local())
	}
	ended := 0
	for {
		n, err := l.reclaimChunk(ctx, cutoff, offset)
		ended += n
		if err != nil {
			return ended, redisError("reclaim", err)
		}
		if n < reclaimChunk {
			return ended, nil
		}
	}
}

// reclaimChunk runs the reclaim script once.
func (l *RedisLimiter) reclaimChunk(ctx context.Context, cutoff string, offset int64) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	args := append([]any{cutoff, offset, reclaimChunk}, l.takeKept()...)
	n, err := reclaimScript.Run(ctx, l.client, []string{l.held}, args...).Int64()
	return int(n), err
}

// Ping reports whether Redis answers within the limiter's timeout; the
// server's readiness check includes it.
func (l *RedisLimiter) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	if err := l.client.Ping(ctx).Err(); err != nil {
		return redisError("ping", err)
	}
	return nil
}

// bucketKey is the key of a consumer's bucket.
func (l *RedisLimiter) bucketKey(consumerID int) string {
	return l.prefix + "b:" + strconv.Itoa(consumerID)
}

// testTime is the scripts' time argument: empty (Redis's TIME) except under
// WithRedisClock.
func (l *RedisLimiter) testTime() string {
	if l.test == nil {
		return ""
	}
	return strconv.FormatInt(l.test().UnixMicro(), 10)
}

// parseID reads the consumer and cost from a reservation id
// (<consumer>.<cost>.<limiter>-<seq>). The set of outstanding reservations,
// not the id, is what makes a reservation genuine: a forged id is not in it.
func (l *RedisLimiter) parseID(id string) (consumer int, cost int64, ok bool) {
	a, rest, ok1 := strings.Cut(id, ".")
	b, _, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	consumer, err1 := strconv.Atoi(a)
	cost, err2 := strconv.ParseInt(b, 10, 64)
	if err := errors.Join(err1, err2); err != nil || cost < 1 {
		return 0, 0, false
	}
	return consumer, cost, true
}

// ceilMicro is t in whole microseconds since the Unix epoch, rounded up, so
// that "expired before t" stays exact for expiries in whole microseconds.
func ceilMicro(t time.Time) int64 {
	us := t.UnixMicro()
	if time.UnixMicro(us).Before(t) {
		us++
	}
	return us
}

// redisError wraps the error of a Redis call with its operation, and with store.ErrUnavailable when
// it is an outage: any failure but an error reply of the server's own, and the replies that say the
// server cannot serve for now. Another error reply (a script's) is a bug, not an outage.
func redisError(op string, err error) error {
	var reply redis.Error
	if errors.As(err, &reply) && !redisBusy(reply.Error()) {
		return fmt.Errorf("metering: %s: redis: %w", op, err)
	}
	return fmt.Errorf("metering: %s: redis: %w: %w", op, store.ErrUnavailable, err)
}

// redisBusy reports whether an error reply says Redis cannot serve for the moment.
func redisBusy(reply string) bool {
	for _, prefix := range []string{"LOADING", "BUSY", "MASTERDOWN", "READONLY", "OOM", "TRYAGAIN", "CLUSTERDOWN"} {
		if strings.HasPrefix(reply, prefix) {
			return true
		}
	}
	return false
}
