package access

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/policy"
)

// KeyOptions restricts a new key below its consumer's grants. The zero KeyOptions is an
// unrestricted key: every scope of its consumer (also scopes granted later), only the consumer's
// allowlist, no expiry.
type KeyOptions struct {
	// Scopes the key may use, each one its consumer holds when the key is created; empty: all of
	// the consumer's. They are not a copy: a scope the consumer loses later is lost by the key too,
	// and one it gains is not gained by a key restricted to others.
	Scopes []string
	// Sources is the key's own allowlist: CIDR prefixes or bare addresses (IPv4 or IPv6). A call
	// must come from inside both the key's list and its consumer's (when the consumer has one).
	// Empty: only the consumer's allowlist applies.
	Sources []string
	// ExpiresAt ends the key at that time (it must be in the future); nil: never.
	ExpiresAt *time.Time
}

// ExpiryThrough is the expiry of a key that works through day (a date, UTC): the midnight after it.
func ExpiryThrough(day time.Time) time.Time {
	y, m, d := day.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}

// Fields of a key's restriction named by a FieldError.
const (
	FieldKeyScopes    = "scopes"
	FieldKeySources   = "sourceCidrs"
	FieldKeyExpiresAt = "expiresAt"
)

// checkKeyOptions validates o against the consumer's scopes at now and returns the scopes and
// canonical source prefixes to store (nil for none). Every problem is a *FieldError (joined).
func checkKeyOptions(o KeyOptions, consumerScopes []string, now time.Time) (scopes, sources []string, err error) {
	var errs []error
	if len(o.Scopes) > 0 {
		scopes = uniq(o.Scopes)
		for _, sc := range scopes {
			if !slices.Contains(consumerScopes, sc) {
				have := "it holds none"
				if len(consumerScopes) > 0 {
					have = "it holds " + strings.Join(consumerScopes, ", ")
				}
				errs = append(errs, invalidField(FieldKeyScopes,
					"a key can only carry scopes its consumer holds: the consumer lacks %q (%s)", sc, have))
				break
			}
		}
	}
	if len(o.Sources) > 0 {
		prefixes, perr := policy.ParseCIDRs(strings.Join(o.Sources, ","))
		switch {
		case perr != nil:
			errs = append(errs, invalidField(FieldKeySources,
				"the key's allowlist must be IPv4 or IPv6 CIDR prefixes or addresses, such as 203.0.113.0/24: %s", cidrProblem(perr)))
		case len(prefixes) > 100:
			errs = append(errs, invalidField(FieldKeySources, "the key's allowlist holds at most 100 entries"))
		default:
			for _, p := range prefixes {
				sources = append(sources, p.String())
			}
		}
	}
	if o.ExpiresAt != nil && !o.ExpiresAt.After(now) {
		errs = append(errs, invalidField(FieldKeyExpiresAt, "the expiry %s is not in the future",
			o.ExpiresAt.UTC().Format(time.RFC3339)))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	return scopes, sources, nil
}

// cidrProblem names the element ParseCIDRs refused, without its parser's internals.
func cidrProblem(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "parse cidrs: "); ok {
		if q, _, ok := strings.Cut(rest, ": "); ok {
			return q + " is not one"
		}
	}
	return msg
}

// restrictionOf is the policy's view of a stored key's restriction; nil when it restricts nothing.
// A stored prefix that no longer parses fails the lookup rather than widening the key.
func restrictionOf(k *ent.APIKey) (*policy.KeyRestriction, error) {
	if k.Scopes == nil && len(k.SourceCidrs) == 0 {
		return nil, nil
	}
	r := &policy.KeyRestriction{}
	if k.Scopes != nil {
		r.Scopes = slices.Clone(k.Scopes)
	}
	for _, c := range k.SourceCidrs {
		p, err := netip.ParsePrefix(c)
		if err != nil {
			return nil, fmt.Errorf("key %d: stored CIDR %q: %w", k.ID, c, err)
		}
		r.Sources = append(r.Sources, p)
	}
	return r, nil
}
