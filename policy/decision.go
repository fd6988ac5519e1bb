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
)

// String returns the decision as the API error code it maps to
// ("scope_required", "endpoint_unavailable", "source_not_allowed"), or
// "allow".
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case ScopeRequired:
		return "scope_required"
	case EndpointUnavailable:
		return "endpoint_unavailable"
	case SourceNotAllowed:
		return "source_not_allowed"
	default:
		return "decision(" + strconv.Itoa(int(d)) + ")"
	}
}
