package access_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// testOperations are the operation ids the Service under test may switch off.
var testOperations = []string{"getTrending", "getPoolChart"}

// svcClock is a manual clock, safe for concurrent use. It starts on a whole second so that every
// backend stores its times exactly (PostgreSQL keeps microseconds).
type svcClock struct {
	mu sync.Mutex
	t  time.Time
}

func newSvcClock() *svcClock { return &svcClock{t: time.Date(2030, 3, 4, 5, 6, 7, 0, time.UTC)} }

func (c *svcClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *svcClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// svcEnv is one subtest's store, Service and clock.
type svcEnv struct {
	t   *testing.T
	st  *store.Store
	svc *access.Service
	clk *svcClock
	op  access.Actor
}

func newSvcEnv(t *testing.T, st *store.Store) *svcEnv {
	clk := newSvcClock()
	return &svcEnv{t: t, st: st, clk: clk, op: access.Operator("operator:alice@example.com"),
		svc: access.NewService(st.Client, access.WithOperations(testOperations), access.WithServiceClock(clk.Now),
			access.WithSecretBox(newSecretBox(t)))}
}

// newSecretBox returns a SecretBox with a random key.
func newSecretBox(t *testing.T) *access.SecretBox {
	t.Helper()
	key := make([]byte, access.SecretKeySize)
	rand.Read(key)
	b, err := access.NewSecretBox(key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ptr[T any](v T) *T { return &v }

// consumer creates a consumer as the operator or fails the test.
func (e *svcEnv) consumer(name string, ch access.ConsumerChange) access.Consumer {
	e.t.Helper()
	c, err := e.svc.CreateConsumer(e.t.Context(), e.op, name, ch)
	if err != nil {
		e.t.Fatalf("CreateConsumer(%q): %v", name, err)
	}
	return c
}

// key creates a key as the operator or fails the test.
func (e *svcEnv) key(consumerID int, name string) access.IssuedKey {
	e.t.Helper()
	k, err := e.svc.CreateKey(e.t.Context(), e.op, consumerID, name)
	if err != nil {
		e.t.Fatalf("CreateKey(%d, %q): %v", consumerID, name, err)
	}
	return k
}

func (e *svcEnv) revision() int {
	e.t.Helper()
	rev, err := e.svc.Revision(e.t.Context())
	if err != nil {
		e.t.Fatalf("Revision: %v", err)
	}
	return rev
}

// auditSince returns the audit entries newer than revision rev, oldest first.
func (e *svcEnv) auditSince(rev int) []access.AuditRecord {
	e.t.Helper()
	all, err := e.svc.Audit(e.t.Context(), e.op, 0, 1000)
	if err != nil {
		e.t.Fatalf("Audit: %v", err)
	}
	var out []access.AuditRecord
	for _, r := range slices.Backward(all) {
		if r.ID > rev {
			out = append(out, r)
		}
	}
	return out
}

// oneAudit runs change and checks that it wrote exactly one audit entry, with the action, and
// that Revision moved to that entry. It returns the entry.
func (e *svcEnv) oneAudit(action string, change func() error) access.AuditRecord {
	e.t.Helper()
	before := e.revision()
	if err := change(); err != nil {
		e.t.Fatalf("%s: %v", action, err)
	}
	got := e.auditSince(before)
	if len(got) != 1 {
		e.t.Fatalf("%s wrote %d audit entries, want 1: %+v", action, len(got), got)
	}
	if got[0].Action != action {
		e.t.Fatalf("audit action %q, want %q", got[0].Action, action)
	}
	if rev := e.revision(); rev != got[0].ID || rev <= before {
		e.t.Fatalf("Revision after %s = %d, want the new entry's id %d (> %d)", action, rev, got[0].ID, before)
	}
	if !got[0].At.Equal(e.clk.Now()) {
		e.t.Fatalf("audit At %v, want the clock's %v", got[0].At, e.clk.Now())
	}
	return got[0]
}

// noChange runs fn, which must fail with want, and checks that nothing was audited.
func (e *svcEnv) noChange(what string, want error, fn func() error) {
	e.t.Helper()
	before := e.revision()
	err := fn()
	if !errors.Is(err, want) {
		e.t.Fatalf("%s: error %v, want %v", what, err, want)
	}
	if got := e.auditSince(before); len(got) != 0 {
		e.t.Fatalf("%s failed but wrote audit entries: %+v", what, got)
	}
}

func TestCreateConsumer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)

		var c access.Consumer
		entry := e.oneAudit("consumer.create", func() (err error) {
			c, err = e.svc.CreateConsumer(t.Context(), e.op, "  Acme Corp  ", access.ConsumerChange{})
			return err
		})
		want := access.Consumer{ID: c.ID, Name: "Acme Corp", AccessEnabled: false, Scopes: []string{},
			RatePerMinute: access.DefaultRatePerMinute, Burst: access.DefaultBurst, Allow: []string{},
			DisabledOperations: []string{}, Price: "", CreatedAt: e.clk.Now(), UpdatedAt: e.clk.Now(), AccessChangedAt: ptr(e.clk.Now())}
		assertConsumer(t, c, want)
		if got, err := e.svc.Consumer(t.Context(), e.op, c.ID); err != nil {
			t.Fatalf("Consumer: %v", err)
		} else {
			assertConsumer(t, got, want)
		}
		if entry.Actor != e.op.Name || entry.ConsumerID != c.ID || entry.Before != nil || entry.Reason != "" {
			t.Fatalf("create audit entry %+v: want actor %q, consumer %d, no before, no reason", entry, e.op.Name, c.ID)
		}
		if entry.After["name"] != "Acme Corp" || entry.After["accessEnabled"] != false {
			t.Fatalf("create audit entry after = %v", entry.After)
		}

		// Every field given.
		full := e.consumer("Full", access.ConsumerChange{
			Scopes:             ptr([]string{"tx:build", "market:read", "market:read"}),
			RatePerMinute:      ptr(0),
			Burst:              ptr(1_000_000),
			Allow:              ptr([]netip.Prefix{netip.MustParsePrefix("10.1.2.3/16")}),
			DisabledOperations: ptr([]string{"getTrending"}),
			Price:              ptr("$100/month"),
			AccessEnabled:      ptr(true),
		})
		assertConsumer(t, full, access.Consumer{ID: full.ID, Name: "Full", AccessEnabled: true,
			Scopes: []string{"market:read", "tx:build"}, RatePerMinute: 0, Burst: 1_000_000,
			Allow: []string{"10.1.0.0/16"}, DisabledOperations: []string{"getTrending"}, Price: "$100/month",
			CreatedAt: e.clk.Now(), UpdatedAt: e.clk.Now(), AccessChangedAt: ptr(e.clk.Now())})
	})
}

