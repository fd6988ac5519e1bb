package solana

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/partner-platform/partnerd/chain"
)

// ErrorKind says why an RPC read failed (chain.UpstreamKind).
type ErrorKind = chain.UpstreamKind

// Error kinds (see chain.UpstreamKind).
const (
	KindUnavailable = chain.UpstreamUnavailable // also a JSON-RPC "node unhealthy" or rate-limit answer
	KindTimeout     = chain.UpstreamTimeout     // the caller's deadline, or Options.CallTimeout
	KindCanceled    = chain.UpstreamCanceled
	KindBadResponse = chain.UpstreamBadResponse // also an answer larger than Options.MaxResponseBytes
)

// Error is the error type of every RPC failure the adapter returns: a chain.UpstreamError of
// family "solana".
//
// Errors about the caller's input and the chain's state are not *Error: they wrap
// chain.ErrInvalidAddress (400 invalid_address), chain.ErrInvalidAmount (400 invalid_amount),
// chain.ErrInvalidSolanaSignature or chain.ErrInvalidSolanaToken (400 invalid_request),
// chain.ErrNotSupported (400 operation_not_supported: an operation the adapter does not build, such
// as a transfer of a non-transferable token or of a token with a transfer hook) or
// chain.ErrPrerequisite (422 prerequisite_failed: the chain's state does not allow the build, such
// as a balance short of the amount and fees or a frozen token account), with a message that is
// safe to show, or are a *chain.SVMSimulationError (422 simulation_failed).
type Error = chain.UpstreamError

// KindOf returns the kind of an *Error in err's chain, and "" for any other error.
func KindOf(err error) ErrorKind { return chain.UpstreamKindOf(err) }

// ErrResponseTooLarge is wrapped (as the cause of a KindBadResponse *Error) when an RPC's answer
// exceeds Options.MaxResponseBytes.
var ErrResponseTooLarge = errors.New("RPC response too large")

func newError(op string, kind ErrorKind, cause error) *Error {
	return chain.NewUpstreamError("solana", op, kind, cause)
}

func badResponse(op string, format string, args ...any) *Error {
	return newError(op, KindBadResponse, fmt.Errorf(format, args...))
}

// JSON-RPC error codes of Solana's RPC (rpc_custom_error.rs) that say the node cannot serve the
// request now, rather than that the request or the answer is wrong: another URL, or a later try,
// may succeed.
var unavailableCodes = map[int]bool{
	-32004: true, // block not available for slot
	-32005: true, // node is unhealthy / behind
	-32007: true, // slot skipped or missing due to ledger jump
	-32009: true, // slot skipped / missing in long-term storage
	-32014: true, // block status not yet available
	-32016: true, // minimum context slot has not been reached
	429:    true, // rate limited (some providers answer it as a JSON-RPC error with HTTP 200)
	-32429: true, // rate limited (ditto)
}

// classify turns an error of the JSON-RPC client into an *Error. ctx is the call's context: its
// state decides timeout versus cancellation whatever the transport made of it.
func classify(ctx context.Context, op string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	switch {
	case errors.Is(err, ErrResponseTooLarge):
		return newError(op, KindBadResponse, err)
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, os.ErrDeadlineExceeded):
		return newError(op, KindTimeout, err)
	case ctx.Err() != nil, errors.Is(err, context.Canceled):
		return newError(op, KindCanceled, err)
	}
	var status *statusError
	if errors.As(err, &status) {
		return newError(op, statusKind(status.code), err)
	}
	var httpErr *jsonrpc.HTTPError
	if errors.As(err, &httpErr) {
		return newError(op, statusKind(httpErr.Code), err)
	}
	var rpcErr *jsonrpc.RPCError
	if errors.As(err, &rpcErr) {
		if unavailableCodes[rpcErr.Code] {
			return newError(op, KindUnavailable, rpcError{rpcErr})
		}
		return newError(op, KindBadResponse, rpcError{rpcErr})
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return newError(op, KindTimeout, err)
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) || strings.Contains(err.Error(), "could not decode body") {
		return newError(op, KindBadResponse, err)
	}
	// Everything else is about the transport: refused or reset connections, DNS failures, EOF
	// mid-response.
	return newError(op, KindUnavailable, err)
}

// statusKind is the kind of a non-2xx HTTP answer.
func statusKind(code int) ErrorKind {
	switch {
	case code == http.StatusGatewayTimeout || code == http.StatusRequestTimeout:
		return KindTimeout
	case code >= 500 || code == http.StatusTooManyRequests:
		return KindUnavailable
	}
	return KindBadResponse
}

// rpcError renders a JSON-RPC error compactly for logs (jsonrpc.RPCError's own Error() is a
// multi-line dump).
type rpcError struct{ e *jsonrpc.RPCError }

func (r rpcError) Error() string {
	msg := fmt.Sprintf("JSON-RPC error %d: %s", r.e.Code, r.e.Message)
	if r.e.Data != nil {
		if b, err := json.Marshal(r.e.Data); err == nil && len(b) <= 2048 {
			msg += " " + string(b)
		}
	}
	return msg
}

func (r rpcError) Unwrap() error { return r.e }
