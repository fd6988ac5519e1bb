package access

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fakeStore is a KeyLookup over a map that counts its calls.
type fakeStore struct {
	calls atomic.Int64

	mu   sync.Mutex
	recs map[[32]byte]KeyRecord
	err  error // when set, every lookup fails with it
	// hook, when set, runs at the start of every lookup.
	hook func(ctx context.Context) error
}

func newFakeStore() *fakeStore { return &fakeStore{recs: make(map[[32]byte]KeyRecord)} }

func (s *fakeStore) lookup(ctx context.Context, h [32]byte) (KeyRecord, error) {
	s.calls.Add(1)
	s.mu.Lock()
	hook := s.hook
	s.mu.Unlock()
	if hook != nil {
		if err := hook(ctx); err != nil {
			return KeyRecord{}, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return KeyRecord{}, s.err
	}
	rec, ok := s.recs[h]
	if !ok {
		return KeyRecord{}, fmt.Errorf("fake store: %w", ErrUnknownKey) // wrapped on purpose
	}
	return rec, nil
}

// add stores rec under a fresh key and returns the key's text.
func (s *fakeStore) add(t testing.TB, rec KeyRecord) string {
	t.Helper()
	k := mustNewKey(t)
	s.set(k.String(), rec)
	return k.String()
}

func (s *fakeStore) set(key string, rec KeyRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recs[hashRef(key)] = rec
}

func (s *fakeStore) setErr(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

func (s *fakeStore) setHook(hook func(ctx context.Context) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook = hook
}

// sentinels returns the sentinel errors of the package.
func sentinels() []error {
	return []error{ErrMalformedKey, ErrUnknownKey, ErrExpiredKey, ErrRevokedKey, ErrAccessDisabled}
}

// isSentinel reports whether err matches any sentinel error of the package.
func isSentinel(err error) bool {
	for _, s := range sentinels() {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func TestVerifyOutcomes(t *testing.T) {
	clock := newFakeClock()
	now := clock.Now()
	store := newFakeStore()
	v := NewVerifier(store.lookup, WithClock(clock.Now))
	active := KeyRecord{KeyID: 7, ConsumerID: 3, AccessEnabled: true}
	withRec := func(f func(*KeyRecord)) string {
		rec := active
		f(&rec)
		return store.add(t, rec)
	}
	badSum := mustNewKey(t).String()
	badSum = mutate(badSum, 12, badSum[12]^1)

	tests := []struct {
		name      string
		key       string
		want      error // nil: Principal{7, 3}
		wantCalls int64 // store lookups this Verify makes
	}{
		{"active", withRec(func(*KeyRecord) {}), nil, 1},
		{"expires later", withRec(func(r *KeyRecord) { r.ExpiresAt = now.Add(time.Second) }), nil, 1},
		{"malformed", "pk_live_nope", ErrMalformedKey, 0},
		{"bad checksum", badSum, ErrMalformedKey, 0},
		{"surrounding space", " " + withRec(func(*KeyRecord) {}), ErrMalformedKey, 0},
		{"unknown", mustNewKey(t).String(), ErrUnknownKey, 1},
		{"expired now", withRec(func(r *KeyRecord) { r.ExpiresAt = now }), ErrExpiredKey, 1},
		{"expired before", withRec(func(r *KeyRecord) { r.ExpiresAt = now.Add(-time.Hour) }), ErrExpiredKey, 1},
		{"revoked", withRec(func(r *KeyRecord) { r.RevokedAt = now.Add(-time.Minute) }), ErrRevokedKey, 1},
		{"revoked and expired", withRec(func(r *KeyRecord) { r.RevokedAt, r.ExpiresAt = now, now }), ErrRevokedKey, 1},
		{"access off", withRec(func(r *KeyRecord) { r.AccessEnabled = false }), ErrAccessDisabled, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := store.calls.Load()
			p, err := v.Verify(t.Context(), tt.key)
			if calls := store.calls.Load() - before; calls != tt.wantCalls {
				t.Errorf("store lookups = %d, want %d", calls, tt.wantCalls)
			}
			if tt.want == nil {
				if err != nil || p != (Principal{KeyID: 7, ConsumerID: 3}) {
					t.Fatalf("Verify = %+v, %v; want the principal", p, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify error = %v, want %v", err, tt.want)
			}
			if p != (Principal{}) {
				t.Errorf("Verify returned %+v with an error", p)
			}
			for _, s := range sentinels() {
				if s != tt.want && errors.Is(err, s) {
					t.Errorf("error %v also matches %v", err, s)
				}
			}
			// The same answer again, from the cache.
			before = store.calls.Load()
			if _, err2 := v.Verify(t.Context(), tt.key); !errors.Is(err2, tt.want) {
				t.Errorf("second Verify error = %v, want %v", err2, tt.want)
			}
			if store.calls.Load() != before {
				t.Error("second Verify asked the store")
			}
		})
	}
}

func TestVerifyCachesKnownKeys(t *testing.T) {
	clock := newFakeClock()
	store := newFakeStore()
	v := NewVerifier(store.lookup, WithClock(clock.Now), WithTTL(time.Minute))
	key := store.add(t, KeyRecord{KeyID: 1, ConsumerID: 2, AccessEnabled: true})

	for range 5 {
		if _, err := v.Verify(t.Context(), key); err != nil {
			t.Fatal(err)
		}
	}
	if n := store.calls.Load(); n != 1 {
		t.Fatalf("5 Verify calls made %d lookups, want 1", n)
	}
	clock.Add(time.Minute - time.Nanosecond)
	_, _ = v.Verify(t.Context(), key)
	if n := store.calls.Load(); n != 1 {
		t.Fatalf("lookups within the TTL = %d, want 1", n)
	}
	clock.Add(time.Nanosecond)
	_, _ = v.Verify(t.Context(), key)
	if n := store.calls.Load(); n != 2 {
		t.Fatalf("lookups after the TTL = %d, want 2", n)
	}
}

// TestVerifyCachedKeyVariantsAreMalformed: a hit skips the format check, so a key's variants must
// miss its cache entry: one character more, one less, one changed, its prefix alone.
func TestVerifyCachedKeyVariantsAreMalformed(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup, WithTTL(time.Minute))
	key := store.add(t, KeyRecord{KeyID: 1, ConsumerID: 2, AccessEnabled: true})
	if _, err := v.Verify(t.Context(), key); err != nil { // now cached
		t.Fatal(err)
	}
	changed := []byte(key)
	changed[len(changed)-1] ^= 1 // a digit or letter still, but not the checksum's
	for _, variant := range []string{key + "0", key + " ", key[:len(key)-1], string(changed), KeyPrefix} {
		if _, err := v.Verify(t.Context(), variant); !errors.Is(err, ErrMalformedKey) {
			t.Errorf("Verify(%q) after the key was cached = %v, want ErrMalformedKey", variant, err)
		}
	}
	if n := store.calls.Load(); n != 1 {
		t.Fatalf("the store was asked %d times, want once (malformed keys never reach it)", n)
	}
}

func TestVerifyCachesUnknownKeysBriefly(t *testing.T) {
	for _, tt := range []struct {
		name   string
		ttl    time.Duration
		negTTL time.Duration
	}{
		{"default TTL", DefaultTTL, negativeTTL},
		{"TTL below 5s", 2 * time.Second, 2 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			store := newFakeStore()
			v := NewVerifier(store.lookup, WithClock(clock.Now), WithTTL(tt.ttl))
			key := mustNewKey(t).String()
			for range 10 {
				if _, err := v.Verify(t.Context(), key); !errors.Is(err, ErrUnknownKey) {
					t.Fatalf("Verify = %v, want ErrUnknownKey", err)
				}
			}
			if n := store.calls.Load(); n != 1 {
				t.Fatalf("lookups = %d, want 1", n)
			}
			// The key now exists; the negative answer holds until it lapses.
			store.set(key, KeyRecord{KeyID: 1, AccessEnabled: true})
			clock.Add(tt.negTTL - time.Nanosecond)
			if _, err := v.Verify(t.Context(), key); !errors.Is(err, ErrUnknownKey) {
				t.Fatalf("Verify within the negative TTL = %v, want ErrUnknownKey", err)
			}
			clock.Add(time.Nanosecond)
			if _, err := v.Verify(t.Context(), key); err != nil {
				t.Fatalf("Verify after the negative TTL = %v", err)
			}
			if n := store.calls.Load(); n != 2 {
				t.Fatalf("lookups = %d, want 2", n)
			}
		})
	}
}

func TestVerifyDoesNotCacheStoreFailures(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	key := store.add(t, KeyRecord{KeyID: 1, AccessEnabled: true})
	storeErr := errors.New("connection refused")
	store.setErr(storeErr)

	for i := range 3 {
		_, err := v.Verify(t.Context(), key)
		if err == nil || isSentinel(err) || !errors.Is(err, storeErr) {
			t.Fatalf("Verify = %v, want a wrapped store failure that is no sentinel", err)
		}
		if n := store.calls.Load(); n != int64(i+1) {
			t.Fatalf("lookups = %d, want %d: the failure was cached", n, i+1)
		}
	}
	store.setErr(nil)
	if _, err := v.Verify(t.Context(), key); err != nil {
		t.Fatalf("Verify after the store recovered = %v", err)
	}
	_, _ = v.Verify(t.Context(), key)
	if n := store.calls.Load(); n != 4 {
		t.Fatalf("lookups = %d, want 4", n)
	}
}

func TestVerifyContextErrorsAreNotSentinels(t *testing.T) {
	store := newFakeStore()
	store.setHook(func(ctx context.Context) error { return ctx.Err() })
	v := NewVerifier(store.lookup)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := v.Verify(ctx, store.add(t, KeyRecord{AccessEnabled: true}))
	if !errors.Is(err, context.Canceled) || isSentinel(err) {
		t.Fatalf("Verify = %v, want context.Canceled", err)
	}
}

func TestVerifyExpiryOfCachedKey(t *testing.T) {
	clock := newFakeClock()
	store := newFakeStore()
	v := NewVerifier(store.lookup, WithClock(clock.Now)) // TTL 30s
	// A rotated key with a 10 s grace period.
	key := store.add(t, KeyRecord{KeyID: 1, AccessEnabled: true, ExpiresAt: clock.Now().Add(10 * time.Second)})

	if _, err := v.Verify(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	clock.Add(10*time.Second - time.Nanosecond)
	if _, err := v.Verify(t.Context(), key); err != nil {
		t.Fatalf("Verify just before expiry = %v", err)
	}
	clock.Add(time.Nanosecond)
	if _, err := v.Verify(t.Context(), key); !errors.Is(err, ErrExpiredKey) {
		t.Fatalf("Verify at expiry = %v, want ErrExpiredKey", err)
	}
	if n := store.calls.Load(); n != 1 {
		t.Fatalf("lookups = %d, want 1 (expiry judged on the cached record)", n)
	}
}

func TestVerifyPurge(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	rec := KeyRecord{KeyID: 1, AccessEnabled: true}
	key := store.add(t, rec)
	unknown := mustNewKey(t).String()

	if _, err := v.Verify(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	_, _ = v.Verify(t.Context(), unknown)
	// Revoked in the store: this replica keeps the cached answer until told.
	rec.RevokedAt = time.Now()
	store.set(key, rec)
	if _, err := v.Verify(t.Context(), key); err != nil {
		t.Fatalf("Verify before Purge = %v, want the cached answer", err)
	}
	v.Purge()
	if _, err := v.Verify(t.Context(), key); !errors.Is(err, ErrRevokedKey) {
		t.Fatalf("Verify after Purge = %v, want ErrRevokedKey", err)
	}
	_, _ = v.Verify(t.Context(), unknown)
	if n := store.calls.Load(); n != 4 {
		t.Fatalf("lookups = %d, want 4 (Purge drops known and unknown answers)", n)
	}
}

func TestPurgeDuringLookupIsNotUndone(t *testing.T) {
	store := newFakeStore()
	key := store.add(t, KeyRecord{KeyID: 1, AccessEnabled: true})
	entered, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	first.Store(true)
	// The first lookup reads the record, then stalls before answering.
	v := NewVerifier(func(ctx context.Context, h [32]byte) (KeyRecord, error) {
		rec, err := store.lookup(ctx, h)
		if first.Swap(false) {
			close(entered)
			<-release
		}
		return rec, err
	})
	done := make(chan error)
	go func() {
		_, err := v.Verify(context.Background(), key)
		done <- err
	}()
	<-entered
	// The store changes and reports it while that lookup is running.
	store.set(key, KeyRecord{KeyID: 1, AccessEnabled: false})
	v.Purge()
	// Calls after Purge do not join the stale lookup.
	after := make(chan error)
	go func() {
		_, err := v.Verify(context.Background(), key)
		after <- err
	}()
	select {
	case err := <-after:
		if !errors.Is(err, ErrAccessDisabled) {
			t.Errorf("Verify after Purge, during the stale lookup = %v, want ErrAccessDisabled", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("Verify after Purge waited for the lookup that began before it")
		close(release)
		<-after
		release = nil
	}
	if release != nil {
		close(release)
	}
	if err := <-done; err != nil {
		t.Fatalf("Verify during the change = %v, want the answer read before it", err)
	}

	if _, err := v.Verify(t.Context(), key); !errors.Is(err, ErrAccessDisabled) {
		t.Fatalf("Verify after Purge = %v, want ErrAccessDisabled: a stale answer was cached", err)
	}
}

func TestVerifyCollapsesConcurrentMisses(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	key := store.add(t, KeyRecord{KeyID: 4, ConsumerID: 5, AccessEnabled: true})
	release := make(chan struct{})
	store.setHook(func(context.Context) error {
		<-release
		return nil
	})

	const n = 50
	var started, wg sync.WaitGroup
	started.Add(n)
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			started.Done()
			p, err := v.Verify(context.Background(), key)
			if err == nil && p != (Principal{KeyID: 4, ConsumerID: 5}) {
				err = fmt.Errorf("principal %+v", p)
			}
			errs <- err
		})
	}
	started.Wait()
	time.Sleep(20 * time.Millisecond) // let them pile up behind the first lookup
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Late arrivals find the cached answer, so this holds whatever the timing.
	if got := store.calls.Load(); got != 1 {
		t.Fatalf("%d concurrent misses made %d lookups, want 1", n, got)
	}
}

func TestVerifyWaiterLeavesWhenItsContextEnds(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	key := store.add(t, KeyRecord{KeyID: 1, AccessEnabled: true})
	entered, release := make(chan struct{}), make(chan struct{})
	store.setHook(func(context.Context) error {
		close(entered)
		<-release
		return nil
	})
	defer close(release)
	go func() { _, _ = v.Verify(context.Background(), key) }()
	<-entered

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
	defer cancel()
	_, err := v.Verify(ctx, key)
	if !errors.Is(err, context.DeadlineExceeded) || isSentinel(err) {
		t.Fatalf("Verify = %v, want context.DeadlineExceeded", err)
	}
}

func TestVerifyWaiterRetriesWhenLeaderGivesUp(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	key := store.add(t, KeyRecord{KeyID: 1, AccessEnabled: true})
	entered := make(chan struct{})
	var first atomic.Bool
	first.Store(true)
	store.setHook(func(ctx context.Context) error {
		if first.Swap(false) {
			close(entered)
			<-ctx.Done() // a slow store; the first caller gives up
			return ctx.Err()
		}
		return nil
	})

	leaderCtx, cancelLeader := context.WithCancel(t.Context())
	leaderErr := make(chan error)
	go func() {
		_, err := v.Verify(leaderCtx, key)
		leaderErr <- err
	}()
	<-entered
	waiterErr := make(chan error)
	go func() {
		_, err := v.Verify(t.Context(), key)
		waiterErr <- err
	}()
	time.Sleep(10 * time.Millisecond) // let the waiter join the lookup
	cancelLeader()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader's Verify = %v, want context.Canceled", err)
	}
	if err := <-waiterErr; err != nil {
		t.Fatalf("waiter's Verify = %v, want success: it inherited the leader's cancellation", err)
	}
}

func TestVerifyLookupPanic(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	key := store.add(t, KeyRecord{KeyID: 1, AccessEnabled: true})
	entered, release := make(chan struct{}), make(chan struct{})
	store.setHook(func(context.Context) error {
		close(entered)
		<-release
		panic("store bug")
	})

	panicked := make(chan any)
	go func() {
		defer func() { panicked <- recover() }()
		_, _ = v.Verify(context.Background(), key)
	}()
	<-entered
	store.setHook(nil)
	waiterErr := make(chan error)
	go func() {
		_, err := v.Verify(context.Background(), key)
		waiterErr <- err
	}()
	time.Sleep(10 * time.Millisecond)
	close(release)
	if r := <-panicked; r != "store bug" {
		t.Fatalf("recovered %v, want the lookup's panic", r)
	}
	// The waiter is released: with an error if it joined the failed lookup,
	// with an answer if it came after.
	if err := <-waiterErr; err != nil && isSentinel(err) {
		t.Fatalf("waiter's Verify = %v", err)
	}
	if _, err := v.Verify(t.Context(), key); err != nil {
		t.Fatalf("Verify after the panic = %v", err)
	}
}

func TestVerifyCacheIsBounded(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup, WithMaxEntries(8)) // 6 known, 2 unknown
	var keys []string
	for i := range 20 {
		keys = append(keys, store.add(t, KeyRecord{KeyID: i, AccessEnabled: true}))
	}
	for _, k := range keys {
		if _, err := v.Verify(t.Context(), k); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(v.known); n != 6 {
		t.Fatalf("known entries = %d, want 6", n)
	}
	cached := make(map[[32]byte]knownEntry)
	for h, e := range v.known {
		cached[h] = e
	}

	// A flood of invented, checksum-valid keys.
	for range 100 {
		_, _ = v.Verify(t.Context(), mustNewKey(t).String())
	}
	if n := len(v.unknown); n != 2 {
		t.Fatalf("unknown entries = %d, want 2", n)
	}
	if len(v.known) != 6 {
		t.Fatalf("the flood changed the known entries")
	}
	for h := range cached {
		if _, ok := v.known[h]; !ok {
			t.Fatal("the flood evicted a known key")
		}
	}
	// Every key still verifies, cached or not.
	for _, k := range keys {
		if _, err := v.Verify(t.Context(), k); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(v.known) + len(v.unknown); n > 8 {
		t.Fatalf("cache holds %d entries, bound is 8", n)
	}
}

func TestVerifyCacheOff(t *testing.T) {
	for name, opt := range map[string]VerifierOption{"TTL 0": WithTTL(0), "max 0": WithMaxEntries(0)} {
		t.Run(name, func(t *testing.T) {
			store := newFakeStore()
			v := NewVerifier(store.lookup, opt)
			key := store.add(t, KeyRecord{KeyID: 1, AccessEnabled: true})
			unknown := mustNewKey(t).String()
			for range 3 {
				if _, err := v.Verify(t.Context(), key); err != nil {
					t.Fatal(err)
				}
				_, _ = v.Verify(t.Context(), unknown)
			}
			if n := store.calls.Load(); n != 6 {
				t.Fatalf("lookups = %d, want 6", n)
			}
		})
	}
}

func TestVerifyWarmDoesNotAllocate(t *testing.T) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	key := store.add(t, KeyRecord{KeyID: 1, AccessEnabled: true})
	unknown := mustNewKey(t).String()
	revoked := store.add(t, KeyRecord{KeyID: 2, RevokedAt: time.Now()})
	ctx := t.Context()
	for name, k := range map[string]string{"known": key, "unknown": unknown, "revoked": revoked, "malformed": key[1:]} {
		_, _ = v.Verify(ctx, k)
		if n := testing.AllocsPerRun(100, func() { _, _ = v.Verify(ctx, k) }); n != 0 {
			t.Errorf("warm Verify of a %s key allocates %v times", name, n)
		}
	}
}

func BenchmarkVerifyWarm(b *testing.B) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	key := store.add(b, KeyRecord{KeyID: 1, AccessEnabled: true})
	ctx := context.Background()
	if _, err := v.Verify(ctx, key); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(ctx, key); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyWarmParallel(b *testing.B) {
	store := newFakeStore()
	v := NewVerifier(store.lookup)
	keys := make([]string, 64)
	for i := range keys {
		keys[i] = store.add(b, KeyRecord{KeyID: i, AccessEnabled: true})
		if _, err := v.Verify(context.Background(), keys[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := v.Verify(context.Background(), keys[i%len(keys)]); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
}

func BenchmarkVerifyMalformed(b *testing.B) {
	v := NewVerifier(newFakeStore().lookup)
	key := mustNewKey(b).String()
	key = mutate(key, 10, key[10]^1)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(ctx, key); err == nil {
			b.Fatal("accepted")
		}
	}
}
