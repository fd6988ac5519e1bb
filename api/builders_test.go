package api

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/idempotency"
)

// testBuildOutput is the answer of the test-only builder.
type testBuildOutput struct {
	Body struct {
		OK bool  `json:"ok"`
		N  int64 `json:"n"`
	}
}

type testBuildInput struct {
	IdempotencyKey string `header:"Idempotency-Key"`
	Body           struct {
		Chain string `json:"chain"`
	}
}

// slowBuilder registers POST /v1/test/build: it counts its runs and, while gate is closed, waits.
type slowBuilder struct {
	runs    atomic.Int64
	started chan struct{}
	gate    chan struct{}
	fail    atomic.Bool // answer 502 instead
}

func newSlowBuilder(e *env) *slowBuilder {
	b := &slowBuilder{started: make(chan struct{}, 10), gate: make(chan struct{})}
	register(e.server, opSpec{ID: "testBuild", Method: http.MethodPost, Path: "/v1/test/build", Scope: ScopeTxBuild, Class: ClassProvider, Builder: true},
		func(ctx context.Context, in *testBuildInput) (*testBuildOutput, error) {
			n := b.runs.Add(1)
			b.started <- struct{}{}
			select {
			case <-b.gate:
			case <-ctx.Done():
				return nil, Errorf(CodeUpstreamTimeout, "cancelled")
			}
			if b.fail.Load() {
				return nil, Errorf(CodeUpstreamError, "upstream failed")
			}
			out := &testBuildOutput{}
			out.Body.OK, out.Body.N = true, n
			return out, nil
		})
	return b
}

func TestIdempotency(t *testing.T) {
	e := newEnv(t, withTestOp("testBuild", ScopeTxBuild), func(e *env) {
		e.edits = append(e.edits, func(d *Deps) { d.PendingWait = 100 * time.Millisecond })
	})
	b := newSlowBuilder(e)
	call := func(key, body string) response {
		return e.do(request{method: http.MethodPost, path: "/v1/test/build", key: e.key, body: body, headers: map[string]string{"Idempotency-Key": key}})
	}

	// First call runs while a second with the same key and body waits for it, then is refused as pending.
	done := make(chan response)
	go func() { done <- call("k1", `{"chain":"base"}`) }()
	<-b.started
	if r := call("k1", `{"chain":"base"}`); r.status != 409 || r.code() != string(CodeIdempotencyPending) {
		t.Fatalf("concurrent retry: %d %s", r.status, r.rawBody)
	}
	if r := call("k1", `{"chain":"bsc"}`); r.status != 409 || r.code() != string(CodeIdempotencyConflict) {
		t.Fatalf("changed body while pending: %d %s", r.status, r.rawBody)
	}
	close(b.gate)
	first := <-done
	if first.status != 200 || first.body["n"] != float64(1) {
		t.Fatalf("first call: %d %s", first.status, first.rawBody)
	}

	// Same key and bytes: the stored status and body, exactly, without running again.
	replay := call("k1", `{"chain":"base"}`)
	if replay.status != 200 || replay.rawBody != first.rawBody || replay.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %q %s, want %s", replay.status, replay.header.Get("Idempotent-Replayed"), replay.rawBody, first.rawBody)
	}
	checkReplayIDs(t, first, replay)
	// Identical JSON with other bytes is a different body.
	if r := call("k1", `{"chain": "base"}`); r.status != 409 || r.code() != string(CodeIdempotencyConflict) {
		t.Fatalf("changed bytes: %d %s", r.status, r.rawBody)
	}
	if b.runs.Load() != 1 {
		t.Fatalf("builder ran %d times, want 1", b.runs.Load())
	}

	// The same Idempotency-Key under another API key is independent.
	_, other := e.newConsumer(consumerWithAllScopes())
	r := e.do(request{method: http.MethodPost, path: "/v1/test/build", key: other, body: `{"chain":"base"}`, headers: map[string]string{"Idempotency-Key": "k1"}})
	if r.status != 200 || b.runs.Load() != 2 {
		t.Fatalf("other API key: %d runs=%d %s", r.status, b.runs.Load(), r.rawBody)
	}

	// An upstream failure is not stored: the retry runs again.
	b.fail.Store(true)
	if r := call("k2", `{"chain":"base"}`); r.status != 502 {
		t.Fatalf("failing build: %d %s", r.status, r.rawBody)
	}
	b.fail.Store(false)
	if r := call("k2", `{"chain":"base"}`); r.status != 200 || r.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("retry after 502: %d %s", r.status, r.rawBody)
	}
}

