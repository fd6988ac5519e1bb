package metering_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/store"
)

// testTimeout replaces the production bound (metering.DefaultRedisTimeout) in the tests of the
// limiter's semantics, so that a loaded test machine cannot turn a slow answer into a failure; the
// fail-closed tests keep the production client.
const testTimeout = 5 * time.Second

// TestRedisLimiter runs the shared conformance suite against Redis, each subtest on a fresh prefix,
// with the suite's manual clock standing in for Redis's TIME.
func TestRedisLimiter(t *testing.T) {
	c := meteringtest.Redis(t, testTimeout)
	meteringtest.Run(t, func(t *testing.T, clock func() time.Time) metering.Limiter {
		return metering.NewRedisLimiter(c, metering.WithRedisPrefix(meteringtest.RedisPrefix(t, c, "partnerd-test")), metering.WithRedisClock(clock), metering.WithRedisTimeout(testTimeout))
	})
}

// reserveAll runs one Reserve of cost 1 per limiter in ls, all released at once, and returns the
// admitted reservations; any error other than a drained-bucket refusal fails the test.
func reserveAll(t *testing.T, ls []metering.Limiter, consumer int, lim metering.Limit) []metering.Reservation {
	t.Helper()
	start := make(chan struct{})
	var (
		mu  sync.Mutex
		rs  []metering.Reservation
		wg  sync.WaitGroup
		bad atomic.Value
	)
	for _, l := range ls {
		wg.Go(func() {
			<-start
			r, err := l.Reserve(t.Context(), consumer, 1, lim)
			var ref *metering.Refusal
			switch {
			case err == nil:
				mu.Lock()
				rs = append(rs, r)
				mu.Unlock()
			case !errors.As(err, &ref) || ref.Never || ref.Remaining != 0:
				bad.Store(fmt.Sprint(err))
			}
		})
	}
	close(start)
	wg.Wait()
	if v := bad.Load(); v != nil {
		t.Fatalf("Reserve: %v", v)
	}
	return rs
}

// TestRedisReplicasShareBucket: two limiters on two clients (two replicas) and one prefix draw from
// one bucket: 200 simultaneous calls against a burst of 50 admit exactly 50, whichever replica
// they reach; refunds through one replica are seen by the other.
func TestRedisReplicasShareBucket(t *testing.T) {
	c1, c2 := meteringtest.Redis(t, testTimeout), meteringtest.Redis(t, testTimeout)
	prefix := meteringtest.RedisPrefix(t, c1, "partnerd-test")
	a := metering.NewRedisLimiter(c1, metering.WithRedisPrefix(prefix), metering.WithRedisTimeout(testTimeout))
	b := metering.NewRedisLimiter(c2, metering.WithRedisPrefix(prefix), metering.WithRedisTimeout(testTimeout))
	lim := metering.Limit{RatePerMinute: 0, Burst: 50} // no refill while the test runs
	ls := make([]metering.Limiter, 200)
	for i := range ls {
		ls[i] = a
		if i%2 == 1 {
			ls[i] = b
		}
	}
	rs := reserveAll(t, ls, 7, lim)
	meteringtest.CheckAdmitted(t, rs, 50)

	// Refund 10 through the replica that did not issue them, and each twice.
	for _, r := range rs[:10] {
		for range 2 {
			if err := b.Settle(t.Context(), r, true); err != nil {
				t.Fatalf("Settle: %v", err)
			}
			if err := a.Settle(t.Context(), r, true); err != nil {
				t.Fatalf("Settle: %v", err)
			}
		}
	}
	meteringtest.CheckAdmitted(t, reserveAll(t, ls, 7, lim), 10)
}

