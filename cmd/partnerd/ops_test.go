package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/telemetry"
	"github.com/partner-platform/partnerd/telemetry/telemetrytest"
)

// TestServeConfigOpsAddr: PARTNER_OPS_ADDR is off by default, takes host:port, and must not be
// the public address.
func TestServeConfigOpsAddr(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ops, addr string
		want      string // empty: accepted
	}{
		{"", "", ""},
		{"127.0.0.1:9090", "", ""},
		{"127.0.0.1:0", "", ""},
		{"[::1]:9090", "", ""},
		{":9090", "", ""},
		{"9090", "", "PARTNER_OPS_ADDR"},
		{"http://127.0.0.1:9090", "", "PARTNER_OPS_ADDR"},
		{"127.0.0.1:8080", "", "not the public 127.0.0.1:8080"},
		{"127.0.0.1:9000", "127.0.0.1:9000", "not the public 127.0.0.1:9000"},
	} {
		cfg, err := serveConfig(nil, func(name string) string {
			switch name {
			case "PARTNER_OPS_ADDR":
				return tc.ops
			case "PARTNER_ADDR":
				return tc.addr
			}
			return ""
		})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("PARTNER_OPS_ADDR=%q: %v, want accepted", tc.ops, err)
		case tc.want == "" && cfg.OpsAddr != tc.ops:
			t.Errorf("PARTNER_OPS_ADDR=%q: OpsAddr %q", tc.ops, cfg.OpsAddr)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("PARTNER_OPS_ADDR=%q (PARTNER_ADDR=%q): %v, want an error mentioning %s", tc.ops, tc.addr, err, tc.want)
		}
	}
}

// opsBase waits for the process's log line naming its operator listener (PARTNER_OPS_ADDR may
// pick a free port with :0) and returns http://ADDR.
func opsBase(p *process) string {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		for line := range strings.SplitSeq(p.stderr.String(), "\n") {
			var entry struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &entry) == nil && strings.HasPrefix(entry.Msg, "operator listener serving") && entry.Addr != "" {
				return "http://" + entry.Addr
			}
		}
		if time.Now().After(deadline) {
			p.fatalf("no log line naming the operator listener")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// scrapeMetrics reads and checks the operator listener's /metrics.
func scrapeMetrics(t *testing.T, client *http.Client, base string) telemetrytest.Metrics {
	t.Helper()
	res, err := client.Get(base + "/metrics")
	if err != nil {
		t.Fatalf("GET %s/metrics: %v", base, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != telemetry.ContentType {
		t.Fatalf("GET %s/metrics: %d %q %v", base, res.StatusCode, res.Header.Get("Content-Type"), err)
	}
	m, err := telemetrytest.Parse(string(body))
	if err != nil {
		t.Fatalf("%s/metrics does not parse: %v\n%s", base, err, body)
	}
	return m
}

// TestOpsListener: with PARTNER_OPS_ADDR the binary serves /metrics and /debug/pprof/ there and
// only there; the usage counters follow the API calls; SIGTERM stops both listeners cleanly.
func TestOpsListener(t *testing.T) {
	t.Parallel()
	bin := partnerdBinary(t)
	env := baseEnv("PARTNER_DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "p.db"), "PARTNER_ACCESS_LOG=0",
		"PARTNER_DEVNET_TRADE_INTERVAL=0", "PARTNER_OPS_ADDR=127.0.0.1:0")
	e := &e2e{process: startServer(t, bin, env), bin: bin, env: env, client: &http.Client{Timeout: 30 * time.Second}}
	ops := opsBase(e.process)
	if ops == e.base {
		t.Fatalf("the operator listener is the public one (%s)", ops)
	}
	before := scrapeMetrics(t, e.client, ops)
	for _, name := range []string{"partnerd_usage_calls_recorded_total", "partnerd_usage_raw_rows_shed_total",
		"partnerd_usage_write_failures_total", "partnerd_usage_raw_rows_pending", "partnerd_goroutines",
		"partnerd_go_memory_bytes", "partnerd_process_resident_memory_bytes", "partnerd_db_connections_open",
		"partnerd_access_reloads_total"} {
		if _, ok := before.Value(name); !ok {
			t.Errorf("/metrics lacks %s", name)
		}
	}

	var c struct{ ID int }
	if err := json.Unmarshal(e.cli("consumer", "create", "--name", "ops", "--scopes", "market:read", "--enable"), &c); err != nil {
		t.Fatal(err)
	}
	var k struct{ Key string }
	if err := json.Unmarshal(e.cli("key", "create", "--consumer", fmt.Sprint(c.ID), "--name", "k"), &k); err != nil {
		t.Fatal(err)
	}
	e.await("the new key", http.StatusOK, "", func() response {
		return e.call(http.MethodGet, "/v1/tokens/search?chain=base&q=AUR", k.Key, nil)
	})
	recorded, _ := before.Value("partnerd_usage_calls_recorded_total")
	deadline := time.Now().Add(10 * time.Second)
	for {
		m := scrapeMetrics(t, e.client, ops)
		got, _ := m.Value("partnerd_usage_calls_recorded_total")
		written, _ := m.Value("partnerd_usage_raw_rows_written_total")
		if got > recorded && written == got {
			t.Logf("after the calls: %v recorded, %v written", got, written)
			break
		}
		if time.Now().After(deadline) {
			e.fatalf("usage counters did not follow the calls: %v recorded (%v before), %v written", got, recorded, written)
		}
		time.Sleep(200 * time.Millisecond)
	}

	for path, want := range map[string]string{"/debug/pprof/": "goroutine", "/debug/pprof/goroutine?debug=1": "goroutine profile:"} {
		res, err := e.client.Get(ops + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("GET %s on the operator listener: %d, want 200 with %q", path, res.StatusCode, want)
		}
	}
	for _, path := range []string{"/metrics", "/debug/pprof/", "/debug/pprof/goroutine?debug=1"} {
		res, err := e.client.Get(e.base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s on the public listener: %d, want 404\n%.200s", path, res.StatusCode, body)
		}
	}

	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, ok := e.exited(30 * time.Second); !ok || code != 0 {
		e.fatalf("after SIGTERM: exited %v with code %d, want a clean exit", ok, code)
	}
	if res, err := (&http.Client{Timeout: time.Second}).Get(ops + "/metrics"); err == nil {
		res.Body.Close()
		t.Error("the operator listener still answers after the process exited")
	}
}
