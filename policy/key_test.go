package policy_test

import (
	"net/netip"
	"testing"

	"github.com/partner-platform/partnerd/policy"
)

func TestKeyRestrictionCheck(t *testing.T) {
	both := &policy.KeyRestriction{Scopes: []string{"market:read"}, Sources: []netip.Prefix{
		netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8::/32")}}
	for _, tc := range []struct {
		name  string
		r     *policy.KeyRestriction
		scope string
		src   string
		want  policy.Decision
	}{
		{"nil restricts nothing", nil, "tx:build", "192.0.2.1", policy.Allow},
		{"zero restricts nothing", &policy.KeyRestriction{}, "tx:build", "192.0.2.1", policy.Allow},
		{"scope and source inside", both, "market:read", "10.1.2.3", policy.Allow},
		{"IPv4-mapped source", both, "market:read", "::ffff:10.1.2.3", policy.Allow},
		{"zoned IPv6 source", both, "market:read", "2001:db8::1%eth0", policy.Allow},
		{"scope outside", both, "quote:read", "10.1.2.3", policy.KeyScopeRequired},
		{"scope before source", both, "quote:read", "192.0.2.1", policy.KeyScopeRequired},
		{"source outside", both, "market:read", "192.0.2.1", policy.KeySourceNotAllowed},
		{"restricted to no scope", &policy.KeyRestriction{Scopes: []string{}}, "market:read", "10.1.2.3", policy.KeyScopeRequired},
		{"sources only", &policy.KeyRestriction{Sources: both.Sources}, "tx:build", "10.0.0.1", policy.Allow},
	} {
		if got := tc.r.Check(tc.scope, netip.MustParseAddr(tc.src)); got != tc.want {
			t.Errorf("%s: Check(%s, %s) = %v, want %v", tc.name, tc.scope, tc.src, got, tc.want)
		}
	}
	if policy.KeyScopeRequired.String() != "scope_required" || policy.KeySourceNotAllowed.String() != "source_not_allowed" {
		t.Fatalf("key denials' codes %q, %q", policy.KeyScopeRequired, policy.KeySourceNotAllowed)
	}
	if !policy.KeyScopeRequired.KeyRestricted() || policy.ScopeRequired.KeyRestricted() || policy.Allow.KeyRestricted() {
		t.Fatal("KeyRestricted tells key denials from consumer denials wrongly")
	}
	if both.ScopeList() != "market:read" || (*policy.KeyRestriction)(nil).ScopeList() != "all of its consumer's" {
		t.Fatalf("ScopeList = %q", both.ScopeList())
	}
}

func BenchmarkKeyRestrictionCheck(b *testing.B) {
	r := &policy.KeyRestriction{Scopes: []string{"market:read", "quote:read"}, Sources: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	src := netip.MustParseAddr("10.1.2.3")
	b.ReportAllocs()
	for b.Loop() {
		if r.Check("quote:read", src) != policy.Allow {
			b.Fatal("denied")
		}
	}
}
