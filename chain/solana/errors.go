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

// ErrorKind says why an RPC read failed, so callers can choose a status without parsing messages.
type ErrorKind string

// Error kinds.
const (
	// KindUnavailable: no RPC URL could be reached or each refused service (connection refused or
	// reset, DNS failure, HTTP 5xx or 429, a JSON-RPC "node unhealthy" or rate-limit answer). The
	// API answers 503 upstream_unavailable.
	KindUnavailable ErrorKind = "unavailable"
	// KindTimeout: the call's deadline (the caller's, or Options.CallTimeout) passed before an RPC
	// answered, or HTTP 408/504. The API answers 504 upstream_timeout.
	KindTimeout ErrorKind = "timeout"
	// KindCanceled: the caller's context was canceled. The API answers 499 client_closed_request.
	KindCanceled ErrorKind = "canceled"
	// KindBadResponse: an RPC answered, but with a JSON-RPC error, malformed JSON, an answer larger
	// than Options.MaxResponseBytes, or data that does not decode as Solana's documented shapes. The
	// API answers 502 upstream_error.
	KindBadResponse ErrorKind = "bad_response"
)

// Error is the error type of every RPC failure the adapter returns. Error() is a generic message
// that is safe to show to API callers: it names the operation and the kind, never an RPC's own
// text or URL. The cause (with the RPC's text) is available through Unwrap and Detail, for logs.
//
// Errors about the caller's input are not *Error: they wrap chain.ErrInvalidAddress,
// chain.ErrInvalidAmount, ErrInvalidSignature, ErrInvalidToken, ErrNotSupported or
// ErrPrerequisite, or are a *SimulationError (see their docs for the API codes).
type Error struct {
	Kind  ErrorKind
	Op    string // the operation, e.g. "holdings"
	cause error
}

var publicText = map[ErrorKind]string{
	KindUnavailable: "chain RPC unavailable",
	KindTimeout:     "chain RPC timed out",
	KindCanceled:    "request canceled",
	KindBadResponse: "chain RPC returned an unusable response",
}

// Error returns the caller-safe message.
func (e *Error) Error() string { return "solana " + e.Op + ": " + publicText[e.Kind] }

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

// Detail is the message for logs: the safe message plus the cause, which may contain the RPC's
// text (never a configured URL: requests are addressed to a placeholder, see failover).
func (e *Error) Detail() string {
	if e.cause == nil {
		return e.Error()
	}
	return e.Error() + ": " + e.cause.Error()
}

// KindOf returns the kind of an *Error in err's chain, and "" for any other error.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

// Errors about the caller's input and the chain's state, besides chain.ErrInvalidAddress (400
// invalid_address) and chain.ErrInvalidAmount (400 invalid_amount). Each is wrapped with a message
// that is safe to show.
var (
	// ErrInvalidSignature: a transaction signature that is not the base58 encoding of 64 bytes
	// (400 invalid_request).
	ErrInvalidSignature = errors.New("invalid transaction signature")
	// ErrInvalidToken: the named mint is not an initialized SPL Token or Token-2022 mint, or the
	// recipient of a token transfer is itself a token account or a mint (400 invalid_request).
	ErrInvalidToken = errors.New("invalid token")
	// ErrNotSupported: an operation the adapter does not build, such as a transfer of a
	// non-transferable token or of a token with a transfer hook (400 operation_not_supported).
	ErrNotSupported = errors.New("operation not supported")
	// ErrPrerequisite: the chain's state does not allow the build, such as a balance short of the
	// amount and fees or a frozen token account (422 prerequisite_failed).
	ErrPrerequisite = errors.New("prerequisite failed")
	// ErrResponseTooLarge is wrapped (as the cause of a KindBadResponse *Error) when an RPC's answer
	// exceeds Options.MaxResponseBytes.
	ErrResponseTooLarge = errors.New("RPC response too large")
)

// SimulationError is a build whose simulation failed (422 simulation_failed). Err is the
// transaction error as the RPC reported it (compact JSON such as {"InstructionError":[2,{"Custom":1}]});
// Logs are the program logs, for the caller's diagnosis.
type SimulationError struct {
	Err  string
	Logs []string
}

func (e *SimulationError) Error() string { return "simulation failed: " + e.Err }

func newError(op string, kind ErrorKind, cause error) *Error {
	return &Error{Kind: kind, Op: op, cause: cause}
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
