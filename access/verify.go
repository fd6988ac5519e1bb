package access

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
)

// Errors of key verification. Each is a 401 on the partner API with the code
// given; any other error from Verify means the key store failed (503), or
// the caller's context ended (match context.Canceled or
// context.DeadlineExceeded with errors.Is).
var (
	// ErrMalformedKey: the value is not a well-formed live key with a valid
	// checksum, so no store was asked. Code invalid_api_key.
	ErrMalformedKey = errors.New("malformed API key")
	// ErrUnknownKey: no key has this hash. Code invalid_api_key.
	ErrUnknownKey = errors.New("unknown API key")
	// ErrExpiredKey: the key's expiry (for example the end of a rotation's
	// grace period) has passed. Code invalid_api_key.
	ErrExpiredKey = errors.New("expired API key")
	// ErrRevokedKey: the key was revoked. Code revoked_api_key.
	ErrRevokedKey = errors.New("revoked API key")
	// ErrAccessDisabled: the operator has switched the consumer's access
	// off. Code access_disabled.
	ErrAccessDisabled = errors.New("API access disabled")
)

// Defaults of NewVerifier.
const (
	// DefaultTTL is how long a store answer about a known key is trusted.
	// It bounds how late a change the replica is not told about (no Purge)
	// takes effect.
	DefaultTTL = 30 * time.Second
	// DefaultMaxEntries bounds the number of cached answers.
	DefaultMaxEntries = 100_000

	// negativeTTL is how long an "unknown key" answer is trusted, capped at
	// the TTL. Short, because a key created a moment ago must start working.
	negativeTTL = 5 * time.Second
)

// KeyRecord is what the store knows about a key, enough to authorize a call.
type KeyRecord struct {
	KeyID, ConsumerID int
	ExpiresAt         time.Time      // zero: never
	RevokedAt         time.Time      // zero: not revoked; any other value: revoked
	AccessEnabled     bool           // the consumer's access switch
	Limit             metering.Limit // the consumer's negotiated rate and burst
	// Restriction narrows the key below its consumer's grants (a restricted key); nil: none.
	Restriction *policy.KeyRestriction
}

// KeyLookup finds a key by its hash (Key.Hash). It returns an error matching
// ErrUnknownKey when there is no such key; any other error means the store
// failed. It must not return the other sentinel errors of this package.
type KeyLookup func(ctx context.Context, hash [32]byte) (KeyRecord, error)

// Principal is an authenticated caller.
type Principal struct {
	KeyID, ConsumerID int
	Limit             metering.Limit // the consumer's rate and burst, cached with the key
	// Restriction is the key's own scopes and allowlist, checked after the consumer's
	// (policy.KeyRestriction.Check); nil for a key with all of its consumer's rights.
	Restriction *policy.KeyRestriction
}

// VerifierOption configures NewVerifier.
type VerifierOption func(*Verifier)

// WithTTL sets how long an answer about a known key is cached (default
// DefaultTTL). Answers about unknown keys are cached for 5 s or d, whichever
// is shorter. d <= 0 turns caching off; concurrent lookups of one key are
// still collapsed.
func WithTTL(d time.Duration) VerifierOption { return func(v *Verifier) { v.ttl = d } }

// WithMaxEntries bounds the number of cached answers (default
// DefaultMaxEntries). n <= 0 turns caching off. A quarter of the entries
// (n/4) is reserved for "unknown key" answers and the rest for known keys,
// so a flood of invented keys cannot push real keys out of the cache.
func WithMaxEntries(n int) VerifierOption { return func(v *Verifier) { v.maxEntries = n } }

// WithClock sets the clock used for expiry and cache lifetimes (default
// time.Now). For tests.
func WithClock(now func() time.Time) VerifierOption {
	return func(v *Verifier) {
		if now != nil {
			v.now = now
		}
	}
}

