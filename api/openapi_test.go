package api

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/chain"
)

func TestOpenAPIDocument(t *testing.T) {
	e := newEnv(t)
	r := e.do(request{path: "/v1/openapi.json"})
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.rawBody)
	}
	doc := r.body
	if doc["openapi"] != "3.1.0" {
		t.Errorf("openapi = %v", doc["openapi"])
	}
	if v := doc["info"].(map[string]any)["version"]; v != "1.0.0" {
		t.Errorf("info.version = %v", v)
	}
	components := doc["components"].(map[string]any)
	scheme := components["securitySchemes"].(map[string]any)["apiKey"].(map[string]any)
	if scheme["type"] != "apiKey" || scheme["in"] != "header" || scheme["name"] != "X-API-Key" {
		t.Errorf("apiKey scheme = %v", scheme)
	}
	if servers, _ := doc["servers"].([]any); len(servers) != 1 {
		t.Errorf("servers = %v", doc["servers"])
	}
	declared := map[string]bool{}
	for _, tag := range doc["tags"].([]any) {
		declared[tag.(map[string]any)["name"].(string)] = true
	}
	for status, doc := range errorDocs {
		resp, _ := components["responses"].(map[string]any)[doc.name].(map[string]any)
		media, _ := resp["content"].(map[string]any)["application/json"].(map[string]any)
		if media["schema"].(map[string]any)["$ref"] != "#/components/schemas/Error" || len(media["examples"].(map[string]any)) == 0 {
			t.Errorf("response %s (%d): %v", doc.name, status, resp)
		}
		headers, _ := resp["headers"].(map[string]any)
		if headers["X-Request-Id"] == nil || (headers["Retry-After"] != nil) != (status == 429 || status == 503) {
			t.Errorf("response %s (%d): headers %v", doc.name, status, headers)
		}
	}
	schemas := components["schemas"].(map[string]any)
	errorFields := schemas["Error"].(map[string]any)["properties"].(map[string]any)
	for _, f := range []string{"ok", "error", "code", "requestId", "endpointCode", "reasons", "verification", "riskAcknowledgement",
		"reason", "valueLossPpm", "highFeeLastResort", "hookAddress", "retryAfterSec"} {
		if errorFields[f] == nil {
			t.Errorf("the Error schema lacks %s", f)
		}
	}
	// Clients must tolerate fields added later, and lists are never null.
	walkSchemas(doc, func(where string, s map[string]any) {
		if s["additionalProperties"] == false {
			t.Errorf("%s: additionalProperties false", where)
		}
		if typ, ok := s["type"].([]any); ok && slices.Contains(typ, any("array")) && slices.Contains(typ, any("null")) {
			t.Errorf("%s: nullable type %v", where, typ)
		}
	})
	for _, name := range []string{"Error", "ChainsListResponse", "TokenSearchResponse", "TokenResolution", "TokenPrice",
		"PriceHistoryResponse", "TokenStatsResponse", "TopHoldersResponse", "TradesResponse", "TopTradersResponse",
		"TrendingResponse", "HotPoolsResult", "PoolDetailsResponse", "PoolReserves", "PoolBinsResult", "PoolChartResponse",
		"PoolAuditResponse", "HoldingsResult", "HoldingsBatchResponse", "PositionsResult", "PositionsBatchResponse", "SwapQuoteResponse"} {
		if schemas[name] == nil {
			t.Errorf("schema %s missing", name)
		}
	}
	for name, s := range schemas {
		if props, ok := s.(map[string]any)["properties"].(map[string]any); ok && props["$schema"] != nil {
			t.Errorf("schema %s has a $schema property", name)
		}
	}

	classes := map[string]bool{ClassNone: true, ClassProvider: true, ClassEnriched: true, ClassCached: true}
	scopes := map[string]bool{ScopeMarketRead: true, ScopePortfolioRead: true, ScopeQuoteRead: true, ScopeTxBuild: true}
	ids := map[string]bool{}
	for path, item := range doc["paths"].(map[string]any) {
		for method, v := range item.(map[string]any) {
			op := v.(map[string]any)
			id, _ := op["operationId"].(string)
			if ids[id] {
				t.Errorf("operationId %q twice", id)
			}
			ids[id] = true
			if !classes[op["x-upstream-class"].(string)] {
				t.Errorf("%s %s: x-upstream-class %v", method, path, op["x-upstream-class"])
			}
			if d, _ := op["description"].(string); len(d) < 40 {
				t.Errorf("%s %s: description %q", method, path, d)
			}
			if tags, _ := op["tags"].([]any); len(tags) != 1 || !declared[tags[0].(string)] {
				t.Errorf("%s %s: tags %v, want one declared tag", method, path, tags)
			}
			security, _ := op["security"].([]any)
			public := path == "/v1/openapi.json" || path == "/v1/chains"
			responses := op["responses"].(map[string]any)
			for _, status := range errorStatuses {
				resp, _ := responses[strconv.Itoa(status)].(map[string]any)
				if ref, _ := resp["$ref"].(string); ref != "#/components/responses/"+errorDocs[status].name {
					t.Errorf("%s %s: %d response %v, want the shared one", method, path, status, resp)
				}
			}
			ok, _ := responses["200"].(map[string]any)
			headers, _ := ok["headers"].(map[string]any)
			want := []string{"X-Request-Id"}
			if !public {
				want = append(want, "Cache-Control", "X-RateLimit-Limit", "X-RateLimit-Remaining", "RateLimit-Policy")
			}
			if strings.HasPrefix(path, "/v1/build/") {
				want = append(want, "Idempotent-Replayed", "Original-Request-Id")
			}
			if len(headers) != len(want) {
				t.Errorf("%s %s: 200 headers %v, want %v", method, path, headers, want)
			}
			for _, h := range want {
				if ref, _ := headers[h].(map[string]any)["$ref"].(string); ref != "#/components/headers/"+h {
					t.Errorf("%s %s: 200 header %s = %v", method, path, h, headers[h])
				}
			}
			media, _ := ok["content"].(map[string]any)["application/json"].(map[string]any)
			if media["schema"] == nil || media["example"] == nil {
				t.Errorf("%s %s: 200 body without schema or example: %v", method, path, media)
			}
			if body, _ := op["requestBody"].(map[string]any); body != nil {
				if media, _ := body["content"].(map[string]any)["application/json"].(map[string]any); media["example"] == nil && media["examples"] == nil {
					t.Errorf("%s %s: request body without an example", method, path)
				}
			}
			if public {
				if len(security) != 0 {
					t.Errorf("%s %s: public operation with security %v", method, path, security)
				}
				continue
			}
			if len(security) != 1 {
				t.Errorf("%s %s: security %v", method, path, security)
				continue
			}
			roles := security[0].(map[string]any)["apiKey"].([]any)
			if len(roles) != 1 || !scopes[roles[0].(string)] {
				t.Errorf("%s %s: apiKey roles %v", method, path, roles)
			}
		}
	}
	if len(ids) != 38 {
		t.Errorf("%d operations documented, want 38", len(ids))
	}
	if got := len(Operations()); got != 36 {
		t.Errorf("Operations() = %d protected operations, want 36", got)
	}
}

