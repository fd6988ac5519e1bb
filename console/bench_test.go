package console

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// Benchmark seed: one consumer, 1,000,000 calls over 30 days, 5 keys, 30 operations.
const (
	benchCalls      = 1_000_000
	benchKeys       = 5
	benchOperations = 30
	benchBatch      = 50_000
)

// BenchmarkUsagePage1M times the 30-day usage page of a consumer with 1,000,000 recorded calls,
// through the real handler (in process, with the session cookie). Seeding runs once, before the
// timed loops; it logs how long it took and how many rows each table holds.
func BenchmarkUsagePage1M(b *testing.B) {
	h := newHarness(b)
	ctx := context.Background()
	cons := h.consumer("Heavy user")
	noise := h.consumer("Neighbour")
	var keys []access.IssuedKey
	for i := range benchKeys {
		keys = append(keys, h.key(cons.ID, fmt.Sprintf("key %d", i)))
	}
	nk := h.key(noise.ID, "neighbour key")
	h.consumerUser(cons.ID, "heavy@example.com", password)

	now := h.clock.Now()
	// From the start of the window's first UTC day (29 days before today) up to now.
	y, m, d := now.UTC().Date()
	span := int64(now.Sub(time.Date(y, m, d-29, 0, 0, 0, 0, time.UTC)))
	start := time.Now()
	batch := make([]metering.Call, 0, benchBatch)
	for i := range benchCalls {
		status := 200
		if i%50 == 0 {
			status = 500
		}
		batch = append(batch, metering.Call{
			ConsumerID: cons.ID, KeyID: keys[i%benchKeys].ID, Operation: fmt.Sprintf("op%02d", (i/benchKeys)%benchOperations),
			Status: status, Cost: 1 + i%3, Latency: time.Duration(200+i%5000) * time.Microsecond,
			RequestID: fmt.Sprintf("req-%07d", i),
			At:        now.Add(-time.Duration(span / benchCalls * int64(benchCalls-1-i))),
		})
		if len(batch) == benchBatch || i == benchCalls-1 {
			if err := h.usage.WriteCalls(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	// A neighbour's calls, which must not slow the heavy consumer's page.
	var other []metering.Call
	for i := range 1000 {
		other = append(other, metering.Call{ConsumerID: noise.ID, KeyID: nk.ID, Operation: "op00", Status: 200, Cost: 1,
			RequestID: fmt.Sprintf("nb-%d", i), At: now.Add(-time.Duration(i) * time.Minute)})
	}
	h.writeCalls(other...)
	b.Logf("seeded %d calls for one consumer (%d keys, %d operations, 30 days) in %v (%s)",
		benchCalls, benchKeys, benchOperations, time.Since(start).Round(time.Millisecond), h.st.Dialect)
	logTableRows(b, h)

	// Sign in through the handler and keep the session cookie.
	login := httptest.NewRequest(http.MethodPost, "/console/login",
		strings.NewReader(url.Values{"email": {"heavy@example.com"}, "password": {password}}.Encode()))
	login.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h.handler.ServeHTTP(w, login)
	if w.Code != http.StatusSeeOther {
		b.Fatalf("sign in: %d", w.Code)
	}
	var session *http.Cookie
	for _, c := range w.Result().Cookies() {
		if c.Name == sessionCookie {
			session = c
		}
	}
	if session == nil {
		b.Fatal("no session cookie")
	}

	get := func(target string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.AddCookie(session)
		w := httptest.NewRecorder()
		h.handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("GET %s: %d", target, w.Code)
		}
		return w
	}
	want := func(w *httptest.ResponseRecorder, target string, subs ...string) {
		for _, s := range subs {
			if !strings.Contains(w.Body.String(), s) {
				b.Fatalf("GET %s: page lacks %q", target, s)
			}
		}
	}
	keyPage := fmt.Sprintf("/console/usage?key=%d", keys[2].ID)
	searchPage := "/console/usage?requestId=req-0123456"
	// The first read sums the settled hours' latency histograms; later ones within 5 minutes reuse the sums.
	t0 := time.Now()
	first := get("/console/usage")
	firstPage := time.Since(t0)
	want(first, "/console/usage", `<div class="big">1,000,000</div>`, `<div class="big">20,000</div>`)
	want(get(keyPage), keyPage, `<div class="big">200,000</div>`)
	want(get(searchPage), searchPage, "<code>req-0123456</code>")

	var size int
	for b.Loop() {
		size = get("/console/usage").Body.Len()
	}
	b.ReportMetric(float64(size), "bytes/page")
	b.ReportMetric(float64(firstPage.Nanoseconds()), "ns/first-page")

	// The same page filtered by a key and searched by request id, timed outside the loop above
	// and reported as extra metrics (ns per page).
	for _, v := range []struct{ target, unit string }{{keyPage, "ns/key-filtered-page"}, {searchPage, "ns/request-id-search"}} {
		const runs = 5
		t0 := time.Now()
		for range runs {
			get(v.target)
		}
		b.ReportMetric(float64(time.Since(t0).Nanoseconds())/runs, v.unit)
	}
}

// logTableRows logs how many rows each table of the store holds.
func logTableRows(b *testing.B, h *harness) {
	b.Helper()
	ctx := context.Background()
	rows, err := h.st.DB.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		b.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			b.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	var out []string
	for _, t := range tables {
		var n int
		if err := h.st.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+t+`"`).Scan(&n); err != nil {
			b.Fatal(err)
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%s=%d", t, n))
		}
	}
	b.Logf("rows: %s (other tables empty)", strings.Join(out, " "))
}
