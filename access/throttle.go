package access

import (
	"container/list"
	"fmt"
	"math"
	"net/netip"
	"sync"
	"time"
)

// Sign-in throttle defaults.
const (
	// SignInAccountLimit is how many failed sign-ins one account (email) may have within SignInWindow.
	SignInAccountLimit = 5
	// SignInSourceLimit is how many failed sign-ins one source (an IPv4 address, an IPv6 /64) may
	// have within SignInWindow.
	SignInSourceLimit = 20
	// SignInWindow is the sliding window failures are counted in.
	SignInWindow = 15 * time.Minute
	// DefaultThrottleCapacity is how many accounts, and separately how many sources, a Throttle
	// tracks at most; beyond it the least recently failed entry is dropped.
	DefaultThrottleCapacity = 10_000
)

// Throttled is the error of a sign-in attempt refused because of too many recent failures.
// RetryAfter is how long until the window has room again (always > 0).
type Throttled struct {
	RetryAfter time.Duration
}

func (e *Throttled) Error() string {
	return fmt.Sprintf("too many failed sign-ins: retry in %ds", int(math.Ceil(e.RetryAfter.Seconds())))
}

// Throttle limits failed sign-ins per account and per source address with a sliding window log:
// every failure's time is kept (at most limit of them per account or source, so memory per
// entry is bounded), and an attempt is refused while limit failures lie within the last window;
// RetryAfter is when the oldest of them leaves the window. Refused attempts are not counted, so
// a throttled attacker cannot extend the block, and a successful sign-in clears the account's
// failures (not the source's: one good account must not launder a source's guesses elsewhere).
//
// An admitted attempt is counted as a failure at once (Begin) and taken back when it succeeds,
// so concurrent attempts cannot overrun the limit between check and count.
//
// The state is in memory, per process: with several replicas, each counts the attempts it sees,
// so the effective limits are the per-replica limits times the replicas a client can reach. It is
// bounded: at most capacity accounts and capacity sources are tracked, dropping the entry whose
// last failure is oldest. A client able to spray more distinct accounts than that within a
// window can push an account's failures out early; the per-source limit bounds how fast one
// source can do so. A Throttle is safe for concurrent use.
type Throttle struct {
	mu       sync.Mutex
	now      func() time.Time
	window   time.Duration
	accounts *failLog[string]
	sources  *failLog[netip.Prefix]
}

// ThrottleOption configures NewThrottle.
type ThrottleOption func(*Throttle)

// WithThrottleClock sets the clock (tests).
func WithThrottleClock(now func() time.Time) ThrottleOption {
	return func(t *Throttle) { t.now = now }
}

// WithThrottleLimits sets the failures allowed per account and per source within window
// (defaults SignInAccountLimit, SignInSourceLimit, SignInWindow). Values below 1 keep the default.
func WithThrottleLimits(perAccount, perSource int, window time.Duration) ThrottleOption {
	return func(t *Throttle) {
		if perAccount > 0 {
			t.accounts.limit = perAccount
		}
		if perSource > 0 {
			t.sources.limit = perSource
		}
		if window > 0 {
			t.window = window
		}
	}
}

// WithThrottleCapacity sets how many accounts, and separately sources, are tracked at most
// (default DefaultThrottleCapacity). Values below 1 keep the default.
func WithThrottleCapacity(n int) ThrottleOption {
	return func(t *Throttle) {
		if n > 0 {
			t.accounts.capacity, t.sources.capacity = n, n
		}
	}
}

// NewThrottle returns a Throttle with the defaults, changed by opts.
func NewThrottle(opts ...ThrottleOption) *Throttle {
	t := &Throttle{now: time.Now, window: SignInWindow,
		accounts: newFailLog[string](SignInAccountLimit, DefaultThrottleCapacity),
		sources:  newFailLog[netip.Prefix](SignInSourceLimit, DefaultThrottleCapacity)}
	for _, o := range opts {
		o(t)
	}
	return t
}

// SourcePrefix is the unit a source address is counted by: the address itself for IPv4 (also
// IPv4-mapped IPv6), its /64 for IPv6. An invalid address gives the zero Prefix.
func SourcePrefix(addr netip.Addr) netip.Prefix {
	if !addr.IsValid() {
		return netip.Prefix{}
	}
	addr = addr.Unmap().WithZone("")
	if addr.Is4() {
		return netip.PrefixFrom(addr, 32)
	}
	p, _ := addr.Prefix(64)
	return p
}

// Attempt is a sign-in attempt Begin admitted. It counts as a failure unless Succeeded or
// Abandon is called.
type Attempt struct {
	t       *Throttle
	account string
	source  netip.Prefix
	at      time.Time
}

