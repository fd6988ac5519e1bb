package console

import (
	"encoding/csv"
	"fmt"
	"html"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// logRequestID is a request id as the API makes them, with n in its random part.
func logRequestID(at time.Time, n int) string {
	return fmt.Sprintf("req_%012x%020x", at.UnixMilli(), n)
}

// logFixture is a consumer with two keys and a neighbour, with recorded calls.
type logFixture struct {
	h              *harness
	cons, neighbor access.Consumer
	k1, k2, nk     access.IssuedKey
	calls          []metering.Call // the consumer's, oldest first
	theirs         metering.Call   // one of the neighbour's
}

// newLogFixture records n calls of the consumer, one a second up to a minute ago: every fifth a
// 404 not_found of getPoolChart with its error body, every seventh a 429 (on key 2), the rest 200s
// of getTrending, alternating keys; and one call of the neighbour.
func newLogFixture(t testing.TB, n int, opts ...harnessOpt) *logFixture {
	h := newHarness(t, opts...)
	f := &logFixture{h: h, cons: h.consumer("Acme"), neighbor: h.consumer("Neighbour")}
	f.k1 = h.key(f.cons.ID, "backend")
	f.k2 = h.key(f.cons.ID, `=cmd|"x", y`) // a name a spreadsheet would run, with CSV's specials
	f.nk = h.key(f.neighbor.ID, "their key")
	now := h.clock.Now()
	for i := range n {
		at := now.Add(-time.Minute - time.Duration(n-i)*time.Second)
		rate := 100 - i%100
		c := metering.Call{ConsumerID: f.cons.ID, KeyID: f.k1.ID, Operation: "getTrending", Status: 200, Cost: 1,
			Latency: 1500 * time.Microsecond, Chain: "base", RequestID: logRequestID(at, i), At: at,
			Method: "GET", Path: "/v1/markets/trending", Source: netip.MustParseAddr("203.0.113.7"), RateRemaining: &rate}
		if i%2 == 1 {
			c.KeyID = f.k2.ID
		}
		switch {
		case i%7 == 0:
			c.KeyID, c.Status, c.Cost, c.ErrorCode = f.k2.ID, 429, 0, "rate_limited"
			c.ErrorBody = []byte(`{"ok":false,"error":"rate limit exceeded; retry after 2 s","code":"rate_limited","requestId":"` + c.RequestID + `"}`)
		case i%5 == 0:
			c.Operation, c.Path, c.Status, c.ErrorCode = "getPoolChart", "/v1/pools/0xabc/chart", 404, "not_found"
			c.ErrorBody = []byte(`{"ok":false,"error":"no pool <b>0xabc</b>","code":"not_found","requestId":"` + c.RequestID + `"}`)
			c.Replayed = i%10 == 0
		}
		f.calls = append(f.calls, c)
	}
	h.writeCalls(f.calls...)
	f.theirs = metering.Call{ConsumerID: f.neighbor.ID, KeyID: f.nk.ID, Operation: "getTrending", Status: 404, Cost: 1,
		RequestID: logRequestID(now.Add(-time.Hour), 999_999), At: now.Add(-time.Hour), Method: "GET", Path: "/v1/x",
		ErrorCode: "not_found", ErrorBody: []byte(`{"code":"not_found","error":"their secret error"}`)}
	h.writeCalls(f.theirs)
	h.consumerUser(f.cons.ID, "dev@acme.test", password)
	h.consumerUser(f.neighbor.ID, "dev@neighbour.test", password)
	return f
}

// ridRe finds the request ids of a log page's rows.
var ridRe = regexp.MustCompile(`<td class="rid" data-label="Request id"><a href="[^"]*"><code>(req_[0-9a-f]+)</code>`)

// pageIDs is the request ids of a log page, in order.
func pageIDs(body string) []string {
	var ids []string
	for _, m := range ridRe.FindAllStringSubmatch(body, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// logPagerRe finds the pager's links.
var logPagerRe = regexp.MustCompile(`rel="(prev|next)" href="([^"]*)"`)

// pagerLink is the page's Newer (prev) or Older (next) link, "" if none.
func pagerLink(body, rel string) string {
	for _, m := range logPagerRe.FindAllStringSubmatch(body, -1) {
		if m[1] == rel {
			return html.UnescapeString(m[2])
		}
	}
	return ""
}

// want is the request ids of the fixture's calls matching keep, newest first.
func (f *logFixture) want(keep func(metering.Call) bool) []string {
	var out []string
	for i := len(f.calls) - 1; i >= 0; i-- {
		if keep(f.calls[i]) {
			out = append(out, f.calls[i].RequestID)
		}
	}
	return out
}

// walkLog follows Older links from path and returns every request id met, checking that Newer
// leads back to the same pages.
func walkLog(t *testing.T, b *browser, path string) []string {
	t.Helper()
	var all []string
	var pages []string
	for path != "" {
		r := b.get(path)
		wantStatus(t, r, http.StatusOK)
		pages = append(pages, path)
		ids := pageIDs(r.body)
		if len(ids) > logPageSize {
			t.Fatalf("%s: %d rows on a page", path, len(ids))
		}
		all = append(all, ids...)
		if len(pages) > 1 && pagerLink(r.body, "prev") == "" {
			t.Fatalf("%s: a later page without a Newer link", path)
		}
		path = pagerLink(r.body, "next")
		if len(pages) > 100 {
			t.Fatal("paging does not end")
		}
	}
	return all
}

func TestLogPageListsCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := newLogFixture(t, 120, withStore(func(testing.TB) *store.Store { return st }))
		b := f.h.signedIn("dev@acme.test", password)
		r := b.get("/console/log")
		wantStatus(t, r, http.StatusOK)
		newest := f.calls[len(f.calls)-1]
		wantContains(t, r.body, "<caption>", `<th scope="col">Status</th>`, "backend (", "GET /v1/markets/trending",
			`<span class="status g429">429 Too Many Requests</span>`, `<span class="status g4xx">404 Not Found</span>`,
			`<span class="status g2xx">200 OK</span>`, "<code>not_found</code>", "1.5 ms", newest.RequestID, "Download CSV")
		wantNotContains(t, r.body, f.theirs.RequestID, "their key")
		if ids := pageIDs(r.body); len(ids) != logPageSize || ids[0] != newest.RequestID {
			t.Fatalf("first page: %d rows starting %v, want %d starting with the newest", len(ids), ids[:min(1, len(ids))], logPageSize)
		}
		if got, want := walkLog(t, b, "/console/log"), f.want(func(metering.Call) bool { return true }); !slices.Equal(got, want) {
			t.Fatalf("paging met %d calls, want each of %d once, newest first", len(got), len(want))
		}
	})
}

