package access

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"
)

func newTestThrottle(clk *fakeClock, opts ...ThrottleOption) *Throttle {
	return NewThrottle(append([]ThrottleOption{WithThrottleClock(clk.Now)}, opts...)...)
}

// fail begins an attempt that must be admitted and leaves it counted as a failure.
func fail(t *testing.T, th *Throttle, account, source string) {
	t.Helper()
	if _, err := th.Begin(account, addr(source)); err != nil {
		t.Fatalf("Begin(%q, %s): %v, want admitted", account, source, err)
	}
}

// throttled checks that an attempt is refused with exactly retry.
func throttled(t *testing.T, th *Throttle, account, source string, retry time.Duration) {
	t.Helper()
	a, err := th.Begin(account, addr(source))
	var e *Throttled
	if !errors.As(err, &e) {
		t.Fatalf("Begin(%q, %s) = %v, %v; want *Throttled", account, source, a, err)
	}
	if e.RetryAfter != retry {
		t.Fatalf("Begin(%q, %s): RetryAfter %v, want %v", account, source, e.RetryAfter, retry)
	}
}

func addr(s string) netip.Addr {
	if s == "" {
		return netip.Addr{}
	}
	return netip.MustParseAddr(s)
}

func TestThrottleSource(t *testing.T) {
	clk := newFakeClock()
	th := newTestThrottle(clk)
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

	// An unknown source or account counts nothing for it.
	for range 3 * SignInSourceLimit {
		fail(t, th, "", "")
	}
	if a, s := th.Size(); a != 2*SignInSourceLimit+2 || s != 4 {
		t.Fatalf("Size = %d accounts, %d sources", a, s)
	}
}

func TestThrottleIsBounded(t *testing.T) {
	clk := newFakeClock()
	th := newTestThrottle(clk, WithThrottleCapacity(100), WithThrottleLimits(2, 2, time.Hour))
	fail(t, th, "first@example.com", "192.0.2.1")
	fail(t, th, "first@example.com", "192.0.2.1")
	throttled(t, th, "first@example.com", "192.0.2.200", time.Hour)
	for i := range 10_000 {
		clk.Add(time.Millisecond)
		fail(t, th, fmt.Sprintf("spray%d@example.com", i), fmt.Sprintf("2001:db8:%x::1", i))
		if a, s := th.Size(); a > 100 || s > 100 {
			t.Fatalf("after %d accounts: Size = %d, %d; want at most 100 each", i+1, a, s)
		}
	}
	// The least recently failed entries were dropped, the newest are kept.
	fail(t, th, "first@example.com", "192.0.2.1")
	fail(t, th, "spray9999@example.com", "192.0.2.2")
	throttled(t, th, "spray9999@example.com", "192.0.2.3", time.Hour)

	// An entry never holds more than its limit of failure times.
	th2 := newTestThrottle(clk, WithThrottleLimits(3, 3, time.Hour))
	for range 3 {
		fail(t, th2, "bob@example.com", "")
	}
	if n := len(th2.accounts.entries["bob@example.com"].Value.(*failEntry[string]).fails); n != 3 {
		t.Fatalf("%d failure times kept, want 3", n)
	}
}

func TestSourcePrefix(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7":             "192.0.2.7/32",
		"::ffff:192.0.2.7":      "192.0.2.7/32",
		"2001:db8:1:2:3:4:5:6":  "2001:db8:1:2::/64",
		"fe80::1%eth0":          "fe80::/64",
		"2001:db8:1:2::1%wlan0": "2001:db8:1:2::/64",
	} {
		if got := SourcePrefix(netip.MustParseAddr(in)).String(); got != want {
			t.Errorf("SourcePrefix(%s) = %s, want %s", in, got, want)
		}
	}
	if SourcePrefix(netip.Addr{}).IsValid() {
		t.Error("SourcePrefix of the zero Addr is valid")
	}
}

func TestThrottledError(t *testing.T) {
	err := error(&Throttled{RetryAfter: 1500 * time.Millisecond})
	if !strings.Contains(err.Error(), "retry in 2s") {
		t.Fatalf("message %q", err)
	}
}

// TestDummyHash checks that SignIn's stand-in hash is well formed with the current parameters, so
// an unknown email costs a full argon2id run rather than failing fast on a malformed hash.
func TestDummyHash(t *testing.T) {
	want := fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$", argon2.Version, argonMemory, argonTime, argonThreads)
	if !strings.HasPrefix(dummyHash, want) {
		t.Fatalf("dummyHash %q does not have the current parameters %q", dummyHash, want)
	}
	if ok, err := CheckPassword(dummyHash, "correct horse battery staple"); ok || err != nil {
		t.Fatalf("CheckPassword(dummyHash) = %v, %v; want false, nil", ok, err)
	}
}
