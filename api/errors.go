package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/trade"
)

// Error is the failure envelope {ok:false, error, code, requestId} plus optional metadata. Its
// message is public; cause is logged, never sent.
type Error struct {
	OK            bool     `json:"ok" doc:"Always false." example:"false"`
	Message       string   `json:"error" doc:"Human-readable message; never an upstream's own text." example:"mint must be an EVM address (0x followed by 40 hex digits)"`
	Code          Code     `json:"code" doc:"Machine-readable error code: one of these, each answered with one status (x-error-codes lists each code's status and meaning). Codes are never renamed; new ones may be added, so treat an unknown code by its status." example:"invalid_address"`
	RequestID     string   `json:"requestId" doc:"The request id, also in the X-Request-Id header." example:"req_4da6ea165f9579dc46991bf53b400a82"`
	Reason        string   `json:"reason,omitempty" doc:"Why, where a code has several causes (429: cost_exceeds_burst when the call costs more than the burst and can never be admitted: waiting will not help)." example:"cost_exceeds_burst"`
	Reasons       []string `json:"reasons,omitempty" doc:"Every reason, where several apply." example:"simulation_reverted,insufficient_allowance"`
	EndpointCode  string   `json:"endpointCode,omitempty" doc:"The code an upstream endpoint gave, where it helps the caller." example:"SLIPPAGE_EXCEEDED"`
	RetryAfterSec *int     `json:"retryAfterSec,omitempty" doc:"Seconds to wait before retrying (429), as in Retry-After." example:"3"`
	// Verification says, per transaction, what confirming a build found wrong on the chain.
	Verification map[string]TxVerification `json:"verification,omitempty" doc:"422 verification_failed: per transaction hash (EVM) or signature (Solana) that failed verification, what was found." example:"{\"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a\":{\"id\":\"swap\",\"result\":\"mismatch\",\"fields\":[\"data\"]}}"`
	// RiskAcknowledgement, ValueLossPpm, HighFeeLastResort and HookAddress describe fresh conditions
	// that a 409 review_required asks the caller to review; callers never acknowledge them automatically.
	RiskAcknowledgement string `json:"riskAcknowledgement,omitempty" doc:"409 review_required: the request field a reviewed build must set to go ahead (never set it automatically)." example:"maxValueLossPpm"`
	ValueLossPpm        *int   `json:"valueLossPpm,omitempty" doc:"409 review_required: the value the build would lose at fresh conditions, parts per million." example:"12500"`
	HighFeeLastResort   *bool  `json:"highFeeLastResort,omitempty" doc:"409 review_required: the only route left pays an unusually high fee." example:"true"`
	HookAddress         string `json:"hookAddress,omitempty" doc:"409 review_required: the Uniswap v4 hook whose swap cost must be approved (v4SwapCostApproval)." example:"0x0000000000000000000000000000000000000c40"`
	// FreshQuote is the fresh quote a Solana swap build's 409 review_required gives.
	FreshQuote *SolanaQuote `json:"freshQuote,omitempty" doc:"409 review_required of a Solana swap build: a fresh quote of the same swap (the sent one expired, or the pools moved beyond its slippage); review it, then build with it as quoteResponse."`

	status  int
	cause   error
	headers http.Header
}

// TransformSchema describes Error in the OpenAPI document.
func (Error) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	s.Properties["code"].Extensions = map[string]any{"x-error-codes": errorCodeCatalogue()}
	return described(s, "The failure envelope, answered with every error status: ok false, a human-readable message, a machine-readable code (x-error-codes lists each with its status), the request id, and metadata fields where the code carries them.")
}

// TxVerification is what confirming found wrong with one transaction of a build.
type TxVerification struct {
	ID     string   `json:"id" doc:"The build's transaction id (swap, approve, transfer ...)." example:"swap"`
	Result string   `json:"result" enum:"mismatch,reverted,failed" doc:"mismatch: what was mined is not the call that was built; reverted: the EVM call reverted; failed: the Solana transaction failed." example:"mismatch"`
	Fields []string `json:"fields,omitempty" doc:"mismatch: what differs from the build (EVM: from, to, data, value; Solana: signer, instructions ...)." example:"data"`
	Block  uint64   `json:"block,omitempty" doc:"reverted: the block the call was mined in." example:"38512345"`
	Slot   uint64   `json:"slot,omitempty" doc:"failed: the slot the transaction landed in." example:"301234567"`
	Reason string   `json:"reason,omitempty" doc:"reverted or failed: the revert reason or the program error, when known." example:"UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT"`
}

// TransformSchema describes TxVerification in the OpenAPI document.
func (TxVerification) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "What confirming a build found wrong with one of its transactions on the chain (422 verification_failed).")
}

