package api

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/web"
)

// TestDocsPageOffline: /v1/docs loads everything it needs from this origin (Stoplight Elements
// embedded by package web under content-hashed URLs, which web serves), nothing from a CDN, under a
// strict Content-Security-Policy. TestDocsBrowser (cmd/partnerd) renders it in Chromium.
func TestDocsPageOffline(t *testing.T) {
	e := newEnv(t)
	r := e.do(request{path: "/v1/docs"})
	if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /v1/docs: %d %s", r.status, r.header.Get("Content-Type"))
	}
	csp := r.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self';", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "http") {
		t.Errorf("Content-Security-Policy %q allows eval or another origin", csp)
	}
	if r.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("X-Content-Type-Options %q", r.header.Get("X-Content-Type-Options"))
	}

	refs := regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(r.rawBody, -1)
	assets := web.New()
	found := map[string]bool{}
	for _, m := range refs {
		ref := m[1]
		if ref == "/v1/openapi.json" || ref == "data:," {
			continue
		}
		if !strings.HasPrefix(ref, web.Prefix) {
			t.Errorf("the page loads %q, not a web asset", ref)
			continue
		}
		rec := httptest.NewRecorder()
		assets.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, ref, nil))
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d", ref, rec.Code)
		}
		for _, name := range []string{"elements/web-components.min.js", "elements/styles.min.css", "docs.css"} {
			if ref == assets.URL(name) {
				found[name] = true
			}
		}
	}
	if len(found) != 3 {
		t.Errorf("the page references %v of the renderer's script, its styles and docs.css:\n%s", found, r.rawBody)
	}
	if !strings.Contains(r.rawBody, `apiDescriptionUrl="/v1/openapi.json"`) || strings.Contains(r.rawBody, "style=") {
		t.Errorf("the page does not point Elements at /v1/openapi.json, or has an inline style:\n%s", r.rawBody)
	}
}
