package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
)

// The sign-in throttle's behaviour, run against both places it keeps failures: in memory and in
// Redis (RedisThrottleStore, on the suite's manual clock). throttle_test.go adds what only the
// memory state has (its capacity bound and Size).

// testRedisTimeout replaces DefaultRedisThrottleTimeout in the behavioural cases, so that a loaded
// machine cannot turn a slow answer into a failure; the fail-closed tests keep the production one.
const testRedisTimeout = 5 * time.Second

func redisKeys(t testing.TB, ctx context.Context, c *redis.Client, prefix string) []string {
	t.Helper()
	var keys []string
	iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Fatalf("scan %s*: %v", prefix, err)
	}
	return keys
}

// throttleBackend makes the Throttles of one test. Every Throttle one test makes with Redis shares
// its store, as replicas do; in memory each has its own.
type throttleBackend struct {
	name   string
	shared bool // Throttles of one test share their failures
	newFor func(t *testing.T, clk *fakeClock) func(opts ...ThrottleOption) *Throttle
}

func throttleBackends() []throttleBackend {
	return []throttleBackend{
		{name: "memory", newFor: func(t *testing.T, clk *fakeClock) func(...ThrottleOption) *Throttle {
			return func(opts ...ThrottleOption) *Throttle { return newTestThrottle(clk, opts...) }
		}},
		{name: "redis", shared: true, newFor: func(t *testing.T, clk *fakeClock) func(...ThrottleOption) *Throttle {
			c := meteringtest.Redis(t, testRedisTimeout)
			store := NewRedisThrottleStore(c, WithRedisThrottlePrefix(meteringtest.RedisPrefix(t, c, "partnerd-test-signin")),
				WithRedisThrottleClock(clk.Now), WithRedisThrottleTimeout(testRedisTimeout))
			return func(opts ...ThrottleOption) *Throttle {
				return newTestThrottle(clk, append([]ThrottleOption{WithThrottleStore(store)}, opts...)...)
			}
		}},
	}
}

// TestThrottleBackends runs every behavioural case against each backend.
func TestThrottleBackends(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, b throttleBackend, newThrottle func(...ThrottleOption) *Throttle, clk *fakeClock)
	}{
		{"account sliding window", caseAccountWindow},
		{"source by address and /64", caseSource},
		{"success, abandon and a new password", caseSuccessAndAbandon},
		{"concurrent attempts", caseConcurrent},
		{"replicas", caseReplicas},
	}
	for _, b := range throttleBackends() {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					clk := newFakeClock()
					c.run(t, b, b.newFor(t, clk), clk)
				})
			}
		})
	}
}

func caseAccountWindow(t *testing.T, _ throttleBackend, newThrottle func(...ThrottleOption) *Throttle, clk *fakeClock) {
	th := newThrottle()
	for i := range SignInAccountLimit {
		fail(t, th, "bob@example.com", fmt.Sprintf("192.0.2.%d", i)) // sources differ: the account counts
		clk.Add(time.Minute)
	}
	// Failures at 0..4 min, now 5 min: the one at 0 frees a slot at 15 min.
	throttled(t, th, "bob@example.com", "198.51.100.1", 10*time.Minute)
	clk.Add(10*time.Minute - time.Second)
	throttled(t, th, "bob@example.com", "198.51.100.1", time.Second) // refused attempts did not count
	fail(t, th, "alice@example.com", "198.51.100.1")
	clk.Add(time.Second)
	fail(t, th, "bob@example.com", "198.51.100.1") // one slot, taken at once
	throttled(t, th, "bob@example.com", "198.51.100.1", time.Minute)
	clk.Add(SignInWindow)
	fail(t, th, "bob@example.com", "198.51.100.1") // all old failures left the window
}

func caseSource(t *testing.T, _ throttleBackend, newThrottle func(...ThrottleOption) *Throttle, clk *fakeClock) {
	th := newThrottle()
	// IPv6 counts by /64: twenty failures spread over the /64 and many accounts.
	for i := range SignInSourceLimit {
		fail(t, th, fmt.Sprintf("u%d@example.com", i), fmt.Sprintf("2001:db8:0:1::%x", i+1))
		clk.Add(time.Second)
	}
	throttled(t, th, "new@example.com", "2001:db8:0:1:ffff:ffff:ffff:ffff", SignInWindow-SignInSourceLimit*time.Second)
	fail(t, th, "new@example.com", "2001:db8:0:2::1") // the next /64

	// IPv4 counts by address; an IPv4-mapped IPv6 address is that IPv4 address.
	for i := range SignInSourceLimit {
		fail(t, th, fmt.Sprintf("v%d@example.com", i), "192.0.2.7")
	}
	throttled(t, th, "x@example.com", "::ffff:192.0.2.7", SignInWindow)
	fail(t, th, "x@example.com", "192.0.2.8")

	// An unknown source or account counts nothing for it, and the other still counts.
	for range 3 * SignInSourceLimit {
		fail(t, th, "", "")
	}
	for range SignInAccountLimit {
		fail(t, th, "carol@example.com", "")
	}
	throttled(t, th, "carol@example.com", "", SignInWindow)
	for range SignInSourceLimit {
		fail(t, th, "", "192.0.2.9")
	}
	throttled(t, th, "", "192.0.2.9", SignInWindow)
}

