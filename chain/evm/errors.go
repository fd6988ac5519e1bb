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

// ErrorKind says why a read failed (chain.UpstreamKind).
type ErrorKind = chain.UpstreamKind

// Error kinds (see chain.UpstreamKind).
const (
	KindUnavailable  = chain.UpstreamUnavailable
	KindTimeout      = chain.UpstreamTimeout
	KindCanceled     = chain.UpstreamCanceled
	KindBadResponse  = chain.UpstreamBadResponse
	KindInvalidInput = chain.UpstreamInvalidInput // for example a zero Multicall3 address
)

// Error is the only error type the Reader returns: a chain.UpstreamError of family "evm".
type Error = chain.UpstreamError

// KindOf returns the kind of an error returned by the Reader, and "" for any other error.
func KindOf(err error) ErrorKind { return chain.UpstreamKindOf(err) }

func newError(op string, kind ErrorKind, cause error) *Error {
	return chain.NewUpstreamError("evm", op, kind, cause)
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
