package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
)

// TestBrowserLog: a consumer's backend calls the API with two keys (successes, a 400, then 429s
// once the plan's burst is spent); a user of the consumer opens the request log in Chromium, sees
// the calls newest first with their status in words, filters by status group and by key with the
// form, opens the 400's page (its error body shown, no key secret), downloads the filtered CSV
// with the session cookie, pages Older and Newer by cursor, and gets 404 for another consumer's
// call by URL. Screenshots log, log-filtered and log-detail at 1280 and 390 px wide.
func TestBrowserLog(t *testing.T) {
	chromium := chromiumPath(t)
	shots := screenshotDir(t)
	m := startBrowserService(t)
	base := "http://" + m.Addr()
	seed := seedConsole(t, m.Config.DatabaseURL)

	// A second key; a plan of 6 units with no refill; a neighbour with a key; and 60 older calls
	// of the consumer, so that the log has a second page.
	ctx := context.Background()
	st, err := store.Open(ctx, m.Config.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	svc := access.NewService(st.Client)
	op := access.Operator("test")
	second, err := svc.CreateKey(ctx, op, seed.consumerID, "reporting job")
	if err != nil {
		t.Fatal(err)
	}
	rate, burst := 0, 6
	if _, err := svc.UpdateConsumer(ctx, op, seed.consumerID, access.ConsumerChange{RatePerMinute: &rate, Burst: &burst}, "log browser test"); err != nil {
		t.Fatalf("set the plan: %v", err)
	}
	scopes, on := append([]string(nil), access.Scopes...), true
	neighbour, err := svc.CreateConsumer(ctx, op, "Neighbour Ltd", access.ConsumerChange{Scopes: &scopes, AccessEnabled: &on})
	if err != nil {
		t.Fatal(err)
	}
	theirKey, err := svc.CreateKey(ctx, op, neighbour.ID, "theirs")
	if err != nil {
		t.Fatal(err)
	}
	var older []metering.Call
	for i := range 60 {
		at := time.Now().Add(-time.Hour - time.Duration(i)*time.Minute)
		older = append(older, metering.Call{ConsumerID: seed.consumerID, KeyID: seed.opsKeyID, Operation: "getTrending", Status: 200,
			Cost: 1, Latency: 2 * time.Millisecond, RequestID: fmt.Sprintf("req_%012x%020x", at.UnixMilli(), i), At: at,
			Method: "GET", Path: "/v1/markets/trending", Source: netip.MustParseAddr("127.0.0.1")})
	}
	if err := metering.NewUsageStore(st.Client, st.Dialect).WriteCalls(ctx, older); err != nil {
		t.Fatal(err)
	}
	st.Close()

	// Real calls (the new plan reaches the server within its sync interval: wait for the first 429).
	var oks []apiResult
	for range 3 {
		r, _ := apiCall(t, base+"/v1/markets/trending", seed.opsKey)
		oks = append(oks, r)
	}
	r, _ := apiCall(t, base+"/v1/markets/trending", second.Key)
	oks = append(oks, r)
	bad, _ := apiCall(t, base+"/v1/markets/trending?amm=bogus", second.Key)
	if bad.status != http.StatusBadRequest || bad.code == "" {
		t.Fatalf("a call with a bad parameter: %d %s", bad.status, bad.body)
	}
	var limited apiResult
	made := len(oks) + 1 // the consumer's calls, besides the 60 seeded ones
	for deadline := time.Now().Add(10 * time.Second); ; {
		made++
		if limited, _ = apiCall(t, base+"/v1/markets/trending", seed.opsKey); limited.status == http.StatusTooManyRequests {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no 429 within 10 s of spending the burst of %d: last %d", burst, limited.status)
		}
	}
	theirs, _ := apiCall(t, base+"/v1/markets/trending", theirKey.Key)

	browserCtx := startChromium(t, chromium)
	b := newTab(t, browserCtx, base, shots)
	b.open("open the console", "/console/login", http.StatusOK)
	b.signIn(seed.leadEmail, browserLeadPassword)

	// The log, newest first: the 429 on top once usage is written (about once a second).
	b.awaitInPage("request log", "/console/log", limited.requestID, 10*time.Second)
	b.expectHeading("request log", "Request log")
	rows := b.logRows("request log")
	if len(rows) != 50 || !strings.Contains(rows[0], limited.requestID) || !strings.Contains(rows[0], "429 Too Many Requests") {
		t.Fatalf("request log: %d rows, first %q; want 50, the 429 first", len(rows), rows[0])
	}
	if html := b.html(); strings.Contains(html, seed.opsKey) || strings.Contains(html, second.Key) || strings.Contains(html, theirs.requestID) {
		t.Fatal("request log: shows a key secret or the neighbour's call")
	}
	b.screenshot("log")

	// Filter by status group with the form: only 429s.
	b.setSelect("filter: status", `form.log-filter select[name="status"]`, "429")
	b.submit("filter: submit", `form.log-filter button[type="submit"]`)
	if q := b.query("filtered by 429"); q.Get("status") != "429" {
		t.Fatalf("filtered by 429: query %v", q)
	}
	for _, r := range b.logRows("filtered by 429") {
		if !strings.Contains(r, "429 Too Many Requests") || !strings.Contains(r, "rate_limited") {
			t.Fatalf("filtered by 429: row %q", r)
		}
	}
	b.screenshot("log-filtered")

	// Filter by the second key (any status): its success and its 400, nothing else.
	b.setSelect("filter: any status", `form.log-filter select[name="status"]`, "")
	b.setSelect("filter: key", `form.log-filter select[name="key"]`, strconv.Itoa(second.ID))
	b.submit("filter by key: submit", `form.log-filter button[type="submit"]`)
	keyRows := b.logRows("filtered by key")
	if len(keyRows) != 2 || !strings.Contains(keyRows[0], bad.requestID) || !strings.Contains(keyRows[1], oks[3].requestID) {
		t.Fatalf("filtered by the second key: %q", keyRows)
	}
	for _, r := range keyRows {
		if !strings.Contains(r, "reporting job") {
			t.Fatalf("filtered by the second key: row %q names another key", r)
		}
	}

	// The 400's page: everything recorded, its error body, no secret.
	b.submit("open the 400", fmt.Sprintf(`table.log a[href*=%q]`, bad.requestID))
	b.expectHeading("call page", "Call "+bad.requestID)
	body := b.text("call page: error body", "#error-body")
	if !strings.Contains(body, `"code": "`+bad.code+`"`) || !strings.Contains(body, bad.requestID) {
		t.Fatalf("call page: error body %q, want the envelope with code %s", body, bad.code)
	}
	detail := b.text("call page: details", "dl.call")
	for _, want := range []string{"GET /v1/markets/trending", "400 Bad Request", "127.0.0.1", "left in the bucket", "reporting job", "400 Bad Request (4xx client error"} {
		if !strings.Contains(detail, want) {
			t.Errorf("call page lacks %q:\n%s", want, detail)
		}
	}
	if strings.Contains(b.html(), second.Key) {
		t.Fatal("call page shows the key's secret")
	}
	b.screenshot("log-detail")

	// The CSV of the log filtered by 4xx, downloaded with the session cookie.
	b.open("back to the log", "/console/log?status=4xx", http.StatusOK)
	href := browserRun(b, "CSV link", chromedp.Evaluate[string](`document.querySelector('a[href^="/console/log.csv"]').getAttribute('href')`))
	records := b.downloadCSV(href)
	if len(records) != 2 || records[0][1] != "request_id" || records[1][1] != bad.requestID || records[1][7] != "400" || records[1][9] != bad.code {
		t.Fatalf("CSV of the 4xx calls: %q", records)
	}

	// Paging by cursor: Older shows the next 50 (down to the seeded calls), Newer comes back.
	b.open("the log again", "/console/log", http.StatusOK)
	first := b.logRows("first page")
	b.submit("older page", `nav.pager a[rel="next"]`)
	page2 := b.logRows("older page")
	if len(page2) != 60+made-50 || page2[0] == first[0] || !strings.Contains(b.html(), `rel="prev"`) {
		t.Fatalf("older page: %d rows, want %d (%d calls, 50 on the first page); Newer link %v", len(page2), 60+made-50, 60+made,
			strings.Contains(b.html(), `rel="prev"`))
	}
	if strings.Contains(b.html(), `rel="next"`) {
		t.Fatal("the last page has an Older link")
	}
	b.submit("newer page", `nav.pager a[rel="prev"]`)
	if back := b.logRows("newer page"); strings.Join(back, "\n") != strings.Join(first, "\n") {
		t.Fatalf("Newer from the second page shows other calls than the first page")
	}

	// Another consumer's call by URL: no such page.
	b.expectRefusal(base + "/console/log/" + theirs.requestID)
	b.open("the neighbour's call", "/console/log/"+theirs.requestID, http.StatusNotFound)
}

// logRows is the text of each row of the request log's table.
func (b *tab) logRows(step string) []string {
	b.t.Helper()
	return browserRun(b, step+": log rows", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('table.log tbody tr')].map(r => r.innerText)`))
}

// setSelect chooses a select's option by value.
func (b *tab) setSelect(step, sel, value string) {
	b.t.Helper()
	browserRun(b, step, chromedp.SetValue(chromedp.CSS(sel), value, chromedp.NodeVisible))
}

// downloadCSV fetches a console path over HTTP with the tab's session cookie and parses it as CSV,
// checking that it is served as a CSV attachment.
func (b *tab) downloadCSV(path string) [][]string {
	b.t.Helper()
	cookies := browserRun(b, "read cookies", func(ctx context.Context, t *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(ctx, t, network.GetCookies, network.GetCookiesParams{URLs: []string{b.base + "/console/log"}})
	})
	req, err := http.NewRequest(http.MethodGet, b.base+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	for _, c := range cookies.Cookies {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatalf("download %s: %v", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment;") {
		b.t.Fatalf("download %s: %d %s %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"))
	}
	records, err := csv.NewReader(resp.Body).ReadAll()
	if err != nil {
		b.t.Fatalf("download %s: not CSV: %v", path, err)
	}
	return records
}