// Errorf returns an error with the given code and public message.
func Errorf(code Code, format string, args ...any) *Error {
	status, ok := statusOf[code]
	if !ok {
		panic(fmt.Sprintf("api: error code %q has no status", code))
	}
	e := &Error{Code: code, Message: fmt.Sprintf(format, args...), status: status}
	if code == CodeUnavailable {
		// A store or dependency of ours is down for a moment (they fail closed and recover on
		// their own within about a second): say when to come back.
		secs := unavailableRetryAfter
		e.RetryAfterSec = &secs
		e.WithHeader("Retry-After", strconv.Itoa(secs))
	}
	return e
}

// unavailableRetryAfter is the Retry-After, in seconds, of every 503 unavailable: the store health
// watcher probes several times a second and Redis admission recovers on the next call, so a second
// is enough to see the dependency back.
const unavailableRetryAfter = 1

// WithCause attaches a private cause, logged but never sent.
func (e *Error) WithCause(err error) *Error { e.cause = err; return e }

// WithHeader adds a response header sent with the error, spelled exactly as given.
func (e *Error) WithHeader(name, value string) *Error {
	if e.headers == nil {
		e.headers = http.Header{}
	}
	e.headers[name] = []string{value}
	return e
}

// Error implements error with the public message and the code.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// GetStatus implements huma.StatusError.
func (e *Error) GetStatus() int { return e.status }

// GetHeaders implements huma.HeadersError.
func (e *Error) GetHeaders() http.Header { return e.headers }

// Unwrap returns the private cause.
func (e *Error) Unwrap() error { return e.cause }

// internalError hides err, a failure the service does not recognise (a bug), behind a generic
// message: 502 internal_error, logged at ERROR with its cause and counted in /metrics. The contract
// lists no 500; of its statuses, 502 says that the service failed to produce an answer without
// claiming an outage to wait out (503) or a slow upstream (504), and its advice, a bounded retry,
// is safe (builders keep no answer of a 5xx, so a retry with the same Idempotency-Key runs again).
func internalError(err error) *Error {
	return Errorf(CodeInternal, "the service failed unexpectedly; it is logged under this requestId").WithCause(err)
}

// unexpected answers an error no case recognised: an outage of one of the service's stores
// (store.Unavailable) is 503 unavailable saying what (key verification, admission ...) cannot be
// done for the moment; anything else is internalError, never dressed up as an outage.
func unexpected(what string, err error) *Error {
	if store.Unavailable(err) {
		return Errorf(CodeUnavailable, "%s is temporarily unavailable", what).WithCause(err)
	}
	return internalError(err)
}

// readError maps an error of the market or portfolio services (and the chain sources and store
// beneath them) to the envelope. Upstream failures get generic messages: an RPC's own text is logged
// through the cause, never sent.
func readError(err error) *Error {
	switch {
	case errors.Is(err, market.ErrNotFound):
		return Errorf(CodeNotFound, "%s", err.Error())
	case errors.Is(err, chain.ErrInvalidAddress), errors.Is(err, chain.ErrInvalidOwner):
		return Errorf(CodeInvalidAddress, "%s", err.Error())
	case errors.Is(err, market.ErrInvalid):
		return Errorf(CodeInvalidRequest, "%s", err.Error())
	case errors.Is(err, chain.ErrUpstreamTimeout), errors.Is(err, context.DeadlineExceeded):
		return Errorf(CodeUpstreamTimeout, "the chain did not answer in time").WithCause(err)
	case errors.Is(err, chain.ErrUpstreamUnavailable):
		return Errorf(CodeUpstreamUnavailable, "the chain's RPC is unavailable").WithCause(err)
	case errors.Is(err, chain.ErrUpstreamBadResponse):
		return Errorf(CodeUpstreamError, "the chain's RPC returned an unusable response").WithCause(err)
	case errors.Is(err, chain.ErrCanceled), errors.Is(err, context.Canceled):
		return Errorf(CodeClientClosedRequest, "request canceled").WithCause(err)
	}
	return unexpected("the service's store", err)
}

