package metering

import "time"

// WithRedisLocalClock sets only the replica's own clock, as a replica whose
// clock is skewed has it, and leaves the time of the scripts to Redis.
func WithRedisLocalClock(clock func() time.Time) RedisOption {
	return func(l *RedisLimiter) { l.local = clock }
}

// RedisError classifies a Redis call's error as the limiter does.
var RedisError = redisError