func TestLogFilters(t *testing.T) {
	f := newLogFixture(t, 150)
	b := f.h.signedIn("dev@acme.test", password)
	from := f.calls[40].At.UTC()
	to := f.calls[90].At.UTC()
	prefix := f.calls[77].RequestID[:4+9]
	for _, tc := range []struct {
		name  string
		query url.Values
		keep  func(metering.Call) bool
	}{
		{"status 429", url.Values{"status": {"429"}}, func(c metering.Call) bool { return c.Status == 429 }},
		{"status 4xx", url.Values{"status": {"4xx"}}, func(c metering.Call) bool { return c.Status == 404 }},
		{"status 2xx", url.Values{"status": {"2xx"}}, func(c metering.Call) bool { return c.Status == 200 }},
		{"key", url.Values{"key": {strconv.Itoa(f.k1.ID)}}, func(c metering.Call) bool { return c.KeyID == f.k1.ID }},
		{"operation", url.Values{"op": {"getPoolChart"}}, func(c metering.Call) bool { return c.Operation == "getPoolChart" }},
		{"error code", url.Values{"code": {"rate_limited"}}, func(c metering.Call) bool { return c.ErrorCode == "rate_limited" }},
		{"time range", url.Values{"from": {from.Format("2006-01-02T15:04:05")}, "to": {to.Format("2006-01-02T15:04:05")}},
			func(c metering.Call) bool { return !c.At.Before(from) && c.At.Before(to) }},
		{"request id prefix", url.Values{"rid": {prefix}}, func(c metering.Call) bool { return strings.HasPrefix(c.RequestID, prefix) }},
		{"request id without req_", url.Values{"rid": {strings.ToUpper(f.calls[77].RequestID[4:])}},
			func(c metering.Call) bool { return c.RequestID == f.calls[77].RequestID }},
		{"key and status", url.Values{"key": {strconv.Itoa(f.k2.ID)}, "status": {"4xx"}},
			func(c metering.Call) bool { return c.KeyID == f.k2.ID && c.Status == 404 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := f.want(tc.keep)
			if len(want) == 0 {
				t.Fatal("the case matches nothing")
			}
			got := walkLog(t, b, "/console/log?"+tc.query.Encode())
			if tc.query.Has("rid") {
				slices.Sort(got)
				slices.Sort(want)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d calls, want %d", len(got), len(want))
			}
			// The form shows the filter back.
			r := b.get("/console/log?" + tc.query.Encode())
			for name := range tc.query {
				if name == "key" || name == "op" || name == "status" {
					wantContains(t, r.body, `value="`+tc.query.Get(name)+`" selected`)
				}
			}
		})
	}
	t.Run("nothing matches", func(t *testing.T) {
		r := b.get("/console/log?code=no_such_code")
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r.body, "No calls match these filters")
	})
}

