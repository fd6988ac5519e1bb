package meteringtest

import (
	"context"
	"crypto/rand"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/partner-platform/partnerd/metering"
)

// DefaultRedisURL is the Redis the tests use unless PARTNER_TEST_REDIS_URL says otherwise.
const DefaultRedisURL = "redis://127.0.0.1:6379/0"

// Redis returns a client of the test Redis (PARTNER_TEST_REDIS_URL, else DefaultRedisURL), closed
// when the test ends: the production options (metering.ParseRedisURL: no retries) with timeout on
// every call. It skips the test when Redis cannot be reached, or fails it under
// PARTNER_TEST_REQUIRE_ALL=1. Tests on this shared Redis keep to a key prefix of their own
// (RedisPrefix).
func Redis(tb testing.TB, timeout time.Duration) *redis.Client {
	tb.Helper()
	u := os.Getenv("PARTNER_TEST_REDIS_URL")
	if u == "" {
		u = DefaultRedisURL
	}
	opt, err := metering.ParseRedisURL(u)
	if err != nil {
		tb.Fatalf("PARTNER_TEST_REDIS_URL: %v", err)
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout, opt.PoolTimeout = timeout, timeout, timeout, timeout
	c := redis.NewClient(opt)
	tb.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			tb.Fatalf("Redis at %s is unreachable and PARTNER_TEST_REQUIRE_ALL=1: %v", c.Options().Addr, err)
		}
		tb.Skipf("skipping: Redis at %s is unreachable (set PARTNER_TEST_REDIS_URL, or PARTNER_TEST_REQUIRE_ALL=1 to fail): %v", c.Options().Addr, err)
	}
	return c
}

// RedisPrefix returns a key prefix of the test's own, "<name>:<random>:", and deletes the keys under
// it when the test ends.
func RedisPrefix(tb testing.TB, c *redis.Client, name string) string {
	tb.Helper()
	prefix := name + ":" + rand.Text()[:16] + ":"
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var keys []string
		iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			keys = append(keys, iter.Val())
		}
		if err := iter.Err(); err != nil {
			tb.Logf("cleanup of %s*: %v", prefix, err)
			return
		}
		if len(keys) > 0 {
			if err := c.Del(ctx, keys...).Err(); err != nil {
				tb.Logf("cleanup of %s*: %v", prefix, err)
			}
		}
	})
	return prefix
}
