package policy

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
)

func newTestEnforcer(t testing.TB, consumers []Consumer) *Enforcer {
	t.Helper()
	e, err := New(specOperations())
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if err := e.Load(consumers); err != nil {
		t.Fatalf("Load: %v", err)
	}
	return e
}

var testConsumers = []Consumer{
	{ // market reader, any source, search switched off
		ID:                 1,
		Scopes:             []string{"market:read"},
		DisabledOperations: []string{"tokens.search"},
	},
	{ // builder restricted to an IPv4 /24, an IPv4 host and an IPv6 /48
		ID:                 2,
		Scopes:             []string{"market:read", "tx:build"},
		DisabledOperations: []string{"build.lp.farm"},
		Sources: []netip.Prefix{
			netip.MustParsePrefix("203.0.113.0/24"),
			netip.MustParsePrefix("198.51.100.7/32"),
			netip.MustParsePrefix("2001:db8:1::/48"),
		},
	},
	{ // no scopes at all, restricted
		ID:      3,
		Sources: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
	},
}

func TestDecide(t *testing.T) {
	e := newTestEnforcer(t, testConsumers)
	any4 := netip.MustParseAddr("192.0.2.1")
	in4 := netip.MustParseAddr("203.0.113.9")
	tests := []struct {
		name string
		id   int
		op   string
		src  netip.Addr
		want Decision
	}{
		{"allow, empty allowlist means any", 1, "tokens.price", any4, Allow},
		{"allow, empty allowlist, IPv6", 1, "tokens.price", netip.MustParseAddr("2001:db8::1"), Allow},
		{"allow, empty allowlist, invalid source", 1, "tokens.price", netip.Addr{}, Allow},
		{"scope required", 1, "build.swap", any4, ScopeRequired},
		{"endpoint unavailable", 1, "tokens.search", any4, EndpointUnavailable},
		{"allow, inside IPv4 /24", 2, "build.swap", in4, Allow},
		{"allow, IPv4 host", 2, "build.swap", netip.MustParseAddr("198.51.100.7"), Allow},
		{"source not allowed, IPv4", 2, "build.swap", netip.MustParseAddr("198.51.100.8"), SourceNotAllowed},
		{"allow, IPv6 inside /48", 2, "build.swap", netip.MustParseAddr("2001:db8:1:ffff::1"), Allow},
		{"allow, IPv6 with zone", 2, "build.swap", netip.MustParseAddr("2001:db8:1::1%eth0"), Allow},
		{"source not allowed, IPv6", 2, "build.swap", netip.MustParseAddr("2001:db8:2::1"), SourceNotAllowed},
		{"allow, IPv4-mapped IPv6 matches IPv4 prefix", 2, "build.swap", netip.MustParseAddr("::ffff:203.0.113.200"), Allow},
		{"source not allowed, IPv4-mapped IPv6", 2, "build.swap", netip.MustParseAddr("::ffff:192.0.2.1"), SourceNotAllowed},
		{"source not allowed, invalid source", 2, "build.swap", netip.Addr{}, SourceNotAllowed},
		{"precedence: scope before availability and source", 2, "portfolio.holdings", any4, ScopeRequired},
		{"precedence: availability before source", 2, "build.lp.farm", any4, EndpointUnavailable},
		{"availability, allowed source", 2, "build.lp.farm", in4, EndpointUnavailable},
		{"precedence: scope before source", 3, "tokens.price", any4, ScopeRequired},
		{"unknown consumer", 99, "tokens.price", any4, ScopeRequired},
		{"unknown operation", 1, "tokens.nope", any4, ScopeRequired},
		{"empty operation", 1, "", any4, ScopeRequired},
	}
	// Twice: the second round answers from the decision cache.
	for round := range 2 {
		for _, tt := range tests {
			if got := e.Decide(tt.id, tt.op, tt.src); got != tt.want {
				t.Errorf("round %d: %s: Decide(%d, %q, %v) = %v, want %v",
					round, tt.name, tt.id, tt.op, tt.src, got, tt.want)
			}
		}
	}
}

func TestDecideBeforeLoad(t *testing.T) {
	e, err := New(specOperations())
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Decide(1, "tokens.price", netip.MustParseAddr("192.0.2.1")); got != ScopeRequired {
		t.Errorf("Decide before Load = %v, want ScopeRequired", got)
	}
}