func TestIdempotencyReplaysClientErrors(t *testing.T) {
	e := newEnv(t)
	body := `{"chain":"base","user":"` + evmAddr + `","to":"` + evmAddr2 + `","token":"native","amount":"1.5"}`
	call := func() response {
		return e.do(request{method: http.MethodPost, path: "/v1/build/transfer", key: e.key, body: body, headers: map[string]string{"Idempotency-Key": "t-1"}})
	}
	first := call()
	if first.status != 400 || first.code() != string(CodeChainNotEnabled) {
		t.Fatalf("first: %d %s", first.status, first.rawBody)
	}
	again := call()
	// The replay is its own request: its body names its own id, as its header does.
	want := strings.Replace(first.rawBody, first.header.Get("X-Request-Id"), again.header.Get("X-Request-Id"), 1)
	if again.status != first.status || again.rawBody != want || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay of a 400: %d %s (replayed=%q), want %s", again.status, again.rawBody, again.header.Get("Idempotent-Replayed"), want)
	}
	if again.body["requestId"] != again.header.Get("X-Request-Id") {
		t.Fatalf("replayed body's requestId %v, header %s", again.body["requestId"], again.header.Get("X-Request-Id"))
	}
	checkReplayIDs(t, first, again)
}

// checkReplayIDs checks that a replay has a request id of its own and names the original call's.
func checkReplayIDs(t *testing.T, original, replay response) {
	t.Helper()
	id, orig := replay.header.Get("X-Request-Id"), replay.header.Get("Original-Request-Id")
	if id == "" || id == original.header.Get("X-Request-Id") || orig != original.header.Get("X-Request-Id") {
		t.Fatalf("replay X-Request-Id %q, Original-Request-Id %q; the original call's id is %q", id, orig, original.header.Get("X-Request-Id"))
	}
}