func TestDocsPage(t *testing.T) {
	e := newEnv(t)
	r := e.do(request{path: "/v1/docs"})
	if r.status != 200 || !strings.Contains(r.rawBody, "/v1/openapi.json") {
		t.Fatalf("docs: %d", r.status)
	}
}

// TestOpenAPIResponseExamples checks that the 200 response and the request body of every operation
// are documented with examples: every leaf property (string, integer, number, boolean) reachable from
// the schema, through $refs, object properties and array items, carries an example of its type
// (within its enum, if any). An array of leaves counts as documented when the array or its items
// carry an example, a free-form object when it carries one.
func TestOpenAPIResponseExamples(t *testing.T) {
	e := newEnv(t)
	r := e.do(request{path: "/v1/openapi.json"})
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.rawBody)
	}
	schemas := r.body["components"].(map[string]any)["schemas"].(map[string]any)
	w := exampleWalker{t: t, schemas: schemas, checked: map[string]bool{}}
	operations := 0
	for path, item := range r.body["paths"].(map[string]any) {
		for method, v := range item.(map[string]any) {
			op := v.(map[string]any)
			operations++
			where := strings.ToUpper(method) + " " + path
			resp, _ := op["responses"].(map[string]any)["200"].(map[string]any)
			content, _ := resp["content"].(map[string]any)["application/json"].(map[string]any)
			schema, ok := content["schema"].(map[string]any)
			if !ok {
				t.Errorf("%s: no application/json schema for 200", where)
				continue
			}
			w.walk(where, "", schema)
			if body, ok := op["requestBody"].(map[string]any); ok {
				w.walk(where+" request", "", body["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any))
			}
		}
	}
	w.walk("Error", "", schemas["Error"].(map[string]any))
	if operations != 38 {
		t.Errorf("%d operations walked, want 38", operations)
	}
}

// exampleWalker walks response schemas for TestOpenAPIResponseExamples.
type exampleWalker struct {
	t       *testing.T
	schemas map[string]any
	checked map[string]bool // component schemas already walked
}

// walk checks schema s, found at path (empty at the response's root) under owner: the operation
// or the component schema that declares it.
func (w *exampleWalker) walk(owner, path string, s map[string]any) {
	w.t.Helper()
	if ref, ok := s["$ref"].(string); ok {
		name, found := strings.CutPrefix(ref, "#/components/schemas/")
		target, _ := w.schemas[name].(map[string]any)
		if !found || target == nil {
			w.t.Errorf("%s %s: unresolved $ref %q", owner, path, ref)
			return
		}
		if !w.checked[name] {
			w.checked[name] = true
			w.walk(name, "", target)
		}
		return
	}
	if alts, ok := s["oneOf"].([]any); ok && schemaType(s) == "" {
		for i, alt := range alts {
			w.walk(owner, fmt.Sprintf("%s(oneOf %d)", path, i), alt.(map[string]any))
		}
		return
	}
	switch typ := schemaType(s); typ {
	case "object":
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 && len(examplesOf(s)) == 0 {
			w.t.Errorf("%s %s: free-form object without an example", owner, path)
		}
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			w.walk(owner, joinPath(path, name), props[name].(map[string]any))
		}
	case "array":
		items, ok := s["items"].(map[string]any)
		if !ok {
			w.t.Errorf("%s %s: array without items", owner, path)
			return
		}
		if leafType(schemaType(items)) && len(examplesOf(s)) > 0 {
			for _, ex := range examplesOf(s) {
				list, ok := ex.([]any)
				if !ok || len(list) == 0 {
					w.t.Errorf("schema %s property %s: example %#v is not a non-empty array", owner, path, ex)
					continue
				}
				for _, x := range list {
					w.checkValue(owner, path+"[]", items, x)
				}
			}
			return
		}
		if _, structured := items["properties"]; len(examplesOf(s)) > 0 && !structured && items["$ref"] == nil {
			return // a list of free-form objects or lists, documented by the list's example
		}
		w.walk(owner, path+"[]", items)
	default:
		if !leafType(typ) {
			w.t.Errorf("%s %s: unexpected schema type %v", owner, path, s["type"])
			return
		}
		ex := examplesOf(s)
		if len(ex) == 0 {
			w.t.Errorf("schema %s property %s (%s) has no example", owner, path, typ)
		}
		for _, x := range ex {
			w.checkValue(owner, path, s, x)
		}
	}
}

