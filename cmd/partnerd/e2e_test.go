package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// The end-to-end tests build the real binary once per test binary, run `partnerd serve` as a
// subprocess on a free port and talk to it over HTTP the way a partner would, while changing
// consumers and keys through the same binary's admin commands (DESIGN.md section 9).

// propagationBound is how long a CLI change may take to reach the running server (the sync
// interval is 500 ms in these tests; the documented bound is one interval plus one reload).
const propagationBound = 5 * time.Second

var build struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

func TestMain(m *testing.M) {
	code := m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

// partnerdBinary builds ./cmd/partnerd once for the whole test binary and returns its path.
func partnerdBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary; skipped with -short")
	}
	build.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			build.err = fmt.Errorf("the go command is not on PATH: %w", err)
			return
		}
		if build.dir, build.err = os.MkdirTemp("", "partnerd-e2e-"); build.err != nil {
			return
		}
		build.bin = filepath.Join(build.dir, "partnerd")
		build.out, build.err = exec.Command(goTool, "build", "-o", build.bin, ".").CombinedOutput()
	})
	if build.err != nil {
		t.Fatalf("go build partnerd: %v\n%s", build.err, build.out)
	}
	return build.bin
}

// baseEnv is the test process's environment without any PARTNER_ variable, plus extra. The local
// devnet takes a free port, so tests running at once do not fight over 8545.
func baseEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PARTNER_") {
			env = append(env, kv)
		}
	}
	return append(append(env, "PARTNER_DEVNET_ADDR=127.0.0.1:0"), extra...)
}

// lockedBuffer is a bytes.Buffer safe for the exec copier and the test to use at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// process is a running `partnerd serve`.
type process struct {
	t      *testing.T
	cmd    *exec.Cmd
	stderr *lockedBuffer
	base   string // http://127.0.0.1:PORT
	done   chan struct{}
	err    error // the result of Wait, set before done is closed
}