func TestCreateConsumerRejects(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		e.consumer("taken", access.ConsumerChange{})
		for _, tc := range []struct {
			name   string
			actor  access.Actor
			cname  string
			change access.ConsumerChange
			want   error
		}{
			{"unknown scope", e.op, "x", access.ConsumerChange{Scopes: ptr([]string{"market:read", "admin"})}, access.ErrInvalid},
			{"unknown disabled operation", e.op, "x", access.ConsumerChange{DisabledOperations: ptr([]string{"getTrending", "getNothing"})}, access.ErrInvalid},
			{"negative rate", e.op, "x", access.ConsumerChange{RatePerMinute: ptr(-1)}, access.ErrInvalid},
			{"negative burst", e.op, "x", access.ConsumerChange{Burst: ptr(-1)}, access.ErrInvalid},
			{"rate too high", e.op, "x", access.ConsumerChange{RatePerMinute: ptr(1_000_001)}, access.ErrInvalid},
			{"empty name", e.op, "   ", access.ConsumerChange{}, access.ErrInvalid},
			{"long name", e.op, strings.Repeat("n", 201), access.ConsumerChange{}, access.ErrInvalid},
			{"long price", e.op, "x", access.ConsumerChange{Price: ptr(strings.Repeat("p", 501))}, access.ErrInvalid},
			{"invalid prefix", e.op, "x", access.ConsumerChange{Allow: ptr([]netip.Prefix{{}})}, access.ErrInvalid},
			{"consumer actor", access.Actor{Name: "user:x", ConsumerID: 1}, "x", access.ConsumerChange{}, access.ErrInvalid},
			{"duplicate name", e.op, "taken", access.ConsumerChange{}, access.ErrConflict},
			{"duplicate name after trimming", e.op, " taken ", access.ConsumerChange{}, access.ErrConflict},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := *e
				e.t = t
				e.noChange("CreateConsumer", tc.want, func() error {
					_, err := e.svc.CreateConsumer(t.Context(), tc.actor, tc.cname, tc.change)
					return err
				})
			})
		}
		if all, err := e.svc.ListConsumers(t.Context(), e.op, ""); err != nil || len(all) != 1 {
			t.Fatalf("ListConsumers after rejected creates = %d consumers, %v; want only the first", len(all), err)
		}
	})
}

func TestUpdateConsumer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		orig := e.consumer("acme", access.ConsumerChange{
			Scopes:             ptr([]string{"market:read", "quote:read"}),
			RatePerMinute:      ptr(120),
			Burst:              ptr(30),
			Allow:              ptr([]netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}),
			DisabledOperations: ptr([]string{"getPoolChart"}),
			Price:              ptr("gold"),
		})
		e.consumer("other", access.ConsumerChange{})

		steps := []struct {
			name   string
			change access.ConsumerChange
			reason string
			apply  func(c *access.Consumer) // what the change does to the expected consumer
		}{
			{"burst only", access.ConsumerChange{Burst: ptr(45)}, "", func(c *access.Consumer) { c.Burst = 45 }},
			{"rate and price", access.ConsumerChange{RatePerMinute: ptr(600), Price: ptr("platinum")}, "upgrade",
				func(c *access.Consumer) { c.RatePerMinute, c.Price = 600, "platinum" }},
			{"name trimmed", access.ConsumerChange{Name: ptr(" Acme Inc ")}, "", func(c *access.Consumer) { c.Name = "Acme Inc" }},
			{"scopes replaced", access.ConsumerChange{Scopes: ptr([]string{"tx:build", "portfolio:read"})}, "",
				func(c *access.Consumer) { c.Scopes = []string{"portfolio:read", "tx:build"} }},
			{"disabled operations replaced", access.ConsumerChange{DisabledOperations: ptr([]string{"getTrending"})}, "",
				func(c *access.Consumer) { c.DisabledOperations = []string{"getTrending"} }},
			{"allowlist replaced and canonical", access.ConsumerChange{Allow: ptr([]netip.Prefix{
				netip.MustParsePrefix("10.1.2.3/8"),              // IPv4, host bits set
				netip.MustParsePrefix("10.0.0.0/8"),              // the same prefix again
				netip.MustParsePrefix("2001:DB8:0:0::1/32"),      // IPv6, upper case, host bits set
				netip.MustParsePrefix("2001:db8:abcd::1/128"),    // a single IPv6 address
				netip.MustParsePrefix("::ffff:198.51.100.7/120"), // IPv4-mapped: stored as the IPv4 prefix
			})}, "", func(c *access.Consumer) {
				c.Allow = []string{"10.0.0.0/8", "198.51.100.0/24", "2001:db8::/32", "2001:db8:abcd::1/128"}
			}},
			{"scopes cleared", access.ConsumerChange{Scopes: ptr([]string{})}, "", func(c *access.Consumer) { c.Scopes = []string{} }},
			{"allowlist cleared", access.ConsumerChange{Allow: ptr([]netip.Prefix{})}, "", func(c *access.Consumer) { c.Allow = []string{} }},
			{"disabled operations cleared", access.ConsumerChange{DisabledOperations: ptr([]string{})}, "",
				func(c *access.Consumer) { c.DisabledOperations = []string{} }},
		}
		want := orig
		for _, step := range steps {
			e.clk.Add(time.Minute)
			before := want
			step.apply(&want)
			want.UpdatedAt = e.clk.Now()
			var got access.Consumer
			entry := e.oneAudit("consumer.update", func() (err error) {
				got, err = e.svc.UpdateConsumer(t.Context(), e.op, orig.ID, step.change, step.reason)
				return err
			})
			t.Logf("step %q", step.name)
			assertConsumer(t, got, want)
			if read, err := e.svc.Consumer(t.Context(), e.op, orig.ID); err != nil {
				t.Fatalf("Consumer: %v", err)
			} else {
				assertConsumer(t, read, want)
			}
			if entry.Actor != e.op.Name || entry.ConsumerID != orig.ID || entry.Reason != step.reason || entry.Target != want.Name {
				t.Fatalf("step %q: audit entry %+v", step.name, entry)
			}
			assertAuditState(t, "before", entry.Before, before)
			assertAuditState(t, "after", entry.After, want)
		}

		// Rejected changes write nothing.
		for _, tc := range []struct {
			name   string
			id     int
			change access.ConsumerChange
			want   error
		}{
			{"unknown scope", orig.ID, access.ConsumerChange{Scopes: ptr([]string{"root"})}, access.ErrInvalid},
			{"unknown operation", orig.ID, access.ConsumerChange{DisabledOperations: ptr([]string{"buildSwap"})}, access.ErrInvalid},
			{"negative rate", orig.ID, access.ConsumerChange{RatePerMinute: ptr(-5)}, access.ErrInvalid},
			{"negative burst", orig.ID, access.ConsumerChange{Burst: ptr(-5)}, access.ErrInvalid},
			{"empty name", orig.ID, access.ConsumerChange{Name: ptr(" ")}, access.ErrInvalid},
			{"invalid prefix", orig.ID, access.ConsumerChange{Allow: ptr([]netip.Prefix{{}})}, access.ErrInvalid},
			{"name taken", orig.ID, access.ConsumerChange{Name: ptr("other")}, access.ErrConflict},
			{"unknown consumer", 999_999, access.ConsumerChange{Burst: ptr(1)}, access.ErrNotFound},
		} {
			e.noChange("UpdateConsumer "+tc.name, tc.want, func() error {
				_, err := e.svc.UpdateConsumer(t.Context(), e.op, tc.id, tc.change, "")
				return err
			})
		}
		if got, _ := e.svc.Consumer(t.Context(), e.op, orig.ID); got.Name != want.Name || got.Burst != want.Burst {
			t.Fatalf("rejected changes changed the consumer: %+v", got)
		}
	})
}

func TestSetAccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{Burst: ptr(7)})
		for i, tc := range []struct {
			enabled bool
			reason  string
			action  string
		}{
			{true, "contract signed", "consumer.enable"},
			{false, "invoice overdue", "consumer.disable"},
			{false, "still overdue", "consumer.disable"},
			{true, "paid", "consumer.enable"},
		} {
			e.clk.Add(time.Hour)
			var got access.Consumer
			entry := e.oneAudit(tc.action, func() (err error) {
				got, err = e.svc.SetAccess(t.Context(), e.op, c.ID, tc.enabled, tc.reason)
				return err
			})
			if got.AccessEnabled != tc.enabled || got.Burst != 7 || got.Name != "acme" {
				t.Fatalf("step %d: SetAccess(%v) = %+v", i, tc.enabled, got)
			}
			if entry.Reason != tc.reason || entry.Actor != e.op.Name || entry.ConsumerID != c.ID {
				t.Fatalf("step %d: audit entry %+v, want reason %q", i, entry, tc.reason)
			}
			if entry.After["accessEnabled"] != tc.enabled || entry.Before["accessEnabled"] == nil {
				t.Fatalf("step %d: audit before %v after %v", i, entry.Before, entry.After)
			}
		}
		e.noChange("SetAccess unknown consumer", access.ErrNotFound, func() error {
			_, err := e.svc.SetAccess(t.Context(), e.op, 424242, true, "x")
			return err
		})
	})
}

func TestCreateKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{RatePerMinute: ptr(90), Burst: ptr(15)})

		var k access.IssuedKey
		entry := e.oneAudit("key.create", func() (err error) {
			k, err = e.svc.CreateKey(t.Context(), e.op, c.ID, "  production  ")
			return err
		})
		parsed, err := access.ParseKey(k.Key)
		if err != nil {
			t.Fatalf("ParseKey(issued key): %v", err)
		}
		if k.Name != "production" || k.ConsumerID != c.ID || k.Status != access.KeyActive || k.Prefix != parsed.DisplayPrefix() ||
			!k.CreatedAt.Equal(e.clk.Now()) || k.ExpiresAt != nil || k.RevokedAt != nil || k.LastUsedAt != nil || k.RotatedFromID != nil {
			t.Fatalf("CreateKey = %+v", k.KeyInfo)
		}
		if entry.ConsumerID != c.ID || entry.Target != fmt.Sprintf("key %d", k.ID) || entry.Before != nil || entry.After["name"] != "production" {
			t.Fatalf("key.create audit entry %+v", entry)
		}

		rec, err := e.svc.LookupKey(t.Context(), parsed.Hash())
		if err != nil {
			t.Fatalf("LookupKey: %v", err)
		}
		want := access.KeyRecord{KeyID: k.ID, ConsumerID: c.ID, AccessEnabled: false, Limit: metering.Limit{RatePerMinute: 90, Burst: 15}}
		if rec != want {
			t.Fatalf("LookupKey = %+v, want %+v", rec, want)
		}
		if _, err := e.svc.SetAccess(t.Context(), e.op, c.ID, true, ""); err != nil {
			t.Fatal(err)
		}
		want.AccessEnabled = true
		if rec, err := e.svc.LookupKey(t.Context(), parsed.Hash()); err != nil || rec != want {
			t.Fatalf("LookupKey after enabling access = %+v, %v; want %+v", rec, err, want)
		}
		other, _ := access.NewKey()
		if _, err := e.svc.LookupKey(t.Context(), other.Hash()); !errors.Is(err, access.ErrUnknownKey) {
			t.Fatalf("LookupKey(unknown) = %v, want ErrUnknownKey", err)
		}

		// The secret is stored nowhere: not in any column of api_keys, nor in the audit log.
		hidden := k.Key[len(parsed.DisplayPrefix()):]
		for _, table := range []string{"api_keys", "audit_entries"} {
			for col, v := range allValues(t, st, table) {
				if bytes.Contains(v, []byte(k.Key)) || bytes.Contains(v, []byte(hidden)) {
					t.Fatalf("%s.%s holds the key's secret: %q", table, col, v)
				}
			}
		}

		e.noChange("CreateKey empty name", access.ErrInvalid, func() error {
			_, err := e.svc.CreateKey(t.Context(), e.op, c.ID, "  ")
			return err
		})
		e.noChange("CreateKey long name", access.ErrInvalid, func() error {
			_, err := e.svc.CreateKey(t.Context(), e.op, c.ID, strings.Repeat("k", 201))
			return err
		})
		e.noChange("CreateKey unknown consumer", access.ErrNotFound, func() error {
			_, err := e.svc.CreateKey(t.Context(), e.op, 777_777, "k")
			return err
		})
	})
}

