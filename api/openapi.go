package api

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/metering"
)

// The OpenAPI document, beyond what each operation declares: servers, tags, the response headers
// and error responses every operation shares, and examples at media-type level. Clients generated
// from it must see every header we send and tolerate fields added later (contract section 9), so
// response schemas allow additional properties.

func init() {
	// Lists this API returns are never null: an empty list is []. Go nil slices must therefore not
	// reach a response (TestOperationsAnswerTheirSchema validates live answers).
	huma.DefaultArrayNullable = false
}

// tags are the capability groups of the contract, in its order.
var tags = []*huma.Tag{
	{Name: "Meta", Description: "The contract itself and the supported chains. Public: no key."},
	{Name: "Market", Description: "Tokens, pools, prices, trades, holders, charts and audits, from the service's chain index and live reads. Scope market:read."},
	{Name: "Portfolio", Description: "Wallet holdings and liquidity positions, for one owner or up to 24 at once. Scope portfolio:read."},
	{Name: "Quotes", Description: "Swap and bridge quotes, and the status of a submitted transaction. Scope quote:read."},
	{Name: "Builders", Description: "Unsigned transactions for the caller's own wallet to sign and send; the service never signs or submits. " +
		"POST with a JSON body and an Idempotency-Key header. Scope tx:build."},
}

func humaConfig() huma.Config {
	cfg := huma.DefaultConfig("Partner Market, Portfolio, Quote and Unsigned-Transaction API", Version)
	cfg.CreateHooks = nil // no $schema links in bodies
	cfg.OpenAPIPath = ""  // served by the getOpenAPI operation, so it is documented like the others
	cfg.DocsPath = ""
	cfg.SchemasPath = ""
	// Responses may gain fields at any time (contract section 9). Request bodies accept extra
	// fields too, as the contract's builders do; a request type that must be strict says so.
	cfg.AllowAdditionalPropertiesByDefault = true
	// JSON is the only format, so Huma's negotiation falls back to it whatever the caller accepts:
	// a caller asking for NDJSON gets JSON, never 406.
	cfg.Formats = map[string]huma.Format{"application/json": huma.DefaultJSONFormat}
	cfg.Info.Description = "Server-to-server API for partner backends: market data, portfolio data, quotes and unsigned transactions. " +
		"Authenticate with the X-API-Key header; GET /v1/chains lists the enabled chains and the operations each serves. " +
		"Every error has the body {ok:false, error, code, requestId} and the status says what happened. " +
		"Each call costs rate-limit units (1, or 10 per distinct owner on batch portfolio calls) from the consumer's bucket, " +
		"shared by all its keys. Responses may gain fields at any time: ignore the ones you do not know."
	cfg.Info.Contact = &huma.Contact{Name: "The operators of this service (see the console)"}
	cfg.Info.License = &huma.License{Name: "Proprietary: use under your partner agreement", Identifier: "LicenseRef-Partner-Agreement"}
	cfg.Servers = []*huma.Server{{URL: "/", Description: "This service: the origin that serves this document."}}
	cfg.Tags = tags
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"apiKey": {Type: "apiKey", In: "header", Name: "X-API-Key",
			Description: "A live key, pk_live_…, created in the console; its consumer's scopes are the roles each operation names."},
	}
	cfg.Components.Headers = responseHeaders
	cfg.Components.Responses = errorResponses()
	return cfg
}

// Response headers, declared once under components.headers.
var responseHeaders = map[string]*huma.Header{
	"X-Request-Id": {Description: "The request's id, new for every response (a replay too); error bodies repeat it as requestId.",
		Required: true, Schema: &huma.Schema{Type: "string"}, Example: "req_4da6ea165f9579dc46991bf53b400a82"},
	"Cache-Control": {Description: "private, no-store on every response of an operation that takes a key.",
		Schema: &huma.Schema{Type: "string"}, Example: "private, no-store"},
	"X-RateLimit-Limit": {Description: "On admitted calls and 429: the consumer's burst, the most rate-limit units it can spend at once.",
		Schema: &huma.Schema{Type: "integer"}, Example: 100},
	"X-RateLimit-Remaining": {Description: "On admitted calls and 429: units left in the consumer's bucket when this call was admitted " +
		"(a snapshot that concurrent calls may change).", Schema: &huma.Schema{Type: "integer"}, Example: 87},
	"RateLimit-Policy": {Description: "On admitted calls and 429: the consumer's limits as an IETF RateLimit-Policy list: " +
		`"burst" allows q units at once, "rate" refills q units per w seconds. Units are rate-limit units, not requests.`,
		Schema: &huma.Schema{Type: "string"}, Example: `"burst";q=100, "rate";q=600;w=60`},
	"Retry-After": {Description: "On 429 and on 503 unavailable: seconds to wait before retrying (also retryAfterSec in the body). " +
		"On a 429 with reason cost_exceeds_burst waiting will not help: it is the time the whole burst takes to refill.",
		Schema: &huma.Schema{Type: "integer"}, Example: 3},
	"Idempotent-Replayed": {Description: "Builders: true when this answer is replayed from an earlier call with the same Idempotency-Key and body.",
		Schema: &huma.Schema{Type: "string", Enum: []any{"true"}}, Example: "true"},
	"Original-Request-Id": {Description: "Builders, on a replay: the request id of the call whose answer is replayed.",
		Schema: &huma.Schema{Type: "string"}, Example: "req_9b1e0c7a2f4d4e8e9c3a6b5d7f8e1a20"},
}

