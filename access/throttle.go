package access

import (
	"container/list"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
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

// ErrThrottleUnavailable is the error of a sign-in attempt refused because the Throttle's
// ThrottleStore did not answer: the attempt is not checked (fail closed; see RedisThrottleStore).
var ErrThrottleUnavailable = errors.New("sign-in throttle unavailable")

// ThrottleLimits are the failures a Throttle allows per account and per source within Window.
type ThrottleLimits struct {
	PerAccount, PerSource int
	Window                time.Duration
}

// ThrottleStore keeps a Throttle's failure logs outside its process, so that every replica
// using the same store counts the same failures: RedisThrottleStore. A Throttle without one keeps
// them in memory. Both follow the rules of Throttle, and one test suite runs against each.
type ThrottleStore interface {
	// Begin checks and counts one attempt atomically: it refuses it with *Throttled when account
	// or source has l's limit of failures within l.Window, and otherwise records one failure for
	// each under id. An empty account, or an invalid source, is neither checked nor counted.
	Begin(ctx context.Context, l ThrottleLimits, account string, source netip.Prefix, id string) error
	// End takes attempt id back from source, and from account: all of the account's failures
	// when succeeded, only id's otherwise (abandoned).
	End(ctx context.Context, account string, source netip.Prefix, id string, succeeded bool) error
	// ClearAccount forgets an account's failures.
	ClearAccount(ctx context.Context, account string) error
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
// The state is in memory, per process, unless WithThrottleStore puts it in a ThrottleStore shared
// by the replicas. In memory, each replica counts the attempts it sees, so the effective limits
// are the per-replica limits times the replicas a client can reach. The memory state is bounded:
// at most capacity accounts and capacity sources are tracked, dropping the entry whose last
// failure is oldest. A client able to spray more distinct accounts than that within a
// window can push an account's failures out early; the per-source limit bounds how fast one
// source can do so. A Throttle is safe for concurrent use.
type Throttle struct {
	mu       sync.Mutex
	now      func() time.Time
	window   time.Duration
	accounts *failLog[string]
	sources  *failLog[netip.Prefix]
	store    ThrottleStore // nil: accounts and sources above, in this process
	ids      idSource      // attempt ids in the store
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

// WithThrottleStore keeps the failures in store instead of in memory (nil keeps them in memory).
// The clock, the capacity and Size then play no part: the store keeps its own time and bounds.
func WithThrottleStore(store ThrottleStore) ThrottleOption {
	return func(t *Throttle) { t.store = store }
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
	id      string // in the Throttle's store; "" when nothing was counted there
}

// Begin admits one sign-in attempt for account (a normalized email; "" counts nothing per
// account) from source (an invalid address counts nothing per source), or refuses it with
// *Throttled when either has used up its failures in the window. With a ThrottleStore that does
// not answer it refuses the attempt with ErrThrottleUnavailable.
func (t *Throttle) Begin(account string, source netip.Addr) (*Attempt, error) {
	src := SourcePrefix(source)
	if t.store != nil {
		return t.beginInStore(account, src)
	}
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
	if a.t.store != nil {
		a.t.endInStore(a, true)
		return
	}
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
	if a.t.store != nil {
		a.t.endInStore(a, false)
		return
	}
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
	if t.store != nil {
		ctx, cancel := context.WithTimeout(context.Background(), storeCallBound)
		defer cancel()
		_ = t.store.ClearAccount(ctx, account) // failing, the old failures stay until they age out
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.accounts.clear(account)
}

// storeCallBound bounds a Throttle's call to its store, which has its own, shorter timeout
// (DefaultRedisThrottleTimeout); Begin, Succeeded and Abandon have no context of the request.
const storeCallBound = 2 * time.Second

// beginInStore is Begin with a ThrottleStore.
func (t *Throttle) beginInStore(account string, src netip.Prefix) (*Attempt, error) {
	a := &Attempt{t: t, account: account, source: src}
	if account == "" && !src.IsValid() {
		return a, nil // nothing to count
	}
	a.id = t.ids.next()
	ctx, cancel := context.WithTimeout(context.Background(), storeCallBound)
	defer cancel()
	l := ThrottleLimits{PerAccount: t.accounts.limit, PerSource: t.sources.limit, Window: t.window}
	if err := t.store.Begin(ctx, l, account, src, a.id); err != nil {
		if _, ok := errors.AsType[*Throttled](err); ok {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrThrottleUnavailable, err)
	}
	return a, nil
}

// endInStore is Succeeded and Abandon with a ThrottleStore. When the store fails, the attempt
// stays counted as a failure until it ages out of the window: the safe side.
func (t *Throttle) endInStore(a *Attempt, succeeded bool) {
	if a.id == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeCallBound)
	defer cancel()
	_ = t.store.End(ctx, a.account, a.source, a.id, succeeded)
}

// idSource makes attempt ids unique across replicas: a random prefix per Throttle and a counter.
type idSource struct {
	once   sync.Once
	prefix string
	seq    atomic.Uint64
}

func (s *idSource) next() string {
	s.once.Do(func() { s.prefix = rand.Text()[:12] + "-" })
	return s.prefix + strconv.FormatUint(s.seq.Add(1), 36)
}

// Size returns how many accounts and sources are tracked now in memory (0 with a ThrottleStore).
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
