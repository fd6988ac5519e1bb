package api

import (
	"net/http"

	"github.com/danielgtaylor/huma/v2"
)

// Code is a machine-readable error code of the error envelope. Codes are never renamed.
type Code string

// Error codes, by status (DESIGN.md section 5).
const (
	CodeInvalidRequest        Code = "invalid_request"
	CodeInvalidChain          Code = "invalid_chain"
	CodeChainNotEnabled       Code = "chain_not_enabled"
	CodeInvalidAddress        Code = "invalid_address"
	CodeInvalidAmount         Code = "invalid_amount"
	CodeTooManyOwners         Code = "too_many_owners"
	CodeMissingIdempotencyKey Code = "missing_idempotency_key"
	CodeInvalidIdempotencyKey Code = "invalid_idempotency_key"
	CodeOperationNotSupported Code = "operation_not_supported"
	CodeInvalidAPIKey         Code = "invalid_api_key"
	CodeRevokedAPIKey         Code = "revoked_api_key"
	CodeAccessDisabled        Code = "access_disabled"
	CodeScopeRequired         Code = "scope_required"
	CodeEndpointUnavailable   Code = "endpoint_unavailable"
	CodeSourceNotAllowed      Code = "source_not_allowed"
	CodeNotFound              Code = "not_found"
	CodeNoRoute               Code = "no_route"
	CodeRequestTimeout        Code = "request_timeout"
	CodeIdempotencyConflict   Code = "idempotency_conflict"
	CodeIdempotencyPending    Code = "idempotency_pending"
	CodeReviewRequired        Code = "review_required"
	CodeBodyTooLarge          Code = "body_too_large"
	CodeSimulationFailed      Code = "simulation_failed"
	CodePrerequisiteFailed    Code = "prerequisite_failed"
	CodeVerificationFailed    Code = "verification_failed"
	CodeRateLimited           Code = "rate_limited"
	CodeClientClosedRequest   Code = "client_closed_request"
	CodeInternal              Code = "internal_error"
	CodeUpstreamError         Code = "upstream_error"
	CodeUnavailable           Code = "unavailable"
	CodeUpstreamUnavailable   Code = "upstream_unavailable"
	CodeUpstreamTimeout       Code = "upstream_timeout"
)

// StatusClientClosedRequest is the status of a call whose caller went away (as nginx names it).
const StatusClientClosedRequest = 499

// codeDoc is one error code: the status it is answered with, when, and a message it may carry.
type codeDoc struct {
	code    Code
	status  int
	means   string
	example string
}