func TestBuilderRules(t *testing.T) {
	e := newEnv(t)
	k := e.key
	transfer := `{"chain":"base","user":"` + evmAddr + `","to":"` + evmAddr2 + `","token":"native","amount":"%s"}`
	idem := func(key string) map[string]string { return map[string]string{"Idempotency-Key": key} }
	run(t, e, []scenario{
		{name: "missing idempotency key", req: request{method: "POST", path: "/v1/build/transfer", key: k, body: `{}`}, status: 400, code: CodeMissingIdempotencyKey},
		{name: "idempotency key too long", req: request{method: "POST", path: "/v1/build/transfer", key: k, body: `{}`, headers: idem(strings.Repeat("k", 129))}, status: 400, code: CodeInvalidIdempotencyKey},
		{name: "idempotency key of 128", req: request{method: "POST", path: "/v1/build/transfer", key: k, body: strings.Replace(transfer, "%s", "2", 1), headers: idem(strings.Repeat("k", 128))}, status: 400, code: CodeChainNotEnabled},
		{name: "invalid JSON", req: request{method: "POST", path: "/v1/build/transfer", key: k, body: `{"chain":`, headers: idem("j1")}, status: 400, code: CodeInvalidRequest},
		{name: "unknown chain in body", req: request{method: "POST", path: "/v1/build/transfer", key: k, body: strings.Replace(strings.Replace(transfer, "%s", "2", 1), `"base"`, `"polygon"`, 1), headers: idem("j2")}, status: 400, code: CodeInvalidChain},
		{name: "amount changed by conversion", req: request{method: "POST", path: "/v1/build/transfer", key: k, body: strings.Replace(transfer, "%s", "1e3", 1), headers: idem("j3")}, status: 400, code: CodeInvalidAmount},
		{name: "extra fields allowed", req: request{method: "POST", path: "/v1/build/transfer", key: k, body: strings.Replace(transfer, "%s", "2", 1)[:len(transfer)-2] + `,"memo":"x"}`, headers: idem("j4")}, status: 400, code: CodeChainNotEnabled},
		{name: "remove needs bps", req: request{method: "POST", path: "/v1/build/lp/remove", key: k, body: `{"chain":"base","venue":"uniswap-v2","version":"2","user":"` + evmAddr + `","pool":"` + evmAddr2 + `"}`, headers: idem("j5")}, status: 400, code: CodeInvalidRequest},
		{name: "bps over 10000", req: request{method: "POST", path: "/v1/build/lp/remove", key: k, body: `{"chain":"base","venue":"uniswap-v2","version":"2","user":"` + evmAddr + `","pool":"` + evmAddr2 + `","bps":10001}`, headers: idem("j6")}, status: 400, code: CodeInvalidRequest},
		{name: "remove 25%", req: request{method: "POST", path: "/v1/build/lp/remove", key: k, body: `{"chain":"base","venue":"uniswap-v2","version":"2","user":"` + evmAddr + `","pool":"` + evmAddr2 + `","bps":2500}`, headers: idem("j7")}, status: 400, code: CodeChainNotEnabled},
		{name: "solana venue on base", req: request{method: "POST", path: "/v1/build/lp/add", key: k, body: `{"chain":"base","venue":"orca","version":"1","user":"` + evmAddr + `","pool":"` + evmAddr2 + `"}`, headers: idem("j8")}, status: 400, code: CodeOperationNotSupported},
		{name: "solana swap needs quoteResponse", req: request{method: "POST", path: "/v1/build/swap", key: k, body: `{"chain":"solana","user":"` + solAddr + `"}`, headers: idem("j9")}, status: 400, code: CodeInvalidRequest},
		{name: "confirm of an unknown token", req: request{method: "POST", path: "/v1/build/confirm", key: k, body: `{"confirmationToken":"ct_x","signatures":["0x1",null]}`, headers: idem("j10")}, status: 404, code: CodeNotFound},
		{name: "builders need tx:build", req: request{method: "POST", path: "/v1/build/transfer", key: e.keyWithScopes("market:read"), body: `{}`, headers: idem("j11")}, status: 403, code: CodeScopeRequired},
	})
}