// checkValue checks that example x fits leaf schema s.
func (w *exampleWalker) checkValue(owner, path string, s map[string]any, x any) {
	w.t.Helper()
	var ok bool
	switch schemaType(s) {
	case "string":
		_, ok = x.(string)
	case "integer":
		f, isNum := x.(float64)
		ok = isNum && f == float64(int64(f))
	case "number":
		_, ok = x.(float64)
	case "boolean":
		_, ok = x.(bool)
	}
	if !ok {
		w.t.Errorf("schema %s property %s: example %#v is not of type %s", owner, path, x, schemaType(s))
	}
	if enum, has := s["enum"].([]any); has && !slices.Contains(enum, x) {
		w.t.Errorf("schema %s property %s: example %#v not in enum %v", owner, path, x, enum)
	}
}

// schemaType is a schema's type, the non-null one of a nullable type.
func schemaType(s map[string]any) string {
	switch typ := s["type"].(type) {
	case string:
		return typ
	case []any:
		for _, t := range typ {
			if t != "null" {
				name, _ := t.(string)
				return name
			}
		}
	}
	return ""
}

func leafType(typ string) bool {
	return typ == "string" || typ == "integer" || typ == "number" || typ == "boolean"
}

// examplesOf returns a schema's examples (OpenAPI 3.1) and its example (3.0 style), if any.
func examplesOf(s map[string]any) []any {
	out, _ := s["examples"].([]any)
	if x, ok := s["example"]; ok && x != nil {
		out = append(out, x)
	}
	return out
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// walkSchemas calls f on every schema object of the document: components and inline ones.
func walkSchemas(node any, f func(where string, s map[string]any)) {
	var walk func(where string, n any)
	walk = func(where string, n any) {
		switch v := n.(type) {
		case map[string]any:
			if _, ok := v["type"]; ok {
				f(where, v)
			}
			for k, x := range v {
				if k != "examples" && k != "example" {
					walk(where+"/"+k, x)
				}
			}
		case []any:
			for i, x := range v {
				walk(where+"/"+strconv.Itoa(i), x)
			}
		}
	}
	walk("#", node)
}

// TestErrorCodesDocumented: the served document's code enum is exactly the Code constants declared
// in the source (read with go/parser, not from the table the document is made from), each with its
// status in x-error-codes, and every error response has an example of each code it carries, which
// validates against the Error schema.
func TestErrorCodesDocumented(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok {
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Code" {
				lit := v.Values[0].(*ast.BasicLit)
				declared = append(declared, strings.Trim(lit.Value, `"`))
			}
		}
		return true
	})
	if len(declared) < 30 {
		t.Fatalf("read %d Code constants from codes.go", len(declared))
	}
	e := newEnv(t)
	r := e.do(request{path: "/v1/openapi.json"})
	components := r.body["components"].(map[string]any)
	code := components["schemas"].(map[string]any)["Error"].(map[string]any)["properties"].(map[string]any)["code"].(map[string]any)
	var enum []string
	for _, c := range code["enum"].([]any) {
		enum = append(enum, c.(string))
	}
	if !slices.Equal(sortedCopy(enum), sortedCopy(declared)) {
		t.Errorf("the document's code enum %v is not the declared codes %v", enum, declared)
	}
	catalogue := code["x-error-codes"].([]any)
	if len(catalogue) != len(declared) {
		t.Errorf("x-error-codes has %d entries for %d codes", len(catalogue), len(declared))
	}
	statusOfName := map[string]string{}
	for status, d := range errorDocs {
		statusOfName[d.name] = strconv.Itoa(status)
	}
	responses := components["responses"].(map[string]any)
	for _, entry := range catalogue {
		entry := entry.(map[string]any)
		status := fmt.Sprint(entry["status"])
		var found bool
		for name, resp := range responses {
			if statusOfName[name] != status {
				continue
			}
			examples := resp.(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["examples"].(map[string]any)
			if ex, ok := examples[entry["code"].(string)].(map[string]any); ok {
				found = ex["value"].(map[string]any)["code"] == entry["code"]
				res := &huma.ValidateResult{}
				huma.Validate(e.server.api.OpenAPI().Components.Schemas, &huma.Schema{Ref: "#/components/schemas/Error"},
					huma.NewPathBuffer(nil, 0), huma.ModeReadFromServer, ex["value"], res)
				for _, err := range res.Errors {
					t.Errorf("example %s of %s: %v", entry["code"], name, err)
				}
			}
		}
		if !found {
			t.Errorf("code %v (status %s) has no example in its error response", entry["code"], status)
		}
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// TestFamilySchemas: a build's transaction entry, a swap quote and a build's quote are each a
// union of an EVM and a Solana schema told apart by kind; each family's schema requires only its
// own fields; raw is typed; Solana build metadata is documented.
func TestFamilySchemas(t *testing.T) {
	e := newEnv(t)
	schemas := e.do(request{path: "/v1/openapi.json"}).body["components"].(map[string]any)["schemas"].(map[string]any)
	schema := func(name string) map[string]any {
		s, ok := schemas[name].(map[string]any)
		if !ok {
			t.Fatalf("no schema %s", name)
		}
		return s
	}
	for name, variants := range map[string][2]string{
		"Transaction":       {"EVMTransaction", "SolanaTransaction"},
		"SwapQuoteResponse": {"EVMSwapQuoteResponse", "SolanaSwapQuoteResponse"},
		"Quote":             {"EVMQuote", "SolanaQuote"},
	} {
		s := schema(name)
		d, _ := s["discriminator"].(map[string]any)
		mapping, _ := d["mapping"].(map[string]any)
		if d["propertyName"] != "kind" || mapping["evm"] != "#/components/schemas/"+variants[0] || mapping["solana"] != "#/components/schemas/"+variants[1] ||
			len(s["oneOf"].([]any)) != 2 {
			t.Errorf("%s: %v, want a oneOf of %v with kind as discriminator", name, s, variants)
		}
		for i, family := range []string{"evm", "solana"} {
			kind := schema(variants[i])["properties"].(map[string]any)["kind"].(map[string]any)
			if fmt.Sprint(kind["enum"]) != "["+family+"]" || !slices.Contains(schema(variants[i])["required"].([]any), any("kind")) {
				t.Errorf("%s.kind: %v, want the required enum [%s]", variants[i], kind, family)
			}
		}
	}
	required := func(name string) []any { r, _ := schema(name)["required"].([]any); return r }
	for _, f := range []string{"gas", "block", "networkFee", "feeOnTransfer"} {
		if !slices.Contains(required("EVMSwapQuoteResponse"), any(f)) || slices.Contains(required("SolanaSwapQuoteResponse"), any(f)) {
			t.Errorf("%s: want it required of EVM quotes only", f)
		}
	}
	for _, f := range []string{"chainId", "from", "to", "data", "value", "gas", "nonce"} {
		if !slices.Contains(required("EVMTransaction"), any(f)) || slices.Contains(required("SolanaTransaction"), any(f)) {
			t.Errorf("%s: want it required of EVM entries only", f)
		}
	}
	if raw := schema("EVMSwapQuoteResponse")["properties"].(map[string]any)["raw"].(map[string]any); raw["$ref"] != "#/components/schemas/EVMQuote" {
		t.Errorf("EVM raw: %v, want the EVMQuote schema", raw)
	}
	metadata := schema("BuildResponse")["properties"].(map[string]any)["metadata"].(map[string]any)["properties"].(map[string]any)
	for _, k := range []string{"blockhash", "lastValidBlockHeight", "simulatedAtSlot", "computeUnitLimit", "simulatedAtBlock", "poolId"} {
		if p, ok := metadata[k].(map[string]any); !ok || p["description"] == nil {
			t.Errorf("metadata.%s is not documented", k)
		}
	}
}

// TestNewConcurrently builds servers at once, as parallel tests and the CLI do: the document's
// shared parts must not be written by one while another reads them (go test -race).
func TestNewConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { New(Deps{}) })
	}
	wg.Wait()
}

