package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// cspRecorder collects the page's Content-Security-Policy violations in window.__cspViolations;
// the browser runs it in every new document before the page's own scripts.
const cspRecorder = `window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " (" + e.sourceFile + ":" + e.lineNumber + ")"));`

// TestDocsBrowser loads the API reference (/v1/docs) from the real binary in headless Chromium
// that resolves no host name, so only the binary can answer, and checks under the page's strict
// Content-Security-Policy that Stoplight Elements, served from the binary, lists every operation of
// /v1/openapi.json by its summary, shows each operation's page and sends a "try it" request, with
// no CSP violation, no console error, no request to another origin and no failed request.
func TestDocsBrowser(t *testing.T) {
	chromium := chromiumPath(t)
	shots := screenshotDir(t)
	srv := startServer(t, partnerdBinary(t), baseEnv(
		"PARTNER_DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "p.db"), "PARTNER_DEVNET_TRADE_INTERVAL=0"))
	summaries, tags := documentedOperations(t, srv.base)

	browserCtx := startChromium(t, chromium, chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"))
	b := newTab(t, browserCtx, srv.base, shots) // fails the test on console errors when it ends
	var mu sync.Mutex
	var requests, failures []string
	err := chromedp.Listen(b.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		case *network.EventResponseReceived:
			if ev.Response.Status >= 400 {
				failures = append(failures, fmt.Sprintf("%s: status %d", ev.Response.URL, int(ev.Response.Status)))
			}
		case *network.EventLoadingFailed:
			failures = append(failures, fmt.Sprintf("a %s request failed: %s %s", ev.Type, ev.ErrorText, ev.BlockedReason))
		}
	})
	if err != nil {
		t.Fatalf("listen to the tab: %v", err)
	}
	browserRun(b, "record CSP violations", func(ctx context.Context, target *chromedp.Target) (page.AddScriptToEvaluateOnNewDocumentResult, error) {
		return cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspRecorder})
	})

	resp := browserRun(b, "open /v1/docs", chromedp.NavigateResponse(srv.base+"/v1/docs"))
	if resp == nil || resp.Status != http.StatusOK {
		t.Fatalf("GET /v1/docs: %+v", resp)
	}
	csp, _ := resp.Headers["Content-Security-Policy"].(string)
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("/v1/docs Content-Security-Policy %q: want default-src 'none', script-src 'self' only, no 'unsafe-eval'", csp)
	}

	// The sidebar lists every operation by its summary under its tag.
	b.waitVisible("the reference renders", `elements-api .sl-elements-api`)
	for _, tag := range tags {
		b.click("expand the tag "+tag, fmt.Sprintf(`div[title=%q]`, tag))
	}
	listed := browserRun(b, "read the sidebar", chromedp.Evaluate[map[string]string](`Object.fromEntries(
		[...document.querySelectorAll('a.ElementsTableOfContentsItem[href^="#/operations/"]')].map(
			a => [a.getAttribute("href").slice("#/operations/".length), a.querySelector("[title]").title]))`))
	for id, summary := range summaries {
		if listed[id] != summary {
			t.Errorf("the sidebar lists operation %s as %q, want %q", id, listed[id], summary)
		}
	}
	if len(listed) != len(summaries) {
		t.Errorf("the sidebar lists %d operations, the contract has %d", len(listed), len(summaries))
	}
	// At the laptop size only: the reference is Stoplight Elements' own sidebar layout, which is
	// wider than a phone (its "responsive" layout moves the operations into a drawer).
	b.screenshotAt("docs", screenSizes[0])

	// Every operation's page shows its summary; listChains its path and a "try it" call answered by
	// the binary.
	for _, id := range slices.Sorted(maps.Keys(summaries)) {
		b.click("open "+id, fmt.Sprintf(`a[href="#/operations/%s"]`, id))
		b.awaitText(id+": heading", "h1", summaries[id])
	}
	b.click("open listChains", `a[href="#/operations/listChains"]`)
	b.awaitText("listChains: heading", "h1", summaries["listChains"])
	b.awaitText("listChains: path", ".sl-elements-api", "/v1/chains")
	browserRun(b, "listChains: send the API request", chromedp.Evaluate[bool](`(() => {
		const send = [...document.querySelectorAll("button")].find(e => e.innerText.trim() === "Send API Request");
		if (send) send.click();
		return !!send; })()`))
	b.awaitText("listChains: the response", ".sl-elements-api", "200 OK")
	b.awaitText("listChains: the response body", ".sl-elements-api", `"id": "base"`)
	b.screenshotAt("docs-operation", screenSizes[0])

	violations := browserRun(b, "read CSP violations", chromedp.Evaluate[[]string](`window.__cspViolations`))
	if len(violations) > 0 {
		t.Errorf("Content-Security-Policy violations on /v1/docs:\n%s", strings.Join(violations, "\n"))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(failures) > 0 {
		t.Errorf("failed requests on /v1/docs:\n%s", strings.Join(failures, "\n"))
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, srv.base+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("/v1/docs requested %s, outside the binary", u)
		}
	}
}

// documentedOperations returns the summary of every operation of the served OpenAPI document by
// operation id, and the operations' tags.
func documentedOperations(t *testing.T, base string) (map[string]string, []string) {
	t.Helper()
	resp, err := http.Get(base + "/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string   `json:"operationId"`
			Summary     string   `json:"summary"`
			Tags        []string `json:"tags"`
		} `json:"paths"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatalf("decode /v1/openapi.json: %v", err)
	}
	summaries := map[string]string{}
	var tags []string
	for _, ops := range doc.Paths {
		for _, op := range ops {
			summaries[op.OperationID] = op.Summary
			for _, tag := range op.Tags {
				if !slices.Contains(tags, tag) {
					tags = append(tags, tag)
				}
			}
		}
	}
	if len(summaries) < 30 || summaries["listChains"] == "" {
		t.Fatalf("/v1/openapi.json has %d operations", len(summaries))
	}
	return summaries, tags
}

// awaitText waits until the first element matching sel contains want.
func (b *tab) awaitText(step, sel, want string) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.innerText.includes(%q); })()`, sel, want)
	browserRun(b, step, chromedp.Poll[bool](js))
}
