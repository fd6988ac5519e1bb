// Package telemetry is the operator listener (PARTNER_OPS_ADDR): what operators watch a replica
// by, on an address of its own, never the public one.
//
//   - /metrics: counters and gauges in the Prometheus text exposition format (version 0.0.4),
//     written with the standard library: the usage recorder, the database connection pool, the
//     access change feed, the Go runtime (goroutines, memory, GC) and the process (resident memory,
//     open files). Every name starts with partnerd_; counters end in _total.
//   - /debug/pprof/...: the runtime profiles of net/http/pprof, mounted on this listener's own mux.
//     (Importing net/http/pprof also registers them on http.DefaultServeMux, which partnerd never
//     serves.)
//
// The listener has no authentication: bind it to loopback or a private network. Reading the
// metrics costs a few mutex acquisitions and two small /proc reads; nothing on the API's hot path
// is counted for it.
package telemetry

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/metering"
)

// Sources are what /metrics reports besides the Go runtime and the process; a nil one is left out.
type Sources struct {
	// Usage is the usage recorder's counters (metering.Recorder.Stats).
	Usage func() metering.Stats
	// UsageBuffer is how many raw call rows may be pending before new ones are shed (0: left out).
	UsageBuffer int
	// DB is the store's connection pool (sql.DB.Stats).
	DB func() sql.DBStats
	// AccessReloads is how many reloads of keys and policy the change feed did (access.ChangeFeed.Reloads).
	AccessReloads func() int64
	// InternalErrors is how many calls the API answered internal_error (api.Server.InternalErrors).
	InternalErrors func() int64
}

// processStart is when the process started, as far as Go code can tell: when this package was
// initialised.
var processStart = time.Now()

// ContentType is the media type of /metrics: the Prometheus text format.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Handler serves /metrics, /debug/pprof/... and, at /, a short index of both.
func Handler(s Sources) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "partnerd operator listener\n\n/metrics        Prometheus text format\n/debug/pprof/   runtime profiles\n")
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ContentType)
		w.Header().Set("Cache-Control", "no-store")
		_ = s.WriteMetrics(w) // fails only when the client went away mid-write
	})
	mux.HandleFunc("/debug/pprof/", pprof.Index) // also the named profiles: heap, goroutine, allocs, ...
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// runtimeSamples are the runtime/metrics read for each scrape.
var runtimeSamples = []struct {
	key, name, typ, help string
}{
	{"/sched/goroutines:goroutines", "partnerd_goroutines", "gauge", "Goroutines that currently exist."},
	{"/memory/classes/total:bytes", "partnerd_go_memory_bytes", "gauge", "Memory mapped by the Go runtime (heap, stacks, runtime metadata), in bytes."},
	{"/memory/classes/heap/objects:bytes", "partnerd_go_heap_objects_bytes", "gauge", "Heap memory occupied by live objects and dead ones not yet swept, in bytes."},
	{"/gc/heap/goal:bytes", "partnerd_go_heap_goal_bytes", "gauge", "Heap size the garbage collector aims to finish the current cycle under, in bytes."},
	{"/gc/cycles/total:gc-cycles", "partnerd_go_gc_cycles_total", "counter", "Completed garbage collection cycles."},
}