// headerRefs references the named component headers.
func headerRefs(names ...string) map[string]*huma.Header {
	out := make(map[string]*huma.Header, len(names))
	for _, n := range names {
		out[n] = &huma.Header{Ref: "#/components/headers/" + n}
	}
	return out
}

// successHeaders are the headers of an operation's 200 answer.
func successHeaders(spec *opSpec) map[string]*huma.Header {
	names := []string{"X-Request-Id"}
	if spec.Scope != "" {
		names = append(names, "Cache-Control", "X-RateLimit-Limit", "X-RateLimit-Remaining", "RateLimit-Policy")
	}
	if spec.Builder {
		names = append(names, "Idempotent-Replayed", "Original-Request-Id")
	}
	return headerRefs(names...)
}

// errorDocs documents each error status: its response's name, what it means for the caller, and
// examples besides the one per code that errorResponses generates from the codes table: a code
// with a reason or metadata of its own.
var errorDocs = map[int]struct {
	name, description string
	extra             []*Error
}{
	400: {"BadRequest", "Invalid request: JSON, chain, address, amount or an operation not available on the chain. Correct the request.", nil},
	401: {"Unauthorized", "Invalid, revoked or expired key, or the consumer's access is off. Check the key and access.", nil},
	403: {"Forbidden", "A missing scope, an operation switched off for the consumer, or a source address off its allowlist. " +
		"A restricted key (one created with a subset of its consumer's scopes, or with its own source allowlist) is also refused " +
		"outside its own scopes (scope_required) or allowlist (source_not_allowed), with a message saying the key is restricted: " +
		"a call must pass both the key's restriction and its consumer's grants.", []*Error{
		Errorf(CodeScopeRequired, "this API key is restricted to scopes market:read; this operation requires scope quote:read (create a key with that scope in the console)"),
		Errorf(CodeSourceNotAllowed, "source address 198.51.100.7 is not on this API key's own allowlist (the key is restricted)"),
	}},
	404: {"NotFound", "No such endpoint (also a path called with another method than its own), or no such resource.", nil},
	408: {"RequestTimeout", "The request body was not uploaded within 15 seconds. Upload faster.", nil},
	409: {"Conflict", "An Idempotency-Key still in flight or used with another body, or fresh conditions that must be reviewed.", nil},
	413: {"PayloadTooLarge", "The body is larger than 128 KiB. Shrink it.", nil},
	422: {"UnprocessableEntity", "A simulation, signing prerequisite or confirmation check failed. Inspect, refresh safely.", nil},
	429: {"TooManyRequests", "The consumer's allowance is spent: wait Retry-After seconds, with jitter. The allowance is shared by all the consumer's keys; " +
		"reason cost_exceeds_burst means the call costs more than the burst and can never be admitted: waiting will not help " +
		"(split the call, or ask for a larger burst); its Retry-After is the time the whole burst takes to refill.", []*Error{
		rateLimited(&metering.Refusal{Never: true, Remaining: 100}, 240, metering.Limit{RatePerMinute: 600, Burst: 100}),
	}},
	StatusClientClosedRequest: {"ClientClosedRequest", "The caller cancelled; its cost is refunded, and a cancelled build never broadcasts.", nil},
	502: {"BadGateway", "An upstream failed (upstream_error), or the service itself failed unexpectedly (internal_error, logged under the " +
		"request id). Retry with bounded backoff.", nil},
	503: {"ServiceUnavailable", "An upstream or this service's store is unavailable (admission fails closed). Retry with bounded backoff, builders with the same key and body; " +
		"code unavailable (our own store or admission) says when in Retry-After.", nil},
	504: {"GatewayTimeout", "A read passed its deadline. Retry with bounded backoff.", nil},
}

// codeExample is the documented example of a code: its table message, with the metadata the code
// carries.
func codeExample(c codeDoc) *Error {
	e := Errorf(c.code, "%s", c.example)
	switch c.code {
	case CodeRateLimited:
		e = rateLimited(&metering.Refusal{RetryAfter: 3 * time.Second}, 1, metering.Limit{RatePerMinute: 600, Burst: 100})
	case CodeReviewRequired:
		loss := 91250
		e.ValueLossPpm, e.RiskAcknowledgement = &loss, "maxValueLossPpm"
	case CodeSimulationFailed:
		e.Reasons = []string{"swap: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT"}
	case CodeVerificationFailed:
		e.Verification = map[string]TxVerification{
			"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a": {ID: "swap", Result: "mismatch", Fields: []string{"data"}},
			"0x9a0e3c4d7b2f1e8a6c5d4b3a2918f7e6d5c4b3a29180f7e6d5c4b3a291807f6e": {ID: "approve", Result: "reverted", Block: 38512345,
				Reason: "ERC20: approve to the zero address"},
		}
	}
	return e
}

