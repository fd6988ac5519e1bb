package evm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// ErrorKind says why a read failed, so callers can choose a status without parsing messages.
type ErrorKind string

// Error kinds.
const (
	// KindUnavailable: the RPC endpoint could not be reached or refused service (connection
	// refused or reset, DNS failure, HTTP 5xx or 429). The API answers 503 upstream_unavailable.
	KindUnavailable ErrorKind = "unavailable"
	// KindTimeout: the caller's context deadline passed (or the transport timed out, or HTTP 504)
	// before the RPC answered. The API answers 504 upstream_timeout.
	KindTimeout ErrorKind = "timeout"
	// KindCanceled: the caller's context was canceled. The API answers 499 client_closed_request.
	KindCanceled ErrorKind = "canceled"
	// KindBadResponse: the RPC answered, but with a JSON-RPC error, malformed JSON or data that
	// does not decode as the standard ABI says (for example no Multicall3 at the configured
	// address). The API answers 502 upstream_error.
	KindBadResponse ErrorKind = "bad_response"
	// KindInvalidInput: the caller passed something unusable (for example a zero Multicall3
	// address). A programming or configuration error, not an upstream one.
	KindInvalidInput ErrorKind = "invalid_input"
)

// Error is the only error type the Reader returns. Error() is a generic message that is safe to
// show to API callers: it names the operation and the kind, never the RPC's own text. The
// underlying cause (with the RPC's text) is available through Unwrap and Detail, for logs only.
type Error struct {
	Kind  ErrorKind
	Op    string // the Reader operation, e.g. "balances"
	cause error
}

var publicText = map[ErrorKind]string{
	KindUnavailable:  "chain RPC unavailable",
	KindTimeout:      "chain RPC timed out",
	KindCanceled:     "request canceled",
	KindBadResponse:  "chain RPC returned an unusable response",
	KindInvalidInput: "invalid input",
}

// Error returns the caller-safe message.
func (e *Error) Error() string {
	return "evm " + e.Op + ": " + publicText[e.Kind]
}

// Unwrap returns the cause, for errors.Is/As (context.DeadlineExceeded, net errors, ...).
func (e *Error) Unwrap() error { return e.cause }

// Is lets errors.Is match the chain package's adapter-neutral errors: KindUnavailable is
// chain.ErrUpstreamUnavailable, KindTimeout chain.ErrUpstreamTimeout, KindCanceled chain.ErrCanceled
// and KindBadResponse chain.ErrUpstreamBadResponse.
func (e *Error) Is(target error) bool {
	switch e.Kind {
	case KindUnavailable:
		return target == chain.ErrUpstreamUnavailable
	case KindTimeout:
		return target == chain.ErrUpstreamTimeout
	case KindCanceled:
		return target == chain.ErrCanceled
	case KindBadResponse:
		return target == chain.ErrUpstreamBadResponse
	}
	return false
}

// Detail is the message for logs: the safe message plus the cause, which may contain the RPC's text.
func (e *Error) Detail() string {
	if e.cause == nil {
		return e.Error()
	}
	return e.Error() + ": " + e.cause.Error()
}

// KindOf returns the kind of an error returned by the Reader, and "" for any other error.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

func newError(op string, kind ErrorKind, cause error) *Error {
	return &Error{Kind: kind, Op: op, cause: cause}
}

func badResponse(op string, format string, args ...any) *Error {
	return newError(op, KindBadResponse, fmt.Errorf(format, args...))
}

// classify turns an error of the RPC client into an *Error. ctx is the caller's context: its
// state decides timeout versus cancellation whatever the transport made of it.
func classify(ctx context.Context, op string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, os.ErrDeadlineExceeded):
		return newError(op, KindTimeout, err)
	case ctx.Err() != nil, errors.Is(err, context.Canceled):
		return newError(op, KindCanceled, err)
	}
	var httpErr rpc.HTTPError
	if errors.As(err, &httpErr) {
		switch {
		case httpErr.StatusCode == http.StatusGatewayTimeout || httpErr.StatusCode == http.StatusRequestTimeout:
			return newError(op, KindTimeout, err)
		case httpErr.StatusCode >= 500 || httpErr.StatusCode == http.StatusTooManyRequests:
			return newError(op, KindUnavailable, err)
		default:
			return newError(op, KindBadResponse, err)
		}
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return newError(op, KindTimeout, err)
	}
	var rpcErr rpc.Error
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &rpcErr) || errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		return newError(op, KindBadResponse, err)
	}
	// Everything else the client reports is about the transport: refused or reset connections,
	// DNS failures, EOF mid-response, a closed client.
	return newError(op, KindUnavailable, err)
}