// Verifier authenticates API keys: format and checksum first (no store
// access for junk), then an in-process cache keyed by the key's hash, then
// the store. It is safe for concurrent use.
//
// Cache: answers about known keys (including revoked, expired and
// access-off ones) live for the TTL; "unknown key" answers for at most 5 s;
// store failures are never cached. Revocation, expiry and the access switch
// are read from the cached record on every call, and expiry is judged
// against the clock on every call, so a rotated key's grace period ends on
// time. Any other change in the store reaches this replica within the TTL,
// or at once when Purge is called.
//
// The cache is bounded: inserting into a full part (known or unknown keys)
// first evicts one entry of that part, chosen by Go's randomized map
// iteration order, which is cheap (O(1)) and close enough to random.
// Concurrent misses for one hash share a single store lookup.
type Verifier struct {
	lookup     KeyLookup
	now        func() time.Time
	ttl        time.Duration
	negTTL     time.Duration
	maxEntries int
	maxKnown   int
	maxUnknown int

	mu       sync.RWMutex
	known    map[[32]byte]knownEntry
	unknown  map[[32]byte]time.Time // hash -> trusted until
	inflight map[[32]byte]*lookupCall
	gen      uint64 // bumped by Purge: lookups begun before it are not cached
}

// knownEntry is a cached record of a key the store knows.
type knownEntry struct {
	rec   KeyRecord
	until time.Time // trusted until
}

// lookupCall is one store lookup, shared by every Verify of its hash that
// misses the cache while it runs. Its fields are written by the caller that
// runs it before done is closed and only read after.
type lookupCall struct {
	done  chan struct{}
	rec   KeyRecord
	known bool  // the store knows the key (rec is valid)
	err   error // a store failure; nil for a store answer
	// leaderGone: the lookup failed after the context of the caller that ran
	// it ended. That says nothing about the store, so the others try again.
	leaderGone bool
}

// NewVerifier returns a Verifier that asks lookup about keys it has no
// fresh cached answer for. lookup must not be nil.
func NewVerifier(lookup KeyLookup, opts ...VerifierOption) *Verifier {
	if lookup == nil {
		panic("access.NewVerifier: nil KeyLookup")
	}
	v := &Verifier{
		lookup:     lookup,
		now:        time.Now,
		ttl:        DefaultTTL,
		maxEntries: DefaultMaxEntries,
		inflight:   make(map[[32]byte]*lookupCall),
	}
	for _, opt := range opts {
		opt(v)
	}
	v.negTTL = min(negativeTTL, v.ttl)
	if v.ttl > 0 && v.maxEntries > 0 {
		v.maxUnknown = v.maxEntries / 4
		v.maxKnown = v.maxEntries - v.maxUnknown
	}
	v.known = make(map[[32]byte]knownEntry)
	v.unknown = make(map[[32]byte]time.Time)
	return v
}

// Verify authenticates rawKey, the X-API-Key value, and returns its caller.
//
// Errors: ErrMalformedKey (wrapped with the reason; the store is not asked),
// ErrUnknownKey, ErrExpiredKey, ErrRevokedKey, ErrAccessDisabled. Any other
// error is a store failure or the end of ctx, wrapped; it matches none of
// those sentinels and is never cached. A cache hit allocates nothing.
func (v *Verifier) Verify(ctx context.Context, rawKey string) (Principal, error) {
	now := v.now()
	// The cache holds answers about well-formed keys only (a miss checks the format before the
	// store is asked), so a hit on the exact key needs no second check of its format.
	var (
		h         [32]byte
		rec       KeyRecord
		known, ok bool
	)
	if len(rawKey) == keyLen {
		h = hashKey(rawKey)
		v.mu.RLock()
		rec, known, ok = v.cachedLocked(h, now)
		v.mu.RUnlock()
	}
	if !ok {
		if err := checkKey(rawKey); err != nil {
			return Principal{}, err
		}
		var err error
		if rec, known, err = v.load(ctx, h, now); err != nil { // checkKey passed: h is rawKey's hash
			return Principal{}, err
		}
	}
	if !known {
		return Principal{}, ErrUnknownKey
	}
	return authorize(rec, now)
}

// Purge drops every cached answer, so that a change the store reports
// (revocation, access switched off) takes effect at once on this replica.
// Lookups running during Purge still answer their callers but are not
// cached; later calls do not join them.
func (v *Verifier) Purge() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.known = make(map[[32]byte]knownEntry)
	v.unknown = make(map[[32]byte]time.Time)
	v.inflight = make(map[[32]byte]*lookupCall)
	v.gen++
}

