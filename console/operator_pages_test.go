package console

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
)

// hourly writes one hourly rollup row of a consumer.
func (h *harness) hourly(consumerID int, at time.Time, calls, cost, errs, c429 int64) {
	h.t.Helper()
	err := h.st.Client.UsageHourly.Create().SetConsumerID(consumerID).SetHour(metering.Hour(at)).SetCalls(calls).SetCost(cost).
		SetErrors(errs).SetCalls429(c429).SetCalls2xx(calls - errs).Exec(context.Background())
	if err != nil {
		h.t.Fatalf("write hourly rollup: %v", err)
	}
}

// firstColumn is the first cell of every body row of the table with the id.
func firstColumn(body, id string) []string {
	i := strings.Index(body, `id="`+id+`"`)
	if i < 0 {
		return nil
	}
	table := body[i:]
	table = table[strings.Index(table, "<tbody>"):strings.Index(table, "</table>")]
	var out []string
	for _, r := range rows(table) {
		if len(r) > 0 {
			out = append(out, r[0])
		}
	}
	return out
}

var reAriaSort = regexp.MustCompile(`<th scope="col"(?: class="[^"]*")? aria-sort="(\w+)"><a class="sort" href="([^"]+)">\s*([^<]+?)\s*<`)

// sortHeadings are the sortable headings of the consumers list: label → aria-sort, link.
func sortHeadings(body string) map[string][2]string {
	out := map[string][2]string{}
	for _, m := range reAriaSort.FindAllStringSubmatch(body, -1) {
		out[m[3]] = [2]string{m[1], strings.ReplaceAll(m[2], "&amp;", "&")}
	}
	return out
}

func TestOperatorConsumersSort(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		h := newHarness(t, withStore(open), withStart(fixedStart))
		a, b, c := h.consumer("alpha"), h.consumer("Bravo"), h.consumer("charlie")
		h.consumer("delta") // no calls at all
		now := h.clock.Now()
		// calls, units, errors, 429s over 24 h: alpha 10/50/1/0, Bravo 30/30/9/4, charlie 20/90/5/5.
		h.hourly(a.ID, now, 10, 50, 1, 0)
		h.hourly(b.ID, now.Add(-2*time.Hour), 30, 30, 9, 4)
		h.hourly(c.ID, now.Add(-23*time.Hour), 20, 90, 5, 5)
		h.hourly(a.ID, now.Add(-48*time.Hour), 1000, 1000, 1000, 1000) // outside the 24 h
		h.operatorUser("ops@example.com", password)
		ops := h.signedIn("ops@example.com", password)

		for _, tc := range []struct {
			query string
			want  []string
			label string // the heading marked
			aria  string
		}{
			{"", []string{"alpha", "Bravo", "charlie", "delta"}, "Consumer", "ascending"},
			{"?sort=name&dir=desc", []string{"delta", "charlie", "Bravo", "alpha"}, "Consumer", "descending"},
			{"?sort=calls", []string{"Bravo", "charlie", "alpha", "delta"}, "Calls 24 h", "descending"},
			{"?sort=calls&dir=asc", []string{"delta", "alpha", "charlie", "Bravo"}, "Calls 24 h", "ascending"},
			{"?sort=units&dir=desc", []string{"charlie", "alpha", "Bravo", "delta"}, "Units 24 h", "descending"},
			{"?sort=errors", []string{"Bravo", "charlie", "alpha", "delta"}, "Errors 24 h", "descending"},
			{"?sort=429", []string{"charlie", "Bravo", "alpha", "delta"}, "429s 24 h", "descending"},
			{"?sort=429&dir=asc", []string{"alpha", "delta", "Bravo", "charlie"}, "429s 24 h", "ascending"}, // ties by name
		} {
			page := ops.get("/console/operator/consumers" + tc.query)
			wantStatus(t, page, http.StatusOK)
			if got := firstColumn(page.body, "consumers"); !slices.Equal(got, tc.want) {
				t.Errorf("%s: order %q, want %q", tc.query, got, tc.want)
			}
			heads := sortHeadings(page.body)
			if len(heads) != 5 {
				t.Fatalf("%s: %d sortable headings (%v), want 5", tc.query, len(heads), heads)
			}
			for label, h := range heads {
				want := "none"
				if label == tc.label {
					want = tc.aria
				}
				if h[0] != want {
					t.Errorf("%s: heading %q aria-sort=%q, want %q", tc.query, label, h[0], want)
				}
			}
			// The current heading's link reverses the order; another's starts with its first direction.
			other := map[string]string{"ascending": "desc", "descending": "asc"}[tc.aria]
			if link := heads[tc.label][1]; !strings.Contains(link, "dir="+other) {
				t.Errorf("%s: the current heading links to %s, want dir=%s", tc.query, link, other)
			}
		}
		row := rowWith(t, ops.get("/console/operator/consumers").body, "Bravo")
		if want := []string{"Bravo", "on", "30", "30", "9", "4", "60", "60"}; !slices.Equal(row, want) {
			t.Errorf("Bravo's row %q, want %q…", row, want)
		}

		// The search stays in the sort links, and the sort in the search form.
		page := ops.get("/console/operator/consumers?q=a&sort=units").body
		if got := firstColumn(page, "consumers"); !slices.Equal(got, []string{"charlie", "alpha", "Bravo", "delta"}) {
			t.Errorf("search a sorted by units: %q", got)
		}
		if link := sortHeadings(page)["Calls 24 h"][1]; !strings.Contains(link, "q=a") {
			t.Errorf("sort link %q loses the search", link)
		}
		wantContains(t, page, `<input type="hidden" name="sort" value="units">`)

		// Unknown columns and directions are answered 400 with a message, the list by name.
		for _, bad := range []string{"?sort=secret", "?sort=calls&dir=sideways"} {
			r := ops.get("/console/operator/consumers" + bad)
			wantStatus(t, r, http.StatusBadRequest)
			if msg := flashError(r.body); msg == "" {
				t.Errorf("%s: no message", bad)
			}
			if got := firstColumn(r.body, "consumers"); !slices.Equal(got, []string{"alpha", "Bravo", "charlie", "delta"}) {
				t.Errorf("%s: order %q, want by name", bad, got)
			}
		}
	})
}

