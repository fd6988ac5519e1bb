package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/telemetry"
)

// The multi-replica soak (make soak; not part of make test): two replicas on PostgreSQL and Redis
// under sustained load on a cached read (a token's price) and an enriched read (an owner's
// holdings, read from the chain) for a few minutes, loopback only. It holds:
//
//   - every answer is 200 or 429 (the consumer's limit, 1,000 calls/s for both replicas together, is
//     about what the clients send, so both admission paths run), and the 200s stay within that
//     shared limit; no transport error;
//   - every answered call is in the usage pages at the end, and no raw call was shed;
//   - each replica's resident memory (VmRSS from /proc/PID/status) and goroutine count (from its
//     /metrics) stay flat: the last sample is at most soakGrowth times the sample taken after the
//     warm-up, plus a small slack (soakRSSSlack, soakGoroutineSlack) for the noise of a garbage
//     collected heap and of connections opening and closing.
const (
	soakDefault        = 2 * time.Minute
	soakWarmUp         = 20 * time.Second
	soakEvery          = 5 * time.Second
	soakClients        = 4      // per replica: each alternates a price read and a holdings read
	soakRPM            = 60_000 // 1,000 calls/s shared by both replicas: about what the clients send on a laptop
	soakBurst          = 1_000
	soakGrowth         = 1.5
	soakRSSSlack       = 16 << 20 // bytes
	soakGoroutineSlack = 20
)

// soakDuration is how long TestSoakReplicas loads the replicas: PARTNER_SOAK=1 for soakDefault, or a
// duration such as PARTNER_SOAK=5m. Unset, the test skips.
func soakDuration(t *testing.T) time.Duration {
	t.Helper()
	switch v := os.Getenv("PARTNER_SOAK"); v {
	case "":
		t.Skip("soak: set PARTNER_SOAK=1 (two minutes) or a duration such as PARTNER_SOAK=5m; make soak runs it")
	case "1":
		return soakDefault
	default:
		d, err := time.ParseDuration(v)
		if err != nil || d < soakWarmUp+4*soakEvery {
			t.Fatalf("PARTNER_SOAK=%q: want 1 or a duration of at least %v", v, soakWarmUp+4*soakEvery)
		}
		return d
	}
	return 0
}

// soakSample is one replica's figures at one moment of the soak.
type soakSample struct {
	at         time.Duration // since the load started
	rss        int64         // VmRSS, bytes
	goroutines int64
	heap       int64 // live and unswept heap objects, bytes
	fds        int64
	answered   int64 // calls answered by all replicas so far
}

// soakStats are what the clients saw.
type soakStats struct {
	mu        sync.Mutex
	statuses  map[int]int64 // by status
	byOp      map[string]map[int]int64
	latencies map[string][]time.Duration // of 200 answers, by operation
	failures  []string                   // transport errors and unexpected statuses (first few)
	answered  int64
}

func (s *soakStats) add(op string, status int, took time.Duration, failure string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if failure != "" {
		if len(s.failures) < 20 {
			s.failures = append(s.failures, failure)
		}
		if status == 0 {
			return
		}
	}
	s.answered++
	s.statuses[status]++
	if s.byOp[op] == nil {
		s.byOp[op] = map[int]int64{}
	}
	s.byOp[op][status]++
	if status == http.StatusOK {
		s.latencies[op] = append(s.latencies[op], took)
	}
}

func (s *soakStats) count() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answered
}

