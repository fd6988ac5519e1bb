package telemetry_test

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/telemetry"
	"github.com/partner-platform/partnerd/telemetry/telemetrytest"
)

// get answers a GET of path from h.
func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

// scrape reads and checks /metrics of h.
func scrape(t *testing.T, h http.Handler) telemetrytest.Metrics {
	t.Helper()
	rec := get(t, h, "/metrics")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != telemetry.ContentType {
		t.Fatalf("/metrics: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	m, err := telemetrytest.Parse(rec.Body.String())
	if err != nil {
		t.Fatalf("/metrics does not parse: %v\n%s", err, rec.Body.String())
	}
	return m
}

func want(t *testing.T, m telemetrytest.Metrics, name string, value float64) {
	t.Helper()
	if got, ok := m.Value(name); !ok || got != value {
		t.Errorf("%s = %v (present %v), want %v", name, got, ok, value)
	}
}

// TestMetricsFromSources: every source shows up under its name with its value, beside the
// runtime's and the process's metrics.
func TestMetricsFromSources(t *testing.T) {
	h := telemetry.Handler(telemetry.Sources{
		Usage: func() metering.Stats {
			return metering.Stats{Recorded: 1000, Counted: 990, Written: 900, Shed: 7, Pending: 93, Failures: 2, RateLimited: 40}
		},
		UsageBuffer: 100_000,
		DB: func() sql.DBStats {
			return sql.DBStats{OpenConnections: 5, InUse: 2, Idle: 3, WaitCount: 4, WaitDuration: 1500 * time.Millisecond}
		},
		AccessReloads:  func() int64 { return 12 },
		InternalErrors: func() int64 { return 3 },
	})
	m := scrape(t, h)
	for name, v := range map[string]float64{
		"partnerd_usage_calls_recorded_total":       1000,
		"partnerd_usage_calls_counted_total":        990,
		"partnerd_usage_raw_rows_written_total":     900,
		"partnerd_usage_raw_rows_shed_total":        7,
		"partnerd_usage_write_failures_total":       2,
		"partnerd_usage_raw_rows_pending":           93,
		"partnerd_calls_rate_limited_total":         40,
		"partnerd_usage_raw_rows_pending_limit":     100_000,
		"partnerd_access_reloads_total":             12,
		"partnerd_internal_errors_total":            3,
		"partnerd_db_connections_open":              5,
		"partnerd_db_connections_in_use":            2,
		"partnerd_db_connections_idle":              3,
		"partnerd_db_connection_waits_total":        4,
		"partnerd_db_connection_wait_seconds_total": 1.5,
		"partnerd_build_info":                       1,
	} {
		want(t, m, name, v)
	}
	for _, name := range []string{"partnerd_goroutines", "partnerd_go_memory_bytes", "partnerd_go_heap_objects_bytes",
		"partnerd_go_heap_goal_bytes", "partnerd_process_resident_memory_bytes", "partnerd_process_open_fds"} {
		if v, ok := m.Value(name); !ok || v <= 0 {
			t.Errorf("%s = %v (present %v), want a positive value", name, v, ok)
		}
	}
	if v, _ := m.Value("partnerd_process_start_time_seconds"); v > float64(time.Now().Unix()+1) || v < float64(time.Now().Add(-time.Hour).Unix()) {
		t.Errorf("partnerd_process_start_time_seconds = %v, want about when the test started", v)
	}
	if _, ok := m.Value("partnerd_go_gc_cycles_total"); !ok {
		t.Error("no partnerd_go_gc_cycles_total")
	}
	if labels := m["partnerd_build_info"].Samples[0].Labels; !strings.Contains(labels, `go_version="go`) {
		t.Errorf("build info labels %q", labels)
	}
	if m["partnerd_usage_raw_rows_shed_total"].Type != "counter" || m["partnerd_usage_raw_rows_pending"].Type != "gauge" {
		t.Error("wrong TYPE of the usage metrics")
	}
}

// TestMetricsWithoutSources: with no source, only the runtime, the process and the build remain.
func TestMetricsWithoutSources(t *testing.T) {
	m := scrape(t, telemetry.Handler(telemetry.Sources{}))
	for name := range m {
		if strings.HasPrefix(name, "partnerd_usage_") || strings.HasPrefix(name, "partnerd_db_") || name == "partnerd_access_reloads_total" {
			t.Errorf("%s without its source", name)
		}
	}
	if _, ok := m.Value("partnerd_goroutines"); !ok {
		t.Error("no partnerd_goroutines")
	}
}

// failingWriter fails every write, as a store that is down.
type failingWriter struct{}

func (failingWriter) WriteUsage(context.Context, metering.UsageBatch) error {
	return errors.New("store down")
}

// TestShedCounterMoves: a real recorder whose store fails and whose buffer holds 10 raw rows sheds
// the 11th call's raw row on; /metrics shows the shed rows, the pending ones and the failed writes.
func TestShedCounterMoves(t *testing.T) {
	r := metering.NewRecorder(failingWriter{}, slog.New(slog.NewTextHandler(io.Discard, nil)), time.Hour, 10)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = r.Close(ctx) // the store stays down: the rows are lost, as they would be
	})
	h := telemetry.Handler(telemetry.Sources{Usage: r.Stats, UsageBuffer: 10})
	want(t, scrape(t, h), "partnerd_usage_raw_rows_shed_total", 0)
	for i := range 15 {
		r.Record(metering.Call{ConsumerID: 1, KeyID: 1, Operation: "getTokenPrice", Status: 200, Cost: 1, RequestID: "r" + string(rune('a'+i)), At: time.Now()})
	}
	if err := r.Flush(t.Context()); err == nil {
		t.Fatal("a flush to a failing store succeeded")
	}
	m := scrape(t, h)
	want(t, m, "partnerd_usage_calls_recorded_total", 15)
	want(t, m, "partnerd_usage_raw_rows_shed_total", 5)
	want(t, m, "partnerd_usage_raw_rows_pending", 10)
	want(t, m, "partnerd_usage_raw_rows_written_total", 0)
	// The full chunk also woke the background flusher, whose write may have failed too.
	if v, _ := m.Value("partnerd_usage_write_failures_total"); v < 1 {
		t.Errorf("partnerd_usage_write_failures_total = %v, want at least 1", v)
	}
	want(t, m, "partnerd_usage_raw_rows_pending_limit", 10)
}

