package api

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
)

// BenchmarkPipeline measures an authenticated call (GET /v1/pools/hot) through the whole pipeline
// against the same handler on the same router without the pipeline, in one run, and reports the
// throughput ratio (pipeline / bare) and allocations per request of each.
func BenchmarkPipeline(b *testing.B) {
	e := newEnv(b)
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(1_000_000), Burst: ptr(1_000_000)})

	bare := chi.NewRouter()
	bareAPI := humachi.New(bare, humaConfig())
	huma.Register(bareAPI, huma.Operation{OperationID: "getHotPools", Method: http.MethodGet, Path: "/v1/pools/hot"}, e.server.poolList)

	piped := func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/v1/pools/hot", nil)
		r.Header.Set("X-API-Key", key)
		return r
	}
	plain := func() *http.Request { return httptest.NewRequest(http.MethodGet, "/v1/pools/hot", nil) }
	// Warm both: key cache, policy cache, pools.
	for range 100 {
		serve(b, e.server, piped())
		serve(b, bare, plain())
	}

	// Alternate short chunks of each, so both see the same machine (GC, the usage flusher, other load).
	b.ResetTimer()
	var bareT, pipeT time.Duration
	var bareAllocs, pipeAllocs uint64
	for done := 0; done < b.N; {
		n := min(500, b.N-done)
		d, a := measure(b, bare, plain, n)
		bareT, bareAllocs = bareT+d, bareAllocs+a
		d, a = measure(b, e.server, piped, n)
		pipeT, pipeAllocs = pipeT+d, pipeAllocs+a
		done += n
	}
	b.StopTimer()
	bareNs, pipeNs := float64(bareT.Nanoseconds())/float64(b.N), float64(pipeT.Nanoseconds())/float64(b.N)
	b.ReportMetric(bareNs, "bare-ns/op")
	b.ReportMetric(pipeNs, "pipeline-ns/op")
	b.ReportMetric(float64(bareAllocs)/float64(b.N), "bare-allocs/op")
	b.ReportMetric(float64(pipeAllocs)/float64(b.N), "pipeline-allocs/op")
	b.ReportMetric(bareNs/pipeNs, "throughput-ratio")
}

// measure serves n requests and returns the time taken and the allocations made.
func measure(b *testing.B, h http.Handler, req func() *http.Request, n int) (time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for range n {
		serve(b, h, req())
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	return elapsed, after.Mallocs - before.Mallocs
}

func serve(b *testing.B, h http.Handler, r *http.Request) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		b.Fatalf("status %d: %s", w.Code, w.Body)
	}
}
