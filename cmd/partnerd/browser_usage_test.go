package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/store"
)

// TestBrowserUsage: a consumer's backend calls the API until the plan's burst refuses it (429), then
// a user of the consumer opens the usage page in Chromium in each range (24 hours, 7 and 30 days):
// the cards count every call and its units, the status table and the units table show the 429s, the
// latency table names the operation, and each chart is an image with a title and a table behind it.
// Screenshots usage-24h, usage-7d and usage-30d at 1280 and 390 px wide (which fail on sideways
// scrolling).
func TestBrowserUsage(t *testing.T) {
	chromium := chromiumPath(t)
	shots := screenshotDir(t)
	m := startBrowserService(t)
	base := "http://" + m.Addr()
	seed := seedConsole(t, m.Config.DatabaseURL)

	// A plan whose burst of 5 units refuses the sixth call of a quick run (the rate refills 1 a second).
	ctx := context.Background()
	st, err := store.Open(ctx, m.Config.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	rate, burst := 60, 5
	_, err = access.NewService(st.Client).UpdateConsumer(ctx, access.Operator("test"), seed.consumerID,
		access.ConsumerChange{RatePerMinute: &rate, Burst: &burst}, "usage browser test")
	st.Close()
	if err != nil {
		t.Fatalf("set the plan: %v", err)
	}

	// Real calls with the consumer's key until the limiter refuses a few (the new plan reaches the
	// server within its sync interval).
	var calls, limited, admitted int
	deadline := time.Now().Add(15 * time.Second)
	for limited < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("after %d calls, %d refused with 429: the plan's burst of %d does not apply", calls, limited, burst)
		}
		r := apiGet(t, base, seed.opsKey)
		calls++
		if r.status == http.StatusTooManyRequests {
			if r.code != "rate_limited" {
				t.Fatalf("429 with code %q", r.code)
			}
			limited++
		} else {
			admitted++
		}
	}

	browserCtx := startChromium(t, chromium)
	b := newTab(t, browserCtx, base, shots)
	b.open("open the console", "/console/login", http.StatusOK)
	b.signIn(seed.leadEmail, browserLeadPassword)

	// Usage is written about once a second: wait for every call on the 24-hour view.
	b.awaitInPage("usage, 24 hours", "/console/usage?range=24h", `<div class="big">`+strconv.Itoa(calls)+`</div>`, 15*time.Second)
	for _, rg := range []string{"24h", "7d", "30d"} {
		step := "usage " + rg
		b.open(step, "/console/usage?range="+rg, http.StatusOK)
		b.expectHeading(step, "Usage")
		cards := browserRun(b, step+": cards", chromedp.Evaluate[map[string]string](
			`Object.fromEntries([...document.querySelectorAll('.card')].map(c => [c.querySelector('.muted').textContent.trim(), c.querySelector('.big').textContent.trim()]))`))
		if cards["Calls"] != strconv.Itoa(calls) || cards["Errors"] == "0" {
			t.Errorf("%s: cards %v, want %d calls and some errors (%d refused with 429)", step, cards, calls, limited)
		}
		// Every call costs 1 unit; the refused ones cost nothing.
		if cards["Units"] != strconv.Itoa(admitted) {
			t.Errorf("%s: %s units, want %d (1 per admitted call)", step, cards["Units"], admitted)
		}
		current := browserRun(b, step+": current range", chromedp.Evaluate[string](`document.querySelector('nav.u-range a[aria-current="page"]').getAttribute('href')`))
		if current != "/console/usage?range="+rg {
			t.Errorf("%s: the range links mark %q as current", step, current)
		}
		// Each chart is an image with a title, and a table stands behind it.
		charts := browserRun(b, step+": charts", chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('svg.u-chart')].map(s => s.getAttribute('role') + ':' + (s.querySelector('title') || {}).textContent)`))
		if len(charts) != 3 {
			t.Errorf("%s: %d charts, want 3 (%v)", step, len(charts), charts)
		}
		for _, c := range charts {
			if !strings.HasPrefix(c, "img:") || len(c) < 10 {
				t.Errorf("%s: chart %q has no role=img or no title", step, c)
			}
		}
		// The status table counts the 429s; the units table shows them; the latency table names the operation.
		tables := browserRun(b, step+": tables", chromedp.Evaluate[string](
			`[...document.querySelectorAll('table.u-table')].map(t => t.textContent).join('\n')`))
		for _, want := range []string{"getTrending", "Busiest minute"} {
			if !strings.Contains(tables, want) && !strings.Contains(tables, strings.ToLower(want)) {
				t.Errorf("%s: the tables lack %q", step, want)
			}
		}
		html := b.html()
		if !strings.Contains(html, fmt.Sprintf("%d refused with 429", limited)) && !strings.Contains(html, "refused with 429") {
			t.Errorf("%s: no 429 marker on the units chart", step)
		}
		if !strings.Contains(html, "10 units per distinct owner") {
			t.Errorf("%s: the page does not say how units are counted", step)
		}
		b.screenshot("usage-" + rg)
	}
}
