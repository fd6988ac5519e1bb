package api

import (
	"context"
	"net/http"
	"reflect"
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
	// Description says what the operation answers; register appends its scope, cost and class.
	Description string
	// Returns says what a 200 answers: its response's description (Huma's "OK" when empty).
	Returns string
	// Body says what the request body carries: its description, on an operation that takes one.
	Body    string
	Tag     string
	Scope   string // empty for public operations
	Class   string
	Builder bool
	// Cost returns the call's cost, or an error that refuses the call before admission. Nil means 1.
	Cost func(huma.Context) (int, *Error)
	// Serves reports whether the operation's service serves an enabled chain (availability.go). Nil:
	// on no chain (not yet built, or not chain-scoped).
	Serves func(chain.Info) bool
	// Needs is the venue capability the operation needs on a chain (pools, swaps ...); empty: none.
	Needs chain.Capability
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
// role, every error status with the shared error responses, the response headers, what its 200 and
// its request body are, and x-upstream-class; then it says each parameter's description once
// (undoubleParamDescriptions) and gives the properties of the schemas registered so far their
// examples (addPropertyExamples).
func register[I, O any](s *Server, spec opSpec, handler func(context.Context, *I) (*O, error)) {
	s.specs = append(s.specs, &spec)
	s.api.OpenAPI().Components.Schemas.Schema(reflect.TypeFor[Error](), true, "Error")
	responses := errorResponseRefs()
	returns := spec.Returns
	if returns == "" {
		returns = "OK"
	}
	responses["200"] = &huma.Response{Description: returns, Headers: successHeaders(&spec)}
	op := huma.Operation{
		OperationID:     spec.ID,
		Method:          spec.Method,
		Path:            spec.Path,
		Summary:         spec.Summary,
		Description:     spec.describe(),
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
	if spec.Body != "" {
		op.RequestBody = &huma.RequestBody{Description: spec.Body}
	}
	huma.Register(s.api, op, handler)
	undoubleParamDescriptions(s.api.OpenAPI().Paths[spec.Path], spec.Method)
	addPropertyExamples(s.api.OpenAPI().Components.Schemas)
}

// undoubleParamDescriptions drops from each parameter's schema in the document the description
// Huma copies there from the parameter's own: said once, on the parameter. The schema Huma
// validates with keeps it (the document gets a copy).
func undoubleParamDescriptions(item *huma.PathItem, method string) {
	op := map[string]*huma.Operation{http.MethodGet: item.Get, http.MethodPost: item.Post}[method]
	for _, p := range op.Parameters {
		if p.Schema != nil && p.Schema.Description == p.Description {
			schema := *p.Schema
			schema.Description = ""
			p.Schema = &schema
		}
	}
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

// describe is the operation's description: its own, then its scope, cost and upstream class.
func (o *opSpec) describe() string {
	d := o.Description + "\n\n"
	if o.Scope == "" {
		return d + "Public: no key needed, no cost."
	}
	cost := "1 rate-limit unit"
	if o.Cost != nil {
		cost = "10 rate-limit units per distinct owner"
	}
	d += "Requires scope `" + o.Scope + "`. Costs " + cost + ". "
	switch o.Class {
	case ClassCached:
		d += "Upstream class `cached`: served from data the service keeps warm in the background (5 s deadline)."
	case ClassProvider:
		d += "Upstream class `provider`: read from the chain or a provider (10 s deadline, then 504)."
	case ClassEnriched:
		d += "Upstream class `enriched`: indexed data joined with live chain reads (15 s deadline, then 504)."
	default:
		d += "Upstream class `none`: answered from the service's own state."
	}
	return d
}