// TestPprof: the profiles are served on the listener's own mux.
func TestPprof(t *testing.T) {
	h := telemetry.Handler(telemetry.Sources{})
	for path, contains := range map[string]string{
		"/debug/pprof/":                  "goroutine",
		"/debug/pprof/goroutine?debug=1": "goroutine profile:",
		"/debug/pprof/heap?debug=1":      "heap profile:",
		"/debug/pprof/cmdline":           "",
		"/":                              "/metrics",
	} {
		rec := get(t, h, path)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), contains) {
			t.Errorf("GET %s: %d, want 200 with %q\n%.300s", path, rec.Code, contains, rec.Body.String())
		}
	}
	if rec := get(t, h, "/v1/chains"); rec.Code != http.StatusNotFound {
		t.Errorf("GET /v1/chains on the operator listener: %d, want 404", rec.Code)
	}
}

// TestStartClose: Start serves on its own address until Close.
func TestStartClose(t *testing.T) {
	s, err := telemetry.Start("127.0.0.1:0", telemetry.Sources{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + s.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if _, err := telemetrytest.Parse(string(body)); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d %v", res.StatusCode, err)
	}
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if res, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Get("http://" + s.Addr() + "/metrics"); err == nil {
		res.Body.Close()
		t.Fatal("the listener still answers after Close")
	}
	if _, err := telemetry.Start(s.Addr()+"x", telemetry.Sources{}, slog.Default()); err == nil {
		t.Error("Start on a bad address succeeded")
	}
}

// TestCloseCutsAProfile: a CPU profile under way does not hold Close past its context.
func TestCloseCutsAProfile(t *testing.T) {
	s, err := telemetry.Start("127.0.0.1:0", telemetry.Sources{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	go func() {
		close(started)
		if res, err := http.Get("http://" + s.Addr() + "/debug/pprof/profile?seconds=30"); err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}()
	<-started
	time.Sleep(200 * time.Millisecond)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	begin := time.Now()
	if err := s.Close(ctx); err != nil {
		t.Errorf("Close with a profile under way: %v", err)
	}
	if took := time.Since(begin); took > 5*time.Second {
		t.Errorf("Close took %v", took)
	}
}

func TestParseVmRSS(t *testing.T) {
	status := "Name:\tpartnerd\nVmPeak:\t  900 kB\nVmRSS:\t   51234 kB\nThreads:\t12\n"
	if v, ok := telemetry.ParseVmRSS(status); !ok || v != 51234*1024 {
		t.Errorf("ParseVmRSS = %d %v", v, ok)
	}
	for _, bad := range []string{"", "VmRSS: x kB\n", "VmRSS: 12 MB\n", "Name: x\n"} {
		if _, ok := telemetry.ParseVmRSS(bad); ok {
			t.Errorf("ParseVmRSS(%q) succeeded", bad)
		}
	}
}

// TestParseRejects: the checker the other tests rely on refuses what is not the format or not
// partnerd's naming.
func TestParseRejects(t *testing.T) {
	const ok = "# HELP partnerd_x_total X.\n# TYPE partnerd_x_total counter\npartnerd_x_total{a=\"b\\\"c\"} 3\n"
	if m, err := telemetrytest.Parse(ok); err != nil || m["partnerd_x_total"].Samples[0].Value != 3 {
		t.Fatalf("Parse(%q) = %v, %v", ok, m, err)
	}
	for _, bad := range []string{
		"# HELP partnerd_x_total X.\n# TYPE partnerd_x_total counter\npartnerd_x_total 3", // no final line feed
		"# HELP partnerd_x X.\n# TYPE partnerd_x counter\npartnerd_x 3\n",                 // counter without _total
		"# HELP x_total X.\n# TYPE x_total counter\nx_total 3\n",                          // not partnerd_
		"partnerd_x 3\n", // no HELP/TYPE
		"# HELP partnerd_x X.\n# TYPE partnerd_x gauge\npartnerd_x three\n",                               // value
		"# HELP partnerd_x X.\n# TYPE partnerd_x gauge\npartnerd_x{a=b} 1\n",                              // unquoted label
		"# HELP partnerd_x X.\n# TYPE partnerd_x gauge\npartnerd_x  1\n",                                  // two spaces
		"# HELP partnerd_x X.\n# TYPE partnerd_x gauge\n# TYPE partnerd_x gauge\npartnerd_x 1\n",          // TYPE twice
		"# HELP partnerd_x X.\n# TYPE partnerd_x gauge\n",                                                 // no sample
		"# HELP partnerd_x X.\n# TYPE partnerd_x gaug\npartnerd_x 1\n",                                    // unknown type
		"# HELP partnerd_x X.\n# TYPE partnerd_x gauge\npartnerd_x 1\n# HELP partnerd_x Y.\n",             // HELP after samples
		"# HELP partnerd_x X.\n# TYPE partnerd_x gauge\npartnerd_x{a=\"1\"} 1\npartnerd_x{a=\"2\"} 1 x\n", // timestamp
	} {
		if _, err := telemetrytest.Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
}