// auditIDs is the entry ids of an audit page, in order, and the link to its older entries ("" if none).
func auditIDs(body string) ([]int, string) {
	var ids []int
	for _, m := range regexp.MustCompile(`data-entry="(\d+)"`).FindAllStringSubmatch(body, -1) {
		id, _ := strconv.Atoi(m[1])
		ids = append(ids, id)
	}
	next := ""
	if m := regexp.MustCompile(`<a href="([^"]+)" rel="next">`).FindStringSubmatch(body); m != nil {
		next = strings.ReplaceAll(m[1], "&amp;", "&")
	}
	return ids, next
}

// auditWalk follows the audit log's "Older entries" links from path and returns every id shown.
func auditWalk(t *testing.T, b *browser, path string) ([]int, int) {
	t.Helper()
	var all []int
	pages := 0
	for path != "" {
		pages++
		if pages > 100 {
			t.Fatal("the audit log's pages do not end")
		}
		r := b.get(path)
		wantStatus(t, r, http.StatusOK)
		ids, next := auditIDs(r.body)
		if len(ids) > auditPageSize {
			t.Errorf("%s: %d entries, more than a page", path, len(ids))
		}
		all = append(all, ids...)
		path = next
	}
	return all, pages
}

func TestOperatorAuditPagesAndFilters(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		h := newHarness(t, withStore(open), withStart(fixedStart))
		ctx := context.Background()
		a, b := h.consumer("Acme"), h.consumer("Bobco")
		bob := access.Operator("operator:bob@example.com")
		var keyIDs []int
		for i := range 60 { // more than a page; many entries share a second
			k, err := h.acc.CreateKey(ctx, operatorActor, []int{a.ID, b.ID}[i%2], fmt.Sprintf("key %d", i))
			if err != nil {
				t.Fatal(err)
			}
			keyIDs = append(keyIDs, k.ID)
			if i%7 == 0 {
				h.clock.Advance(time.Second)
			}
		}
		if _, err := h.acc.RenameKey(ctx, bob, keyIDs[0], "renamed prod"); err != nil {
			t.Fatal(err)
		}
		if _, err := h.acc.SetAccess(ctx, bob, b.ID, false, "unpaid"); err != nil {
			t.Fatal(err)
		}
		// Entries whose consumer and key no longer exist.
		gone := 99999
		if err := h.st.Client.AuditEntry.Create().SetActor("cli").SetAction("key.revoke").SetConsumerID(gone).
			SetTarget("key 77777").SetAt(h.clock.Now()).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		h.operatorUser("ops@example.com", password)
		ops := h.signedIn("ops@example.com", password)
		stored, err := h.acc.Audit(ctx, operatorActor, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		want := func(keep func(access.AuditRecord) bool) []int {
			var out []int
			for _, r := range stored {
				if keep(r) {
					out = append(out, r.ID)
				}
			}
			return out
		}

		// Every entry exactly once across the pages, newest first.
		got, pages := auditWalk(t, ops, "/console/operator/audit")
		if pages < 2 {
			t.Errorf("%d entries on %d page(s), want more than one page", len(got), pages)
		}
		if !slices.Equal(got, want(func(access.AuditRecord) bool { return true })) {
			t.Errorf("pages show %v\nwant %v", got, want(func(access.AuditRecord) bool { return true }))
		}

		// Filters, through the pages too.
		for _, tc := range []struct {
			query string
			keep  func(access.AuditRecord) bool
		}{
			{"consumer=" + strconv.Itoa(a.ID), func(r access.AuditRecord) bool { return r.ConsumerID == a.ID }},
			{"actor=" + url.QueryEscape(bob.Name), func(r access.AuditRecord) bool { return r.Actor == bob.Name }},
			{"action=key.create", func(r access.AuditRecord) bool { return r.Action == "key.create" }},
			{"consumer=" + strconv.Itoa(b.ID) + "&action=consumer.disable&actor=" + url.QueryEscape(bob.Name), func(r access.AuditRecord) bool {
				return r.ConsumerID == b.ID && r.Action == "consumer.disable" && r.Actor == bob.Name
			}},
		} {
			w := want(tc.keep)
			if len(w) == 0 {
				t.Fatalf("%s: the fixture has no matching entry", tc.query)
			}
			if got, _ := auditWalk(t, ops, "/console/operator/audit?"+tc.query); !slices.Equal(got, w) {
				t.Errorf("%s: %v, want %v", tc.query, got, w)
			}
		}
		r := ops.get("/console/operator/audit?actor=nobody")
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r.body, "No changes match these filters.", `<option value="nobody" selected>nobody</option>`)

		// The filters offer what exists, the current choice selected.
		page := ops.get("/console/operator/audit?consumer=" + strconv.Itoa(b.ID) + "&action=consumer.disable").body
		wantContains(t, page,
			fmt.Sprintf(`<option value="%d" selected>Bobco</option>`, b.ID), fmt.Sprintf(`<option value="%d">Acme</option>`, a.ID),
			`<option value="consumer.disable" selected>consumer.disable</option>`, `<option value="key.rename">key.rename</option>`,
			`<option value="operator:bob@example.com">operator:bob@example.com</option>`, `<option value="cli">cli</option>`)

		// Names instead of ids: consumers by name (linked), keys by name and prefix, and something
		// sensible for what no longer exists.
		first := ops.get("/console/operator/audit?action=key.rename").body
		k0 := h.keyInfo(a.ID, keyIDs[0])
		wantContains(t, first, fmt.Sprintf(`<code>key.rename</code> key “renamed prod” (%s…)`, k0.Prefix),
			fmt.Sprintf(`<a href="/console/operator/consumers/%d">Acme</a>`, a.ID), "name: key 0 → renamed prod")
		goneRow := ops.get("/console/operator/audit?actor=cli").body
		wantContains(t, goneRow, "key 77777 (no longer exists)", "consumer 99999 (no longer exists)")
		wantNotContains(t, goneRow, `href="/console/operator/consumers/99999"`)

		// Bad filters and page positions are answered 400 with a message, never 500.
		for _, bad := range []string{"consumer=abc", "consumer=-3", "after=nonsense", "after=1-0"} {
			r := ops.get("/console/operator/audit?" + bad)
			wantStatus(t, r, http.StatusBadRequest)
			if flashError(r.body) == "" {
				t.Errorf("%s: no message", bad)
			}
		}
	})
}

