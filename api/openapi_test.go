package api

import (
	"slices"
	"strconv"
	"strings"
	"testing"
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
	schemas := components["schemas"].(map[string]any)
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
			responses := op["responses"].(map[string]any)
			for _, status := range append([]int{200}, errorStatuses...) {
				resp, ok := responses[strconv.Itoa(status)].(map[string]any)
				if !ok {
					t.Errorf("%s %s: no %d response", method, path, status)
					continue
				}
				if status == 200 {
					continue
				}
				schema := resp["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
				if schema["$ref"] != "#/components/schemas/Error" {
					t.Errorf("%s %s %d: schema %v", method, path, status, schema)
				}
			}
			security, _ := op["security"].([]any)
			public := path == "/v1/openapi.json" || path == "/v1/chains"
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

// TestOpenAPIResponseExamples checks that the 200 response of every Market and Portfolio operation
// is documented with examples: every leaf property (string, integer, number, boolean) reachable from
// the response schema, through $refs, object properties and array items, carries an example of its
// type (within its enum, if any). An array of leaves counts as documented when the array or its
// items carry an example.
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
			tags, _ := op["tags"].([]any)
			if !slices.Contains(tags, any("Market")) && !slices.Contains(tags, any("Portfolio")) {
				continue
			}
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
		}
	}
	if operations != 20 {
		t.Errorf("%d Market and Portfolio operations walked, want 20", operations)
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
	switch typ := schemaType(s); typ {
	case "object":
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 {
			w.t.Errorf("%s %s: object without properties", owner, path)
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
