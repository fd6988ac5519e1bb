package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines returns the JSON log lines with the given message, keyed by request id.
func (b *syncBuffer) lines(t *testing.T, msg string) map[string]map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(b.buf.Bytes()))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("log line is not JSON: %s", sc.Bytes())
		}
		if line["msg"] == msg {
			out[line["requestId"].(string)] = line
		}
	}
	return out
}

// TestAccessLog: every call, authenticated or not, gets one info line with its request id, operation,
// status, latency and, once known, consumer, key id, cost and chain; never the key. Off, none.
func TestAccessLog(t *testing.T) {
	var logs syncBuffer
	e := newEnv(t, withDeps(func(d *Deps) {
		d.AccessLog = true
		d.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	}))
	calls := []struct {
		req       request
		status    int
		operation string
		keyed     bool
		cost      float64
	}{
		{request{path: "/v1/chains"}, 200, "listChains", false, 0},
		{request{path: "/v1/markets/trending", key: e.key}, 200, "getTrending", true, 1},
		{request{path: "/v1/portfolio/holdings?owners=base:" + evmAddr + ",bsc:" + evmAddr, key: e.key}, 200, "getHoldingsBatch", true, 20},
		{request{path: "/v1/tokens/" + evmAddr + "/price?chain=base", key: e.key}, 400, "getTokenPrice", true, 1},
		{request{path: "/v1/markets/trending", key: "pk_live_nonsense"}, 401, "getTrending", false, 0},
		{request{path: "/v1/nowhere"}, 404, "", false, 0},
	}
	ids := make([]string, len(calls))
	for i, c := range calls {
		r := e.do(c.req)
		if r.status != c.status {
			t.Fatalf("%s: %d %s", c.req.path, r.status, r.rawBody)
		}
		ids[i] = r.header.Get("X-Request-Id")
	}
	// A line is written once the response is done, which may be just after the client has it.
	got := logs.lines(t, "call")
	for deadline := time.Now().Add(5 * time.Second); len(got) < len(calls) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		got = logs.lines(t, "call")
	}
	for i, c := range calls {
		line := got[ids[i]]
		if line == nil {
			t.Errorf("%s: no access log line for request %s", c.req.path, ids[i])
			continue
		}
		if line["level"] != "INFO" || line["status"] != float64(c.status) || line["method"] != http.MethodGet ||
			line["path"] != strings.Split(c.req.path, "?")[0] || line["latencyMs"] == nil {
			t.Errorf("%s: access log line %v", c.req.path, line)
		}
		if op, _ := line["operation"].(string); op != c.operation {
			t.Errorf("%s: operation %q, want %q", c.req.path, op, c.operation)
		}
		if keyed := line["keyId"] != nil; keyed != c.keyed || (keyed && (line["consumer"] != float64(e.consumer) || line["cost"] != c.cost)) {
			t.Errorf("%s: consumer, key and cost in %v; want keyed=%v cost %v", c.req.path, line, c.keyed, c.cost)
		}
	}
	if chain := got[ids[3]]["chain"]; chain != "base" {
		t.Errorf("price read's chain = %v, want base", chain)
	}
	if all := logs.String(); strings.Contains(all, e.key) || strings.Contains(all, "pk_live_") {
		t.Error("the access log holds an API key")
	}

	var quiet syncBuffer
	e = newEnv(t, withDeps(func(d *Deps) { d.Logger = slog.New(slog.NewJSONHandler(&quiet, nil)) }))
	e.do(request{path: "/v1/markets/trending", key: e.key})
	time.Sleep(100 * time.Millisecond) // as long as the line would take, were the log on
	if n := len(quiet.lines(t, "call")); n != 0 {
		t.Errorf("access log off: %d lines", n)
	}
}