func TestBodyLimits(t *testing.T) {
	e := newEnv(t, withDeps(func(d *Deps) { d.BodyUploadTimeout = 300 * time.Millisecond }))
	idem := map[string]string{"Idempotency-Key": "big"}
	big := `{"chain":"base","pad":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	r := e.do(request{method: "POST", path: "/v1/build/transfer", key: e.key, body: big, headers: idem})
	if r.status != 413 || r.code() != string(CodeBodyTooLarge) {
		t.Fatalf("body over 128 KiB: %d %s", r.status, r.rawBody)
	}
	checkEnvelope(t, r)
	// Exactly 128 KiB is allowed (and then fails on its content, not its size).
	exact := `{"chain":"base","pad":"` + strings.Repeat("x", maxBodyBytes-len(`{"chain":"base","pad":""}`)) + `"}`
	r = e.do(request{method: "POST", path: "/v1/build/transfer", key: e.key, body: exact, headers: map[string]string{"Idempotency-Key": "exact"}})
	if r.status != 400 || r.code() == string(CodeBodyTooLarge) {
		t.Fatalf("body of exactly 128 KiB: %d %s", r.status, r.rawBody)
	}
	// Non-builder POST bodies have the same limits through Huma.
	r = e.do(request{method: "POST", path: "/v1/quotes/bridge", key: e.key, body: big})
	if r.status != 413 || r.code() != string(CodeBodyTooLarge) {
		t.Fatalf("bridge quote over 128 KiB: %d %s", r.status, r.rawBody)
	}

	for _, path := range []string{"/v1/build/transfer", "/v1/quotes/bridge"} {
		status, body := slowUpload(t, e, path)
		if status != 408 || !strings.Contains(body, string(CodeRequestTimeout)) {
			t.Errorf("%s slow upload: %d %s", path, status, body)
		}
	}
}

// slowUpload sends half a body and stops, as a stalled client would.
func slowUpload(t *testing.T, e *env, path string) (int, string) {
	t.Helper()
	pr, pw := io.Pipe()
	req, _ := http.NewRequest(http.MethodPost, e.http.URL+path, pr)
	req.ContentLength = 100
	req.Header.Set("X-API-Key", e.key)
	req.Header.Set("Idempotency-Key", "slow-"+path)
	req.Header.Set("Content-Type", "application/json")
	go func() { _, _ = pw.Write([]byte(`{"chain":"base",`)) }()
	defer pw.Close()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("slow upload: %v", err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw)
}

// finishFails is an idempotency store whose Finish fails while fail is set, and Release too while
// failRelease is.
type finishFails struct {
	idempotency.Store
	fail, failRelease atomic.Bool
}

func (s *finishFails) Release(ctx context.Context, r idempotency.Request) error {
	if s.failRelease.Load() {
		return errConnRefused
	}
	return s.Store.Release(ctx, r)
}

func (s *finishFails) Finish(ctx context.Context, r idempotency.Request, res idempotency.Response, now time.Time, with idempotency.Write) error {
	if s.fail.Load() {
		return errConnRefused
	}
	return s.Store.Finish(ctx, r, res, now, with)
}

// TestIdempotencyAnswerHeldUntilStored: a build's answer goes out only once the store kept it for
// replay; when the store fails, the caller gets a 503 instead of an answer a retry could not replay,
// and the retry builds (once) and is replayed from then on.
func TestIdempotencyAnswerHeldUntilStored(t *testing.T) {
	store := &finishFails{}
	e := newEnv(t, withTestOp("testBuild", ScopeTxBuild), func(e *env) {
		e.edits = append(e.edits, func(d *Deps) { store.Store = d.Idempotency; d.Idempotency = store })
	})
	b := newSlowBuilder(e)
	close(b.gate)
	call := func() response {
		return e.do(request{method: http.MethodPost, path: "/v1/test/build", key: e.key, body: `{"chain":"base"}`, headers: map[string]string{"Idempotency-Key": "held"}})
	}
	store.fail.Store(true)
	r := call()
	if r.status != 503 || r.code() != string(CodeUnavailable) || r.header.Get("Retry-After") == "" || strings.Contains(r.rawBody, `"n"`) {
		t.Fatalf("build whose answer the store did not keep: %d %q %s, want 503 unavailable with Retry-After and no build", r.status, r.header.Get("Retry-After"), r.rawBody)
	}
	store.fail.Store(false)
	first := call()
	if first.status != 200 || first.body["n"] != float64(2) || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("retry: %d %s, want the second build", first.status, first.rawBody)
	}
	if again := call(); again.status != 200 || again.rawBody != first.rawBody || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %s, want %s", again.status, again.rawBody, first.rawBody)
	}
	if n := b.runs.Load(); n != 2 {
		t.Fatalf("builder ran %d times, want 2", n)
	}

	// The store fails to keep the answer and to release the key: the key is released in the
	// background once the store is back, so a retry runs the call rather than waiting out the lease.
	store.fail.Store(true)
	store.failRelease.Store(true)
	other := func() response {
		return e.do(request{method: http.MethodPost, path: "/v1/test/build", key: e.key, body: `{"chain":"base"}`, headers: map[string]string{"Idempotency-Key": "held-2"}})
	}
	if r := other(); r.status != 503 {
		t.Fatalf("build whose record could be neither kept nor released: %d %s", r.status, r.rawBody)
	}
	store.fail.Store(false)
	store.failRelease.Store(false)
	if r := other(); r.status != 200 || r.body["n"] != float64(4) { // the 503 call built the third
		t.Fatalf("retry once the store is back: %d %s, want the fourth build", r.status, r.rawBody)
	}
}