func TestOperatorEndpointGroups(t *testing.T) {
	h := newHarness(t)
	// A console of the same store that knows the endpoints' scopes, methods and paths.
	deps := h.c.deps
	deps.Endpoints = []Endpoint{
		{ID: "getTrending", Scope: "market:read", Method: "GET", Path: "/v1/markets/trending"},
		{ID: "getPoolChart", Scope: "quote:read", Method: "GET", Path: "/v1/pools/{chain}/{address}/chart"},
	}
	h.c = New(deps)
	router := chi.NewRouter()
	h.c.Mount(router)
	h.handler, h.ts = router, httptest.NewServer(router)
	t.Cleanup(h.ts.Close)
	cons := h.consumer("Grouped")
	h.operatorUser("ops@example.com", password)
	ops := h.signedIn("ops@example.com", password)
	path := consumerPath(cons.ID)

	page := ops.get(path).body
	market := section(page, "Plan")
	wantContains(t, market, `<legend>Scope market:read</legend>`, `<legend>Scope quote:read</legend>`,
		`value="market:read" data-select-group="market:read"`, "Select the whole group (1)",
		`<span class="method">GET</span> <code class="path">/v1/markets/trending</code>`, `<code class="op-id">getTrending</code>`,
		`<code class="path">/v1/pools/{chain}/{address}/chart</code>`)
	if i, j := strings.Index(market, "Scope market:read"), strings.Index(market, "Scope quote:read"); i > j {
		t.Error("groups are not in scope order")
	}

	form := func(extra url.Values) url.Values {
		f := url.Values{"name": {"Grouped"}, "scopes": {"market:read"}, "rpm": {"60"}, "burst": {"60"}}
		for k, v := range extra {
			f[k] = v
		}
		return f
	}
	// Selecting a group switches off every endpoint in it, with no JavaScript.
	wantRedirect(t, ops.post(path, form(url.Values{"disabled_group": {"market:read"}})), path)
	if got := h.consumerNow(cons.ID).DisabledOperations; !slices.Equal(got, []string{"getTrending"}) {
		t.Errorf("after selecting market:read: switched off %q", got)
	}
	page = ops.get(path).body
	wantContains(t, page, `name="disabled" value="getTrending" checked`)
	wantNotContains(t, page, `name="disabled" value="getPoolChart" checked`)

	// Single endpoints still go one by one; the group box adds to them.
	wantRedirect(t, ops.post(path, form(url.Values{"disabled": {"getTrending"}, "disabled_group": {"quote:read"}})), path)
	if got := h.consumerNow(cons.ID).DisabledOperations; !slices.Equal(slices.Sorted(slices.Values(got)), []string{"getPoolChart", "getTrending"}) {
		t.Errorf("after getTrending and quote:read: switched off %q", got)
	}
	wantRedirect(t, ops.post(path, form(nil)), path)
	if got := h.consumerNow(cons.ID).DisabledOperations; len(got) != 0 {
		t.Errorf("after ticking nothing: switched off %q", got)
	}

	// An unknown group is refused beside the field, nothing saved.
	r := ops.post(path, form(url.Values{"disabled_group": {"admin:all"}}))
	wantStatus(t, r, http.StatusBadRequest)
	wantContains(t, r.body, `id="disabled-problem"`, "There is no group of endpoints called admin:all.")
	if got := h.consumerNow(cons.ID).DisabledOperations; len(got) != 0 {
		t.Errorf("a refused form changed the switched-off endpoints to %q", got)
	}
}