func TestReloadChangesDecisionsAtOnce(t *testing.T) {
	src := netip.MustParseAddr("192.0.2.1")
	e := newTestEnforcer(t, []Consumer{{ID: 7, Scopes: []string{"market:read"}}})
	if got := e.Decide(7, "tokens.price", src); got != Allow {
		t.Fatalf("before reload: %v, want Allow", got) // also warms the cache
	}
	steps := []struct {
		c    Consumer
		want Decision
	}{
		{Consumer{ID: 7, Scopes: []string{"market:read"}, DisabledOperations: []string{"tokens.price"}}, EndpointUnavailable},
		{Consumer{ID: 7, Scopes: []string{"market:read"}, Sources: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, SourceNotAllowed},
		{Consumer{ID: 7, Scopes: []string{"quote:read"}}, ScopeRequired},
		{Consumer{ID: 7, Scopes: []string{"market:read"}}, Allow},
	}
	for i, st := range steps {
		if err := e.Load([]Consumer{st.c}); err != nil {
			t.Fatal(err)
		}
		if got := e.Decide(7, "tokens.price", src); got != st.want {
			t.Errorf("step %d: %v, want %v", i, got, st.want)
		}
	}
	if err := e.Load(nil); err != nil {
		t.Fatal(err)
	}
	if got := e.Decide(7, "tokens.price", src); got != ScopeRequired {
		t.Errorf("after removing the consumer: %v, want ScopeRequired", got)
	}
}

// TestUnknownGrantsIgnored: a scope no operation requires, or one that
// names another consumer, grants nothing; unknown disabled operations
// disable nothing.
func TestUnknownGrantsIgnored(t *testing.T) {
	src := netip.MustParseAddr("192.0.2.1")
	e := newTestEnforcer(t, []Consumer{
		{ID: 1, Scopes: []string{"tx:build"}},
		{ID: 2, Scopes: []string{"c:1", "admin", ""}, DisabledOperations: []string{"nope", "c:1"}},
		{ID: 3, Scopes: []string{"market:read"}, DisabledOperations: []string{"", "nope"}},
	})
	if got := e.Decide(2, "build.swap", src); got != ScopeRequired {
		t.Errorf("consumer 2 via scope \"c:1\": %v, want ScopeRequired", got)
	}
	if got := e.Decide(3, "tokens.price", src); got != Allow {
		t.Errorf("consumer 3: %v, want Allow", got)
	}
}

func TestLoadErrorKeepsPolicy(t *testing.T) {
	src := netip.MustParseAddr("192.0.2.1")
	e := newTestEnforcer(t, testConsumers)
	bad := [][]Consumer{
		{{ID: 1}, {ID: 1}},
		{{ID: 1, Sources: []netip.Prefix{{}}}},
	}
	for i, cs := range bad {
		if err := e.Load(cs); err == nil {
			t.Errorf("case %d: Load succeeded, want error", i)
		}
	}
	if got := e.Decide(1, "tokens.price", src); got != Allow {
		t.Errorf("after failed Load: %v, want Allow (old policy)", got)
	}
}

func TestNewRejectsBadOperations(t *testing.T) {
	for i, ops := range [][]Operation{
		{{ID: "", Scope: "market:read"}},
		{{ID: "a", Scope: ""}},
		{{ID: "a", Scope: "market:read"}, {ID: "a", Scope: "tx:build"}},
		{{ID: "c:1", Scope: "market:read"}},
		{{ID: "a", Scope: "c:1"}},
	} {
		if _, err := New(ops); err == nil {
			t.Errorf("case %d: New succeeded, want error", i)
		}
	}
}

// TestConcurrentDecideDuringLoad alternates between two policies that both
// allow consumer 1; a Decide that saw no grants mid-swap would fail.
// Run with -race.
func TestConcurrentDecideDuringLoad(t *testing.T) {
	a := manyConsumers(200)
	a[0] = Consumer{ID: 1, Scopes: []string{"market:read"}}
	b := manyConsumers(200)
	b[0] = Consumer{ID: 1, Scopes: []string{"market:read", "tx:build"}, DisabledOperations: []string{"tokens.search"}}
	e := newTestEnforcer(t, a)

	var stop atomic.Bool
	var wrong atomic.Int64
	var wg sync.WaitGroup
	srcs := []netip.Addr{netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("2001:db8::1")}
	for g := range 8 {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				if e.Decide(1, "tokens.price", srcs[(g+i)%2]) != Allow {
					wrong.Add(1)
				}
				e.Decide(2+i%199, specOperations()[i%36].ID, srcs[i%2])
			}
		})
	}
	for i := range 20 {
		cs := a
		if i%2 == 1 {
			cs = b
		}
		if err := e.Load(cs); err != nil {
			t.Error(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d decisions for consumer 1 were not Allow during reloads", n)
	}
}

// TestCacheBounded asks from many more distinct source addresses than the
// decision cache holds and checks that it stays within its bound and keeps
// answering correctly.
func TestCacheBounded(t *testing.T) {
	e := newTestEnforcer(t, nil)
	e.cacheEntries = 256
	if err := e.Load(testConsumers); err != nil {
		t.Fatal(err)
	}
	for i := range 4000 {
		src := netip.AddrFrom4([4]byte{203, 0, 113, byte(i)}) // allowed
		want := Allow
		if i%2 == 1 {
			src = netip.AddrFrom4([4]byte{10, 9, byte(i >> 8), byte(i)})
			want = SourceNotAllowed
		}
		if got := e.Decide(2, "build.swap", src); got != want {
			t.Fatalf("request %d from %v: %v, want %v", i, src, got, want)
		}
	}
	if n := e.cur.Load().cache.len(); n > 256 {
		t.Errorf("cache holds %d entries, bound is 256", n)
	}
}

func TestDecisionString(t *testing.T) {
	for d, want := range map[Decision]string{
		Allow:               "allow",
		ScopeRequired:       "scope_required",
		EndpointUnavailable: "endpoint_unavailable",
		SourceNotAllowed:    "source_not_allowed",
		Decision(9):         "decision(9)",
	} {
		if got := d.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(d), got, want)
		}
	}
}