// TestRedisSkewedClocks: the scripts read Redis's clock, so replicas whose own clocks are an hour
// ahead and an hour behind agree: no refill from the clock ahead, no stall from the one behind,
// Retry-After within one refill interval, and the sweeper of either reclaims by Redis's clock.
func TestRedisSkewedClocks(t *testing.T) {
	c := meteringtest.Redis(t, testTimeout)
	prefix := meteringtest.RedisPrefix(t, c, "partnerd-test")
	ahead := func() time.Time { return time.Now().Add(time.Hour) }
	behind := func() time.Time { return time.Now().Add(-time.Hour) }
	const ttl = 5 * time.Second
	a := metering.NewRedisLimiter(c, metering.WithRedisPrefix(prefix), metering.WithRedisReservationTTL(ttl), metering.WithRedisTimeout(testTimeout), metering.WithRedisLocalClock(ahead))
	b := metering.NewRedisLimiter(c, metering.WithRedisPrefix(prefix), metering.WithRedisReservationTTL(ttl), metering.WithRedisTimeout(testTimeout), metering.WithRedisLocalClock(behind))
	lim := metering.Limit{RatePerMinute: 60, Burst: 4}

	var rs []metering.Reservation
	for i, l := range []metering.Limiter{a, b, a, b} {
		r, err := l.Reserve(t.Context(), 1, 1, lim)
		if err != nil {
			t.Fatalf("Reserve %d: %v", i, err)
		}
		if r.Remaining != 3-i {
			t.Fatalf("Reserve %d: Remaining %d, want %d (one shared bucket)", i, r.Remaining, 3-i)
		}
		rs = append(rs, r)
	}
	for name, l := range map[string]metering.Limiter{"ahead": a, "behind": b} {
		_, err := l.Reserve(t.Context(), 1, 1, lim)
		var ref *metering.Refusal
		if !errors.As(err, &ref) || ref.Never || ref.RetryAfter <= 0 || ref.RetryAfter > time.Second {
			t.Fatalf("replica %s: Reserve on a drained bucket = %v, want a refusal with 0 < Retry-After <= 1s", name, err)
		}
	}
	// Each replica's Expires is on its own clock, the TTL from its now.
	for i, r := range rs {
		local := ahead
		if i%2 == 1 {
			local = behind
		}
		if d := r.Expires.Sub(local()); d <= 0 || d > ttl {
			t.Fatalf("reservation %d expires %v from its replica's now, want within (0, %v]", i, d, ttl)
		}
	}
	for name, l := range map[string]metering.Limiter{"ahead": a, "behind": b} {
		if n, err := l.Reclaim(t.Context(), map[string]func() time.Time{"ahead": ahead, "behind": behind}[name]()); err != nil || n != 0 {
			t.Fatalf("replica %s: Reclaim(its now) = %d, %v; want 0 (nothing expired on Redis's clock)", name, n, err)
		}
	}
	if n, err := b.Reclaim(t.Context(), behind().Add(ttl+time.Second)); err != nil || n != 4 {
		t.Fatalf("Reclaim(now + ttl + 1s) on the replica behind = %d, %v; want 4", n, err)
	}
	if err := a.Settle(t.Context(), rs[0], true); err != nil { // reclaimed: no refund
		t.Fatal(err)
	}
	if _, err := a.Reserve(t.Context(), 1, 4, lim); !errors.As(err, new(*metering.Refusal)) {
		t.Fatalf("Reserve(4) after a reclaimed reservation's refund = %v, want a refusal", err)
	}
}

// TestRedisOneRoundTripPerCall: an admitted call that keeps its cost (Reserve, then Settle keeping
// it) makes one round trip; its settlement rides on the next script, which removes the reservation
// from the held set, so neither round trips nor the held set grow with the calls.
func TestRedisOneRoundTripPerCall(t *testing.T) {
	c, inspect := meteringtest.Redis(t, testTimeout), meteringtest.Redis(t, testTimeout)
	hook := &roundTrips{}
	c.AddHook(hook)
	prefix := meteringtest.RedisPrefix(t, c, "partnerd-test")
	l := metering.NewRedisLimiter(c, metering.WithRedisPrefix(prefix), metering.WithRedisTimeout(testTimeout))
	lim := metering.Limit{RatePerMinute: 0, Burst: 1000}
	// Warm up: the first call after Redis lost its script cache (EVALSHA answers NOSCRIPT) sends
	// the script once more with EVAL: one more round trip, once per script and server.
	warm, err := l.Reserve(t.Context(), 4, 1, lim)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Settle(t.Context(), warm, false); err != nil {
		t.Fatal(err)
	}
	const calls = 200
	before := hook.n.Load()
	for i := range calls {
		r, err := l.Reserve(t.Context(), 1+i%3, 1, lim)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Settle(t.Context(), r, false); err != nil {
			t.Fatal(err)
		}
		if held := inspect.ZCard(t.Context(), prefix+"held").Val(); held > 1 {
			t.Fatalf("after call %d the held set has %d reservations, want at most the last one", i, held)
		}
	}
	if n := hook.n.Load() - before; n != calls {
		t.Fatalf("%d calls made %d round trips, want %d", calls, n, calls)
	}
	t.Logf("%d admitted calls, each reserved and settled: %d round trips", calls, hook.n.Load()-before)
	// The sweeper's next run removes the last queued settlement without reclaiming it.
	if n, err := l.Reclaim(t.Context(), time.Now().Add(time.Hour)); err != nil || n != 0 {
		t.Fatalf("Reclaim after every call settled = %d, %v; want 0", n, err)
	}
	if held := inspect.ZCard(t.Context(), prefix+"held").Val(); held != 0 {
		t.Fatalf("held set has %d reservations after Reclaim, want 0", held)
	}
	// The bucket kept every cost.
	for consumer := 1; consumer <= 3; consumer++ {
		want := 1000 - calls/3
		if consumer <= calls%3 {
			want--
		}
		r, err := l.Reserve(t.Context(), consumer, 1, lim)
		if err != nil || r.Remaining != want-1 {
			t.Fatalf("consumer %d: Reserve = %+v, %v; want %d remaining", consumer, r, err, want-1)
		}
	}
}