// errorResponses are the shared error responses, one per status of the contract, each with an
// example per code it carries (named by the code) and its extra examples (named by their reason or
// their kind of key).
func errorResponses() map[string]*huma.Response {
	out := map[string]*huma.Response{}
	for _, status := range errorStatuses {
		doc := errorDocs[status]
		headers := headerRefs("X-Request-Id", "Cache-Control", "X-RateLimit-Limit", "X-RateLimit-Remaining", "RateLimit-Policy",
			"Idempotent-Replayed", "Original-Request-Id")
		if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
			headers["Retry-After"] = &huma.Header{Ref: "#/components/headers/Retry-After"}
		}
		examples := map[string]*huma.Example{}
		add := func(name, summary string, e *Error) {
			ex := *e // a copy: doc.extra's errors are shared by every server built
			ex.RequestID = "req_4da6ea165f9579dc46991bf53b400a82"
			examples[name] = &huma.Example{Summary: summary, Value: &ex}
		}
		for _, c := range codesOf(status) {
			add(string(c.code), c.means, codeExample(c))
		}
		for _, e := range doc.extra {
			name := e.Reason
			if name == "" {
				name = "restricted_key_" + strings.TrimSuffix(strings.TrimSuffix(string(e.Code), "_required"), "_not_allowed")
			}
			add(name, string(e.Code)+": "+e.Message, e)
		}
		out[doc.name] = &huma.Response{
			Description: doc.description,
			Headers:     headers,
			Content:     map[string]*huma.MediaType{"application/json": {Schema: &huma.Schema{Ref: "#/components/schemas/Error"}, Examples: examples}},
		}
	}
	return out
}

// errorResponseRefs are an operation's error responses: references to the shared ones.
func errorResponseRefs() map[string]*huma.Response {
	out := map[string]*huma.Response{}
	for _, status := range errorStatuses {
		out[strconv.Itoa(status)] = &huma.Response{Ref: "#/components/responses/" + errorDocs[status].name}
	}
	return out
}

// omitOpenAdditionalProperties drops additionalProperties: true from the component schemas: it is
// JSON Schema's default, and spelled out it makes client generators wrap every type in custom
// (un)marshalling of an extra-fields map. additionalProperties false never appears (humaConfig).
func omitOpenAdditionalProperties(doc *huma.OpenAPI) {
	var walk func(s *huma.Schema)
	walk = func(s *huma.Schema) {
		if s == nil {
			return
		}
		if open, ok := s.AdditionalProperties.(bool); ok && open {
			s.AdditionalProperties = nil
		}
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
	}
	for _, s := range doc.Components.Schemas.Map() {
		walk(s)
	}
}

// described is the TransformSchema (huma.SchemaTransformer) of a type documented in the OpenAPI
// document: its schema with the type's description. Each component schema's type says what it is
// this way, next to its fields' doc tags.
func described(s *huma.Schema, description string) *huma.Schema {
	s.Description = description
	return s
}

// addPropertyExamples gives each property of the component schemas registered so far that is an
// object, an array or a reference, and has no example, one composed from its parts' examples
// (exampleOf), as each leaf property has its own: register calls it after each operation.
func addPropertyExamples(reg huma.Registry) {
	for _, s := range reg.Map() {
		for _, p := range s.Properties {
			if len(p.Examples) == 0 && (p.Ref != "" || p.Type == huma.TypeObject || p.Type == huma.TypeArray) {
				if v := exampleOf(reg, p); v != nil {
					p.Examples = []any{v}
				}
			}
		}
	}
}

// addMediaExamples gives every request and response body without an example one composed from its
// schema's property examples, so that the rendered reference and generated mocks show real values.
func addMediaExamples(doc *huma.OpenAPI) {
	reg := doc.Components.Schemas
	for _, item := range doc.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post} {
			if op == nil {
				continue
			}
			var media []*huma.MediaType
			if op.RequestBody != nil {
				media = append(media, op.RequestBody.Content["application/json"])
			}
			if r := op.Responses["200"]; r != nil {
				media = append(media, r.Content["application/json"])
			}
			for _, m := range media {
				if m != nil && m.Example == nil && len(m.Examples) == 0 {
					m.Example = exampleOf(reg, m.Schema)
				}
			}
		}
	}
}

// exampleOf composes an example value of schema s from the examples of its parts.
func exampleOf(reg huma.Registry, s *huma.Schema) any {
	switch {
	case s == nil:
		return nil
	case len(s.Examples) > 0:
		return s.Examples[0]
	case s.Ref != "":
		return exampleOf(reg, reg.SchemaFromRef(s.Ref))
	case len(s.Enum) > 0:
		return s.Enum[0]
	case len(s.OneOf) > 0: // a union: its first alternative
		return exampleOf(reg, s.OneOf[0])
	}
	switch s.Type {
	case huma.TypeObject:
		out := map[string]any{}
		for name, p := range s.Properties {
			if v := exampleOf(reg, p); v != nil {
				out[name] = v
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case huma.TypeArray:
		if v := exampleOf(reg, s.Items); v != nil {
			return []any{v}
		}
	}
	return nil
}