// startProcess starts `partnerd serve` with env and args and kills it when the test ends.
func startProcess(t *testing.T, bin string, env []string, args ...string) *process {
	t.Helper()
	p := &process{t: t, stderr: &lockedBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(bin, append([]string{"serve"}, args...)...)
	p.cmd.Env = env
	p.cmd.Stdout = p.stderr
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start partnerd serve: %v", err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// fatalf fails the test with the server's output attached.
func (p *process) fatalf(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf(format+"\n--- partnerd serve stderr ---\n%s", append(args, p.stderr.String())...)
}

func (p *process) errorf(format string, args ...any) {
	p.t.Helper()
	p.t.Errorf(format+"\n--- partnerd serve stderr ---\n%s", append(args, p.stderr.String())...)
}

// exited waits up to d for the process to end and returns its exit code.
func (p *process) exited(d time.Duration) (code int, ok bool) {
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode(), true
	case <-time.After(d):
		return 0, false
	}
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startServer starts `partnerd serve` on a free port and waits until /readyz answers 200. A port
// taken between picking and binding is retried.
func startServer(t *testing.T, bin string, env []string) *process {
	t.Helper()
	for attempt := 1; ; attempt++ {
		addr := freeAddr(t)
		p := startProcess(t, bin, env, "--addr", addr)
		p.base = "http://" + addr
		err := p.waitReady(15 * time.Second)
		if err == nil {
			return p
		}
		if attempt < 3 && strings.Contains(p.stderr.String(), "address already in use") {
			continue
		}
		p.fatalf("partnerd serve on %s did not become ready: %v", addr, err)
	}
}

func (p *process) waitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: time.Second}
	for {
		select {
		case <-p.done:
			return fmt.Errorf("exited early (%v)", p.err)
		default:
		}
		resp, err := client.Get(p.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no 200 from /readyz within %v (last: %v)", timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// e2e is one end-to-end scenario: the server, the admin CLI binary and an HTTP client.
type e2e struct {
	*process
	bin    string
	env    []string
	client *http.Client
}

// cli runs an admin command through the built binary; it must succeed and print one JSON object.
func (e *e2e) cli(args ...string) json.RawMessage {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Env = e.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	what := "partnerd " + strings.Join(args, " ")
	if err := cmd.Run(); err != nil {
		e.fatalf("%s: %v\nstderr: %s\nstdout: %s", what, err, stderr.String(), stdout.String())
	}
	if stderr.Len() > 0 {
		e.t.Errorf("%s: stderr not empty on success: %s", what, stderr.String())
	}
	return oneObject(e.t, what, stdout.String())
}

// response is one HTTP answer with its decoded JSON body.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (r response) code() string { s, _ := r.body["code"].(string); return s }

// call sends one request; key may be empty, body nil.
func (e *e2e) call(method, path, key string, body any, header ...string) response {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatalf("encode body: %v", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.base+path, rd)
	if err != nil {
		e.t.Fatalf("new request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.client.Do(req)
	if err != nil {
		e.fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	r := response{status: resp.StatusCode, header: resp.Header}
	if r.raw, err = io.ReadAll(resp.Body); err != nil {
		e.fatalf("%s %s: read body: %v", method, path, err)
	}
	if err := json.Unmarshal(r.raw, &r.body); err != nil {
		e.fatalf("%s %s: status %d, body is not a JSON object: %v\n%s", method, path, r.status, err, r.raw)
	}
	if r.header.Get("X-Request-Id") == "" {
		e.errorf("%s %s: no X-Request-Id", method, path)
	}
	if r.status >= 400 {
		if r.body["ok"] != false || r.code() == "" || r.body["requestId"] != r.header.Get("X-Request-Id") {
			e.errorf("%s %s: error body %s is not {ok:false, error, code, requestId = X-Request-Id}", method, path, r.raw)
		}
	}
	return r
}

// expect checks a response's status and error code (empty for success).
func (e *e2e) expect(r response, what string, status int, code string) {
	e.t.Helper()
	if r.status != status || r.code() != code {
		e.fatalf("%s: status %d code %q, want %d %q\n%s", what, r.status, r.code(), status, code, r.raw)
	}
}

// await repeats call until it answers status with code, failing after propagationBound. It returns
// how long that took and the number of earlier answers (calls that still saw the old state).
func (e *e2e) await(what string, status int, code string, call func() response) (took time.Duration, before []response) {
	e.t.Helper()
	start := time.Now()
	for {
		r := call()
		if r.status == status && r.code() == code {
			took = time.Since(start)
			e.t.Logf("%s: %d %s after %v (%d calls)", what, status, code, took.Round(time.Millisecond), len(before)+1)
			return took, before
		}
		before = append(before, r)
		if time.Since(start) > propagationBound {
			e.fatalf("%s: no %d %s within %v; last answer %d %s", what, status, code, propagationBound, r.status, r.raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

const e2eOwner = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

func TestEndToEnd(t *testing.T) {
	t.Parallel()
	begin := time.Now()
	bin := partnerdBinary(t)
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	env := baseEnv("PARTNER_DATABASE_URL="+dbURL, "PARTNER_SYNC_INTERVAL=500ms")
	e := &e2e{process: startServer(t, bin, env), bin: bin, env: env, client: &http.Client{Timeout: 10 * time.Second}}
	t.Cleanup(e.client.CloseIdleConnections)
	t.Logf("server ready %v after start of test", time.Since(begin).Round(time.Millisecond))

	// Operator: a consumer with every scope, access on, and a key. The server is already running.
	cons := as[access.Consumer](t, e.cli("consumer", "create", "--name", "E2E Partner",
		"--scopes", "market:read,portfolio:read,quote:read,tx:build", "--rpm", "60000", "--burst", "1000", "--enable"))
	cid := strconv.Itoa(cons.ID)
	k1 := as[access.IssuedKey](t, e.cli("key", "create", "--consumer", cid, "--name", "first"))

	trendingCalls := 0 // authenticated getTrending calls, each of which must show up in usage
	trending := func(key string) response {
		t.Helper()
		r := e.call(http.MethodGet, "/v1/markets/trending", key, nil)
		if r.status != http.StatusUnauthorized {
			trendingCalls++
		}
		return r
	}

	// Public operations need no key.
	r := e.call(http.MethodGet, "/v1/chains", "", nil)
	e.expect(r, "GET /v1/chains", http.StatusOK, "")
	var chains struct {
		OK     bool
		Chains []struct {
			ID      string `json:"id"`
			Enabled bool   `json:"enabled"`
			Network string `json:"network"`
			ChainID int64  `json:"chainId"`
			Note    string `json:"note"`
		}
	}
	if err := json.Unmarshal(r.raw, &chains); err != nil {
		t.Fatalf("decode chains: %v", err)
	}
	var ids []string
	for _, c := range chains.Chains {
		ids = append(ids, c.ID)
		// Local mode: no RPC is configured, so base is served from the devnet and solana from the local
		// validator, and each says so.
		if local := c.ID == "base" || c.ID == "solana"; c.Enabled != local || local && (c.Network != "devnet" || !strings.Contains(c.Note, "DEVNET")) ||
			c.ID == "base" && c.ChainID != 1337 {
			t.Errorf("chain %+v; want only base and solana enabled, as devnets (base with chain id 1337) with a note saying so", c)
		}
	}
	if got, want := strings.Join(ids, ","), "solana,ethereum,base,bsc,robinhood,arc"; got != want || !chains.OK {
		t.Errorf("GET /v1/chains: chains %s, want %s (ok %v)", got, want, chains.OK)
	}

	r = e.call(http.MethodGet, "/v1/openapi.json", "", nil)
	e.expect(r, "GET /v1/openapi.json", http.StatusOK, "")
	var doc struct {
		Info  struct{ Version string }
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(r.raw, &doc); err != nil {
		t.Fatalf("decode openapi.json: %v", err)
	}
	opIDs := map[string]bool{}
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct{ OperationID string }
			if json.Unmarshal(raw, &op) != nil || op.OperationID == "" {
				continue // parameters, summary ...
			}
			if opIDs[op.OperationID] {
				t.Errorf("openapi.json: operationId %s twice (%s %s)", op.OperationID, method, path)
			}
			opIDs[op.OperationID] = true
		}
	}
	if doc.Info.Version != "1.0.0" || len(opIDs) != 38 || !opIDs["getTrending"] || !opIDs["buildTransfer"] {
		t.Errorf("openapi.json: version %q, %d operations; want 1.0.0 and 38 including getTrending, buildTransfer", doc.Info.Version, len(opIDs))
	}

	// A partner's first calls.
	e.expect(trending(""), "trending without a key", http.StatusUnauthorized, "invalid_api_key")
	r = trending(k1.Key)
	e.expect(r, "GET /v1/markets/trending", http.StatusOK, "")
	if r.body["ok"] != true {
		t.Errorf("trending body %s, want ok true", r.raw)
	}
	if cc := r.header.Get("Cache-Control"); cc != "private, no-store" {
		t.Errorf("trending Cache-Control = %q, want private, no-store", cc)
	}
	limit, errL := strconv.Atoi(r.header.Get("X-RateLimit-Limit"))
	remaining, errR := strconv.Atoi(r.header.Get("X-RateLimit-Remaining"))
	if errL != nil || errR != nil || limit <= 0 || remaining < 0 || remaining >= limit {
		t.Errorf("trending X-RateLimit-Limit %q X-RateLimit-Remaining %q, want numbers with remaining < limit",
			r.header.Get("X-RateLimit-Limit"), r.header.Get("X-RateLimit-Remaining"))
	}
	r = e.call(http.MethodPost, "/v1/build/transfer", k1.Key, map[string]any{"chain": "base", "user": "0x52908400098527886e0f7030069857d2e4169ee7"})
	e.expect(r, "POST /v1/build/transfer without Idempotency-Key", http.StatusBadRequest, "missing_idempotency_key")
	if cc := r.header.Get("Cache-Control"); cc != "private, no-store" {
		t.Errorf("builder error Cache-Control = %q, want private, no-store", cc)
	}

	// Revoking a key reaches the running server.
	e.cli("key", "revoke", strconv.Itoa(k1.ID))
	e.await("revoked key", http.StatusUnauthorized, "revoked_api_key", func() response { return trending(k1.Key) })

	// Switching access off reaches it too.
	k2 := as[access.IssuedKey](t, e.cli("key", "create", "--consumer", cid, "--name", "second"))
	e.expect(trending(k2.Key), "trending with a new key", http.StatusOK, "")
	e.cli("consumer", "disable", cid, "--reason", "e2e")
	e.await("access off", http.StatusUnauthorized, "access_disabled", func() response { return trending(k2.Key) })

	// So does a scope change: portfolio:read taken away.
	e.cli("consumer", "enable", cid, "--reason", "e2e")
	e.cli("consumer", "update", cid, "--scopes", "market:read")
	holdings := "/v1/portfolio/" + e2eOwner + "/holdings"
	e.await("scope removed", http.StatusForbidden, "scope_required", func() response { return e.call(http.MethodGet, holdings, k2.Key, nil) })
	e.expect(trending(k2.Key), "trending with market:read left", http.StatusOK, "")

	// Calls made just before shutdown must be flushed by it.
	for range 3 {
		e.expect(trending(k2.Key), "trending before shutdown", http.StatusOK, "")
	}
	e.client.CloseIdleConnections()
	stopAt := time.Now()
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("send SIGTERM: %v", err)
	}
	code, ok := e.exited(10 * time.Second)
	if !ok {
		e.fatalf("partnerd serve still running 10s after SIGTERM")
	}
	if code != 0 {
		e.fatalf("partnerd serve exited with %d after SIGTERM, want 0 (%v)", code, e.err)
	}
	t.Logf("graceful shutdown took %v", time.Since(stopAt).Round(time.Millisecond))

	u := as[struct {
		ConsumerID int                   `json:"consumerId"`
		Rows       []metering.DailyUsage `json:"rows"`
	}](t, e.cli("usage", "--consumer", cid))
	var got int64
	for _, row := range u.Rows {
		if row.Operation == "getTrending" {
			got += row.Calls
		}
	}
	if got == 0 || got != int64(trendingCalls) {
		e.fatalf("usage after shutdown: %d getTrending calls recorded, want %d (every authenticated call, flushed on shutdown)\nrows: %+v",
			got, trendingCalls, u.Rows)
	}
	// The access log is on by default: one JSON line per call, without the key.
	if logged := strings.Count(e.stderr.String(), `"msg":"call",`); logged < trendingCalls {
		t.Errorf("access log: %d call lines, want at least the %d getTrending calls", logged, trendingCalls)
	}
	if !strings.Contains(e.stderr.String(), `"operation":"getTrending","consumer":`+cid) || strings.Contains(e.stderr.String(), k2.Key) {
		t.Errorf("access log lines lack the operation and consumer, or hold a key:\n%s", e.stderr.String())
	}
	t.Logf("end-to-end took %v", time.Since(begin).Round(time.Millisecond))
}

// TestEndToEndRedisUnreachable: a replica configured with a Redis that does not answer refuses to
// start, naming PARTNER_REDIS_URL, rather than keeping rate limits per process.
func TestEndToEndRedisUnreachable(t *testing.T) {
	t.Parallel()
	bin := partnerdBinary(t)
	env := baseEnv("PARTNER_DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "p.db"), "PARTNER_REDIS_URL=redis://127.0.0.1:1/0")
	p := startProcess(t, bin, env, "--addr", freeAddr(t))
	code, ok := p.exited(10 * time.Second)
	if !ok {
		p.fatalf("partnerd serve with an unreachable Redis still running after 10s, want a refusal")
	}
	msg := p.stderr.String()
	if code == 0 || !strings.Contains(msg, "PARTNER_REDIS_URL") || !strings.Contains(msg, "does not answer") {
		t.Errorf("partnerd serve with an unreachable Redis: exit %d, output %q; want non-zero and a message naming PARTNER_REDIS_URL", code, msg)
	}
}
