package main

import (
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/api"
)

// TestConsoleEndpoints checks that every keyed operation reaches the console with its scope, method
// and path.
func TestConsoleEndpoints(t *testing.T) {
	eps, err := consoleEndpoints()
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != len(api.Operations()) || len(eps) == 0 {
		t.Fatalf("%d endpoints for %d operations", len(eps), len(api.Operations()))
	}
	for _, e := range eps {
		if e.Scope == "" || !strings.HasPrefix(e.Path, "/v1/") || (e.Method != "GET" && e.Method != "POST") {
			t.Errorf("endpoint %+v lacks its scope, method or path", e)
		}
		if e.ID == "getTrending" && (e.Method != "GET" || e.Path != "/v1/markets/trending" || e.Scope != api.ScopeMarketRead) {
			t.Errorf("getTrending described as %+v", e)
		}
	}
}