// allValues returns every non-null value of every row of table, as bytes, keyed by "row.column".
func allValues(t *testing.T, st *store.Store, table string) map[string][]byte {
	t.Helper()
	rows, err := st.DB.QueryContext(t.Context(), "SELECT * FROM "+table)
	if err != nil {
		t.Fatalf("read %s: %v", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for n := 0; rows.Next(); n++ {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
			case []byte:
				out[fmt.Sprintf("%d.%s", n, cols[i])] = v
			default:
				out[fmt.Sprintf("%d.%s", n, cols[i])] = fmt.Append(nil, v)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s is empty: nothing scanned", table)
	}
	return out
}

func TestRotateKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true)})
		verifier := access.NewVerifier(e.svc.LookupKey, access.WithTTL(0), access.WithClock(e.clk.Now))

		for _, tc := range []struct {
			name       string
			grace      time.Duration
			wantExpiry time.Duration
			wantStatus string
		}{
			{"default grace", -1, access.DefaultRotationGrace, access.KeyExpiring},
			{"no grace", 0, 0, access.KeyExpired},
			{"one hour", time.Hour, time.Hour, access.KeyExpiring},
			{"maximum grace", access.MaxRotationGrace, access.MaxRotationGrace, access.KeyExpiring},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := *e
				e.t = t
				oldKey := e.key(c.ID, "rot "+tc.name)
				e.clk.Add(time.Minute)
				now := e.clk.Now()

				var issued access.IssuedKey
				var old access.KeyInfo
				entry := e.oneAudit("key.rotate", func() (err error) {
					issued, old, err = e.svc.RotateKey(t.Context(), e.op, oldKey.ID, tc.grace)
					return err
				})
				wantEnd := now.Add(tc.wantExpiry)
				if old.ID != oldKey.ID || old.ExpiresAt == nil || !old.ExpiresAt.Equal(wantEnd) || old.Status != tc.wantStatus {
					t.Fatalf("old key after rotation = %+v, want ExpiresAt %v, status %s", old, wantEnd, tc.wantStatus)
				}
				if issued.RotatedFromID == nil || *issued.RotatedFromID != oldKey.ID || issued.Name != oldKey.Name ||
					issued.Status != access.KeyActive || issued.ExpiresAt != nil || issued.ID == oldKey.ID || issued.Key == oldKey.Key {
					t.Fatalf("successor = %+v", issued.KeyInfo)
				}
				if entry.Target != fmt.Sprintf("key %d", issued.ID) || entry.After["rotatedFromId"] != float64(oldKey.ID) {
					t.Fatalf("key.rotate audit entry %+v", entry)
				}

				// The stored record says the same, and the Verifier acts on it.
				rec := lookup(t, e.svc, oldKey.Key)
				if !rec.ExpiresAt.Equal(wantEnd) || !rec.RevokedAt.IsZero() {
					t.Fatalf("LookupKey(old) = %+v, want ExpiresAt %v", rec, wantEnd)
				}
				if p, err := verifier.Verify(t.Context(), issued.Key); err != nil || p.KeyID != issued.ID {
					t.Fatalf("Verify(successor) = %+v, %v", p, err)
				}
				_, err := verifier.Verify(t.Context(), oldKey.Key)
				if tc.wantExpiry == 0 {
					if !errors.Is(err, access.ErrExpiredKey) {
						t.Fatalf("Verify(old key, no grace) = %v, want ErrExpiredKey", err)
					}
				} else {
					if err != nil {
						t.Fatalf("Verify(old key within grace) = %v", err)
					}
					e.clk.Add(tc.wantExpiry)
					if _, err := verifier.Verify(t.Context(), oldKey.Key); !errors.Is(err, access.ErrExpiredKey) {
						t.Fatalf("Verify(old key after grace) = %v, want ErrExpiredKey", err)
					}
					if _, err := verifier.Verify(t.Context(), issued.Key); err != nil {
						t.Fatalf("Verify(successor after the old key's grace) = %v", err)
					}
				}
			})
		}

		t.Run("refused", func(t *testing.T) {
			e := *e
			e.t = t
			revoked := e.key(c.ID, "revoked")
			if _, err := e.svc.RevokeKey(t.Context(), e.op, revoked.ID); err != nil {
				t.Fatal(err)
			}
			expired := e.key(c.ID, "expired")
			if _, _, err := e.svc.RotateKey(t.Context(), e.op, expired.ID, 0); err != nil {
				t.Fatal(err)
			}
			live := e.key(c.ID, "live")
			for _, tc := range []struct {
				name  string
				id    int
				grace time.Duration
				want  error
			}{
				{"grace over 7 days", live.ID, access.MaxRotationGrace + time.Nanosecond, access.ErrInvalid},
				{"revoked key", revoked.ID, time.Hour, access.ErrInvalid},
				{"expired key", expired.ID, time.Hour, access.ErrInvalid},
				{"unknown key", 987_654, time.Hour, access.ErrNotFound},
			} {
				keysBefore := countKeys(t, e.svc, c.ID)
				e.noChange("RotateKey "+tc.name, tc.want, func() error {
					_, _, err := e.svc.RotateKey(t.Context(), e.op, tc.id, tc.grace)
					return err
				})
				if n := countKeys(t, e.svc, c.ID); n != keysBefore {
					t.Fatalf("RotateKey %s issued a key anyway", tc.name)
				}
			}
			if rec := lookup(t, e.svc, live.Key); !rec.ExpiresAt.IsZero() {
				t.Fatalf("refused rotation set the key's expiry: %+v", rec)
			}
		})

		t.Run("a rotated key is not rotated again", func(t *testing.T) {
			e := *e
			e.t = t
			k := e.key(c.ID, "twice")
			issued, first, err := e.svc.RotateKey(t.Context(), e.op, k.ID, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			keysBefore := countKeys(t, e.svc, c.ID)
			e.clk.Add(10 * time.Minute)
			for _, grace := range []time.Duration{0, time.Hour, 48 * time.Hour, -1} {
				var err error
				e.noChange("RotateKey of a key in its grace", access.ErrConflict, func() error {
					_, _, err = e.svc.RotateKey(t.Context(), e.op, k.ID, grace)
					return err
				})
				var rotated *access.AlreadyRotatedError
				if !errors.As(err, &rotated) || rotated.KeyID != k.ID || rotated.SuccessorID != issued.ID || !rotated.Until.Equal(*first.ExpiresAt) {
					t.Fatalf("RotateKey(grace %v) of a rotated key = %v (%+v), want an AlreadyRotatedError naming successor %d until %v",
						grace, err, rotated, issued.ID, first.ExpiresAt)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("its successor is key %d", issued.ID)) {
					t.Fatalf("error %q does not name the successor", err)
				}
			}
			if n := countKeys(t, e.svc, c.ID); n != keysBefore {
				t.Fatalf("refused rotations issued %d keys", n-keysBefore)
			}
			if rec := lookup(t, e.svc, k.Key); !rec.ExpiresAt.Equal(*first.ExpiresAt) {
				t.Fatalf("refused rotation moved the old key's end: %v, want %v", rec.ExpiresAt, first.ExpiresAt)
			}
			// The successor is the key to rotate next.
			if _, _, err := e.svc.RotateKey(t.Context(), e.op, issued.ID, time.Hour); err != nil {
				t.Fatalf("RotateKey(successor) = %v", err)
			}
		})

		t.Run("racing rotations issue one successor", func(t *testing.T) {
			e := *e
			e.t = t
			k := e.key(c.ID, "raced")
			const racers = 8
			errs := make(chan error, racers)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for range racers {
				wg.Go(func() {
					<-start
					_, _, err := e.svc.RotateKey(context.Background(), e.op, k.ID, time.Hour)
					errs <- err
				})
			}
			close(start)
			wg.Wait()
			close(errs)
			ok := 0
			for err := range errs {
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, access.ErrConflict):
					t.Errorf("a losing rotation failed with %v, want a conflict", err)
				}
			}
			successors := 0
			keys, err := e.svc.ListKeys(t.Context(), e.op, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range keys {
				if s.RotatedFromID != nil && *s.RotatedFromID == k.ID {
					successors++
				}
			}
			if ok != 1 || successors != 1 {
				t.Fatalf("%d racing rotations: %d succeeded, %d successors; want 1 and 1", racers, ok, successors)
			}
		})
	})
}

