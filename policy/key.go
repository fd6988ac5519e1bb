package policy

import (
	"net/netip"
	"slices"
	"strings"
)

// KeyRestriction narrows what one API key may do below its consumer's grants: a restricted key
// carries a subset of its consumer's scopes and/or its own source allowlist. It is checked after
// Decide has admitted the consumer, so a call must pass both: the consumer's scopes and allowlist
// (Decide) and the key's (Check). The key's scopes are not a copy of the consumer's: a scope the
// consumer loses later is refused by Decide whatever the key lists, so the key holds the
// intersection of the two at check time.
//
// The zero KeyRestriction restricts nothing. A KeyRestriction is read-only once built and safe for
// concurrent use.
type KeyRestriction struct {
	// Scopes the key may use; nil means every scope of its consumer.
	Scopes []string
	// Sources is the key's own allowlist (canonical prefixes, as ParseCIDRs gives); nil means none
	// of its own: only the consumer's allowlist applies.
	Sources []netip.Prefix
}

// Restricted reports whether r narrows anything.
func (r *KeyRestriction) Restricted() bool {
	return r != nil && (r.Scopes != nil || len(r.Sources) > 0)
}

// Check says whether a key restricted by r may call an operation requiring scope from src, once
// its consumer has been allowed: Allow, KeyScopeRequired or KeySourceNotAllowed (scope first). A
// nil r allows. IPv4-mapped IPv6 sources are compared as IPv4 and a zone is ignored, as in Decide.
// It allocates nothing.
func (r *KeyRestriction) Check(scope string, src netip.Addr) Decision {
	if r == nil {
		return Allow
	}
	if r.Scopes != nil && !slices.Contains(r.Scopes, scope) {
		return KeyScopeRequired
	}
	if len(r.Sources) > 0 {
		a := src.Unmap().WithZone("")
		for _, p := range r.Sources {
			if p.Contains(a) {
				return Allow
			}
		}
		return KeySourceNotAllowed
	}
	return Allow
}

// ScopeList is the key's scopes for messages, e.g. "market:read, quote:read"; "none" for a key
// restricted to none, "all of its consumer's" for one not restricted by scope.
func (r *KeyRestriction) ScopeList() string {
	switch {
	case r == nil || r.Scopes == nil:
		return "all of its consumer's"
	case len(r.Scopes) == 0:
		return "none"
	}
	return strings.Join(r.Scopes, ", ")
}
