package access

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisThrottlePrefix is the key prefix of a RedisThrottleStore unless
// WithRedisThrottlePrefix says otherwise.
const DefaultRedisThrottlePrefix = "partnerd:signin:"

// DefaultRedisThrottleTimeout bounds each call a RedisThrottleStore makes to Redis (dialling,
// writing and reading included), as the rate limiter's metering.DefaultRedisTimeout does.
const DefaultRedisThrottleTimeout = 250 * time.Millisecond

// RedisThrottleStore is the ThrottleStore of replicas sharing one Redis: every replica pointing at
// the same Redis, database and prefix counts the same failed sign-ins, so the limits hold for the
// deployment rather than per replica. A Throttle with it follows the same rules as in memory.
//
// Each attempt is one Lua script (EVALSHA), which prunes, checks and counts the account's and the
// source's failures atomically, on Redis's clock (TIME), so replicas whose clocks disagree still
// agree. A failure log is a sorted set of attempt ids scored by time, holding at most the limit's
// newest; its key expires (on Redis's clock) when its newest failure leaves the window. Keys name
// accounts and sources by a hash (SHA-256, 128 bits), never by email or address: a Redis dump or
// MONITOR shows neither, although a given email's key can be recomputed by anyone who knows the
// email. Unlike in memory, the number of accounts tracked is bounded only by those keys' expiry.
//
// Fail closed: every call gives Redis at most the store's timeout (DefaultRedisThrottleTimeout, no
// retries with the client NewRedisClient of package metering returns). When Begin gets no answer,
// the attempt is refused with ErrThrottleUnavailable and no password is checked; the console
// answers 503 "try again in a moment". Falling back to a throttle in memory instead would keep
// sign-in up, but it would silently turn the deployment's limits into per-replica ones and forget
// every failure counted in Redis, reopening accounts blocked there, exactly when something is
// wrong; the partner API fails closed on Redis already, so an outage is visible on /readyz either
// way, and console sessions, kept in the database, are not affected. When End or ClearAccount
// gets no answer the failures stay counted until they age out: the safe side.
type RedisThrottleStore struct {
	client  redis.UniversalClient
	prefix  string
	timeout time.Duration
	test    func() time.Time // tests only: replaces Redis's TIME
}

var _ ThrottleStore = (*RedisThrottleStore)(nil)

// RedisThrottleOption configures NewRedisThrottleStore.
type RedisThrottleOption func(*RedisThrottleStore)

// WithRedisThrottlePrefix puts the store's keys under prefix (default
// DefaultRedisThrottlePrefix). An empty prefix is ignored.
func WithRedisThrottlePrefix(prefix string) RedisThrottleOption {
	return func(s *RedisThrottleStore) {
		if prefix != "" {
			s.prefix = prefix
		}
	}
}

// WithRedisThrottleTimeout bounds each call to Redis (default DefaultRedisThrottleTimeout). A
// non-positive d is ignored.
func WithRedisThrottleTimeout(d time.Duration) RedisThrottleOption {
	return func(s *RedisThrottleStore) {
		if d > 0 {
			s.timeout = d
		}
	}
}

// WithRedisThrottleClock makes the scripts take the time from clock, in whole microseconds,
// instead of Redis's TIME; for tests only (the suite's manual clock). Keys still expire on
// Redis's clock. A nil clock is ignored.
func WithRedisThrottleClock(clock func() time.Time) RedisThrottleOption {
	return func(s *RedisThrottleStore) {
		if clock != nil {
			s.test = clock
		}
	}
}