// TestEnumsFromOneType: every chain or venue enumeration in the document is chain.Supported (with
// all where a call covers every chain) or chain.Venues, or their Solana family's part, in their
// order: they come from one Go type each (ChainName, ChainOrAll, VenueName, SolanaChainName,
// SolanaVenueName), never a copy that could drift.
func TestEnumsFromOneType(t *testing.T) {
	var chains, venues []any
	for _, c := range chain.Supported {
		chains = append(chains, c.Name)
	}
	var solanaChains, solanaVenues []any
	for _, c := range chain.Supported {
		if c.Kind == chain.KindSolana {
			solanaChains = append(solanaChains, c.Name)
		}
	}
	for _, v := range chain.VenueSpecs {
		venues = append(venues, v.Name)
		if v.Family == chain.KindSolana {
			solanaVenues = append(solanaVenues, v.Name)
		}
	}
	e := newEnv(t)
	found := 0
	var walk func(where string, v any)
	walk = func(where string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if enum, ok := v["enum"].([]any); ok {
				switch {
				case slices.Contains(enum, any("ethereum")):
					found++
					if !slices.Equal(enum, chains) && !slices.Equal(enum, append(slices.Clone(chains), "all")) {
						t.Errorf("%s: chain enum %v, want %v", where, enum, chains)
					}
				case slices.Contains(enum, any("uniswap-v2")):
					found++
					if !slices.Equal(enum, venues) {
						t.Errorf("%s: venue enum %v, want %v", where, enum, venues)
					}
				case slices.Contains(enum, any("raydium")): // a Solana route's label
					found++
					if !slices.Equal(enum, solanaVenues) {
						t.Errorf("%s: Solana venue enum %v, want %v", where, enum, solanaVenues)
					}
				case slices.Contains(enum, any("solana")) && !slices.Contains(enum, any("evm")): // a Solana quote's chain
					found++
					if !slices.Equal(enum, solanaChains) {
						t.Errorf("%s: Solana chain enum %v, want %v", where, enum, solanaChains)
					}
				}
			}
			for k, x := range v {
				walk(where+"/"+k, x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s/%d", where, i), x)
			}
		}
	}
	walk("#", e.do(request{path: "/v1/openapi.json"}).body)
	if found < 10 {
		t.Errorf("%d chain and venue enums found", found)
	}
}
