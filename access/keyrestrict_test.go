package access_test

import (
	"context"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/policy"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// restrictOps is the operation table the restricted-key tests decide with.
var restrictOps = []policy.Operation{{ID: "getTrending", Scope: "market:read"}, {ID: "getQuote", Scope: "quote:read"}}

// decideKey is the API's stage 4 for a verified key: the consumer's policy, then the key's own
// restriction.
func decideKey(t *testing.T, e *svcEnv, p access.Principal, op string, src netip.Addr) policy.Decision {
	t.Helper()
	enf, err := policy.New(restrictOps)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := e.svc.PolicySnapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := enf.Load(snap); err != nil {
		t.Fatal(err)
	}
	d := enf.Decide(p.ConsumerID, op, src)
	if d == policy.Allow {
		scope := ""
		for _, o := range restrictOps {
			if o.ID == op {
				scope = o.Scope
			}
		}
		d = p.Restriction.Check(scope, src)
	}
	return d
}

func TestRestrictedKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true), Scopes: &[]string{"market:read", "quote:read"}})
		verifier := access.NewVerifier(e.svc.LookupKey, access.WithTTL(0), access.WithClock(e.clk.Now))
		until := e.clk.Now().Add(30 * 24 * time.Hour)

		var k access.IssuedKey
		entry := e.oneAudit("key.create", func() (err error) {
			k, err = e.svc.CreateKeyWith(t.Context(), e.op, c.ID, "dashboard", access.KeyOptions{
				Scopes: []string{"market:read", "market:read"}, Sources: []string{" 10.1.2.3/8", "2001:db8::1"}, ExpiresAt: &until,
			})
			return err
		})
		if !slices.Equal(k.Scopes, []string{"market:read"}) || !slices.Equal(k.SourceCIDRs, []string{"10.0.0.0/8", "2001:db8::1/128"}) ||
			k.ExpiresAt == nil || !k.ExpiresAt.Equal(until) || k.Status != access.KeyExpiring || !k.Restricted() {
			t.Fatalf("CreateKeyWith = %+v", k.KeyInfo)
		}
		if got := entry.After["scopes"]; got == nil {
			t.Fatalf("key.create audit entry lacks the key's scopes: %v", entry.After)
		}
		keys, err := e.svc.ListKeys(t.Context(), e.op, c.ID)
		if err != nil || len(keys) != 1 || !slices.Equal(keys[0].Scopes, k.Scopes) || !slices.Equal(keys[0].SourceCIDRs, k.SourceCIDRs) {
			t.Fatalf("ListKeys = %+v, %v", keys, err)
		}

		p, err := verifier.Verify(t.Context(), k.Key)
		if err != nil {
			t.Fatalf("Verify(restricted key) = %v", err)
		}
		inside, outside := netip.MustParseAddr("10.9.9.9"), netip.MustParseAddr("192.0.2.1")
		for _, tc := range []struct {
			op   string
			src  netip.Addr
			want policy.Decision
		}{
			{"getTrending", inside, policy.Allow},
			{"getTrending", netip.MustParseAddr("::ffff:10.9.9.9"), policy.Allow},
			{"getTrending", netip.MustParseAddr("2001:db8::1"), policy.Allow},
			{"getQuote", inside, policy.KeyScopeRequired}, // the consumer holds quote:read, the key does not
			{"getTrending", outside, policy.KeySourceNotAllowed},
		} {
			if d := decideKey(t, e, p, tc.op, tc.src); d != tc.want {
				t.Fatalf("restricted key: %s from %s = %v, want %v", tc.op, tc.src, d, tc.want)
			}
		}
		if d := decideKey(t, e, p, "getQuote", inside); d.String() != "scope_required" || !d.KeyRestricted() {
			t.Fatalf("key scope denial: code %q restricted %v", d, d.KeyRestricted())
		}

		// An unrestricted key of the same consumer has all of its rights.
		full := e.key(c.ID, "full")
		pf, err := verifier.Verify(t.Context(), full.Key)
		if err != nil || pf.Restriction != nil || full.Restricted() || full.Scopes != nil {
			t.Fatalf("unrestricted key: principal %+v, %v; info %+v", pf, err, full.KeyInfo)
		}
		if d := decideKey(t, e, pf, "getQuote", outside); d != policy.Allow {
			t.Fatalf("unrestricted key getQuote = %v", d)
		}

		// The consumer's allowlist applies as well: the narrower wins.
		if _, err := e.svc.UpdateConsumer(t.Context(), e.op, c.ID, access.ConsumerChange{
			Allow: &[]netip.Prefix{netip.MustParsePrefix("10.9.0.0/16")}}, ""); err != nil {
			t.Fatal(err)
		}
		if d := decideKey(t, e, p, "getTrending", netip.MustParseAddr("10.1.1.1")); d != policy.SourceNotAllowed {
			t.Fatalf("inside the key's list, outside the consumer's = %v, want SourceNotAllowed", d)
		}
		if d := decideKey(t, e, p, "getTrending", inside); d != policy.Allow {
			t.Fatalf("inside both lists = %v", d)
		}

		// The consumer loses market:read: so does the key (intersection at check time, not a copy).
		if _, err := e.svc.UpdateConsumer(t.Context(), e.op, c.ID, access.ConsumerChange{Scopes: &[]string{"quote:read"}}, ""); err != nil {
			t.Fatal(err)
		}
		if d := decideKey(t, e, p, "getTrending", inside); d != policy.ScopeRequired {
			t.Fatalf("after the consumer lost market:read, the key's call = %v, want ScopeRequired", d)
		}

		// The key's own expiry ends it.
		e.clk.Add(31 * 24 * time.Hour)
		if _, err := verifier.Verify(t.Context(), k.Key); err == nil {
			t.Fatal("Verify(restricted key after its expiry) succeeded")
		}
	})
}

func TestRestrictedKeyRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{Scopes: &[]string{"market:read"}})
		past := e.clk.Now().Add(-time.Minute)
		now := e.clk.Now()
		for _, tc := range []struct {
			name    string
			o       access.KeyOptions
			field   string
			message string
		}{
			{"scope the consumer lacks", access.KeyOptions{Scopes: []string{"market:read", "tx:build"}}, access.FieldKeyScopes, `the consumer lacks "tx:build"`},
			{"unknown scope", access.KeyOptions{Scopes: []string{"admin"}}, access.FieldKeyScopes, `lacks "admin"`},
			{"malformed CIDR", access.KeyOptions{Sources: []string{"10.0.0.0/8", "10.0.0.300/24"}}, access.FieldKeySources, `"10.0.0.300/24" is not one`},
			{"zoned address", access.KeyOptions{Sources: []string{"fe80::1%eth0"}}, access.FieldKeySources, "fe80::1%eth0"},
			{"expiry in the past", access.KeyOptions{ExpiresAt: &past}, access.FieldKeyExpiresAt, "not in the future"},
			{"expiry now", access.KeyOptions{ExpiresAt: &now}, access.FieldKeyExpiresAt, "not in the future"},
		} {
			before := countKeys(t, e.svc, c.ID)
			e.noChange("CreateKeyWith "+tc.name, access.ErrInvalid, func() error {
				_, err := e.svc.CreateKeyWith(t.Context(), e.op, c.ID, "k", tc.o)
				fe := access.FieldErrors(err)
				if len(fe) != 1 || fe[0].Field != tc.field || !strings.Contains(fe[0].Problem, tc.message) {
					t.Fatalf("%s: field errors %v (err %v), want %s containing %q", tc.name, fe, err, tc.field, tc.message)
				}
				return err
			})
			if n := countKeys(t, e.svc, c.ID); n != before {
				t.Fatalf("%s: a refused key was created (%d keys, had %d)", tc.name, n, before)
			}
		}
		// Every problem is reported at once.
		_, err := e.svc.CreateKeyWith(t.Context(), e.op, c.ID, "k", access.KeyOptions{
			Scopes: []string{"tx:build"}, Sources: []string{"nope"}, ExpiresAt: &past})
		if fe := access.FieldErrors(err); len(fe) != 3 {
			t.Fatalf("three bad options: %d field errors (%v)", len(fe), err)
		}
		// Another consumer's user cannot create a key for this one.
		other := e.consumer("other", access.ConsumerChange{Scopes: &[]string{"market:read"}})
		e.noChange("CreateKeyWith for another consumer", access.ErrNotFound, func() error {
			_, err := e.svc.CreateKeyWith(t.Context(), access.Actor{Name: "user:x@other.example", ConsumerID: other.ID}, c.ID, "k",
				access.KeyOptions{Scopes: []string{"market:read"}})
			return err
		})
	})
}

func TestRotateRestrictedKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true), Scopes: &[]string{"market:read", "quote:read"}})
		until := e.clk.Now().Add(10 * 24 * time.Hour)
		k, err := e.svc.CreateKeyWith(t.Context(), e.op, c.ID, "ci", access.KeyOptions{
			Scopes: []string{"quote:read"}, Sources: []string{"203.0.113.0/24"}, ExpiresAt: &until})
		if err != nil {
			t.Fatal(err)
		}
		// A key with an expiry of its own is in no grace until it is rotated.
		e.noChange("EndGrace of a never-rotated expiring key", access.ErrInvalid, func() error {
			_, err := e.svc.EndGrace(t.Context(), e.op, k.ID)
			return err
		})
		next, old, err := e.svc.RotateKey(t.Context(), e.op, k.ID, time.Hour)
		if err != nil {
			t.Fatalf("RotateKey(restricted key with expiry) = %v", err)
		}
		if !slices.Equal(next.Scopes, k.Scopes) || !slices.Equal(next.SourceCIDRs, k.SourceCIDRs) || next.ExpiresAt == nil || !next.ExpiresAt.Equal(until) {
			t.Fatalf("successor %+v does not carry the restriction and expiry of %+v", next.KeyInfo, k.KeyInfo)
		}
		if old.ExpiresAt == nil || !old.ExpiresAt.Equal(e.clk.Now().Add(time.Hour)) || old.ReplacedByID == nil || *old.ReplacedByID != next.ID {
			t.Fatalf("old key after rotation %+v", old)
		}
		keys, err := e.svc.ListKeys(t.Context(), e.op, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, kk := range keys {
			switch kk.ID {
			case k.ID:
				if kk.ReplacedByID == nil || *kk.ReplacedByID != next.ID {
					t.Fatalf("ListKeys: old key's ReplacedByID = %v, want %d", kk.ReplacedByID, next.ID)
				}
			case next.ID:
				if kk.ReplacedByID != nil {
					t.Fatalf("ListKeys: successor replaced by %d", *kk.ReplacedByID)
				}
			}
		}
		if _, err := e.svc.EndGrace(t.Context(), e.op, k.ID); err != nil {
			t.Fatalf("EndGrace(rotated restricted key) = %v", err)
		}
		// A grace longer than the key's own expiry ends with the expiry.
		short := e.clk.Now().Add(30 * time.Minute)
		s, err := e.svc.CreateKeyWith(t.Context(), e.op, c.ID, "short", access.KeyOptions{ExpiresAt: &short})
		if err != nil {
			t.Fatal(err)
		}
		_, sOld, err := e.svc.RotateKey(t.Context(), e.op, s.ID, 24*time.Hour)
		if err != nil || sOld.ExpiresAt == nil || !sOld.ExpiresAt.Equal(short) {
			t.Fatalf("RotateKey(key expiring before the grace) old = %+v, %v; want it to end at %v", sOld, err, short)
		}
	})
}

