package main

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/api"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
)

// operatorSeed is what the operator browser test adds to seedConsole's data.
type operatorSeed struct {
	beta, zeta int // consumer ids
}

// seedOperatorPages adds two consumers with 24-hour usage (Beta Labs: 500 calls, 5 errors, 2 429s;
// Zeta Bank: 100 calls, 50 errors, 40 429s; the seeded consumer has none) and enough keys of the
// seeded consumer that its audit log takes two pages.
func seedOperatorPages(t *testing.T, databaseURL string, consumerID int) operatorSeed {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, databaseURL)
	if err != nil {
		t.Fatalf("seed: open store: %v", err)
	}
	defer st.Close()
	svc := access.NewService(st.Client)
	op := access.Operator("cli")
	on := true
	var s operatorSeed
	for _, c := range []struct {
		name                 string
		id                   *int
		calls, errs, refused int64
	}{{"Beta Labs", &s.beta, 500, 5, 2}, {"Zeta Bank", &s.zeta, 100, 50, 40}} {
		cons, err := svc.CreateConsumer(ctx, op, c.name, access.ConsumerChange{AccessEnabled: &on})
		if err != nil {
			t.Fatalf("seed: create consumer: %v", err)
		}
		*c.id = cons.ID
		err = st.Client.UsageHourly.Create().SetConsumerID(cons.ID).SetHour(metering.Hour(time.Now())).SetCalls(c.calls).
			SetCost(c.calls).SetErrors(c.errs).SetCalls429(c.refused).SetCalls2xx(c.calls - c.errs).Exec(ctx)
		if err != nil {
			t.Fatalf("seed: usage: %v", err)
		}
	}
	for i := range access.DefaultAuditPageSize + 5 {
		if _, err := svc.CreateKey(ctx, op, consumerID, fmt.Sprintf("batch %02d", i)); err != nil {
			t.Fatalf("seed: create key: %v", err)
		}
	}
	return s
}