// authorize turns a key's record into the caller, or says why not.
func authorize(rec KeyRecord, now time.Time) (Principal, error) {
	switch {
	case !rec.RevokedAt.IsZero():
		return Principal{}, ErrRevokedKey
	case !rec.ExpiresAt.IsZero() && !now.Before(rec.ExpiresAt):
		return Principal{}, ErrExpiredKey
	case !rec.AccessEnabled:
		return Principal{}, ErrAccessDisabled
	}
	return Principal{KeyID: rec.KeyID, ConsumerID: rec.ConsumerID, Limit: rec.Limit, Restriction: rec.Restriction}, nil
}

// cachedLocked returns the cache's answer about h at now; ok is false when
// there is no fresh one. v.mu must be held, for reading at least.
func (v *Verifier) cachedLocked(h [32]byte, now time.Time) (rec KeyRecord, known, ok bool) {
	if e, found := v.known[h]; found && now.Before(e.until) {
		return e.rec, true, true
	}
	if until, found := v.unknown[h]; found && now.Before(until) {
		return KeyRecord{}, false, true
	}
	return KeyRecord{}, false, false
}

// load gets the store's answer about h after a cache miss: it joins a
// lookup already running for h or runs one itself.
func (v *Verifier) load(ctx context.Context, h [32]byte, now time.Time) (KeyRecord, bool, error) {
	for {
		v.mu.Lock()
		if rec, known, ok := v.cachedLocked(h, now); ok {
			v.mu.Unlock()
			return rec, known, nil
		}
		if c := v.inflight[h]; c != nil {
			v.mu.Unlock()
			select {
			case <-c.done:
			case <-ctx.Done():
				return KeyRecord{}, false, fmt.Errorf("verify key: %w", context.Cause(ctx))
			}
			if c.leaderGone {
				if ctx.Err() == nil {
					continue // its caller went away; the store may be fine
				}
				return KeyRecord{}, false, fmt.Errorf("verify key: %w", context.Cause(ctx))
			}
			return c.rec, c.known, c.err
		}
		c := &lookupCall{done: make(chan struct{})}
		v.inflight[h] = c
		gen := v.gen
		v.mu.Unlock()

		v.run(ctx, h, c, gen)
		return c.rec, c.known, c.err
	}
}

// run does the store lookup of c, caches a store answer unless Purge was
// called meanwhile, and releases the callers waiting for c, also when
// lookup panics (they then get an error; the panic goes on up this caller).
func (v *Verifier) run(ctx context.Context, h [32]byte, c *lookupCall, gen uint64) {
	returned := false
	defer func() {
		if !returned {
			c.err = errors.New("verify key: key lookup panicked")
		}
		cache := returned && c.err == nil
		var now time.Time
		if cache {
			now = v.now()
		}
		v.mu.Lock()
		if v.inflight[h] == c {
			delete(v.inflight, h)
		}
		if cache && gen == v.gen {
			v.storeLocked(h, c, now)
		}
		v.mu.Unlock()
		close(c.done)
	}()

	rec, err := v.lookup(ctx, h)
	returned = true
	switch {
	case err == nil:
		c.rec, c.known = rec, true
	case errors.Is(err, ErrUnknownKey):
		// A store answer: cached as a negative entry.
	default:
		c.err = fmt.Errorf("verify key: look up key: %w", err)
		c.leaderGone = ctx.Err() != nil
	}
}

// storeLocked caches the store's answer in c about h, obtained at now,
// evicting an entry if that part of the cache is full. v.mu must be held.
func (v *Verifier) storeLocked(h [32]byte, c *lookupCall, now time.Time) {
	if c.known {
		delete(v.unknown, h)
		if v.maxKnown > 0 {
			if _, ok := v.known[h]; !ok && len(v.known) >= v.maxKnown {
				evictOne(v.known)
			}
			v.known[h] = knownEntry{rec: c.rec, until: now.Add(v.ttl)}
		}
		return
	}
	delete(v.known, h)
	if v.maxUnknown > 0 {
		if _, ok := v.unknown[h]; !ok && len(v.unknown) >= v.maxUnknown {
			evictOne(v.unknown)
		}
		v.unknown[h] = now.Add(v.negTTL)
	}
}

// evictOne deletes one entry of m, the first one Go's randomized map
// iteration yields.
func evictOne[K comparable, V any](m map[K]V) {
	for k := range m {
		delete(m, k)
		return
	}
}
