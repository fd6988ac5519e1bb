package policy

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
)

func TestParseCIDRs(t *testing.T) {
	tests := []struct {
		in   string
		want string // prefixes joined by ","; "" for none
		err  bool
	}{
		{in: "", want: ""},
		{in: " , ,", want: ""},
		{in: "10.0.0.0/8", want: "10.0.0.0/8"},
		{in: "10.1.2.3/8", want: "10.0.0.0/8"}, // masked
		{in: "192.0.2.7", want: "192.0.2.7/32"},
		{in: "2001:db8::1", want: "2001:db8::1/128"},
		{in: "2001:DB8:0:0:1::/64", want: "2001:db8::/64"},
		{in: " 10.0.0.0/8 ,, 192.0.2.0/24 , 10.0.0.0/8", want: "10.0.0.0/8,192.0.2.0/24"},
		{in: "10.0.0.0/8,10.9.9.9/8", want: "10.0.0.0/8"}, // duplicate after masking
		{in: "::ffff:192.0.2.7", want: "192.0.2.7/32"},
		{in: "::ffff:192.0.2.0/120", want: "192.0.2.0/24"},
		{in: "::ffff:0.0.0.0/96", want: "0.0.0.0/0"},
		{in: "0.0.0.0/0,::/0", want: "0.0.0.0/0,::/0"},
		{in: "10.0.0.0/33", err: true},
		{in: "2001:db8::/129", err: true},
		{in: "10.0.0.0/8,banana", err: true},
		{in: "10.0.0", err: true},
		{in: "10.0.0.0/", err: true},
		{in: "/8", err: true},
		{in: "fe80::1%eth0", err: true},
		{in: "fe80::1%eth0/64", err: true},
		{in: "10.0.0.0/8;192.0.2.0/24", err: true},
	}
	for _, tt := range tests {
		got, err := ParseCIDRs(tt.in)
		if tt.err {
			if err == nil {
				t.Errorf("ParseCIDRs(%q) = %v, want error", tt.in, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseCIDRs(%q): %v", tt.in, err)
			continue
		}
		if s := joinPrefixes(got); s != tt.want {
			t.Errorf("ParseCIDRs(%q) = %q, want %q", tt.in, s, tt.want)
		}
	}
}

func joinPrefixes(ps []netip.Prefix) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ",")
}

// FuzzParseCIDRs checks that ParseCIDRs never panics and that whatever it
// accepts is canonical, free of duplicates, and round-trips through String
// and a second parse.
func FuzzParseCIDRs(f *testing.F) {
	for _, s := range []string{
		"", "10.0.0.0/8", "192.0.2.7, 2001:db8::/32", "::ffff:10.0.0.1/104",
		"fe80::1%eth0", "1.2.3.4/33", ",,", "10.0.0.0/8,10.1.0.0/8",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseCIDRs(s)
		if err != nil {
			return
		}
		for i, p := range got {
			if !p.IsValid() || p != p.Masked() || p.Addr().Zone() != "" {
				t.Fatalf("ParseCIDRs(%q)[%d] = %v is not canonical", s, i, p)
			}
			if slices.Contains(got[:i], p) {
				t.Fatalf("ParseCIDRs(%q) repeats %v", s, p)
			}
		}
		again, err := ParseCIDRs(joinPrefixes(got))
		if err != nil {
			t.Fatalf("re-parse of %q (from %q): %v", joinPrefixes(got), s, err)
		}
		if !slices.Equal(got, again) {
			t.Fatalf("round trip of %q: %v, then %v", s, got, again)
		}
	})
}