// Begin admits one sign-in attempt for account (a normalized email; "" counts nothing per
// account) from source (an invalid address counts nothing per source), or refuses it with
// *Throttled when either has used up its failures in the window.
func (t *Throttle) Begin(account string, source netip.Addr) (*Attempt, error) {
	src := SourcePrefix(source)
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	var wait time.Duration
	if account != "" {
		wait = max(wait, t.accounts.wait(account, now, t.window))
	}
	if src.IsValid() {
		wait = max(wait, t.sources.wait(src, now, t.window))
	}
	if wait > 0 {
		return nil, &Throttled{RetryAfter: wait}
	}
	if account != "" {
		t.accounts.add(account, now, t.window)
	}
	if src.IsValid() {
		t.sources.add(src, now, t.window)
	}
	return &Attempt{t: t, account: account, source: src, at: now}, nil
}

// Succeeded records that the attempt's credentials were right: the account's failures are
// cleared and the attempt no longer counts against its source.
func (a *Attempt) Succeeded() {
	a.t.mu.Lock()
	defer a.t.mu.Unlock()
	if a.account != "" {
		a.t.accounts.clear(a.account)
	}
	if a.source.IsValid() {
		a.t.sources.remove(a.source, a.at)
	}
}

// Abandon takes the attempt back entirely: it was neither right nor wrong (the store failed).
func (a *Attempt) Abandon() {
	a.t.mu.Lock()
	defer a.t.mu.Unlock()
	if a.account != "" {
		a.t.accounts.remove(a.account, a.at)
	}
	if a.source.IsValid() {
		a.t.sources.remove(a.source, a.at)
	}
}

// clearAccount forgets an account's failures (its password was just set).
func (t *Throttle) clearAccount(account string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.accounts.clear(account)
}

// Size returns how many accounts and sources are tracked now.
func (t *Throttle) Size() (accounts, sources int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.accounts.entries), len(t.sources.entries)
}

// failLog is the failure times of a bounded set of keys, least recently failed last.
type failLog[K comparable] struct {
	limit, capacity int
	entries         map[K]*list.Element // of *failEntry[K]
	order           *list.List          // front: most recently failed
}

type failEntry[K comparable] struct {
	key   K
	fails []time.Time // oldest first, at most limit
}

func newFailLog[K comparable](limit, capacity int) *failLog[K] {
	return &failLog[K]{limit: limit, capacity: capacity, entries: map[K]*list.Element{}, order: list.New()}
}

// wait returns how long key must wait before its next attempt, 0 when it may go on. It drops the
// failures that left the window, and the key itself when none are left.
func (l *failLog[K]) wait(key K, now time.Time, window time.Duration) time.Duration {
	el, ok := l.entries[key]
	if !ok {
		return 0
	}
	e := el.Value.(*failEntry[K])
	e.prune(now, window)
	if len(e.fails) == 0 {
		l.drop(el)
		return 0
	}
	if len(e.fails) < l.limit {
		return 0
	}
	// fails holds at most limit times, so its oldest is the one whose expiry frees a slot.
	return max(e.fails[len(e.fails)-l.limit].Add(window).Sub(now), time.Nanosecond)
}

// add records a failure of key at now, dropping the least recently failed key when full.
func (l *failLog[K]) add(key K, now time.Time, window time.Duration) {
	el, ok := l.entries[key]
	if !ok {
		for len(l.entries) >= l.capacity {
			l.drop(l.order.Back())
		}
		el = l.order.PushFront(&failEntry[K]{key: key})
		l.entries[key] = el
	}
	e := el.Value.(*failEntry[K])
	e.prune(now, window)
	e.fails = append(e.fails, now)
	if n := len(e.fails); n > l.limit {
		e.fails = append(e.fails[:0], e.fails[n-l.limit:]...)
	}
	l.order.MoveToFront(el)
}

// remove takes back the failure of key recorded at at, if it is still there.
func (l *failLog[K]) remove(key K, at time.Time) {
	el, ok := l.entries[key]
	if !ok {
		return
	}
	e := el.Value.(*failEntry[K])
	for i := len(e.fails) - 1; i >= 0; i-- {
		if e.fails[i].Equal(at) {
			e.fails = append(e.fails[:i], e.fails[i+1:]...)
			break
		}
	}
	if len(e.fails) == 0 {
		l.drop(el)
	}
}

func (l *failLog[K]) clear(key K) {
	if el, ok := l.entries[key]; ok {
		l.drop(el)
	}
}

func (l *failLog[K]) drop(el *list.Element) {
	delete(l.entries, el.Value.(*failEntry[K]).key)
	l.order.Remove(el)
}

// prune drops the failures at or before now-window.
func (e *failEntry[K]) prune(now time.Time, window time.Duration) {
	i := 0
	for i < len(e.fails) && !e.fails[i].Add(window).After(now) {
		i++
	}
	if i > 0 {
		e.fails = append(e.fails[:0], e.fails[i:]...)
	}
}
