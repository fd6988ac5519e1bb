package api

import (
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
