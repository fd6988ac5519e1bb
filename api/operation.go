package api

import (
	"context"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/policy"
)

// Upstream classes: where an operation's answer comes from (DESIGN.md section 2).
const (
	ClassNone     = "none"     // answered from our own state
	ClassProvider = "provider" // read from a chain adapter or provider under a deadline
	ClassEnriched = "enriched" // provider data joined with on-chain reads
	ClassCached   = "cached"   // served from a cache kept warm in the background
)

// Scopes of the contract.
const (
	ScopeMarketRead    = "market:read"
	ScopePortfolioRead = "portfolio:read"
	ScopeQuoteRead     = "quote:read"
	ScopeTxBuild       = "tx:build"
)

// Body limits of the contract.
const (
	maxBodyBytes      = 128 << 10
	bodyUploadTimeout = 15 * time.Second
)

// errorStatuses are the statuses every operation lists, besides 200.
var errorStatuses = []int{400, 401, 403, 404, 408, 409, 413, 422, 429, 499, 502, 503, 504}

// opSpec is an operation's metadata, read by every pipeline stage.
type opSpec struct {
	ID      string
	Method  string
	Path    string
	Summary string
	Tag     string
	Scope   string // empty for public operations
	Class   string
	Builder bool
	// Cost returns the call's cost, or an error that refuses the call before admission. Nil means 1.
	Cost func(huma.Context) (int, *Error)
	// Serves reports whether the operation is served on an enabled chain (availability.go). Nil: on
	// no chain (not yet built, or not chain-scoped).
	Serves func(chain.Info) bool
}

// deadline is how long a handler of the class may take.
func (o *opSpec) deadline() time.Duration {
	switch o.Class {
	case ClassCached:
		return 5 * time.Second
	case ClassProvider:
		return 10 * time.Second
	case ClassEnriched:
		return 15 * time.Second
	default:
		return 0
	}
}

const opSpecKey = "partner.op"

// specOf returns the metadata of the operation a request matched.
func specOf(ctx huma.Context) *opSpec {
	return ctx.Operation().Metadata[opSpecKey].(*opSpec)
}

// register adds one operation to the API with the contract's documentation: scope as the apiKey
// role, every error status with the Error schema, and x-upstream-class.
func register[I, O any](s *Server, spec opSpec, handler func(context.Context, *I) (*O, error)) {
	s.specs = append(s.specs, &spec)
	errSchema := s.api.OpenAPI().Components.Schemas.Schema(reflect.TypeFor[Error](), true, "Error")
	responses := map[string]*huma.Response{}
	for _, status := range errorStatuses {
		responses[strconv.Itoa(status)] = &huma.Response{
			Description: statusDescription(status),
			Content:     map[string]*huma.MediaType{"application/json": {Schema: errSchema}},
		}
	}
	op := huma.Operation{
		OperationID:     spec.ID,
		Method:          spec.Method,
		Path:            spec.Path,
		Summary:         spec.Summary,
		Tags:            []string{spec.Tag},
		Responses:       responses,
		Extensions:      map[string]any{"x-upstream-class": spec.Class},
		Metadata:        map[string]any{opSpecKey: &spec},
		MaxBodyBytes:    maxBodyBytes + 1, // Huma refuses a body that reaches the limit; exactly 128 KiB is allowed.
		BodyReadTimeout: s.deps.BodyUploadTimeout,
	}
	if spec.Scope != "" {
		op.Security = []map[string][]string{{"apiKey": {spec.Scope}}}
	} else {
		op.Security = []map[string][]string{}
	}
	huma.Register(s.api, op, handler)
}

// Operations lists every operation that needs a key, with the scope it requires.
func Operations() []policy.Operation {
	var ops []policy.Operation
	for _, spec := range New(Deps{}).specs {
		if spec.Scope != "" {
			ops = append(ops, policy.Operation{ID: spec.ID, Scope: spec.Scope})
		}
	}
	return ops
}

func statusDescription(status int) string {
	switch status {
	case StatusClientClosedRequest:
		return "Client Closed Request: the caller cancelled; its cost is refunded"
	case http.StatusTooManyRequests:
		return "Too Many Requests: the consumer's allowance is spent; see Retry-After"
	case http.StatusServiceUnavailable:
		return "Service Unavailable: an upstream or the admission store is unavailable"
	default:
		return http.StatusText(status)
	}
}