func caseSuccessAndAbandon(t *testing.T, _ throttleBackend, newThrottle func(...ThrottleOption) *Throttle, _ *fakeClock) {
	th := newThrottle(WithThrottleLimits(3, 4, time.Minute))
	fail(t, th, "bob@example.com", "192.0.2.1")
	fail(t, th, "bob@example.com", "192.0.2.1")
	a, err := th.Begin("bob@example.com", addr("192.0.2.1"))
	if err != nil {
		t.Fatal(err)
	}
	a.Succeeded() // clears bob, and the attempt no longer counts against the source
	for range 3 {
		fail(t, th, "bob@example.com", "192.0.2.2")
	}
	throttled(t, th, "bob@example.com", "192.0.2.3", time.Minute)
	// The source had 2 failures (the success was taken back): two more fit.
	fail(t, th, "carol@example.com", "192.0.2.1")
	fail(t, th, "dan@example.com", "192.0.2.1")
	throttled(t, th, "erin@example.com", "192.0.2.1", time.Minute)

	// Abandoned attempts count for neither.
	for range 10 {
		a, err := th.Begin("frank@example.com", addr("192.0.2.9"))
		if err != nil {
			t.Fatal(err)
		}
		a.Abandon()
	}
	fail(t, th, "frank@example.com", "192.0.2.9")

	// clearAccount (a password was set) forgets the account's failures.
	th.clearAccount("bob@example.com")
	fail(t, th, "bob@example.com", "192.0.2.4")
}

func caseConcurrent(t *testing.T, b throttleBackend, newThrottle func(...ThrottleOption) *Throttle, _ *fakeClock) {
	// With Redis, the 100 attempts go through four Throttles (replicas) at once.
	ths := []*Throttle{newThrottle()}
	if b.shared {
		ths = append(ths, newThrottle(), newThrottle(), newThrottle())
	}
	var admitted atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 100 {
		wg.Go(func() {
			<-start
			_, err := ths[i%len(ths)].Begin("bob@example.com", addr(fmt.Sprintf("2001:db8:%x::1", i)))
			switch {
			case err == nil:
				admitted.Add(1)
			case !errors.As(err, new(*Throttled)):
				t.Errorf("Begin: %v", err)
			}
		})
	}
	close(start)
	wg.Wait()
	if n := admitted.Load(); n != SignInAccountLimit {
		t.Fatalf("%d concurrent attempts over %d throttle(s) admitted, want %d", n, len(ths), SignInAccountLimit)
	}
}

// caseReplicas: failures alternated over two Throttles are refused at the same count as on one
// when they share a store; in memory each counts only its own, so twice as many get through.
func caseReplicas(t *testing.T, b throttleBackend, newThrottle func(...ThrottleOption) *Throttle, _ *fakeClock) {
	ths := []*Throttle{newThrottle(), newThrottle()}
	admitted := 0
	for i := 0; ; i++ {
		_, err := ths[i%2].Begin("bob@example.com", addr(fmt.Sprintf("192.0.2.%d", i)))
		if errors.As(err, new(*Throttled)) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		admitted++
	}
	want := 2 * SignInAccountLimit
	if b.shared {
		want = SignInAccountLimit
	}
	t.Logf("%s: failures alternated over two throttles: refused after %d (limit %d)", b.name, admitted, SignInAccountLimit)
	if admitted != want {
		t.Fatalf("%d failures admitted over two throttles, want %d", admitted, want)
	}
	// A new password set through one clears the account for both (shared), or for itself only.
	ths[0].clearAccount("bob@example.com")
	if b.shared {
		fail(t, ths[1], "bob@example.com", "198.51.100.1")
	} else {
		throttled(t, ths[1], "bob@example.com", "198.51.100.1", SignInWindow)
	}
}