func TestLogRejectsBadFilters(t *testing.T) {
	f := newLogFixture(t, 10)
	b := f.h.signedIn("dev@acme.test", password)
	for _, tc := range []struct{ query, message string }{
		{"status=3xx5", "Status must be one of"},
		{"status=%3Cscript%3E", "Status must be one of"},
		{"from=yesterday", "From must be a date and time"},
		{"to=2026-13-45T99:00", "To must be a date and time"},
		{"from=2030-01-02T00:00&to=2030-01-01T00:00", "From must be earlier than To"},
		{"key=abc", "Key must be one of the keys"},
		{"key=" + strconv.Itoa(f.nk.ID), "Key must be one of the keys"}, // the neighbour's key
		{"op=dropTables", "Operation must be one of"},
		{"code=Not%20Found!", "Error code must be a code"},
		{"rid=req_xyz", "Request id must be the start of a request id"},
		{"before=garbage", "The page link is broken"},
		{"before=" + metering.LogCursor{At: time.Now(), ID: 3}.String() + "&rid=req_01", "The page link is broken"},
	} {
		r := b.get("/console/log?" + tc.query)
		wantStatus(t, r, http.StatusBadRequest)
		wantContains(t, r.body, html.EscapeString(tc.message), `id="log-problems"`, `<form class="log-filter"`)
		if ids := pageIDs(r.body); len(ids) != 0 {
			t.Fatalf("%s: listed %d calls beside the problem", tc.query, len(ids))
		}
		csv := b.get("/console/log.csv?" + tc.query)
		wantStatus(t, csv, http.StatusBadRequest)
	}
}

func TestLogCallDetail(t *testing.T) {
	f := newLogFixture(t, 30)
	b := f.h.signedIn("dev@acme.test", password)
	failed := f.calls[10] // a replayed 404 with an error body
	r := b.get("/console/log/" + failed.RequestID)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.body, failed.RequestID, "GET /v1/pools/0xabc/chart", `<span class="status g4xx">404 Not Found</span>`,
		"<code>203.0.113.7</code>", "90 units left in the bucket", "yes: the answer of an earlier call",
		`id="error-body"`, html.EscapeString(`"error": "no pool <b>0xabc</b>"`), "<code>getPoolChart</code>", "backend (")
	for _, k := range []access.IssuedKey{f.k1, f.k2} {
		wantNotContains(t, r.body, k.Key) // the key's secret is never shown, only its name and prefix
	}
	ok := f.calls[1]
	r = b.get("/console/log/" + ok.RequestID)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.body, "None: the call succeeded.", "<dd>no</dd>")

	// Another consumer's call, and calls that never were, are not found.
	for _, id := range []string{f.theirs.RequestID, "req_00000000000000000000000000000000", strings.Repeat("x", 300), "%00"} {
		wantStatus(t, b.get("/console/log/"+id), http.StatusNotFound)
	}
	nb := f.h.signedIn("dev@neighbour.test", password)
	wantStatus(t, nb.get("/console/log/"+failed.RequestID), http.StatusNotFound)
	r = nb.get("/console/log/" + f.theirs.RequestID)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.body, "their secret error", "not reached: the call ended before admission")
}