func TestAccessChangedAt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		created := e.clk.Now()
		c := e.consumer("acme", access.ConsumerChange{})
		if c.AccessChangedAt == nil || !c.AccessChangedAt.Equal(created) {
			t.Fatalf("new consumer AccessChangedAt = %v, want %v", c.AccessChangedAt, created)
		}
		e.clk.Add(time.Hour)
		on, err := e.svc.SetAccess(t.Context(), e.op, c.ID, true, "signed")
		if err != nil || on.AccessChangedAt == nil || !on.AccessChangedAt.Equal(e.clk.Now()) {
			t.Fatalf("SetAccess(on) AccessChangedAt = %v, %v; want %v", on.AccessChangedAt, err, e.clk.Now())
		}
		switched := e.clk.Now()
		e.clk.Add(time.Hour)
		// Neither another change nor setting access to what it is moves the time.
		if got, err := e.svc.UpdateConsumer(t.Context(), e.op, c.ID, access.ConsumerChange{Burst: ptr(5), AccessEnabled: ptr(true)}, ""); err != nil ||
			!got.AccessChangedAt.Equal(switched) {
			t.Fatalf("update keeping access on: AccessChangedAt %v, %v; want %v", got.AccessChangedAt, err, switched)
		}
		e.clk.Add(time.Hour)
		off, err := e.svc.SetAccess(t.Context(), e.op, c.ID, false, "overdue")
		if err != nil || !off.AccessChangedAt.Equal(e.clk.Now()) {
			t.Fatalf("SetAccess(off) AccessChangedAt = %v, %v; want %v", off.AccessChangedAt, err, e.clk.Now())
		}
		read, err := e.svc.Consumer(t.Context(), access.Actor{Name: "user:x@acme.example", ConsumerID: c.ID}, c.ID)
		if err != nil || read.AccessEnabled || !read.AccessChangedAt.Equal(e.clk.Now()) {
			t.Fatalf("Consumer() = %+v, %v", read, err)
		}
	})
}

// TestRestrictedKeyReachesReplicas: a replica that is told nothing (its own Sync polling the store)
// learns of a restricted key created on another replica, and of its consumer losing a scope, the
// way it learns of any consumer change.
func TestRestrictedKeyReachesReplicas(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true), Scopes: &[]string{"market:read", "quote:read"}})

		// Replica B: its own Service, Verifier (default TTL) and policy, kept in step by Run only.
		svcB := access.NewService(st.Client, access.WithOperations(testOperations))
		enfB, err := policy.New(restrictOps)
		if err != nil {
			t.Fatal(err)
		}
		verB := access.NewVerifier(svcB.LookupKey)
		syncB := access.NewSync(svcB, enfB, verB, discardLog(t))
		if err := syncB.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); syncB.Run(ctx, 50*time.Millisecond) }()
		defer func() { cancel(); <-done }()

		// Replica A creates the key; B verifies it with its restriction (from the store, in its cache).
		k, err := e.svc.CreateKeyWith(t.Context(), e.op, c.ID, "ci", access.KeyOptions{Scopes: []string{"market:read"}})
		if err != nil {
			t.Fatal(err)
		}
		src := netip.MustParseAddr("192.0.2.1")
		decideB := func(p access.Principal, op, scope string) policy.Decision {
			d := enfB.Decide(p.ConsumerID, op, src)
			if d == policy.Allow {
				d = p.Restriction.Check(scope, src)
			}
			return d
		}
		var p access.Principal
		waitFor(t, "replica B verifies the new restricted key", func() bool {
			p, err = verB.Verify(t.Context(), k.Key)
			return err == nil
		})
		if d := decideB(p, "getQuote", "quote:read"); d != policy.KeyScopeRequired {
			t.Fatalf("replica B: restricted key's getQuote = %v, want KeyScopeRequired", d)
		}
		if d := decideB(p, "getTrending", "market:read"); d != policy.Allow {
			t.Fatalf("replica B: restricted key's getTrending = %v, want Allow", d)
		}

		// Replica A takes market:read from the consumer: B refuses the key's only scope.
		if _, err := e.svc.UpdateConsumer(t.Context(), e.op, c.ID, access.ConsumerChange{Scopes: &[]string{"quote:read"}}, ""); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "replica B refuses the scope the consumer lost", func() bool {
			p, err := verB.Verify(t.Context(), k.Key)
			return err == nil && decideB(p, "getTrending", "market:read") == policy.ScopeRequired
		})
	})
}