// TestRedisThrottleKeys: the keys name neither the email nor the address, live under the prefix,
// hold at most the limit's failures and expire with the window, on Redis's own clock.
func TestRedisThrottleKeys(t *testing.T) {
	c := meteringtest.Redis(t, testRedisTimeout)
	prefix := meteringtest.RedisPrefix(t, c, "partnerd-test-signin")
	const window = 2 * time.Second
	th := NewThrottle(WithThrottleLimits(3, 10, window),
		WithThrottleStore(NewRedisThrottleStore(c, WithRedisThrottlePrefix(prefix), WithRedisThrottleTimeout(testRedisTimeout))))
	const email, ip = "Secret.Person@example.com", "203.0.113.77"
	account, err := NormalizeEmail(email)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		fail(t, th, account, ip)
	}
	_, err = th.Begin(account, addr(ip))
	var thr *Throttled
	if !errors.As(err, &thr) || thr.RetryAfter <= 0 || thr.RetryAfter > window {
		t.Fatalf("4th attempt on Redis's clock: %v, want *Throttled within (0, %v]", err, window)
	}
	t.Logf("refused on Redis's clock with RetryAfter %v (window %v)", thr.RetryAfter, window)

	ctx := t.Context()
	keys := redisKeys(t, ctx, c, prefix)
	if len(keys) != 2 {
		t.Fatalf("keys %q, want one for the account and one for the source", keys)
	}
	for _, k := range keys {
		lower := strings.ToLower(k)
		if strings.Contains(lower, account) || strings.Contains(lower, "secret") || strings.Contains(k, ip) || strings.Contains(k, "203.0.113") {
			t.Errorf("key %q names the account or the address in clear", k)
		}
		ttl, err := c.PTTL(ctx, k).Result()
		if err != nil || ttl <= 0 || ttl > window+time.Millisecond {
			t.Errorf("key %q: PTTL %v (%v), want within (0, %v]", k, ttl, err, window+time.Millisecond)
		}
		members, err := c.ZRange(ctx, k, 0, -1).Result()
		if err != nil || len(members) != 3 {
			t.Errorf("key %q holds %d failures (%v), want 3", k, len(members), err)
		}
		for _, m := range members {
			if strings.Contains(m, "secret") || strings.Contains(m, ip) {
				t.Errorf("key %q: member %q names the account or the address", k, m)
			}
		}
	}

	// Once the oldest failure left the window the account may try again; once every failure
	// left it, Redis dropped the keys.
	time.Sleep(thr.RetryAfter + 20*time.Millisecond)
	fail(t, th, account, ip)
	time.Sleep(window + 100*time.Millisecond)
	if keys := redisKeys(t, ctx, c, prefix); len(keys) != 0 {
		t.Fatalf("keys %q still there a window after the last failure", keys)
	}
}

// TestRedisThrottleFailsClosed: with a Redis that refuses connections or never answers, an attempt
// is refused with ErrThrottleUnavailable (not *Throttled), within the store's timeout, and SignIn
// checks no password; taking attempts back and clearing an account return all the same.
func TestRedisThrottleFailsClosed(t *testing.T) {
	refused := func(t *testing.T) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		a := ln.Addr().String()
		ln.Close()
		return a
	}
	silent := func(t *testing.T) string { // accepts, reads, never answers
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var conns []net.Conn
		t.Cleanup(func() {
			ln.Close()
			mu.Lock()
			defer mu.Unlock()
			for _, c := range conns {
				c.Close()
			}
		})
		go func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, conn)
				mu.Unlock()
				go func() { _, _ = io.Copy(io.Discard, conn) }()
			}
		}()
		return ln.Addr().String()
	}
	metering.LogRedisTo(slog.New(slog.DiscardHandler)) // not a line per failed dial of the pool
	for name, addrOf := range map[string]func(*testing.T) string{"connection refused": refused, "no answer": silent} {
		t.Run(name, func(t *testing.T) {
			c, err := metering.NewRedisClient("redis://" + addrOf(t) + "/0") // the production client
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			th := NewThrottle(WithThrottleStore(NewRedisThrottleStore(c)))
			for i := range 3 {
				start := time.Now()
				a, err := th.Begin("bob@example.com", addr("192.0.2.1"))
				took := time.Since(start)
				if !errors.Is(err, ErrThrottleUnavailable) || errors.As(err, new(*Throttled)) {
					t.Fatalf("Begin without Redis = %v, %v; want ErrThrottleUnavailable", a, err)
				}
				if i == 0 {
					t.Logf("refused after %v (store timeout %v): %v", took.Round(time.Millisecond), DefaultRedisThrottleTimeout, err)
				}
			}
			// Nothing reaches the store without an account or a source.
			if _, err := th.Begin("", addr("")); err != nil {
				t.Fatalf("Begin with nothing to count: %v", err)
			}
			// Ending an attempt, or clearing an account, gives up after the timeout.
			(&Attempt{t: th, account: "bob@example.com", source: SourcePrefix(addr("192.0.2.1")), id: "x"}).Succeeded()
			(&Attempt{t: th, account: "bob@example.com", id: "y"}).Abandon()
			th.clearAccount("bob@example.com")

			// SignIn refuses before it reads the user (the Service has no database here).
			svc := NewService(nil, WithSignInThrottle(th))
			if _, err := svc.SignIn(t.Context(), "bob@example.com", "correct horse battery staple", netip.MustParseAddr("192.0.2.1")); !errors.Is(err, ErrThrottleUnavailable) {
				t.Fatalf("SignIn without Redis: %v, want ErrThrottleUnavailable", err)
			}
		})
	}
}