// NewRedisThrottleStore returns a store on client. The store does not own the client.
func NewRedisThrottleStore(client redis.UniversalClient, opts ...RedisThrottleOption) *RedisThrottleStore {
	s := &RedisThrottleStore{client: client, prefix: DefaultRedisThrottlePrefix, timeout: DefaultRedisThrottleTimeout}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Begin implements ThrottleStore in one script. Errors: *Throttled, or an error of Redis (no
// answer within the timeout).
func (s *RedisThrottleStore) Begin(ctx context.Context, l ThrottleLimits, account string, source netip.Prefix, id string) error {
	keys, limits := s.keys(account, source, l)
	if len(keys) == 0 {
		return nil
	}
	args := append([]any{s.testTime(), l.Window.Microseconds(), id}, limits...)
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	wait, err := beginScript.Run(ctx, s.client, keys, args...).Int64()
	if err != nil {
		return fmt.Errorf("sign-in throttle: redis: %w", err)
	}
	if wait > 0 {
		return &Throttled{RetryAfter: time.Duration(wait) * time.Microsecond}
	}
	return nil
}

// End implements ThrottleStore in one script.
func (s *RedisThrottleStore) End(ctx context.Context, account string, source netip.Prefix, id string, succeeded bool) error {
	var keys []string
	args := []any{id}
	if account != "" {
		keys = append(keys, s.accountKey(account))
		if succeeded {
			args = append(args, "del")
		} else {
			args = append(args, "rem")
		}
	}
	if source.IsValid() {
		keys, args = append(keys, s.sourceKey(source)), append(args, "rem")
	}
	if len(keys) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := endScript.Run(ctx, s.client, keys, args...).Err(); err != nil {
		return fmt.Errorf("sign-in throttle: redis: %w", err)
	}
	return nil
}

// ClearAccount implements ThrottleStore.
func (s *RedisThrottleStore) ClearAccount(ctx context.Context, account string) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := s.client.Del(ctx, s.accountKey(account)).Err(); err != nil {
		return fmt.Errorf("sign-in throttle: redis: %w", err)
	}
	return nil
}

// keys are the failure logs an attempt is checked against, with their limits.
func (s *RedisThrottleStore) keys(account string, source netip.Prefix, l ThrottleLimits) (keys []string, limits []any) {
	if account != "" {
		keys, limits = append(keys, s.accountKey(account)), append(limits, l.PerAccount)
	}
	if source.IsValid() {
		keys, limits = append(keys, s.sourceKey(source)), append(limits, l.PerSource)
	}
	return keys, limits
}

// accountKey is the failure log of an account: P a:<hash of the email>.
func (s *RedisThrottleStore) accountKey(account string) string {
	return s.prefix + "a:" + hashID("account", account)
}

// sourceKey is the failure log of a source: P s:<hash of the prefix, such as 192.0.2.7/32>.
func (s *RedisThrottleStore) sourceKey(source netip.Prefix) string {
	return s.prefix + "s:" + hashID("source", source.String())
}

// hashID is the first 128 bits of SHA-256 over kind and id, in hex.
func hashID(kind, id string) string {
	h := sha256.Sum256([]byte(kind + "\x00" + id))
	return hex.EncodeToString(h[:16])
}

// testTime is the scripts' time argument: empty (Redis's TIME) except under
// WithRedisThrottleClock.
func (s *RedisThrottleStore) testTime() string {
	if s.test == nil {
		return ""
	}
	return strconv.FormatInt(s.test().UnixMicro(), 10)
}

// beginScript prunes, checks and counts an attempt's failure logs (see Throttle for the rules).
//
//	KEYS: the failure logs (account, source; either may be missing)
//	ARGV: test time µs or '', window µs, attempt id, then each key's limit
//
// Times are µs since the Unix epoch. A failure at t leaves the window at t + window; a log
// expires a millisecond after its newest failure left it (Redis keeps expiries in ms). The script
// answers 0 when it counted the attempt in every log, else the µs until every log has room (> 0),
// counting nothing.
var beginScript = redis.NewScript(`
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local window = tonumber(ARGV[2])
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[3 + i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%.0f', now - window))
  local n = redis.call('ZCARD', key)
  if n >= limit then
    -- the failure whose expiry leaves limit - 1 in the window
    local oldest = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
    local w = tonumber(oldest[2]) + window - now
    if w < 1 then w = 1 end
    if w > wait then wait = w end
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[3 + i])
  redis.call('ZADD', key, string.format('%.0f', now), ARGV[3])
  redis.call('ZREMRANGEBYRANK', key, 0, -limit - 1)
  redis.call('PEXPIRE', key, math.ceil(window / 1000) + 1)
end
return 0
`)

// endScript takes an attempt back.
//
//	KEYS: the failure logs
//	ARGV: attempt id, then per key 'del' (forget the log: the account of a success) or 'rem'
//	      (remove the attempt)
var endScript = redis.NewScript(`
for i, key in ipairs(KEYS) do
  if ARGV[1 + i] == 'del' then
    redis.call('DEL', key)
  else
    redis.call('ZREM', key, ARGV[1])
  end
end
return 1
`)