// WriteMetrics writes every metric in the Prometheus text format.
func (s Sources) WriteMetrics(out io.Writer) error {
	w := &expo{w: bufio.NewWriter(out)}
	if s.Usage != nil {
		st := s.Usage()
		w.metric("partnerd_usage_calls_recorded_total", "counter", "Calls handed to the usage recorder since start (every authenticated call, whatever its status).", st.Recorded)
		w.metric("partnerd_usage_calls_counted_total", "counter", "Calls included in the stored per-key per-operation counts (rollups); these are never shed.", st.Counted)
		w.metric("partnerd_usage_raw_rows_written_total", "counter", "Raw per-call usage rows written to the store.", st.Written)
		w.metric("partnerd_usage_raw_rows_shed_total", "counter", "Raw per-call usage rows dropped because too many were pending (the store failing or far behind); their calls are still counted.", st.Shed)
		w.metric("partnerd_usage_write_failures_total", "counter", "Usage writes that failed (their rows stay queued and are retried).", st.Failures)
		w.metric("partnerd_usage_raw_rows_pending", "gauge", "Raw per-call usage rows queued or being written.", st.Pending)
		w.metric("partnerd_calls_rate_limited_total", "counter", "Calls refused by admission (429 rate_limited) since start; each is also in partnerd_usage_calls_recorded_total.", st.RateLimited)
	}
	if s.UsageBuffer > 0 {
		w.metric("partnerd_usage_raw_rows_pending_limit", "gauge", "Pending raw usage rows beyond which new raw rows are shed.", int64(s.UsageBuffer))
	}
	if s.AccessReloads != nil {
		w.metric("partnerd_access_reloads_total", "counter", "Reloads of keys and policy triggered by the store's change feed.", s.AccessReloads())
	}
	if s.InternalErrors != nil {
		w.metric("partnerd_internal_errors_total", "counter", "Calls answered 502 internal_error: failures the service did not recognise (bugs), each logged at ERROR with its cause and request id.", s.InternalErrors())
	}
	if s.DB != nil {
		db := s.DB()
		w.metric("partnerd_db_connections_open", "gauge", "Open connections of the store's pool.", int64(db.OpenConnections))
		w.metric("partnerd_db_connections_in_use", "gauge", "Connections of the store's pool in use.", int64(db.InUse))
		w.metric("partnerd_db_connections_idle", "gauge", "Idle connections of the store's pool.", int64(db.Idle))
		w.metric("partnerd_db_connection_waits_total", "counter", "Times a query waited for a free connection of the store's pool.", db.WaitCount)
		w.float("partnerd_db_connection_wait_seconds_total", "counter", "Time spent waiting for a free connection of the store's pool, in seconds.", db.WaitDuration.Seconds())
	}
	samples := make([]metrics.Sample, len(runtimeSamples))
	for i, m := range runtimeSamples {
		samples[i].Name = m.key
	}
	metrics.Read(samples)
	for i, m := range runtimeSamples {
		if v := samples[i].Value; v.Kind() == metrics.KindUint64 {
			w.uint(m.name, m.typ, m.help, v.Uint64())
		}
	}
	if rss, ok := residentBytes(); ok {
		w.metric("partnerd_process_resident_memory_bytes", "gauge", "Resident set size of the process (VmRSS), in bytes.", rss)
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		w.metric("partnerd_process_open_fds", "gauge", "Open file descriptors of the process (files, sockets).", int64(len(fds)))
	}
	w.float("partnerd_process_start_time_seconds", "gauge", "When the process started, in seconds since the Unix epoch.", float64(processStart.UnixMilli())/1000)
	w.help("partnerd_build_info", "gauge", "Always 1; the labels name the build.")
	w.sample("partnerd_build_info", buildLabels, "1")
	return w.flush()
}

// buildLabels are partnerd_build_info's labels: the Go version and the VCS revision when the
// binary was built from a checkout.
var buildLabels = func() string {
	revision := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	return `{go_version="` + labelValue(runtime.Version()) + `",revision="` + labelValue(revision) + `"}`
}()

// labelValue escapes a label value: backslash, double quote and line feed.
func labelValue(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

// residentBytes is the process's resident set size from /proc/self/status (Linux only).
func residentBytes() (int64, bool) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return ParseVmRSS(string(raw))
}

// ParseVmRSS reads the VmRSS line of a /proc/<pid>/status file, in bytes.
func ParseVmRSS(status string) (int64, bool) {
	for line := range strings.SplitSeq(status, "\n") {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest) // "123456 kB"
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}

// expo writes the text exposition format; the first write error sticks.
type expo struct {
	w   *bufio.Writer
	err error
}

func (e *expo) help(name, typ, help string) {
	e.printf("# HELP %s %s\n# TYPE %s %s\n", name, strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(help), name, typ)
}

func (e *expo) sample(name, labels, value string) { e.printf("%s%s %s\n", name, labels, value) }

func (e *expo) metric(name, typ, help string, v int64) {
	e.help(name, typ, help)
	e.sample(name, "", strconv.FormatInt(v, 10))
}

func (e *expo) uint(name, typ, help string, v uint64) {
	e.help(name, typ, help)
	e.sample(name, "", strconv.FormatUint(v, 10))
}

func (e *expo) float(name, typ, help string, v float64) {
	e.help(name, typ, help)
	s := strconv.FormatFloat(v, 'g', -1, 64)
	switch {
	case math.IsInf(v, 1):
		s = "+Inf"
	case math.IsInf(v, -1):
		s = "-Inf"
	case math.IsNaN(v):
		s = "NaN"
	}
	e.sample(name, "", s)
}

func (e *expo) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

func (e *expo) flush() error {
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// Server is a running operator listener.
type Server struct {
	srv *http.Server
	ln  net.Listener
}

// Start listens on addr and serves Handler(s) there until Close. It fails when addr cannot be
// bound; errors while serving are logged.
func Start(addr string, s Sources, log *slog.Logger) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("operator listener: listen on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           Handler(s),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		// No WriteTimeout: /debug/pprof/profile and /trace stream for as long as asked (default 30 s).
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("operator listener", "err", err)
		}
	}()
	return &Server{srv: srv, ln: ln}, nil
}

// Addr is the address the listener is bound to (useful with port 0).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close lets scrapes under way finish until ctx ends, then cuts what is left (a profile being
// recorded, say): that is not an error.
func (s *Server) Close(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return s.srv.Close()
	}
	return err
}