func TestLogCSVExport(t *testing.T) {
	f := newLogFixture(t, 1_234) // more than one export page
	b := f.h.signedIn("dev@acme.test", password)
	r := b.get("/console/log.csv")
	wantStatus(t, r, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	if cd := r.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="request-log-`) {
		t.Fatalf("Content-Disposition %q", cd)
	}
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	if !slices.Equal(rows[0], logCSVHeader) || len(rows) != 1+len(f.calls) {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	want := f.want(func(metering.Call) bool { return true })
	for i, row := range rows[1:] {
		if row[1] != want[i] {
			t.Fatalf("row %d is %s, want %s (newest first)", i+1, row[1], want[i])
		}
	}
	// The newest call is on key 2, whose name would run as a formula: defused, and quoted whole.
	newest := rows[1]
	if newest[3] != `'=cmd|"x", y (`+f.k2.Prefix+`…)` || newest[5] != "/v1/markets/trending" || newest[8] != "2xx" && newest[8] != "429" {
		t.Fatalf("newest row %q", newest)
	}
	wantNotContains(t, r.body, f.theirs.RequestID)

	// Filtered: the same filters as the page.
	r = b.get("/console/log.csv?status=429&key=" + strconv.Itoa(f.k2.ID))
	rows, err = csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := f.want(func(c metering.Call) bool { return c.Status == 429 }); len(rows) != 1+len(want) {
		t.Fatalf("filtered export: %d rows, want %d", len(rows)-1, len(want))
	}
	for _, row := range rows[1:] {
		if row[7] != "429" || row[9] != "rate_limited" || row[14] == "" {
			t.Fatalf("filtered export row %q", row)
		}
	}
}

func TestOperatorLog(t *testing.T) {
	f := newLogFixture(t, 60)
	f.h.operatorUser("ops@example.com", password)
	op := f.h.signedIn("ops@example.com", password)
	base := consumerPath(f.cons.ID) + "/log"
	r := op.get(base + "?status=4xx")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.body, "Request log of Acme", "Back to Acme", "404 Not Found")
	wantNotContains(t, r.body, "200 OK", f.theirs.RequestID)
	if got, want := walkLog(t, op, base), f.want(func(metering.Call) bool { return true }); !slices.Equal(got, want) {
		t.Fatalf("operator paging met %d calls, want %d", len(got), len(want))
	}
	r = op.get(base + "/" + f.calls[5].RequestID)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.body, f.calls[5].RequestID, `href="/console/operator/consumers/`+strconv.Itoa(f.cons.ID)+`/log"`)
	// The neighbour's call under Acme's log is not found; so is an unknown consumer.
	wantStatus(t, op.get(base+"/"+f.theirs.RequestID), http.StatusNotFound)
	wantStatus(t, op.get("/console/operator/consumers/999999/log"), http.StatusNotFound)
	csv := op.get(base + ".csv")
	wantStatus(t, csv, http.StatusOK)
	if n := strings.Count(csv.body, "\n"); n != 1+len(f.calls) {
		t.Fatalf("operator export: %d lines", n)
	}
	// A consumer's user cannot read the operators' pages.
	dev := f.h.signedIn("dev@acme.test", password)
	if r := dev.get(base); r.StatusCode == http.StatusOK {
		t.Fatalf("a consumer user read the operator's log: %d", r.StatusCode)
	}
}

// FuzzLogQuery feeds the request log's URL parser anything: it never panics, and a query it
// accepts reads back the same from the links it makes.
func FuzzLogQuery(f *testing.F) {
	cur := metering.LogCursor{At: time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC), ID: 7}.String()
	for _, s := range []string{
		"", "status=429&key=3", "from=2030-01-01T00:00&to=2030-01-02T00:00:30", "rid=req_01ab&before=" + cur,
		"op=getTrending&code=not_found&after=" + cur, "before=%ZZ", "key=-1", "rid=REQ_FF", "from=2030-01-01",
		"before=" + metering.LogCursor{RequestID: "req_01", ID: 1}.String() + "&rid=01",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, problems := parseLogQuery(v, testOperations)
		if len(problems) > 0 {
			return
		}
		back, problems := parseLogQuery(q.values(), testOperations)
		if len(problems) > 0 || back.Filter != q.Filter {
			t.Fatalf("%q: filter %+v reads back as %+v (%v)", raw, q.Filter, back.Filter, problems)
		}
		for _, c := range []*metering.LogCursor{q.Before, q.After} {
			if c == nil {
				continue
			}
			again, err := metering.ParseLogCursor(c.String())
			if err != nil || !again.At.Equal(c.At) || again.RequestID != c.RequestID || again.ID != c.ID {
				t.Fatalf("%q: cursor %+v reads back as %+v, %v", raw, c, again, err)
			}
		}
	})
}