// TestSoakReplicas: see the top of this file. Run it with
// PARTNER_SOAK=1 go test -run TestSoakReplicas -timeout 10m -v ./cmd/partnerd/
func TestSoakReplicas(t *testing.T) {
	duration := soakDuration(t)
	rs := startReplicas(t, 2, soakRPM, soakBurst, false, "PARTNER_REDIS_URL="+testRedisURL(t), "PARTNER_OPS_ADDR=127.0.0.1:0")
	client := &http.Client{Timeout: 10 * time.Second}
	ops := make([]string, len(rs.replicas))
	for i, r := range rs.replicas {
		ops[i] = opsBase(r.process)
	}
	market, accounts := rs.local.Market(), rs.local.Accounts()
	var paths []struct{ op, path string }
	for i, tok := range market.Tokens {
		paths = append(paths,
			struct{ op, path string }{"getTokenPrice", "/v1/tokens/" + tok.Address.Hex() + "/price?chain=base"},
			struct{ op, path string }{"getHoldings", "/v1/portfolio/" + accounts[i%len(accounts)].Address.Hex() + "/holdings?chain=base"})
	}
	for _, r := range rs.replicas {
		for _, p := range paths[:2] {
			r.await(p.op+" on "+r.base, http.StatusOK, "", func() response { return r.call(http.MethodGet, p.path, rs.key, nil) })
		}
	}

	// Before the load: everything the setup called is written, and the baseline of calls in pages.
	recordedBefore := rs.awaitUsageWritten(client, ops)
	baseline := meteringtest.StoredCallCount(t, rs.db.DB)
	if int64(baseline) != recordedBefore {
		t.Fatalf("before the load: %d calls in usage pages, the replicas recorded %d calls", baseline, recordedBefore)
	}

	stats := &soakStats{statuses: map[int]int64{}, byOp: map[string]map[int]int64{}, latencies: map[string][]time.Duration{}}
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	start := time.Now()
	for i, r := range rs.replicas {
		transport := &http.Transport{MaxIdleConnsPerHost: soakClients}
		defer transport.CloseIdleConnections()
		c := &http.Client{Transport: transport, Timeout: 10 * time.Second}
		for n := range soakClients {
			wg.Go(func() {
				for k := i*soakClients + n; ctx.Err() == nil; k++ {
					p := paths[k%len(paths)]
					// Never cut a call under way: the replica would record a call the client did not count.
					req, _ := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodGet, r.base+p.path, nil)
					req.Header.Set("X-API-Key", rs.key)
					begin := time.Now()
					res, err := c.Do(req)
					if err != nil {
						stats.add(p.op, 0, 0, fmt.Sprintf("%s %s: %v", r.base, p.path, err))
						continue
					}
					body, err := io.ReadAll(res.Body)
					res.Body.Close()
					took := time.Since(begin)
					switch {
					case err != nil:
						stats.add(p.op, res.StatusCode, took, fmt.Sprintf("%s %s: read body: %v", r.base, p.path, err))
					case res.StatusCode != http.StatusOK && res.StatusCode != http.StatusTooManyRequests:
						stats.add(p.op, res.StatusCode, took, fmt.Sprintf("%s %s: %d %s", r.base, p.path, res.StatusCode, body))
					default:
						stats.add(p.op, res.StatusCode, took, "")
					}
				}
			})
		}
	}

	samples := make([][]soakSample, len(rs.replicas))
	sample := func() {
		at, answered := time.Since(start), stats.count()
		for i, r := range rs.replicas {
			status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.cmd.Process.Pid))
			if err != nil {
				t.Fatalf("read the status of replica %d: %v", i, err)
			}
			rss, ok := telemetry.ParseVmRSS(string(status))
			if !ok {
				t.Fatalf("no VmRSS in the status of replica %d", i)
			}
			m := scrapeMetrics(t, client, ops[i])
			value := func(name string) int64 { v, _ := m.Value(name); return int64(v) }
			samples[i] = append(samples[i], soakSample{at: at, rss: rss, goroutines: value("partnerd_goroutines"),
				heap: value("partnerd_go_heap_objects_bytes"), fds: value("partnerd_process_open_fds"), answered: answered})
		}
	}
	sample()
	warm := -1 // index of the first sample at or after the warm-up
	tick := time.NewTicker(soakEvery)
	defer tick.Stop()
	for time.Since(start) < duration {
		<-tick.C
		sample()
		if warm < 0 && time.Since(start) >= soakWarmUp {
			warm = len(samples[0]) - 1
		}
	}
	stop()
	wg.Wait()
	took := time.Since(start)
	sample()

	// The table of samples.
	var b strings.Builder
	fmt.Fprintf(&b, "%8s  %-7s  %9s  %10s  %9s  %5s  %10s  %8s\n", "t", "replica", "RSS MiB", "goroutines", "heap MiB", "fds", "answered", "calls/s")
	for j := range samples[0] {
		for i := range samples {
			s := samples[i][j]
			rate := "-"
			if j > 0 && i == 0 {
				prev := samples[0][j-1]
				rate = fmt.Sprintf("%.0f", float64(s.answered-prev.answered)/(s.at-prev.at).Seconds())
			}
			mark := ""
			switch {
			case j == warm:
				mark = "  <- after the warm-up"
			case j == len(samples[0])-1:
				mark = "  <- the load stopped"
			}
			fmt.Fprintf(&b, "%8s  %-7d  %9.1f  %10d  %9.1f  %5d  %10d  %8s%s\n", s.at.Round(time.Second), i, float64(s.rss)/(1<<20),
				s.goroutines, float64(s.heap)/(1<<20), s.fds, s.answered, rate, mark)
		}
	}
	t.Logf("samples every %v (warm-up %v):\n%s", soakEvery, soakWarmUp, b.String())

	// The totals.
	stats.mu.Lock()
	defer stats.mu.Unlock()
	b.Reset()
	fmt.Fprintf(&b, "%d calls answered in %v over %d replicas with %d clients each: %.0f calls/s\n",
		stats.answered, took.Round(time.Second), len(rs.replicas), soakClients, float64(stats.answered)/took.Seconds())
	for _, op := range slices.Sorted(maps.Keys(stats.byOp)) {
		lat := stats.latencies[op]
		slices.Sort(lat)
		q := func(p float64) time.Duration {
			if len(lat) == 0 {
				return 0
			}
			return lat[min(len(lat)-1, int(p*float64(len(lat))))].Round(10 * time.Microsecond)
		}
		fmt.Fprintf(&b, "  %-14s statuses %v; latency of the 200s p50 %v, p99 %v, max %v\n", op, stats.byOp[op], q(0.5), q(0.99), q(1))
	}
	t.Logf("totals: %s", b.String())

	for _, f := range stats.failures {
		t.Errorf("not a 200 or a 429: %s", f)
	}
	for status := range stats.statuses {
		if status != http.StatusOK && status != http.StatusTooManyRequests {
			t.Errorf("%d answers with status %d", stats.statuses[status], status)
		}
	}
	// The limit is shared by both replicas (Redis): they admit at most the burst plus the rate over
	// the load's duration (half a second more for the clocks of Redis and of this test).
	admitted := stats.statuses[http.StatusOK]
	maxAdmitted := int64(soakBurst + float64(soakRPM)/60*(took+500*time.Millisecond).Seconds())
	t.Logf("admitted %d calls, at most %d allowed by the shared limit (%d/min, burst %d)", admitted, maxAdmitted, soakRPM, soakBurst)
	if admitted == 0 || admitted > maxAdmitted {
		t.Errorf("admitted %d calls, want 1 to %d", admitted, maxAdmitted)
	}

	// Every answered call is recorded, and none of its rows was shed.
	recordedAfter := rs.awaitUsageWritten(client, ops)
	records := len(meteringtest.StoredCalls(t, rs.db.DB)) // decoded, not only summed
	t.Logf("usage: %d calls answered; the replicas recorded %d and wrote %d calls in pages (%d before, %d after)",
		stats.answered, recordedAfter-recordedBefore, int64(records-baseline), baseline, records)
	if recordedAfter-recordedBefore != stats.answered || int64(records-baseline) != stats.answered {
		t.Errorf("%d calls answered, %d recorded, %d calls in usage pages: want all equal", stats.answered, recordedAfter-recordedBefore, records-baseline)
	}
	for i := range rs.replicas {
		m := scrapeMetrics(t, client, ops[i])
		if shed, _ := m.Value("partnerd_usage_raw_rows_shed_total"); shed != 0 {
			t.Errorf("replica %d shed %v raw usage rows", i, shed)
		}
		if failed, _ := m.Value("partnerd_usage_write_failures_total"); failed != 0 {
			t.Errorf("replica %d: %v usage writes failed", i, failed)
		}
	}

	// Flat memory and goroutines.
	if warm < 0 {
		t.Fatalf("the soak ended before the warm-up (%v)", soakWarmUp)
	}
	for i := range samples {
		w, last := samples[i][warm], samples[i][len(samples[i])-1]
		maxRSS := int64(float64(w.rss)*soakGrowth) + soakRSSSlack
		maxG := int64(float64(w.goroutines)*soakGrowth) + soakGoroutineSlack
		t.Logf("replica %d: RSS %.1f MiB after the warm-up, %.1f MiB at the end (bound %.1f); goroutines %d, %d (bound %d)",
			i, float64(w.rss)/(1<<20), float64(last.rss)/(1<<20), float64(maxRSS)/(1<<20), w.goroutines, last.goroutines, maxG)
		if last.rss > maxRSS {
			t.Errorf("replica %d: RSS grew from %d to %d bytes, over the bound %d", i, w.rss, last.rss, maxRSS)
		}
		if last.goroutines > maxG {
			t.Errorf("replica %d: goroutines grew from %d to %d, over the bound %d", i, w.goroutines, last.goroutines, maxG)
		}
	}
	for i, r := range rs.replicas {
		if strings.Contains(r.stderr.String(), `"level":"ERROR"`) {
			r.errorf("replica %d logged an error", i)
		}
	}
}

// awaitUsageWritten waits (up to 15 s) until every replica has written every raw usage row it
// recorded, and returns how many calls they recorded in all.
func (rs *replicaSet) awaitUsageWritten(client *http.Client, ops []string) int64 {
	rs.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var recorded, written, pending int64
		for _, base := range ops {
			m := scrapeMetrics(rs.t, client, base)
			r, _ := m.Value("partnerd_usage_calls_recorded_total")
			w, _ := m.Value("partnerd_usage_raw_rows_written_total")
			p, _ := m.Value("partnerd_usage_raw_rows_pending")
			recorded, written, pending = recorded+int64(r), written+int64(w), pending+int64(p)
		}
		if written == recorded && pending == 0 {
			return recorded
		}
		if time.Now().After(deadline) {
			rs.t.Fatalf("usage not written after 15 s: %d recorded, %d written, %d pending", recorded, written, pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
