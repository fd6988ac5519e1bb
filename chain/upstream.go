package chain

import "errors"

// UpstreamKind says why an adapter's call to a chain's RPC failed, so callers can choose a status
// without parsing messages.
type UpstreamKind string

// Upstream failure kinds.
const (
	// UpstreamUnavailable: no RPC could be reached, or each refused service (connection refused or
	// reset, DNS failure, HTTP 5xx or 429, a node that says it is unhealthy or rate limited). The
	// API answers 503 upstream_unavailable.
	UpstreamUnavailable UpstreamKind = "unavailable"
	// UpstreamTimeout: the call's deadline passed before an RPC answered (or HTTP 408/504). The
	// API answers 504 upstream_timeout.
	UpstreamTimeout UpstreamKind = "timeout"
	// UpstreamCanceled: the caller's context was canceled. The API answers 499
	// client_closed_request.
	UpstreamCanceled UpstreamKind = "canceled"
	// UpstreamBadResponse: an RPC answered, but with a JSON-RPC error, malformed JSON or data that
	// does not decode as the chain's documented shapes. The API answers 502 upstream_error.
	UpstreamBadResponse UpstreamKind = "bad_response"
	// UpstreamInvalidInput: the caller passed the adapter something unusable (a programming or
	// configuration error, not an upstream one).
	UpstreamInvalidInput UpstreamKind = "invalid_input"
)

var upstreamText = map[UpstreamKind]string{
	UpstreamUnavailable:  "chain RPC unavailable",
	UpstreamTimeout:      "chain RPC timed out",
	UpstreamCanceled:     "request canceled",
	UpstreamBadResponse:  "chain RPC returned an unusable response",
	UpstreamInvalidInput: "invalid input",
}

// UpstreamError is the error of an adapter's failed RPC call (chain/evm's and chain/solana's
// Error). Error() is a generic message that is safe to show to API callers: the family, the
// operation and the kind, never an RPC's own text or URL. The cause (with the RPC's text) is
// available through Unwrap and Detail, for logs only.
type UpstreamError struct {
	Family string // "evm", "solana"
	Op     string // the adapter's operation, e.g. "balances"
	Kind   UpstreamKind
	cause  error
}

// NewUpstreamError returns the family's error of op, of kind, caused by cause.
func NewUpstreamError(family, op string, kind UpstreamKind, cause error) *UpstreamError {
	return &UpstreamError{Family: family, Op: op, Kind: kind, cause: cause}
}

// Error returns the caller-safe message.
func (e *UpstreamError) Error() string { return e.Family + " " + e.Op + ": " + upstreamText[e.Kind] }

// Unwrap returns the cause, for errors.Is/As (context.DeadlineExceeded, net errors, ...).
func (e *UpstreamError) Unwrap() error { return e.cause }

// Is lets errors.Is match the adapter-neutral errors: UpstreamUnavailable is
// ErrUpstreamUnavailable, UpstreamTimeout ErrUpstreamTimeout, UpstreamCanceled ErrCanceled and
// UpstreamBadResponse ErrUpstreamBadResponse.
func (e *UpstreamError) Is(target error) bool {
	switch e.Kind {
	case UpstreamUnavailable:
		return target == ErrUpstreamUnavailable
	case UpstreamTimeout:
		return target == ErrUpstreamTimeout
	case UpstreamCanceled:
		return target == ErrCanceled
	case UpstreamBadResponse:
		return target == ErrUpstreamBadResponse
	}
	return false
}

// Detail is the message for logs: the safe message plus the cause.
func (e *UpstreamError) Detail() string {
	if e.cause == nil {
		return e.Error()
	}
	return e.Error() + ": " + e.cause.Error()
}

// UpstreamKindOf returns the kind of an *UpstreamError in err's chain, and "" for any other error.
func UpstreamKindOf(err error) UpstreamKind {
	var e *UpstreamError
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