// tradeError maps an error of the trade service (and the chain adapter and store beneath it) to the
// envelope, with the metadata a 409 review, a 422 simulation or a 422 verification carries.
func tradeError(err error) *Error {
	var review *trade.ReviewError
	var quoteReview *trade.QuoteReviewError
	var sim *trade.SimulationError
	var verify *trade.VerificationError
	switch {
	case errors.As(err, &review):
		e := Errorf(CodeReviewRequired, "%s", review.Error())
		e.ValueLossPpm, e.RiskAcknowledgement = &review.ValueLossPpm, "maxValueLossPpm"
		return e
	case errors.As(err, &quoteReview):
		e := Errorf(CodeReviewRequired, "%s", quoteReview.Error())
		if quoteReview.Fresh != nil {
			fq := solanaQuote(*quoteReview.Fresh)
			e.FreshQuote, e.RiskAcknowledgement = &fq, "quoteResponse"
		}
		return e
	case errors.As(err, &sim):
		e := Errorf(CodeSimulationFailed, "the build would revert: %s", strings.Join(sim.Reasons, "; "))
		e.Reasons = sim.Reasons
		return e
	case errors.As(err, &verify):
		e := Errorf(CodeVerificationFailed, "what was mined is not what was built, or it failed: see verification")
		e.Verification = map[string]TxVerification{}
		for hash, v := range verify.Verification {
			e.Verification[hash] = TxVerification{ID: v.ID, Result: v.Result, Fields: v.Fields, Block: v.Block, Slot: v.Slot, Reason: v.Reason}
		}
		return e
	case errors.Is(err, trade.ErrNoRoute):
		return Errorf(CodeNoRoute, "%s", err.Error())
	case errors.Is(err, trade.ErrNotFound):
		return Errorf(CodeNotFound, "%s", err.Error())
	case errors.Is(err, trade.ErrInvalidAmount):
		return Errorf(CodeInvalidAmount, "%s", err.Error())
	case errors.Is(err, chain.ErrInvalidAddress):
		return Errorf(CodeInvalidAddress, "%s", err.Error())
	case errors.Is(err, trade.ErrInvalid):
		return Errorf(CodeInvalidRequest, "%s", err.Error())
	case errors.Is(err, trade.ErrNotSupported):
		return Errorf(CodeOperationNotSupported, "%s", err.Error())
	case errors.Is(err, trade.ErrPrerequisite):
		return Errorf(CodePrerequisiteFailed, "%s", err.Error())
	}
	return readError(err)
}

// fromHuma turns the errors Huma raises itself (parameter and body validation, body size and upload
// time, content negotiation) into the envelope. Schema and parameter errors are 400, not Huma's 422:
// 422 is kept for failed simulations and signing prerequisites.
func fromHuma(status int, msg string, errs ...error) *Error {
	var details []string
	code := CodeInvalidRequest
	for _, err := range errs {
		var d *huma.ErrorDetail
		if errors.As(err, &d) {
			switch _, name, _ := strings.Cut(d.Location, "."); {
			case name == "chain":
				code = CodeInvalidChain
			case strings.HasPrefix(name, "amount"): // amount, amountA, amountB: their patterns
				code = CodeInvalidAmount
				d = &huma.ErrorDetail{Location: d.Location, Message: amountPatternMessage(d.Message), Value: d.Value}
			}
			details = append(details, strings.TrimSpace(d.Location+": "+d.Message))
		} else if err != nil && status < 500 {
			details = append(details, err.Error())
		}
	}
	if len(details) > 0 {
		msg = msg + ": " + strings.Join(details, "; ")
	}
	switch {
	case status == http.StatusRequestEntityTooLarge:
		return Errorf(CodeBodyTooLarge, "request body is larger than %d bytes", maxBodyBytes)
	case status == http.StatusRequestTimeout:
		return Errorf(CodeRequestTimeout, "request body was not uploaded within %s", bodyUploadTimeout)
	case status == http.StatusNotFound:
		return Errorf(CodeNotFound, "%s", msg)
	case status >= 500:
		return internalError(fmt.Errorf("huma %d: %s: %w", status, msg, errors.Join(errs...)))
	default: // 400, 406, 415, 422 and anything else a caller caused
		return Errorf(code, "%s", msg)
	}
}

// Amount patterns of the request schemas, and what a caller whose amount does not match is told.
const (
	baseUnitsPattern   = `^[1-9][0-9]*$`
	humanAmountPattern = `^(0|[1-9][0-9]*)(\.[0-9]+)?$`
)

// amountPatternMessage says in words what an amount that does not match its pattern must be.
func amountPatternMessage(msg string) string {
	switch {
	case strings.Contains(msg, baseUnitsPattern):
		return "want integer base units (digits only: no sign, decimal point or exponent), such as 1500000 for 1.5 of a token with 6 decimals"
	case strings.Contains(msg, humanAmountPattern):
		return "want a plain decimal in token units, such as 12.5 (no sign, exponent or leading zeros)"
	case strings.Contains(msg, "expected length <="):
		return "exceeds the token's range: no token holds more than 2^256 - 1 base units (78 digits)"
	}
	return msg
}

func init() {
	// Huma builds its own errors through these hooks; every one of them becomes our envelope.
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		return fromHuma(status, msg, errs...)
	}
	huma.NewErrorWithContext = func(_ huma.Context, status int, msg string, errs ...error) huma.StatusError {
		return fromHuma(status, msg, errs...)
	}
}