func TestEndGrace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true)})
		verifier := access.NewVerifier(e.svc.LookupKey, access.WithTTL(0), access.WithClock(e.clk.Now))
		old := e.key(c.ID, "old")
		issued, _, err := e.svc.RotateKey(t.Context(), e.op, old.ID, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := verifier.Verify(t.Context(), old.Key); err != nil {
			t.Fatalf("Verify(old key in its grace) = %v", err)
		}
		e.clk.Add(time.Minute)
		var info access.KeyInfo
		entry := e.oneAudit("key.end_grace", func() (err error) {
			info, err = e.svc.EndGrace(t.Context(), e.op, old.ID)
			return err
		})
		if info.ID != old.ID || info.Status != access.KeyExpired || info.ExpiresAt == nil || !info.ExpiresAt.Equal(e.clk.Now()) {
			t.Fatalf("EndGrace = %+v, want expired now (%v)", info, e.clk.Now())
		}
		if entry.ConsumerID != c.ID || entry.Target != fmt.Sprintf("key %d", old.ID) || entry.Actor != e.op.Name ||
			entry.Before["status"] != access.KeyExpiring || entry.After["status"] != access.KeyExpired {
			t.Fatalf("key.end_grace audit entry %+v", entry)
		}
		if _, err := verifier.Verify(t.Context(), old.Key); !errors.Is(err, access.ErrExpiredKey) {
			t.Fatalf("Verify(old key after EndGrace) = %v, want ErrExpiredKey", err)
		}
		if _, err := verifier.Verify(t.Context(), issued.Key); err != nil {
			t.Fatalf("Verify(successor after EndGrace) = %v", err)
		}

		revoked := e.key(c.ID, "revoked")
		if _, err := e.svc.RevokeKey(t.Context(), e.op, revoked.ID); err != nil {
			t.Fatal(err)
		}
		inGrace := e.key(c.ID, "in grace")
		if _, _, err := e.svc.RotateKey(t.Context(), e.op, inGrace.ID, time.Hour); err != nil {
			t.Fatal(err)
		}
		other := e.consumer("other", access.ConsumerChange{})
		for _, tc := range []struct {
			name  string
			actor access.Actor
			id    int
			want  error
		}{
			{"ended already", e.op, old.ID, access.ErrInvalid},
			{"never rotated", e.op, issued.ID, access.ErrInvalid},
			{"revoked", e.op, revoked.ID, access.ErrInvalid},
			{"unknown key", e.op, 424_242, access.ErrNotFound},
			{"another consumer's key", access.Actor{Name: "user:x@other.example", ConsumerID: other.ID}, inGrace.ID, access.ErrNotFound},
		} {
			e.noChange("EndGrace "+tc.name, tc.want, func() error {
				_, err := e.svc.EndGrace(t.Context(), tc.actor, tc.id)
				return err
			})
		}
		if _, err := verifier.Verify(t.Context(), inGrace.Key); err != nil {
			t.Fatalf("a refused EndGrace ended the grace: %v", err)
		}
		// The consumer's own user ends its own key's grace.
		own := access.Actor{Name: "user:x@acme.example", ConsumerID: c.ID}
		if _, err := e.svc.EndGrace(t.Context(), own, inGrace.ID); err != nil {
			t.Fatalf("EndGrace by the consumer's user = %v", err)
		}
	})
}

func TestConsumerFieldErrors(t *testing.T) {
	svc := access.NewService(nil, access.WithOperations(testOperations))
	if err := svc.CheckConsumerChange(access.ConsumerChange{Name: ptr("ok"), RatePerMinute: ptr(0), Burst: ptr(0)}); err != nil {
		t.Fatalf("CheckConsumerChange(valid) = %v", err)
	}
	err := svc.CheckConsumerChange(access.ConsumerChange{
		Name:               ptr(" "),
		Scopes:             ptr([]string{"market:read", "admin"}),
		RatePerMinute:      ptr(-1),
		Burst:              ptr(1_000_001),
		Allow:              ptr([]netip.Prefix{{}}),
		DisabledOperations: ptr([]string{"dropTables"}),
		Price:              ptr(strings.Repeat("p", 501)),
	})
	if !errors.Is(err, access.ErrInvalid) {
		t.Fatalf("CheckConsumerChange(all invalid) = %v, want ErrInvalid", err)
	}
	got := map[string]string{}
	for _, fe := range access.FieldErrors(fmt.Errorf("update consumer 1: %w", err)) {
		got[fe.Field] = fe.Problem
	}
	want := map[string]string{
		access.FieldName:               "name must be 1 to 200 characters",
		access.FieldScopes:             `unknown scope "admin" (want market:read, portfolio:read, quote:read, tx:build)`,
		access.FieldRatePerMinute:      "rate per minute must be 0 to 1000000",
		access.FieldBurst:              "burst must be 0 to 1000000",
		access.FieldAllow:              `source "invalid Prefix" is not a CIDR prefix`,
		access.FieldDisabledOperations: `unknown operation "dropTables"`,
		access.FieldPrice:              "price must be at most 500 characters",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("FieldErrors = %q\nwant %q", got, want)
	}

	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		e.consumer("taken", access.ConsumerChange{})
		mine := e.consumer("mine", access.ConsumerChange{})
		_, err := e.svc.UpdateConsumer(t.Context(), e.op, mine.ID, access.ConsumerChange{Name: ptr(" taken ")}, "")
		fes := access.FieldErrors(err)
		if !errors.Is(err, access.ErrConflict) || len(fes) != 1 || fes[0].Field != access.FieldName || fes[0].Problem != `a consumer named "taken" exists` {
			t.Fatalf("UpdateConsumer(taken name) = %v, field errors %+v", err, fes)
		}
		_, err = e.svc.CreateConsumer(t.Context(), e.op, "taken", access.ConsumerChange{})
		if fes := access.FieldErrors(err); !errors.Is(err, access.ErrConflict) || len(fes) != 1 || fes[0].Field != access.FieldName {
			t.Fatalf("CreateConsumer(taken name) = %v, field errors %+v", err, fes)
		}
	})
}

func lookup(t *testing.T, svc *access.Service, raw string) access.KeyRecord {
	t.Helper()
	k, err := access.ParseKey(raw)
	if err != nil {
		t.Fatalf("ParseKey: %v", err)
	}
	rec, err := svc.LookupKey(t.Context(), k.Hash())
	if err != nil {
		t.Fatalf("LookupKey: %v", err)
	}
	return rec
}

func countKeys(t *testing.T, svc *access.Service, consumerID int) int {
	t.Helper()
	keys, err := svc.ListKeys(t.Context(), access.Operator("test"), consumerID)
	if err != nil {
		t.Fatalf("ListKeys: %v", err)
	}
	return len(keys)
}

func TestRevokeKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true)})
		k := e.key(c.ID, "doomed")
		keep := e.key(c.ID, "kept")
		verifier := access.NewVerifier(e.svc.LookupKey, access.WithTTL(0), access.WithClock(e.clk.Now))

		e.clk.Add(time.Minute)
		revokedAt := e.clk.Now()
		var info access.KeyInfo
		entry := e.oneAudit("key.revoke", func() (err error) {
			info, err = e.svc.RevokeKey(t.Context(), e.op, k.ID)
			return err
		})
		if info.Status != access.KeyRevoked || info.RevokedAt == nil || !info.RevokedAt.Equal(revokedAt) {
			t.Fatalf("RevokeKey = %+v", info)
		}
		if entry.Before["status"] != access.KeyActive || entry.After["status"] != access.KeyRevoked || entry.ConsumerID != c.ID {
			t.Fatalf("key.revoke audit entry %+v", entry)
		}
		if rec := lookup(t, e.svc, k.Key); !rec.RevokedAt.Equal(revokedAt) {
			t.Fatalf("LookupKey(revoked) = %+v", rec)
		}
		if _, err := verifier.Verify(t.Context(), k.Key); !errors.Is(err, access.ErrRevokedKey) {
			t.Fatalf("Verify(revoked) = %v, want ErrRevokedKey", err)
		}
		if _, err := verifier.Verify(t.Context(), keep.Key); err != nil {
			t.Fatalf("Verify(other key) = %v", err)
		}

		// Again: no error, no change, no audit entry.
		e.clk.Add(time.Minute)
		rev := e.revision()
		again, err := e.svc.RevokeKey(t.Context(), e.op, k.ID)
		if err != nil || again.Status != access.KeyRevoked || !again.RevokedAt.Equal(revokedAt) {
			t.Fatalf("second RevokeKey = %+v, %v; want unchanged", again, err)
		}
		if got := e.auditSince(rev); len(got) != 0 {
			t.Fatalf("second RevokeKey wrote audit entries %+v", got)
		}
		e.noChange("RevokeKey unknown", access.ErrNotFound, func() error {
			_, err := e.svc.RevokeKey(t.Context(), e.op, 55_555)
			return err
		})
	})
}

func TestRenameKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{})
		k := e.key(c.ID, "old name")
		var info access.KeyInfo
		entry := e.oneAudit("key.rename", func() (err error) {
			info, err = e.svc.RenameKey(t.Context(), e.op, k.ID, "  new name ")
			return err
		})
		if info.Name != "new name" || info.Prefix != k.Prefix || info.ID != k.ID {
			t.Fatalf("RenameKey = %+v", info)
		}
		if entry.Before["name"] != "old name" || entry.After["name"] != "new name" {
			t.Fatalf("key.rename audit entry %+v", entry)
		}
		keys, err := e.svc.ListKeys(t.Context(), e.op, c.ID)
		if err != nil || len(keys) != 1 || keys[0].Name != "new name" {
			t.Fatalf("ListKeys after rename = %+v, %v", keys, err)
		}
		if rec := lookup(t, e.svc, k.Key); rec.KeyID != k.ID {
			t.Fatalf("renamed key no longer found: %+v", rec)
		}
		for _, name := range []string{"", "   ", strings.Repeat("x", 201)} {
			e.noChange("RenameKey invalid", access.ErrInvalid, func() error {
				_, err := e.svc.RenameKey(t.Context(), e.op, k.ID, name)
				return err
			})
		}
		e.noChange("RenameKey unknown", access.ErrNotFound, func() error {
			_, err := e.svc.RenameKey(t.Context(), e.op, 31_337, "x")
			return err
		})
	})
}

func TestListKeys(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		a := e.consumer("a", access.ConsumerChange{})
		b := e.consumer("b", access.ConsumerChange{})
		var want []string
		for i := range 4 {
			name := fmt.Sprintf("a-%d", i)
			e.key(a.ID, name)
			e.key(b.ID, fmt.Sprintf("b-%d", i))
			want = append([]string{name}, want...) // newest first
			e.clk.Add(time.Second)
		}
		keys, err := e.svc.ListKeys(t.Context(), e.op, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i, k := range keys {
			got = append(got, k.Name)
			if k.ConsumerID != a.ID {
				t.Fatalf("ListKeys(a) returned consumer %d's key %+v", k.ConsumerID, k)
			}
			if i > 0 && !(k.ID < keys[i-1].ID && k.CreatedAt.Before(keys[i-1].CreatedAt)) {
				t.Fatalf("ListKeys not newest first: %+v", keys)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("ListKeys(a) names = %v, want %v", got, want)
		}
		if empty := e.consumer("empty", access.ConsumerChange{}); countKeys(t, e.svc, empty.ID) != 0 {
			t.Fatal("ListKeys of a consumer without keys is not empty")
		}
		if _, err := e.svc.ListKeys(t.Context(), e.op, 99_999); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("ListKeys(unknown consumer) = %v, want ErrNotFound", err)
		}
	})
}

func TestTenantIsolation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		a := e.consumer("alpha", access.ConsumerChange{AccessEnabled: ptr(true)})
		b := e.consumer("bravo", access.ConsumerChange{AccessEnabled: ptr(true)})
		ka := e.key(a.ID, "a key")
		kb := e.key(b.ID, "b key")
		userA := access.Actor{Name: "user:ann@alpha.example", ConsumerID: a.ID}
		ctx := t.Context()

		for _, tc := range []struct {
			name string
			do   func() error
		}{
			{"Consumer", func() error { _, err := e.svc.Consumer(ctx, userA, b.ID); return err }},
			{"UpdateConsumer", func() error {
				_, err := e.svc.UpdateConsumer(ctx, userA, b.ID, access.ConsumerChange{Burst: ptr(1)}, "")
				return err
			}},
			{"SetAccess", func() error { _, err := e.svc.SetAccess(ctx, userA, b.ID, false, "x"); return err }},
			{"ListKeys", func() error { _, err := e.svc.ListKeys(ctx, userA, b.ID); return err }},
			{"CreateKey", func() error { _, err := e.svc.CreateKey(ctx, userA, b.ID, "sneaky"); return err }},
			{"RotateKey", func() error { _, _, err := e.svc.RotateKey(ctx, userA, kb.ID, 0); return err }},
			{"RevokeKey", func() error { _, err := e.svc.RevokeKey(ctx, userA, kb.ID); return err }},
			{"RenameKey", func() error { _, err := e.svc.RenameKey(ctx, userA, kb.ID, "mine"); return err }},
			{"Consumer unknown", func() error { _, err := e.svc.Consumer(ctx, userA, 123_456); return err }},
			{"RevokeKey unknown", func() error { _, err := e.svc.RevokeKey(ctx, userA, 123_456); return err }},
		} {
			e.noChange("consumer A: "+tc.name+" of B", access.ErrNotFound, tc.do)
		}

		// B is untouched.
		if got, err := e.svc.Consumer(ctx, e.op, b.ID); err != nil || !got.AccessEnabled || got.Burst != access.DefaultBurst {
			t.Fatalf("consumer B after A's attempts = %+v, %v", got, err)
		}
		keys, err := e.svc.ListKeys(ctx, e.op, b.ID)
		if err != nil || len(keys) != 1 || keys[0].Name != "b key" || keys[0].Status != access.KeyActive {
			t.Fatalf("B's keys after A's attempts = %+v, %v", keys, err)
		}

		// A sees only itself.
		for _, search := range []string{"", "a", "bravo"} {
			list, err := e.svc.ListConsumers(ctx, userA, search)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range list {
				if c.ID != a.ID {
					t.Fatalf("ListConsumers(A, %q) returned consumer %d", search, c.ID)
				}
			}
			if wantOne := search != "bravo"; (len(list) == 1) != wantOne {
				t.Fatalf("ListConsumers(A, %q) = %d consumers", search, len(list))
			}
		}
		if list, _ := e.svc.ListConsumers(ctx, e.op, ""); len(list) != 2 {
			t.Fatalf("ListConsumers(operator) = %d consumers, want 2", len(list))
		}
		for _, asked := range []int{0, b.ID, a.ID} {
			entries, err := e.svc.Audit(ctx, userA, asked, 100)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) == 0 {
				t.Fatalf("Audit(A, %d) is empty", asked)
			}
			for _, r := range entries {
				if r.ConsumerID != a.ID {
					t.Fatalf("Audit(A, %d) shows consumer %d's entry %+v", asked, r.ConsumerID, r)
				}
			}
		}

		// A may still manage its own keys, but not its plan.
		if _, err := e.svc.Consumer(ctx, userA, a.ID); err != nil {
			t.Fatalf("Consumer(A, own) = %v", err)
		}
		if _, err := e.svc.RenameKey(ctx, userA, ka.ID, "renamed"); err != nil {
			t.Fatalf("RenameKey(A, own) = %v", err)
		}
		if _, _, err := e.svc.RotateKey(ctx, userA, ka.ID, time.Hour); err != nil {
			t.Fatalf("RotateKey(A, own) = %v", err)
		}
		if _, err := e.svc.CreateKey(ctx, userA, a.ID, "another"); err != nil {
			t.Fatalf("CreateKey(A, own) = %v", err)
		}
		e.noChange("UpdateConsumer(A, own)", access.ErrInvalid, func() error {
			_, err := e.svc.UpdateConsumer(ctx, userA, a.ID, access.ConsumerChange{Burst: ptr(1_000)}, "")
			return err
		})
		e.noChange("CreateConsumer(A)", access.ErrInvalid, func() error {
			_, err := e.svc.CreateConsumer(ctx, userA, "charlie", access.ConsumerChange{})
			return err
		})
	})
}