// redisServer is a private redis-server on a port of its own, keeping nothing on disk.
type redisServer struct {
	t    *testing.T
	port string
	cmd  *exec.Cmd
}

// startRedisServer starts a private redis-server on a free port; it skips the test when the binary
// is missing, or fails it under PARTNER_TEST_REQUIRE_ALL=1.
func startRedisServer(t *testing.T) *redisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatalf("redis-server is required (PARTNER_TEST_REQUIRE_ALL=1) but not installed: %v", err)
		}
		t.Skipf("skipping: redis-server not installed (set PARTNER_TEST_REQUIRE_ALL=1 to fail): %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	s := &redisServer{t: t, port: port}
	s.start()
	t.Cleanup(s.stop)
	return s
}

// url is the server's Redis URL.
func (s *redisServer) url() string { return "redis://127.0.0.1:" + s.port + "/0" }

// start runs redis-server and waits until it answers.
func (s *redisServer) start() {
	s.t.Helper()
	s.cmd = exec.Command("redis-server", "--port", s.port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("start redis-server: %v", err)
	}
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + s.port, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for c.Ping(context.Background()).Err() != nil {
		if time.Now().After(deadline) {
			s.t.Fatalf("redis-server on port %s does not answer after 10s", s.port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the server (as a crash would) and waits for it to exit.
func (s *redisServer) stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGCONT) // in case it was paused
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// signal sends sig to the server.
func (s *redisServer) signal(sig syscall.Signal) {
	s.t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("signal redis-server: %v", err)
	}
}

// expectUnavailable checks that n Reserves fail with an error that is not a refusal (the pipeline
// answers 503) and logs how long they took; speed is not asserted (DESIGN.md section 9).
func expectUnavailable(t *testing.T, l *metering.RedisLimiter, what string, n int) {
	t.Helper()
	var slowest time.Duration
	for i := range n {
		start := time.Now()
		r, err := l.Reserve(t.Context(), 1, 1, metering.Limit{RatePerMinute: 60, Burst: 100})
		took := time.Since(start)
		slowest = max(slowest, took)
		if err == nil {
			t.Fatalf("%s: Reserve %d admitted %+v without Redis, want an error (fail closed)", what, i, r)
		}
		if errors.As(err, new(*metering.Refusal)) {
			t.Fatalf("%s: Reserve %d = %v, want an error that is not a refusal", what, i, err)
		}
		if !store.Unavailable(err) {
			t.Fatalf("%s: Reserve %d = %v, want an outage (store.Unavailable: answered 503, not internal_error)", what, i, err)
		}
		if i == 0 {
			t.Logf("%s: Reserve failed after %v: %v", what, took.Round(time.Millisecond), err)
		}
	}
	t.Logf("%s: slowest of %d failed Reserves %v (bound per call %v)", what, n, slowest.Round(time.Millisecond), metering.DefaultRedisTimeout)
	if err := l.Ping(t.Context()); !store.Unavailable(err) {
		t.Fatalf("%s: Ping = %v, want an outage", what, err)
	}
}

// expectRecovered checks that the same limiter admits again once Redis is back, retrying for a few
// seconds while the client reconnects.
func expectRecovered(t *testing.T, l *metering.RedisLimiter, what string) {
	t.Helper()
	start := time.Now()
	for {
		_, err := l.Reserve(t.Context(), 1, 1, metering.Limit{RatePerMinute: 60, Burst: 100})
		if err == nil {
			t.Logf("%s: admitting again after %v", what, time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("%s: Reserve still fails 10s after Redis came back: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRedisFailClosed: with its Redis paused (answers nothing) or stopped, Reserve returns an error
// instead of admitting, and the same limiter works again once Redis is back, without a restart.
func TestRedisFailClosed(t *testing.T) {
	s := startRedisServer(t)
	c, err := metering.NewRedisClient(s.url())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l := metering.NewRedisLimiter(c)
	expectRecovered(t, l, "fresh server")

	s.signal(syscall.SIGSTOP)
	expectUnavailable(t, l, "paused", 3)
	s.signal(syscall.SIGCONT)
	expectRecovered(t, l, "resumed")

	// More failed dials than the client's pool size (ParseRedisURL: at least 64): the client then
	// stops dialling per call and probes once a second, which recovery below has to get through.
	s.stop()
	expectUnavailable(t, l, "stopped", 100)
	s.start()
	expectRecovered(t, l, "restarted")
}

// roundTrips counts the commands a client sends (one round trip each; no pipelines are used).
type roundTrips struct{ n atomic.Int64 }

func (h *roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}
func (h *roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmds)
	}
}

// BenchmarkRedisReserve compares an admitted Reserve (and Reserve plus Settle) on the memory limiter
// and on Redis (TIME clock, 1,000 consumers), serially (latency) and from parallel goroutines
// (throughput), reporting Redis round trips per operation. Redis calls get testTimeout, so that a
// stall of the machine does not end the run, and the slowest call is reported (max-ms).
func BenchmarkRedisReserve(b *testing.B) {
	c := meteringtest.Redis(b, testTimeout)
	hook := &roundTrips{}
	c.AddHook(hook)
	lim := metering.Limit{RatePerMinute: 100_000_000, Burst: 100_000_000}
	const consumers = 1000
	for _, backend := range []string{"memory", "redis"} {
		for _, settle := range []bool{false, true} {
			for _, parallel := range []bool{false, true} {
				name := backend + "/reserve"
				if settle {
					name += "+settle"
				}
				if parallel {
					name += "/parallel"
				} else {
					name += "/serial"
				}
				b.Run(name, func(b *testing.B) {
					var l metering.Limiter = metering.NewMemoryLimiter()
					if backend == "redis" {
						l = metering.NewRedisLimiter(c, metering.WithRedisPrefix(meteringtest.RedisPrefix(b, c, "partnerd-test")), metering.WithRedisTimeout(testTimeout))
					}
					var next, slowest atomic.Int64
					call := func(id int) {
						start := time.Now()
						defer func() {
							if d := int64(time.Since(start)); d > slowest.Load() {
								slowest.Store(d) // racy max: good enough for a report
							}
						}()
						r, err := l.Reserve(b.Context(), id, 1, lim)
						if err != nil {
							b.Fatal(err)
						}
						if settle {
							if err := l.Settle(b.Context(), r, false); err != nil {
								b.Fatal(err)
							}
						}
					}
					before := hook.n.Load()
					b.ReportAllocs()
					b.ResetTimer()
					if parallel {
						b.RunParallel(func(pb *testing.PB) {
							id := int(next.Add(1) % consumers)
							for pb.Next() {
								call(id)
								id = (id + 1) % consumers
							}
						})
					} else {
						for i := 0; b.Loop(); i++ {
							call(i % consumers)
						}
					}
					b.StopTimer()
					b.ReportMetric(float64(hook.n.Load()-before)/float64(b.N), "roundtrips/op")
					b.ReportMetric(float64(slowest.Load())/1e6, "max-ms")
				})
			}
		}
	}
}

// TestRedisErrorClasses: what Redis itself answers with an error reply is a bug (a script's or a
// command's error), unless the reply says Redis cannot serve for the moment (BUSY, LOADING ...);
// every failure to get an answer is an outage (store.Unavailable: the API answers 503).
func TestRedisErrorClasses(t *testing.T) {
	c := meteringtest.Redis(t, testTimeout)
	for _, tc := range []struct {
		name   string
		args   []any
		outage bool
	}{
		{"unknown command", []any{"NOSUCHCOMMAND"}, false},
		{"script error", []any{"EVAL", "return redis.error_reply('ERR bad bucket')", 0}, false},
		{"busy reply", []any{"EVAL", "return redis.error_reply('BUSY Redis is busy running a script')", 0}, true},
		{"loading reply", []any{"EVAL", "return redis.error_reply('LOADING Redis is loading the dataset in memory')", 0}, true},
	} {
		err := c.Do(t.Context(), tc.args...).Err()
		if err == nil {
			t.Fatalf("%s: no error", tc.name)
		}
		if got := store.Unavailable(metering.RedisError("reserve", err)); got != tc.outage {
			t.Errorf("%s (%v): outage = %v, want %v", tc.name, err, got, tc.outage)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if err := c.Ping(ctx).Err(); !store.Unavailable(metering.RedisError("ping", err)) {
		t.Errorf("a call past its deadline (%v) is not an outage", err)
	}
}
