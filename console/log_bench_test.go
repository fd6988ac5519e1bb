package console

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// logBenchEnv asks for BenchmarkLog50M: "sqlite" or "postgres" (its seeding takes minutes and a GB).
const logBenchEnv = "PARTNER_BENCH_LOG50M"

// logBenchCalls is how many calls the benchmark's consumer has.
const logBenchCalls = 50_000_000

// rareCode is the error code of one call in rareEvery: the rare-error filter's target.
const (
	rareCode  = "internal_error"
	rareEvery = 100_000
)

// BenchmarkLog50M times the request log through the real handler (in process, with the session
// cookie) for a consumer with 50,000,000 recorded calls over 29 days (make bench-log): the first
// page with no filter, by status group, by a rare error code (one call in 100,000) and by each
// other filter, an older page, a request-id prefix search, a call's page (the lookup by request id)
// and the CSV export of the 1,000,000 calls of 14 hours (rows/s). Each is a sub-benchmark, so ns/op
// is per page. It runs only when PARTNER_BENCH_LOG50M names the store (sqlite or postgres):
//
//	PARTNER_BENCH_LOG50M=sqlite go test -run '^$' -bench 'BenchmarkLog50M' -benchtime 20x -timeout 60m ./console/
//
// PARTNER_BENCH_LOG50M_CALLS sets a smaller count (at least 1,000,000) for a quicker run. Seeding
// writes pages directly: meteringtest.Traffic's calls (a call every 50 ms, spread over five keys)
// through the usage store's own page writer, a batch of MaxBatch calls at a time as the recorder
// writes them, on every CPU at once; no rollups.
func BenchmarkLog50M(b *testing.B) {
	which := os.Getenv(logBenchEnv)
	open := map[string]func(testing.TB) *store.Store{"sqlite": storetest.SQLite, "postgres": storetest.Postgres}[which]
	if open == nil {
		b.Skipf("set %s=sqlite or %s=postgres to seed 50M calls and run it", logBenchEnv, logBenchEnv)
	}
	h := newHarness(b, withStore(open))
	cons := h.consumer("Heavy user")
	noise := h.consumer("Neighbour")
	var keyIDs []int
	for i := range 5 {
		keyIDs = append(keyIDs, h.key(cons.ID, fmt.Sprintf("key %d", i)).ID)
	}
	nk := h.key(noise.ID, "neighbour key")
	h.consumerUser(cons.ID, "heavy@example.com", password)
	calls := logBenchCalls
	if n, err := strconv.Atoi(os.Getenv(logBenchEnv + "_CALLS")); err == nil && n >= 1_000_000 {
		calls = n
	}

	const gap = 50 * time.Millisecond
	now := h.clock.Now().UTC().Truncate(time.Second)
	start := now.Add(-time.Duration(calls)*gap - time.Minute) // up to about a minute ago
	t0 := time.Now()
	us := metering.NewUsageStore(h.st.Client, h.st.Dialect, metering.WithDB(h.st.DB))
	seedLog(b, us, cons.ID, keyIDs, start, gap, calls)
	seedLog(b, us, noise.ID, []int{nk.ID}, start, gap*100, calls/100)
	b.Logf("seeded %d calls for one consumer and %d for a neighbour in %v (%s): %.1f bytes a call on disk",
		calls, calls/100, time.Since(t0).Round(time.Millisecond), h.st.Dialect, float64(storetest.DiskBytes(b, h.st))/float64(calls+calls/100))
	// The statistics a running store has: PostgreSQL's autovacuum analyzes a table as it grows, but
	// not within the seconds a bulk load takes, and without statistics its planner guesses that a
	// consumer has a few pages and reads them all, then sorts.
	if _, err := h.st.DB.ExecContext(b.Context(), `ANALYZE "usage_pages"`); err != nil {
		b.Fatal(err)
	}

	session := benchSignIn(b, h, "heavy@example.com")
	get := func(target string) string {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.AddCookie(session)
		w := httptest.NewRecorder()
		h.handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("GET %s: %d %s", target, w.Code, w.Body.String())
		}
		return w.Body.String()
	}

	// A call in the middle of the window: its request id, and a prefix of its first hex digits.
	midPage, err := us.Log(context.Background(), cons.ID, metering.LogFilter{To: start.Add(time.Duration(calls/2) * gap)}, nil, nil, 1)
	if err != nil || len(midPage.Calls) != 1 {
		b.Fatalf("the middle call: %v", err)
	}
	mid := midPage.Calls[0]
	from := mid.At.Truncate(time.Minute) // an hour from the middle of the window
	first := get("/console/log")
	older := pagerLink(first, "next")
	if older == "" {
		b.Fatal("no Older link on the first page")
	}
	for _, p := range []struct{ name, target string }{
		{"all", "/console/log"},
		{"older-page", older},
		{"key", "/console/log?key=" + fmt.Sprint(keyIDs[3])},
		{"operation", "/console/log?op=getPoolChart"},
		{"status-2xx", "/console/log?status=2xx"},
		{"status-4xx", "/console/log?status=4xx"},
		{"status-429", "/console/log?status=429"},
		{"status-5xx", "/console/log?status=5xx"},
		{"error-code", "/console/log?code=not_found"},
		{"rare-error-code", "/console/log?code=" + rareCode},
		{"time-range", "/console/log?" + url.Values{"from": {from.Format("2006-01-02T15:04")}, "to": {from.Add(time.Hour).Format("2006-01-02T15:04")}}.Encode()},
		{"request-id-prefix", "/console/log?rid=" + mid.RequestID[:4+8]},
		{"request-id-whole", "/console/log?rid=" + mid.RequestID},
		{"call-detail", "/console/log/" + mid.RequestID},
	} {
		body := get(p.target)
		if p.name == "call-detail" {
			if !strings.Contains(body, mid.RequestID) {
				b.Fatalf("%s: the call's page lacks its id", p.target)
			}
		} else if n := len(pageIDs(body)); n == 0 || p.name != "request-id-whole" && p.name != "rare-error-code" && n != logPageSize {
			b.Fatalf("%s: %d rows", p.target, n)
		}
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				get(p.target)
			}
		})
	}

	// The CSV export of a million calls.
	exportTo := mid.At.Truncate(time.Minute)
	exportFrom := exportTo.Add(-time.Duration(1_000_000) * gap)
	target := "/console/log.csv?" + url.Values{"from": {exportFrom.Format("2006-01-02T15:04")}, "to": {exportTo.Format("2006-01-02T15:04")}}.Encode()
	// The export streams: the body is counted as it arrives, never held, as a client reading it
	// would (a recorder holding 1,000,000 rows would time its own buffer's growth).
	export := func() int {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.AddCookie(session)
		w := &lineCounter{header: http.Header{}}
		h.handler.ServeHTTP(w, req)
		if w.code != http.StatusOK {
			b.Fatalf("GET %s: %d", target, w.code)
		}
		return w.lines - 1 // the header line
	}
	rows := export()
	if rows < 900_000 {
		b.Fatalf("the export holds %d rows, want about a million", rows)
	}
	b.Run("csv-export-1M", func(b *testing.B) {
		for b.Loop() {
			if n := export(); n != rows {
				b.Fatalf("the export holds %d rows, then %d", rows, n)
			}
		}
		b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}

// lineCounter is a ResponseWriter that counts the lines of the body and keeps nothing else.
type lineCounter struct {
	header http.Header
	code   int
	lines  int
}

func (w *lineCounter) Header() http.Header { return w.header }

func (w *lineCounter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *lineCounter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.lines += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// seedLog writes n calls of the consumer, gap apart on average from start (meteringtest.Traffic,
// one call in rareEvery answered 500 rareCode), through the usage store's page writer in batches
// of MaxBatch, on every CPU: each goroutine writes its own stretch of the window.
func seedLog(b testing.TB, us *metering.UsageStore, consumerID int, keyIDs []int, start time.Time, gap time.Duration, n int) {
	b.Helper()
	workers := runtime.NumCPU()
	per := (n + workers - 1) / workers
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		lo, hi := w*per, min(n, (w+1)*per)
		wg.Go(func() {
			traffic := meteringtest.NewTraffic(uint64(consumerID*100+w), consumerID, keyIDs, start.Add(time.Duration(lo)*gap), gap)
			for i := lo; i < hi && errs[w] == nil; i += metering.MaxBatch {
				calls := traffic.Calls(min(metering.MaxBatch, hi-i))
				for j := range calls {
					if (i+j)%rareEvery == rareEvery/2 {
						calls[j].Status, calls[j].ErrorCode, calls[j].Cost = 500, rareCode, 0
					}
				}
				errs[w] = us.WriteUsage(context.Background(), metering.UsageBatch{Calls: calls})
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchSignIn signs in through the handler and returns the session cookie.
func benchSignIn(b *testing.B, h *harness, email string) *http.Cookie {
	b.Helper()
	login := httptest.NewRequest(http.MethodPost, "/console/login",
		strings.NewReader(url.Values{"email": {email}, "password": {password}}.Encode()))
	login.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h.handler.ServeHTTP(w, login)
	if w.Code != http.StatusSeeOther {
		b.Fatalf("sign in: %d", w.Code)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == sessionCookie {
			return c
		}
	}
	b.Fatal("no session cookie")
	return nil
}