func TestPolicySnapshot(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		full := e.consumer("full", access.ConsumerChange{
			AccessEnabled:      ptr(true),
			Scopes:             ptr([]string{"tx:build", "market:read"}),
			DisabledOperations: ptr([]string{"getTrending", "getPoolChart"}),
			Allow:              ptr([]netip.Prefix{netip.MustParsePrefix("203.0.113.9/24"), netip.MustParsePrefix("2001:db8:1::/48")}),
		})
		bare := e.consumer("bare", access.ConsumerChange{})
		off := e.consumer("off", access.ConsumerChange{Scopes: ptr([]string{"quote:read"})})

		got, err := e.svc.PolicySnapshot(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		want := []policy.Consumer{
			{ID: full.ID, Scopes: []string{"market:read", "tx:build"}, DisabledOperations: []string{"getPoolChart", "getTrending"},
				Sources: []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24"), netip.MustParsePrefix("2001:db8:1::/48")}},
			{ID: bare.ID},
			{ID: off.ID, Scopes: []string{"quote:read"}},
		}
		assertSnapshot(t, got, want)
	})
}

// assertSnapshot compares policy snapshots, ignoring the order within each consumer's lists.
func assertSnapshot(t *testing.T, got, want []policy.Consumer) {
	t.Helper()
	norm := func(cs []policy.Consumer) string {
		var b strings.Builder
		for _, c := range cs {
			sc, ops := slices.Sorted(slices.Values(c.Scopes)), slices.Sorted(slices.Values(c.DisabledOperations))
			src := slices.SortedFunc(slices.Values(c.Sources), func(a, b netip.Prefix) int { return a.Addr().Compare(b.Addr()) })
			fmt.Fprintf(&b, "%d scopes=%v ops=%v sources=%v\n", c.ID, sc, ops, src)
		}
		return b.String()
	}
	if g, w := norm(got), norm(want); g != w {
		t.Fatalf("PolicySnapshot:\n%s\nwant:\n%s", g, w)
	}
}

func TestAuditFilter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		a := e.consumer("a", access.ConsumerChange{})
		b := e.consumer("b", access.ConsumerChange{})
		e.key(a.ID, "a1")
		e.key(b.ID, "b1")
		if _, err := e.svc.SetAccess(t.Context(), e.op, a.ID, true, "go"); err != nil {
			t.Fatal(err)
		}
		wantActions := map[int][]string{ // newest first
			a.ID: {"consumer.enable", "key.create", "consumer.create"},
			b.ID: {"key.create", "consumer.create"},
		}
		for id, want := range wantActions {
			entries, err := e.svc.Audit(t.Context(), e.op, id, 100)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range entries {
				got = append(got, r.Action)
				if r.ConsumerID != id {
					t.Fatalf("Audit(%d) returned consumer %d's entry", id, r.ConsumerID)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("Audit(%d) actions = %v, want %v", id, got, want)
			}
		}
		all, err := e.svc.Audit(t.Context(), e.op, 0, 100)
		if err != nil || len(all) != 5 {
			t.Fatalf("Audit(all) = %d entries, %v; want 5", len(all), err)
		}
		for i := 1; i < len(all); i++ {
			if all[i].ID >= all[i-1].ID {
				t.Fatalf("Audit not newest first: %d before %d", all[i-1].ID, all[i].ID)
			}
		}
		if two, _ := e.svc.Audit(t.Context(), e.op, 0, 2); len(two) != 2 || two[0].ID != all[0].ID {
			t.Fatalf("Audit(limit 2) = %+v", two)
		}
	})
}

// recordingLoader is a PolicyLoader that keeps every snapshot it is given.
type recordingLoader struct {
	mu    sync.Mutex
	loads [][]policy.Consumer
	err   error
}

func (l *recordingLoader) Load(cs []policy.Consumer) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	l.loads = append(l.loads, cs)
	return nil
}

func (l *recordingLoader) last() (int, []policy.Consumer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.loads) == 0 {
		return 0, nil
	}
	return len(l.loads), l.loads[len(l.loads)-1]
}

func (l *recordingLoader) fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = err
}

func TestSyncRefresh(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true), Scopes: ptr([]string{"market:read"})})
		k := e.key(c.ID, "k")
		loader := &recordingLoader{}
		verifier := access.NewVerifier(e.svc.LookupKey) // default TTL: answers stay cached
		syncer := access.NewSync(e.svc, loader, verifier, discardLog(t))

		if err := syncer.Refresh(t.Context()); err != nil {
			t.Fatalf("Refresh: %v", err)
		}
		n, got := loader.last()
		if n != 1 {
			t.Fatalf("Refresh loaded the policy %d times, want 1", n)
		}
		assertSnapshot(t, got, []policy.Consumer{{ID: c.ID, Scopes: []string{"market:read"}}})

		if _, err := verifier.Verify(t.Context(), k.Key); err != nil {
			t.Fatalf("Verify: %v", err)
		}
		// A change made through the Service: the cached answer stands until Refresh purges it.
		if _, err := e.svc.SetAccess(t.Context(), e.op, c.ID, false, "suspended"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.UpdateConsumer(t.Context(), e.op, c.ID, access.ConsumerChange{Scopes: ptr([]string{"quote:read"})}, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := verifier.Verify(t.Context(), k.Key); err != nil {
			t.Fatalf("Verify before Refresh = %v; want the cached answer (else this test proves nothing)", err)
		}
		if err := syncer.Refresh(t.Context()); err != nil {
			t.Fatalf("Refresh: %v", err)
		}
		if _, err := verifier.Verify(t.Context(), k.Key); !errors.Is(err, access.ErrAccessDisabled) {
			t.Fatalf("Verify after Refresh = %v, want ErrAccessDisabled (key cache purged)", err)
		}
		n, got = loader.last()
		if n != 2 {
			t.Fatalf("policy loaded %d times after the change and Refresh, want 2", n)
		}
		assertSnapshot(t, got, []policy.Consumer{{ID: c.ID, Scopes: []string{"quote:read"}}})

		// Nothing changed since: a Refresh right away may share the last load.
		if err := syncer.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		if n, _ := loader.last(); n > 3 {
			t.Fatalf("policy loaded %d times", n)
		}

		// A failing loader makes Refresh fail, and the next Refresh tries again.
		boom := errors.New("boom")
		loader.fail(boom)
		if _, err := e.svc.SetAccess(t.Context(), e.op, c.ID, true, ""); err != nil {
			t.Fatal(err)
		}
		if err := syncer.Refresh(t.Context()); !errors.Is(err, boom) {
			t.Fatalf("Refresh with a failing loader = %v, want it wrapped", err)
		}
		loader.fail(nil)
		if err := syncer.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		if _, err := verifier.Verify(t.Context(), k.Key); err != nil {
			t.Fatalf("Verify after re-enabling and Refresh = %v", err)
		}
	})
}

func TestSyncRunPicksUpChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true)})
		k := e.key(c.ID, "k")
		loader := &recordingLoader{}
		verifier := access.NewVerifier(e.svc.LookupKey)
		syncer := access.NewSync(e.svc, loader, verifier, discardLog(t))
		if err := syncer.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		if _, err := verifier.Verify(t.Context(), k.Key); err != nil {
			t.Fatal(err)
		}

		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); syncer.Run(ctx, 50*time.Millisecond) }()
		defer func() { cancel(); <-done }()

		// Another replica (a second Service on the same store) makes the change.
		other := access.NewService(st.Client, access.WithOperations(testOperations))
		if _, err := other.UpdateConsumer(t.Context(), e.op, c.ID,
			access.ConsumerChange{AccessEnabled: ptr(false), Scopes: ptr([]string{"tx:build"})}, "elsewhere"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "Run reloads the changed policy", func() bool {
			_, got := loader.last()
			return len(got) == 1 && slices.Equal(got[0].Scopes, []string{"tx:build"})
		})
		if _, err := verifier.Verify(t.Context(), k.Key); !errors.Is(err, access.ErrAccessDisabled) {
			t.Fatalf("Verify after Run's reload = %v, want ErrAccessDisabled", err)
		}

		// No change: no reload.
		n, _ := loader.last()
		time.Sleep(200 * time.Millisecond) // four intervals
		if m, _ := loader.last(); m != n {
			t.Fatalf("Run reloaded %d times without a change", m-n)
		}

		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after its context ended")
		}
	})
}

// TestSyncRunOutOfOrderCommit: on PostgreSQL a change can take its audit id before another change
// and commit after it; the poll that saw the later id must still load the earlier change once it
// commits (the change feed is off here: the poll is the fallback that has to hold on its own).
func TestSyncRunOutOfOrderCommit(t *testing.T) {
	st := storetest.Postgres(t)
	e := newSvcEnv(t, st)
	c := e.consumer("acme", access.ConsumerChange{AccessEnabled: ptr(true)})
	other := e.consumer("globex", access.ConsumerChange{AccessEnabled: ptr(true)})
	k := e.key(c.ID, "k")
	loader := &recordingLoader{}
	verifier := access.NewVerifier(e.svc.LookupKey)
	syncer := access.NewSync(e.svc, loader, verifier, discardLog(t))
	if err := syncer.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := verifier.Verify(t.Context(), k.Key); err != nil {
		t.Fatal(err)
	}

	// The slow change: access off, and its audit entry, in a transaction left open.
	slow, err := st.Client.Tx(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Rollback()
	if err := slow.Consumer.UpdateOneID(c.ID).SetAccessEnabled(false).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
	early, err := slow.AuditEntry.Create().SetActor("cli").SetAction("consumer.access").SetConsumerID(c.ID).Save(t.Context())
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); syncer.Run(ctx, 50*time.Millisecond) }()
	defer func() { cancel(); <-done }()

	// The fast change (another consumer: the slow one holds acme's row) takes a later audit id and
	// commits first; the poll loads it.
	if _, err := e.svc.UpdateConsumer(t.Context(), e.op, other.ID, access.ConsumerChange{Scopes: ptr([]string{"tx:build"})}, ""); err != nil {
		t.Fatal(err)
	}
	if rev := e.revision(); rev <= early.ID {
		t.Fatalf("the fast change's audit id %d is not after the slow one's %d: the test proves nothing", rev, early.ID)
	}
	waitFor(t, "Run loads the fast change", func() bool {
		_, got := loader.last()
		return len(got) == 2 && slices.Equal(got[1].Scopes, []string{"tx:build"})
	})
	if _, err := verifier.Verify(t.Context(), k.Key); err != nil {
		t.Fatalf("Verify before the slow change commits = %v", err)
	}

	// The slow change commits below the newest id already seen: it is loaded all the same.
	if err := slow.Commit(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "Run loads the change committed out of order", func() bool {
		_, err := verifier.Verify(t.Context(), k.Key)
		return errors.Is(err, access.ErrAccessDisabled)
	})
}

func discardLog(*testing.T) *slog.Logger { return slog.New(slog.DiscardHandler) }

// waitFor polls cond until it holds, failing the test after a generous deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func assertConsumer(t *testing.T, got, want access.Consumer) {
	t.Helper()
	if !got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) {
		t.Fatalf("consumer times created %v updated %v, want %v, %v", got.CreatedAt, got.UpdatedAt, want.CreatedAt, want.UpdatedAt)
	}
	got.CreatedAt, got.UpdatedAt, want.CreatedAt, want.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if (got.AccessChangedAt == nil) != (want.AccessChangedAt == nil) ||
		(got.AccessChangedAt != nil && !got.AccessChangedAt.Equal(*want.AccessChangedAt)) {
		t.Fatalf("consumer AccessChangedAt %v, want %v", got.AccessChangedAt, want.AccessChangedAt)
	}
	got.AccessChangedAt, want.AccessChangedAt = nil, nil
	if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
		t.Fatalf("consumer\n got %+v\nwant %+v", got, want)
	}
}

// assertAuditState checks that an audit entry's before or after object is the consumer's state.
func assertAuditState(t *testing.T, which string, m map[string]any, c access.Consumer) {
	t.Helper()
	strs := func(v any) []string {
		out := []string{}
		for _, x := range v.([]any) {
			out = append(out, x.(string))
		}
		return out
	}
	if m["name"] != c.Name || m["ratePerMinute"] != float64(c.RatePerMinute) || m["burst"] != float64(c.Burst) ||
		m["price"] != c.Price || m["accessEnabled"] != c.AccessEnabled || m["id"] != float64(c.ID) ||
		!slices.Equal(strs(m["scopes"]), c.Scopes) || !slices.Equal(strs(m["allow"]), c.Allow) ||
		!slices.Equal(strs(m["disabledOperations"]), c.DisabledOperations) {
		t.Fatalf("audit %s = %v, want %+v", which, m, c)
	}
}
