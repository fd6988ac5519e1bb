package api

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain"
)

// BenchmarkPipeline compares a cached price read, an authenticated GET /v1/tokens/{mint}/price of a
// seeded devnet token served from the warm market snapshot, through the whole pipeline with the
// same handler on a router without the pipeline, in one run, alternating short chunks of each so
// both see the same machine (GC, the usage flusher, other load). It reports:
//
//   - in-process: ns and allocations per request of each, served straight into ServeHTTP;
//   - HTTP: requests per second of each over loopback with concurrent keep-alive clients, and their
//     throughput ratio (pipeline / bare), which is what a caller of the service sees;
//   - RPC round trips per request, which are 0 when the price comes from the cache.
func BenchmarkPipeline(b *testing.B) {
	var d devnetChain
	e := newEnv(b, withDevnet(&d))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(1_000_000), Burst: ptr(1_000_000)})
	path := "/v1/tokens/" + d.local.Market().Tokens[0].Address.Hex() + "/price?chain=base"

	bare := chi.NewRouter()
	huma.Register(humachi.New(bare, humaConfig()),
		huma.Operation{OperationID: "getTokenPrice", Method: http.MethodGet, Path: "/v1/tokens/{mint}/price"}, e.server.tokenPrice)
	bareSrv := httptest.NewServer(bare)
	b.Cleanup(bareSrv.Close)

	variants := []*variant{
		{name: "bare", handler: bare, url: bareSrv.URL, path: path},
		{name: "pipeline", handler: e.server, url: e.http.URL, path: path, key: key},
	}
	for _, v := range variants {
		for range 200 { // warm caches and connection pools
			v.inProcess(b, 1)
			v.overHTTP(b, 1)
		}
	}

	trips := d.rpc.RoundTrips()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(1000, b.N-done)
		for _, v := range variants {
			v.inProcess(b, n)
			v.overHTTP(b, n)
		}
		done += n
	}
	b.StopTimer()

	bv, pv := variants[0], variants[1]
	n := float64(b.N)
	b.ReportMetric(float64(bv.inProcT.Nanoseconds())/n, "bare-ns/op")
	b.ReportMetric(float64(pv.inProcT.Nanoseconds())/n, "pipeline-ns/op")
	b.ReportMetric(float64(bv.allocs)/n, "bare-allocs/op")
	b.ReportMetric(float64(pv.allocs)/n, "pipeline-allocs/op")
	b.ReportMetric(n/bv.httpT.Seconds(), "bare-req/s")
	b.ReportMetric(n/pv.httpT.Seconds(), "pipeline-req/s")
	b.ReportMetric(float64(bv.httpT)/float64(pv.httpT), "throughput-ratio")
	b.ReportMetric(float64(d.rpc.RoundTrips()-trips)/n, "rpc-trips/op") // 0: served from the cache
}

// httpClients is the number of concurrent keep-alive clients of the HTTP measurement.
const httpClients = 8

// variant is one side of the comparison and what was measured of it.
type variant struct {
	name    string
	handler http.Handler
	url     string
	path    string
	key     string

	inProcT time.Duration
	allocs  uint64
	httpT   time.Duration
	client  http.Client
}

func (v *variant) request() *http.Request {
	r := httptest.NewRequest(http.MethodGet, v.path, nil)
	if v.key != "" {
		r.Header.Set("X-API-Key", v.key)
	}
	return r
}

// inProcess serves n requests straight into the handler.
func (v *variant) inProcess(b *testing.B, n int) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	w := &discardWriter{}
	for range n {
		w.reset()
		v.handler.ServeHTTP(w, v.request())
		if w.status != http.StatusOK {
			b.Fatalf("%s: status %d", v.name, w.status)
		}
	}
	v.inProcT += time.Since(start)
	runtime.ReadMemStats(&after)
	v.allocs += after.Mallocs - before.Mallocs
}

// overHTTP makes n requests over loopback from httpClients goroutines.
func (v *variant) overHTTP(b *testing.B, n int) {
	if v.client.Transport == nil {
		v.client.Transport = &http.Transport{MaxIdleConnsPerHost: httpClients}
	}
	var wg sync.WaitGroup
	start := time.Now()
	for c := range httpClients {
		share := n / httpClients
		if c < n%httpClients {
			share++
		}
		wg.Go(func() {
			for range share {
				req, _ := http.NewRequest(http.MethodGet, v.url+v.path, nil)
				if v.key != "" {
					req.Header.Set("X-API-Key", v.key)
				}
				res, err := v.client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Errorf("%s: status %d", v.name, res.StatusCode)
					return
				}
			}
		})
	}
	wg.Wait()
	v.httpT += time.Since(start)
}

