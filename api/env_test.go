package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/idempotency"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// env is the real pipeline on a real store, served over HTTP.
type env struct {
	t        testing.TB
	store    *store.Store
	svc      *access.Service
	sync     *access.Sync
	server   *Server
	http     *httptest.Server
	usage    *metering.Recorder
	usageDB  *metering.UsageStore
	limiter  metering.Limiter
	testOps  []policy.Operation
	edits    []func(*Deps)
	names    int
	consumer int // a default consumer with every scope
	key      string
}

type envOption func(*env)

// withLimiter replaces the in-process limiter (failure tests).
func withLimiter(l metering.Limiter) envOption { return func(e *env) { e.limiter = l } }

// withDeps edits the dependencies before the server is built.
func withDeps(f func(*Deps)) envOption { return func(e *env) { e.edits = append(e.edits, f) } }

// withTestOp adds a test-only operation to the policy; register it on e.server after newEnv.
func withTestOp(id, scope string) envOption {
	return func(e *env) { e.testOps = append(e.testOps, policy.Operation{ID: id, Scope: scope}) }
}

func newEnv(t testing.TB, opts ...envOption) *env {
	t.Helper()
	e := &env{t: t, store: storetest.SQLite(t), limiter: metering.NewMemoryLimiter()}
	for _, o := range opts {
		o(e)
	}
	ops := append(Operations(), e.testOps...)
	ids := make([]string, len(ops))
	for i, op := range ops {
		ids[i] = op.ID
	}
	enforcer, err := policy.New(ops)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e.svc = access.NewService(e.store.Client, access.WithOperations(ids))
	verifier := access.NewVerifier(e.svc.LookupKey)
	e.sync = access.NewSync(e.svc, enforcer, verifier, log)
	chains, err := chain.NewRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	e.usageDB = metering.NewUsageStore(e.store.Client, e.store.Dialect, metering.WithDB(e.store.DB))
	e.usage = metering.NewRecorder(e.usageDB, log, time.Hour, 0)
	t.Cleanup(func() { _ = e.usage.Close(context.Background()) })
	deps := Deps{
		Keys: verifier, Policy: enforcer, Limiter: e.limiter, Usage: e.usage,
		Idempotency: idempotency.NewSQLStore(e.store.Client), Chains: chains,
		RefreshPolicy: e.sync.Refresh, Ready: e.store.Ping, Logger: log,
	}
	for _, edit := range e.edits {
		edit(&deps)
	}
	e.server = New(deps)
	e.http = httptest.NewServer(e.server)
	t.Cleanup(e.http.Close)
	e.consumer, e.key = e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes})
	return e
}

// newConsumer creates a consumer with access on (unless the change says otherwise) and one key.
func (e *env) newConsumer(ch access.ConsumerChange) (int, string) {
	e.t.Helper()
	if ch.AccessEnabled == nil {
		on := true
		ch.AccessEnabled = &on
	}
	ctx := context.Background()
	e.names++
	c, err := e.svc.CreateConsumer(ctx, access.Operator("test"), fmt.Sprintf("consumer %d", e.names), ch)
	if err != nil {
		e.t.Fatal(err)
	}
	k, err := e.svc.CreateKey(ctx, access.Operator("test"), c.ID, "test key")
	if err != nil {
		e.t.Fatal(err)
	}
	e.refresh()
	return c.ID, k.Key
}

// refresh makes store changes take effect now, as the sync loop would within its interval.
func (e *env) refresh() {
	e.t.Helper()
	if err := e.sync.Refresh(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// request is one HTTP call of a scenario.
type request struct {
	method  string
	path    string
	key     string // X-API-Key; empty sends none
	headers map[string]string
	body    string
}

// response is a decoded answer.
type response struct {
	status  int
	header  http.Header
	body    map[string]any
	rawBody string
}

func (r response) code() string { s, _ := r.body["code"].(string); return s }

// getJSON GETs path with key and decodes its 200 answer into out; any other answer fails the test.
func (e *env) getJSON(path, key string, out any) {
	e.t.Helper()
	r := e.do(request{path: path, key: key})
	if r.status != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", path, r.status, r.rawBody)
	}
	if err := json.Unmarshal([]byte(r.rawBody), out); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) do(req request) response {
	e.t.Helper()
	return e.doCtx(context.Background(), req)
}

func (e *env) doCtx(ctx context.Context, req request) response {
	e.t.Helper()
	method := req.method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if req.body != "" {
		body = strings.NewReader(req.body)
	}
	hr, err := http.NewRequestWithContext(ctx, method, e.http.URL+req.path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if req.key != "" {
		hr.Header.Set("X-API-Key", req.key)
	}
	if req.body != "" {
		hr.Header.Set("Content-Type", "application/json")
	}
	for k, v := range req.headers {
		hr.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		return response{status: -1, rawBody: err.Error()}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := response{status: res.StatusCode, header: res.Header, rawBody: string(raw)}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// checkEnvelope asserts the error envelope and the request id on an error response.
func checkEnvelope(t *testing.T, r response) {
	t.Helper()
	id := r.header.Get("X-Request-Id")
	if id == "" {
		t.Errorf("no X-Request-Id header")
	}
	if r.status < 400 {
		return
	}
	if ok, present := r.body["ok"]; !present || ok != false {
		t.Errorf("error body ok = %v, want false: %s", ok, r.rawBody)
	}
	if msg, _ := r.body["error"].(string); msg == "" {
		t.Errorf("error body has no error message: %s", r.rawBody)
	}
	if r.body["requestId"] != id {
		t.Errorf("body requestId %v != header %q", r.body["requestId"], id)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want JSON", ct)
	}
}

func ptr[T any](v T) *T { return &v }

func mustPrefixes(t *testing.T, s string) []netip.Prefix {
	t.Helper()
	p, err := policy.ParseCIDRs(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func consumerWithAllScopes() access.ConsumerChange {
	return access.ConsumerChange{Scopes: &access.Scopes}
}

// keyWithScopes returns a key of a new consumer holding only the given scopes.
func (e *env) keyWithScopes(scopes ...string) string {
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &scopes})
	return key
}
