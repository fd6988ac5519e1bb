package metering

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// RedisOption configures a [RedisLimiter].
type RedisOption func(*RedisLimiter)

// WithRedisPrefix puts the limiter's keys under prefix (default
// DefaultRedisPrefix). Limiters share buckets exactly when they share Redis,
// database and prefix; tests use a fresh prefix each. An empty prefix is
// ignored.
func WithRedisPrefix(prefix string) RedisOption {
	return func(l *RedisLimiter) {
		if prefix != "" {
			l.prefix = prefix
		}
	}
}

// WithRedisTimeout bounds each call to Redis (default DefaultRedisTimeout);
// past it the call fails and Reserve fails closed. A non-positive d is
// ignored.
func WithRedisTimeout(d time.Duration) RedisOption {
	return func(l *RedisLimiter) {
		if d > 0 {
			l.timeout = d
		}
	}
}

// WithRedisReservationTTL sets how long a reservation may stay unsettled
// before it can be reclaimed (default DefaultReservationTTL); it must exceed
// the longest handler deadline. Redis measures it. A non-positive d is
// ignored.
func WithRedisReservationTTL(d time.Duration) RedisOption {
	return func(l *RedisLimiter) {
		if d > 0 {
			l.ttl = d
		}
	}
}

// WithRedisClock makes the scripts take the time from clock, in whole
// microseconds, instead of Redis's TIME; for tests only (the conformance
// suite's manual clock), since replicas with different clocks would then
// disagree. A nil clock is ignored.
func WithRedisClock(clock func() time.Time) RedisOption {
	return func(l *RedisLimiter) {
		if clock != nil {
			l.test, l.local = clock, clock
		}
	}
}

// ParseRedisURL parses a Redis URL (redis://[user:password@]host:port/db,
// rediss:// for TLS, unix:///path?db=N) into client options that fail fast, for the hot path:
// dialling, reading and writing each time out after DefaultRedisTimeout, a
// failed command or dial is not retried, and a call waits at most that long
// for a free connection. Timeout and retry parameters in the URL are
// overridden. The pool keeps at least 64 connections (8 open while idle) unless
// the URL's pool_size and min_idle_conns say otherwise. The error never repeats the URL, which may hold a password.
func ParseRedisURL(rawURL string) (*redis.Options, error) {
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("want redis://host:port/db: %w", err)
	}
	opt.DialTimeout = DefaultRedisTimeout
	opt.ReadTimeout = DefaultRedisTimeout
	opt.WriteTimeout = DefaultRedisTimeout
	opt.PoolTimeout = DefaultRedisTimeout
	opt.ContextTimeoutEnabled = true
	opt.MaxRetries = -1
	opt.DialerRetries = 1
	opt.DisableIdentity = true // no CLIENT SETINFO round trips on connect
	// A burst of concurrent calls must not queue for connections behind the timeout: keep enough
	// of them, and a few open before the first call (unless the URL says otherwise).
	if !strings.Contains(rawURL, "pool_size=") {
		opt.PoolSize = max(opt.PoolSize, 64)
	}
	if !strings.Contains(rawURL, "min_idle_conns=") {
		opt.MinIdleConns = 8
	}
	opt.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	return opt, nil
}

// NewRedisClient returns a client for rawURL with ParseRedisURL's options. It
// does not connect: the first command (or a Ping) does.
func NewRedisClient(rawURL string) (*redis.Client, error) {
	opt, err := ParseRedisURL(rawURL)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(opt), nil
}

// LogRedisTo sends the Redis client's own messages (such as a failed dial) to
// log at debug level instead of unstructured lines on stderr: each call that
// fails because of them already reports its error. The Redis client's logger
// is one for the whole process.
func LogRedisTo(log *slog.Logger) { redis.SetLogger(redisLog{log}) }

// redisLog adapts a slog.Logger to the Redis client's logger.
type redisLog struct{ log *slog.Logger }

func (l redisLog) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, "redis client", "detail", fmt.Sprintf(format, v...))
}
