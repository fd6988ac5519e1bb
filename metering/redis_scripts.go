package metering

import "github.com/redis/go-redis/v9"

// The Redis limiter's state, all under the limiter's key prefix P:
//
//	P b:<consumer>  hash   tokens, last, rate, burst: one consumer's bucket
//	P held          zset   outstanding reservations: member = reservation id, score = expiry
//
// Times are microseconds since the Unix epoch on Redis's clock (TIME), so
// every replica reads the same time whatever its own clock says. Tokens are
// kept in units of 1/60,000,000 token: a rate of r tokens per minute then adds
// exactly r units per microsecond, so refill is exact integer arithmetic with
// no remainder to carry. Lua numbers are doubles, exact below 2^53; limits are
// capped at redisMaxLimit so that a full bucket (10^8 * 6*10^7 = 6*10^15
// units) and the time (about 1.8*10^15 µs) stay below it, and every
// comparison that could overflow is arranged so that it cannot err.
//
// A bucket key expires (PEXPIRE, on Redis's clock) bucketSlackMs after the
// bucket would be full again: a missing bucket is a full one, exactly as a new
// bucket starts. A bucket that cannot refill (rate 0) and is not full never
// expires. The reservation set has no expiry; Settle and Reclaim remove its
// members.

// redisMaxLimit caps RatePerMinute and Burst in the Redis limiter (see above).
const redisMaxLimit = 100_000_000

// luaPrelude is shared by the scripts that touch a bucket. ARGV[1] is the time
// in µs for tests (the conformance suite's manual clock), or empty for Redis's
// own clock.
const luaPrelude = `
local U = 60000000
local SLACK_MS = 60000

local function now_us()
  if ARGV[1] ~= '' then return tonumber(ARGV[1]) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end

-- refill returns tokens accrued from last to now under rate, capped at full.
-- el*rate >= deficit is exact: a product that is not exact exceeds 2^53 > deficit.
local function refill(tokens, last, now, rate, full)
  if now <= last then return tokens end
  if tokens >= full then return full end
  if rate == 0 then return tokens end
  local deficit = full - tokens
  local add = (now - last) * rate
  if add >= deficit then return full end
  return tokens + add
end

-- whole is floor(tokens / U), corrected for the division's rounding.
local function whole(tokens)
  local w = math.floor(tokens / U)
  if w * U > tokens then w = w - 1 end
  if (w + 1) * U <= tokens then w = w + 1 end
  return w
end

-- expire lets Redis drop the bucket SLACK_MS after it is full again.
local function expire(key, tokens, rate, full)
  if tokens >= full then
    redis.call('PEXPIRE', key, SLACK_MS)
  elseif rate == 0 then
    redis.call('PERSIST', key)
  else
    redis.call('PEXPIRE', key, math.ceil((full - tokens) / rate / 1000) + SLACK_MS)
  end
end

local function save(key, tokens, last, rate, burst)
  redis.call('HSET', key, 'tokens', tokens, 'last', last, 'rate', rate, 'burst', burst)
  expire(key, tokens, rate, burst * U)
end
`

// reserveScript takes a call's cost from a bucket and records the reservation.
//
//	KEYS: bucket, held
//	ARGV: test time µs or '', cost, rate, burst, ttl µs, reservation id,
//	      then reservations settled keeping their cost, to remove first
//
// It answers {1, remaining, expires µs, now µs} when admitted, {0, remaining,
// wait µs (-1: never by refill alone), never (0/1)} when refused. A bucket
// that last saw another limit is refilled under the old one, then clamped to
// the new burst; the bucket is written back either way.
var reserveScript = redis.NewScript(luaPrelude + `
if #ARGV > 6 then redis.call('ZREM', KEYS[2], unpack(ARGV, 7)) end
local cost, rate, burst = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local now = now_us()
local full = burst * U
local b = redis.call('HMGET', KEYS[1], 'tokens', 'last', 'rate', 'burst')
local tokens, last
if b[1] then
  local orate, oburst = tonumber(b[3]), tonumber(b[4])
  tokens, last = refill(tonumber(b[1]), tonumber(b[2]), now, orate, oburst * U), tonumber(b[2])
  if now > last then last = now end
  if orate ~= rate or oburst ~= burst then tokens = math.min(tokens, full) end
else
  tokens, last = full, now
end
if cost > burst then
  save(KEYS[1], tokens, last, rate, burst)
  return {0, whole(tokens), 0, 1}
end
local need = cost * U
if tokens < need then
  save(KEYS[1], tokens, last, rate, burst)
  local wait = -1
  if rate > 0 then
    local deficit = need - tokens
    wait = math.floor(deficit / rate)
    if wait * rate < deficit then wait = wait + 1 end
    if wait > 0 and (wait - 1) * rate >= deficit then wait = wait - 1 end
  end
  return {0, whole(tokens), wait, 0}
end
tokens = tokens - need
save(KEYS[1], tokens, last, rate, burst)
local expires = now + tonumber(ARGV[5])
redis.call('ZADD', KEYS[2], expires, ARGV[6])
return {1, whole(tokens), expires, now}
`)

// settleScript ends a reservation, refunding its cost (capped at the burst).
// An unknown reservation (settled, reclaimed, never issued) is a no-op; so is
// a refund to a missing bucket, which expired full. (Settling while keeping
// the cost needs no script: the next one removes the reservation.)
//
//	KEYS: bucket, held
//	ARGV: test time µs or '', reservation id, cost,
//	      then reservations settled keeping their cost, to remove first
//
// It answers 1 when it ended the reservation, else 0.
var settleScript = redis.NewScript(luaPrelude + `
if #ARGV > 3 then redis.call('ZREM', KEYS[2], unpack(ARGV, 4)) end
if redis.call('ZREM', KEYS[2], ARGV[2]) == 0 then return 0 end
local b = redis.call('HMGET', KEYS[1], 'tokens', 'last', 'rate', 'burst')
if not b[1] then return 1 end
local now = now_us()
local last, rate, burst = tonumber(b[2]), tonumber(b[3]), tonumber(b[4])
local full = burst * U
local tokens = refill(tonumber(b[1]), last, now, rate, full)
if now > last then last = now end
tokens = math.min(tokens + math.min(tonumber(ARGV[3]), burst) * U, full)
save(KEYS[1], tokens, last, rate, burst)
return 1
`)

// reclaimScript ends up to ARGV[3] reservations that expired strictly before
// the cutoff, earliest first, keeping their cost, and answers how many. The
// cutoff is ARGV[1] µs when given (tests), else Redis's TIME plus ARGV[2] µs
// (the caller's now minus its own clock: zero for a caller passing its
// current time, whatever its clock's skew).
//
//	KEYS: held
//	ARGV: cutoff µs or '', offset µs, at most,
//	      then reservations settled keeping their cost, to remove first
var reclaimScript = redis.NewScript(`
if #ARGV > 3 then redis.call('ZREM', KEYS[1], unpack(ARGV, 4)) end
local cutoff
if ARGV[1] ~= '' then
  cutoff = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  cutoff = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[2])
end
local n = redis.call('ZCOUNT', KEYS[1], '-inf', string.format('(%.0f', cutoff))
local most = tonumber(ARGV[3])
if n > most then n = most end
if n > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, n - 1) end
return n
`)
