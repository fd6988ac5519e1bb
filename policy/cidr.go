package policy

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// ParseCIDRs parses an operator's comma-separated list of CIDR prefixes
// and bare addresses, IPv4 or IPv6. A bare address is a /32 or /128.
// Elements are trimmed and empty ones ignored. Every prefix is returned in
// canonical form: masked, and an IPv4-mapped IPv6 prefix of /96 or longer
// is rewritten as the IPv4 prefix it covers (sources are compared unmapped).
// Duplicates are removed, keeping the first occurrence's position.
//
// An empty list (or one of empty elements only) yields nil and no error:
// no allowlist, any source. It returns an error naming the first element
// that is not an address or prefix, or that carries an IPv6 zone.
func ParseCIDRs(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	seen := make(map[netip.Prefix]struct{})
	for elem := range strings.SplitSeq(s, ",") {
		elem = strings.TrimSpace(elem)
		if elem == "" {
			continue
		}
		p, err := parseCIDR(elem)
		if err != nil {
			return nil, fmt.Errorf("parse cidrs: %q: %w", elem, err)
		}
		if _, dup := seen[p]; dup {
			continue
		}
		seen[p] = struct{}{}
		out = append(out, p)
	}
	return out, nil
}

var errZone = errors.New("zoned addresses are not allowed")

// parseCIDR parses one element of a CIDR list into canonical form.
func parseCIDR(s string) (netip.Prefix, error) {
	if !strings.Contains(s, "/") {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		if a.Zone() != "" {
			return netip.Prefix{}, errZone
		}
		return canonical(netip.PrefixFrom(a, a.BitLen())), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return canonical(p), nil
}

// canonical masks p and rewrites an IPv4-mapped IPv6 prefix of /96 or
// longer as the IPv4 prefix it covers. Shorter mapped prefixes stay IPv6.
func canonical(p netip.Prefix) netip.Prefix {
	a := p.Addr()
	if a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p.Masked()
}
