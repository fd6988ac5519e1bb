package policy

import "strconv"

// Decision is the outcome of Decide. Every value but Allow is a 403 whose
// error code is the value's String.
type Decision int

const (
	// Allow admits the call.
	Allow Decision = iota
	// ScopeRequired: the consumer lacks the operation's scope. Unknown
	// consumers and unknown operations get this too.
	ScopeRequired
	// EndpointUnavailable: the operation is switched off for the consumer.
	EndpointUnavailable
	// SourceNotAllowed: the source address is outside a non-empty allowlist.
	SourceNotAllowed
	// KeyScopeRequired: the consumer holds the operation's scope but the
	// key is restricted to scopes without it (KeyRestriction.Check). Its
	// code is scope_required, as for the consumer.
	KeyScopeRequired
	// KeySourceNotAllowed: the source address is on the consumer's
	// allowlist (or it has none) but outside the restricted key's own
	// allowlist (KeyRestriction.Check). Its code is source_not_allowed.
	KeySourceNotAllowed
)

// KeyRestricted reports whether the decision is a denial by the key's own
// restriction rather than by its consumer's grants.
func (d Decision) KeyRestricted() bool { return d == KeyScopeRequired || d == KeySourceNotAllowed }

// String returns the decision as the API error code it maps to
// ("scope_required", "endpoint_unavailable", "source_not_allowed"), or
// "allow".
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case ScopeRequired, KeyScopeRequired:
		return "scope_required"
	case EndpointUnavailable:
		return "endpoint_unavailable"
	case SourceNotAllowed, KeySourceNotAllowed:
		return "source_not_allowed"
	default:
		return "decision(" + strconv.Itoa(int(d)) + ")"
	}
}