// codes is the one table of the error codes: their statuses, meanings and example messages, in
// the order of their statuses. Errorf takes the status from it; the OpenAPI document's code enum,
// its x-error-codes catalogue and every error response's examples are generated from it.
var codes = []codeDoc{
	{CodeInvalidRequest, http.StatusBadRequest, "The request is malformed: its JSON, a parameter or a field.",
		"validation failed: body.slippageBps: expected number <= 5000"},
	{CodeInvalidChain, http.StatusBadRequest, "chain (or fromChain, toChain) is not one of the contract's chains.", `unknown chain "polygon"`},
	{CodeChainNotEnabled, http.StatusBadRequest, "The chain is one of the contract's but this service does not serve it (GET /v1/chains).",
		"chain bsc is not enabled on this service (see GET /v1/chains)"},
	{CodeInvalidAddress, http.StatusBadRequest, "An address is not one of the chain's family, or a mixed-case EVM address fails its EIP-55 checksum.",
		"to 0x647DA401969aD18a3D499d7e3f39bdfd885A7078: checksum mismatch: it mixes upper and lower case but is not its EIP-55 checksummed form, " +
			"so a digit is likely mistyped: check it, or send it all in lower case"},
	{CodeInvalidAmount, http.StatusBadRequest, "An amount is not in its unit (integer base units, or a plain decimal in token units), has more decimals than the token, or exceeds its range.",
		"invalid amount: at most 6 decimals for this token"},
	{CodeTooManyOwners, http.StatusBadRequest, "A batch portfolio call names more than 24 distinct owners.", "at most 24 distinct owners per call"},
	{CodeMissingIdempotencyKey, http.StatusBadRequest, "A builder call has no Idempotency-Key header.", "builders require an Idempotency-Key header"},
	{CodeInvalidIdempotencyKey, http.StatusBadRequest, "The Idempotency-Key is empty, longer than 128 characters or not printable ASCII.",
		"Idempotency-Key must be at most 128 characters"},
	{CodeOperationNotSupported, http.StatusBadRequest, "The operation (or the venue, or an LP operation on it) is not served on the chain; the message says why.",
		"getSwapQuote is not available on base: the uniswap-v2 venue of base is configured without initCodeHash " +
			"(chains.base.venues.uniswap-v2.initCodeHash: the pair init code hash that pair addresses are derived with); " +
			"GET /v1/chains lists the operations each chain serves"},
	{CodeInvalidAPIKey, http.StatusUnauthorized, "X-API-Key is missing, malformed, unknown or expired.", "invalid API key"},
	{CodeRevokedAPIKey, http.StatusUnauthorized, "The key was revoked (or its rotation grace ended).", "API key revoked"},
	{CodeAccessDisabled, http.StatusUnauthorized, "The operators switched the consumer's access off.", "access is switched off for this consumer"},
	{CodeScopeRequired, http.StatusForbidden, "The consumer, or a restricted key, lacks the operation's scope.", "this operation requires scope market:read"},
	{CodeEndpointUnavailable, http.StatusForbidden, "The operators switched this operation off for the consumer.", "operation getPoolAudit is not available to this consumer"},
	{CodeSourceNotAllowed, http.StatusForbidden, "The caller's address is not on the consumer's (or a restricted key's) allowlist.",
		"source address 198.51.100.7 is not on this consumer's allowlist"},
	{CodeNotFound, http.StatusNotFound, "No such endpoint (or a method the path does not serve), token, pool, farm or confirmation token.",
		"token 0x833589fcd6edb6e08f4c7c32d4f71b54bda02913 not found on base"},
	{CodeNoRoute, http.StatusNotFound, "No pool path connects the two tokens, or none gives any output for the amount.",
		"no route from native to 0xfA172D7e20A062de8B89f8B03821e77072B141B3 on base: no pool path gives any output for this amount"},
	{CodeRequestTimeout, http.StatusRequestTimeout, "The request body was not uploaded within 15 seconds.", "request body was not uploaded within 15s"},
	{CodeIdempotencyConflict, http.StatusConflict, "This Idempotency-Key was used with a different body within ten minutes.", "this Idempotency-Key was used with a different body"},
	{CodeIdempotencyPending, http.StatusConflict, "A call with this Idempotency-Key is still in flight.", "a call with this Idempotency-Key is still in flight"},
	{CodeReviewRequired, http.StatusConflict, "Fresh conditions must be reviewed by a person before the build goes ahead (riskAcknowledgement names the field).",
		"the swap loses 91250 ppm of its value at the current price: review it, then build again with maxValueLossPpm >= 91250"},
	{CodeBodyTooLarge, http.StatusRequestEntityTooLarge, "The body is larger than 128 KiB.", "request body is larger than 131072 bytes"},
	{CodeSimulationFailed, http.StatusUnprocessableEntity, "A built transaction reverts in simulation (reasons says why).",
		"the build would revert: swap: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT"},
	{CodePrerequisiteFailed, http.StatusUnprocessableEntity, "A prerequisite of signing fails: a balance, a stake or rewards are short.",
		"the balance of 0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d is 12.5 USDC, less than 100"},
	{CodeVerificationFailed, http.StatusUnprocessableEntity, "Confirm found a transaction that is not the one built, or that failed (verification says which).",
		"what was mined is not what was built, or it failed: see verification"},
	{CodeRateLimited, http.StatusTooManyRequests, "The consumer's rate-limit allowance is spent (or the call costs more than its burst: reason cost_exceeds_burst).",
		"rate limit exceeded; retry after 3 s"},
	{CodeClientClosedRequest, StatusClientClosedRequest, "The caller went away before the answer; its cost is refunded.", "the caller cancelled the request"},
	{CodeInternal, http.StatusBadGateway, "The service failed in a way it does not recognise (a bug, logged under the request id); a bounded retry is safe.",
		"the service failed unexpectedly; it is logged under this requestId"},
	{CodeUpstreamError, http.StatusBadGateway, "A chain's RPC or a provider answered with something unusable.", "the chain's RPC returned an unusable response"},
	{CodeUnavailable, http.StatusServiceUnavailable, "One of the service's own stores (its database, Redis) is unavailable for a moment: fail closed; Retry-After says when to come back.",
		"admission is temporarily unavailable"},
	{CodeUpstreamUnavailable, http.StatusServiceUnavailable, "A chain's RPC or a provider is unavailable.", "the chain's RPC is unavailable"},
	{CodeUpstreamTimeout, http.StatusGatewayTimeout, "A chain's RPC or a provider did not answer before the operation's deadline.", "the chain did not answer in time"},
}

// statusOf is the status of each code (from codes).
var statusOf = func() map[Code]int {
	m := make(map[Code]int, len(codes))
	for _, c := range codes {
		m[c.code] = c.status
	}
	return m
}()

// codesOf lists the codes a status carries, in table order.
func codesOf(status int) []codeDoc {
	var out []codeDoc
	for _, c := range codes {
		if c.status == status {
			out = append(out, c)
		}
	}
	return out
}

// Schema documents Code as the enum of every code. The catalogue of what each means, x-error-codes,
// is on the error envelope's code alone (errorCodeCatalogue).
func (Code) Schema(huma.Registry) *huma.Schema {
	s := &huma.Schema{Type: huma.TypeString, Examples: []any{string(CodeInvalidAddress)},
		Description: "Machine-readable error code. Codes are never renamed; new ones may be added, so treat an unknown code by its status."}
	for _, c := range codes {
		s.Enum = append(s.Enum, string(c.code))
	}
	return s
}

// errorCodeCatalogue is x-error-codes: each code's status and meaning, in table order.
func errorCodeCatalogue() []map[string]any {
	catalogue := make([]map[string]any, 0, len(codes))
	for _, c := range codes {
		catalogue = append(catalogue, map[string]any{"code": string(c.code), "status": c.status, "description": c.means})
	}
	return catalogue
}