// discardWriter is a ResponseWriter that keeps the status and drops the body, as cheaply as a
// server's writer (httptest.ResponseRecorder clones the header map on every response).
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) reset() {
	clear(w.header)
	w.status = 0
}

func (w *discardWriter) Header() http.Header {
	if w.header == nil {
		w.header = http.Header{}
	}
	return w.header
}

func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(p), nil
}

func (w *discardWriter) WriteHeader(status int) { w.status = status }

// BenchmarkQuote compares a swap quote (live reserves read from the devnet in one RPC round trip,
// exact route math) with the cached price read, both through the whole pipeline over loopback, in
// one run, alternating chunks of each. It reports the requests per second of each, their ratio
// (quote / cached price) and the quote's RPC round trips per request.
func BenchmarkQuote(b *testing.B) {
	var d devnetChain
	e := newEnv(b, withDevnet(&d))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(1_000_000), Burst: ptr(1_000_000)})
	aur := d.local.Market().Tokens[0].Address.Hex()
	price := &variant{name: "price", handler: e.server, url: e.http.URL, path: "/v1/tokens/" + aur + "/price?chain=base", key: key}
	quote := &variant{name: "quote", handler: e.server, url: e.http.URL, key: key,
		path: "/v1/quotes/swap?chain=base&inputMint=native&outputMint=" + aur + "&amount=1000000000000000000&slippageBps=50"}
	for range 50 { // warm caches, connection pools and the tax cache
		price.overHTTP(b, 1)
		quote.overHTTP(b, 1)
	}
	trips := d.rpc.RoundTrips()
	b.ResetTimer()
	for done := 0; done < b.N; {
		n := min(200, b.N-done)
		price.overHTTP(b, n)
		quote.overHTTP(b, n)
		done += n
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(n/price.httpT.Seconds(), "price-req/s")
	b.ReportMetric(n/quote.httpT.Seconds(), "quote-req/s")
	b.ReportMetric(float64(price.httpT)/float64(quote.httpT), "quote/price")
	b.ReportMetric(float64(d.rpc.RoundTrips()-trips)/n, "quote-rpc-trips/op")
}

// BenchmarkQuoteCandidates measures how a swap quote's latency grows with its candidate pools:
// the devnet's configuration with 0, 2 and 6 more USD stablecoins than its own (addresses without
// pools), so that the two-hop routes through the wrapped native token and the stablecoins read 2,
// 4 and 8 middle tokens: (1 + 2 x mids) token pairs of 5 pools each (the V2 pair, four V3 fee
// tiers), 25, 45 and 85 pools read in the quote's one round trip. It reports the quote's
// requests per second over loopback, its RPC round trips and the pools it reads.
func BenchmarkQuoteCandidates(b *testing.B) {
	for _, extra := range []int{0, 2, 6} {
		mids := 2 + extra
		b.Run(fmt.Sprintf("pools=%d", (1+2*mids)*5), func(b *testing.B) {
			d := devnetChain{edit: func(cc *chain.ChainConfig) {
				for i := range extra {
					cc.USDStablecoins = append(cc.USDStablecoins, chain.Stablecoin{Address: fmt.Sprintf("0x%040x", 0xdead00+i), Decimals: 6})
				}
			}}
			e := newEnv(b, withDevnet(&d))
			_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(1_000_000), Burst: ptr(1_000_000)})
			aur := d.local.Market().Tokens[0].Address.Hex()
			quote := &variant{name: "quote", handler: e.server, url: e.http.URL, key: key,
				path: "/v1/quotes/swap?chain=base&inputMint=native&outputMint=" + aur + "&amount=1000000000000000000&slippageBps=50"}
			quote.overHTTP(b, 20) // warm
			quote.httpT = 0
			trips := d.rpc.RoundTrips()
			b.ResetTimer()
			quote.overHTTP(b, b.N)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/quote.httpT.Seconds(), "quote-req/s")
			b.ReportMetric(float64(d.rpc.RoundTrips()-trips)/float64(b.N), "rpc-trips/op")
		})
	}
}