// TestBrowserOperatorPages drives the operators' pages in Chromium: the consumers list sorted by
// its column headings (aria-sort follows), the audit log filtered with its form and paged to the
// end (every entry once), and endpoint availability by scope group, where "select the whole group"
// switches off every endpoint of the group and the API follows.
func TestBrowserOperatorPages(t *testing.T) {
	chromium := chromiumPath(t)
	shots := screenshotDir(t)
	m := startBrowserService(t)
	base := "http://" + m.Addr()
	seed := seedConsole(t, m.Config.DatabaseURL)
	seedOperatorPages(t, m.Config.DatabaseURL, seed.consumerID)
	b := newTab(t, startChromium(t, chromium), base, shots)
	b.open("open the login page", "/console/login", http.StatusOK)
	b.signIn(seed.operatorEmail, browserOperatorPassword)
	b.expectPath("operator after signing in", "/console/operator/consumers")

	names := func(step string) []string {
		return browserRun(b, step, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('#consumers tbody tr td:first-child')].map(td => td.innerText.trim())`))
	}
	ariaSort := func(step string) map[string]string {
		return browserRun(b, step, chromedp.Evaluate[map[string]string](
			`Object.fromEntries([...document.querySelectorAll('#consumers th[aria-sort]')].map(th => [th.innerText.replace(/[↑↓]/g, '').trim(), th.getAttribute('aria-sort')]))`))
	}

	t.Run("SortConsumers", func(t *testing.T) {
		if got := names("consumers by name"); !slices.Equal(got, []string{"Acme Trading", "Beta Labs", "Zeta Bank"}) {
			t.Errorf("consumers by name: %q", got)
		}
		b.submit("sort by calls", `#consumers th a.sort[href*="sort=calls"]`)
		if q := b.query("sorted by calls"); q.Get("sort") != "calls" || q.Get("dir") != "desc" {
			t.Errorf("sorted by calls: URL query %v, want sort=calls&dir=desc", q)
		}
		if got := names("consumers by calls"); !slices.Equal(got, []string{"Beta Labs", "Zeta Bank", "Acme Trading"}) {
			t.Errorf("consumers by calls, most first: %q", got)
		}
		if a := ariaSort("aria-sort by calls"); a["Calls 24 h"] != "descending" || a["Consumer"] != "none" || a["429s 24 h"] != "none" {
			t.Errorf("aria-sort by calls: %v", a)
		}
		b.submit("sort by calls again", `#consumers th a.sort[href*="sort=calls"]`)
		if got := names("consumers by calls, fewest first"); !slices.Equal(got, []string{"Acme Trading", "Zeta Bank", "Beta Labs"}) {
			t.Errorf("consumers by calls, fewest first: %q", got)
		}
		if a := ariaSort("aria-sort by calls ascending"); a["Calls 24 h"] != "ascending" {
			t.Errorf("aria-sort after reversing: %v", a)
		}
		b.submit("sort by 429s", `#consumers th a.sort[href*="sort=429"]`)
		if got := names("consumers by 429s"); !slices.Equal(got, []string{"Zeta Bank", "Beta Labs", "Acme Trading"}) {
			t.Errorf("consumers by 429s: %q", got)
		}
		row := browserRun(b, "Zeta Bank's row", chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('#consumers tbody tr')].find(tr => tr.innerText.includes('Zeta Bank')).querySelectorAll('td').values().map(td => td.innerText.trim()).toArray()`))
		if len(row) < 6 || row[2] != "100" || row[4] != "50" || row[5] != "40" {
			t.Errorf("Zeta Bank's row %q: want 100 calls, 50 errors, 40 429s", row)
		}
		b.screenshot("operator-consumers-sorted")
	})

	t.Run("AuditFilterAndPages", func(t *testing.T) {
		b.open("open the audit log", "/console/operator/audit", http.StatusOK)
		b.expectHeading("audit log", "Audit log")
		browserRun(b, "audit filter: choose the consumer", chromedp.SetValue(chromedp.CSS(`select[name="consumer"]`), strconv.Itoa(seed.consumerID), chromedp.NodeVisible))
		browserRun(b, "audit filter: choose the action", chromedp.SetValue(chromedp.CSS(`select[name="action"]`), "key.create", chromedp.NodeVisible))
		b.submit("audit filter: submit", `form.filters button[type="submit"]`)
		if q := b.query("audit filtered"); q.Get("consumer") != strconv.Itoa(seed.consumerID) || q.Get("action") != "key.create" {
			t.Errorf("audit filtered: URL query %v", q)
		}
		b.screenshot("audit-filtered")
		seen := map[string]int{}
		pages := 0
		for {
			pages++
			rows := browserRun(b, "audit page rows", chromedp.Evaluate[[][]string](
				`[...document.querySelectorAll('#audit tbody tr')].map(tr => [tr.querySelector('[data-entry]').dataset.entry, ...[...tr.querySelectorAll('td')].map(td => td.innerText.trim())])`))
			for _, r := range rows { // id, when, who, what, consumer, reason, change
				seen[r[0]]++
				if !strings.HasPrefix(r[3], "key.create key “") || r[4] != seed.consumerName {
					t.Errorf("audit page %d: row %q, want a key.create naming the key and %s", pages, r, seed.consumerName)
				}
			}
			more := browserRun(b, "audit: older entries link", chromedp.Evaluate[bool](`!!document.querySelector('nav.pager a[rel="next"]')`))
			if !more || pages > 10 {
				break
			}
			b.submit("audit: older entries", `nav.pager a[rel="next"]`)
			if pages == 1 {
				b.screenshot("audit-page-2")
			}
		}
		want := access.DefaultAuditPageSize + 5 + 1 // the seeded batch and ops-check
		if len(seen) != want || pages != 2 {
			t.Errorf("audit filtered: %d distinct entries on %d pages, want %d on 2", len(seen), pages, want)
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("audit entry %s shown %d times", id, n)
			}
		}
	})

	t.Run("AvailabilityByGroup", func(t *testing.T) {
		b.open("open the new consumer form", "/console/operator/consumers/new", http.StatusOK)
		b.expectHeading("new consumer form", "New consumer")
		if n := browserRun(b, "new consumer form: endpoint groups", chromedp.Evaluate[int](`document.querySelectorAll('fieldset.endpoint-group').length`)); n != len(access.Scopes) {
			t.Errorf("new consumer form: %d endpoint groups, want one per scope (%d)", n, len(access.Scopes))
		}
		b.screenshot("operator-new-consumer")
		path := fmt.Sprintf("/console/operator/consumers/%d", seed.consumerID)
		b.open("open the consumer page", path, http.StatusOK)
		b.click("open the switched-off endpoints", `details:has(fieldset.endpoint-group) > summary`)
		groups := browserRun(b, "endpoint groups", chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('fieldset.endpoint-group > legend')].map(l => l.innerText.trim())`))
		for _, s := range access.Scopes {
			if !slices.Contains(groups, "Scope "+s) {
				t.Errorf("endpoint groups %q lack scope %s", groups, s)
			}
		}
		trending := b.text("getTrending's line", `li:has(input[value="getTrending"]) .endpoint`)
		if !strings.Contains(trending, "GET") || !strings.Contains(trending, "/v1/markets/trending") {
			t.Errorf("getTrending is shown as %q, want its method and path", trending)
		}
		b.screenshot("operator-availability")

		group := `input[data-select-group="market:read"]`
		members := `input[data-in-group="market:read"]`
		state := func(step string) (all, some bool, box, mixed bool) {
			v := browserRun(b, step, chromedp.Evaluate[[]bool](fmt.Sprintf(
				`(() => { const m = [...document.querySelectorAll('%s')]; const g = document.querySelector('%s');
					return [m.every(c => c.checked), m.some(c => c.checked), g.checked, g.indeterminate]; })()`, members, group)))
			return v[0], v[1], v[2], v[3]
		}
		b.click("select the market:read group", group)
		if all, _, box, _ := state("after selecting the group"); !all || !box {
			t.Errorf("selecting the group: every member checked %v, group box %v", all, box)
		}
		b.click("untick getTrending", `input[name="disabled"][value="getTrending"]`)
		if _, _, box, mixed := state("after unticking one"); box || !mixed {
			t.Errorf("after unticking one endpoint: group box checked %v, mixed %v; want unchecked and mixed", box, mixed)
		}
		b.click("select the market:read group again", group)
		b.submit("save the plan", `form:has(textarea[name="allow"]) button[type="submit"]`)
		b.expectFlash("after saving the group", "Saved the plan")
		expectAPI(t, "GET trending with market:read switched off", apiGet(t, base, seed.opsKey), http.StatusForbidden, "endpoint_unavailable")

		b.click("open the switched-off endpoints again", `details:has(fieldset.endpoint-group) > summary`)
		if all, _, box, _ := state("after reloading"); !all || !box {
			t.Errorf("after saving: every market:read endpoint checked %v, group box %v", all, box)
		}
		b.click("clear the market:read group", group)
		if _, some, _, _ := state("after clearing the group"); some {
			t.Error("clearing the group left endpoints ticked")
		}
		b.submit("save the plan again", `form:has(textarea[name="allow"]) button[type="submit"]`)
		b.expectFlash("after clearing the group", "Saved the plan")
		expectAPI(t, "GET trending with market:read on again", apiGet(t, base, seed.opsKey), http.StatusOK, "")
	})

	t.Run("ConsumerFrame", func(t *testing.T) {
		// A plan with long lists, for the phone layout of the plan page.
		ctx := context.Background()
		st, err := store.Open(ctx, m.Config.DatabaseURL)
		if err != nil {
			t.Fatal(err)
		}
		var market, ids []string
		for _, op := range api.Operations() {
			ids = append(ids, op.ID)
			if op.Scope == api.ScopeMarketRead {
				market = append(market, op.ID)
			}
		}
		allow := []netip.Prefix{netip.MustParsePrefix("2001:db8:1234:5678::/64"), netip.MustParsePrefix("2001:db8:abcd:ef01::/64"),
			netip.MustParsePrefix("198.51.100.0/24"), netip.MustParsePrefix("203.0.113.77/32")}
		price := "USD 0.002 per call, USD 0.02 per batch portfolio call, invoiced monthly against purchase order PO-2026-000123456789"
		_, err = access.NewService(st.Client, access.WithOperations(ids)).UpdateConsumer(ctx, access.Operator("cli"), seed.consumerID,
			access.ConsumerChange{DisabledOperations: &market, Allow: &allow, Price: &price}, "")
		st.Close()
		if err != nil {
			t.Fatalf("update the plan: %v", err)
		}

		c := newTab(t, startChromium(t, chromium), base, shots)
		c.open("open the set-password link", "/console/set-password/"+seed.link, http.StatusOK)
		c.expectHeading("set-password page", "Set your password")
		c.screenshot("frame-set-password")
		c.open("open the login page", "/console/login", http.StatusOK)
		c.fill("login: email", `input[name="email"]`, seed.leadEmail)
		c.fill("login: password", `input[name="password"]`, "not the password")
		c.expectRefusal(base + "/console/login")
		c.submit("login: wrong password", `main form[action="/console/login"] button[type="submit"]`)
		c.screenshot("frame-login-refused")
		c.signIn(seed.leadEmail, browserLeadPassword)
		c.open("open the plan page", "/console/plan", http.StatusOK)
		c.expectHeading("plan page", "Plan")
		if plan := c.text("plan page: details", "dl.plan"); !strings.Contains(plan, "2001:db8:abcd:ef01::/64") || !strings.Contains(plan, "getTrending") {
			t.Errorf("plan page: the allowlist or the switched-off endpoints are missing from %q", plan)
		}
		c.screenshot("frame-plan")
		c.expectRefusal(base + "/console/no-such-page")
		c.open("open a page that does not exist", "/console/no-such-page", http.StatusNotFound)
		c.expectHeading("not found page", "Not found")
		c.screenshot("frame-not-found")
	})
}
