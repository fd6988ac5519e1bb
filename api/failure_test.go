package api

import (
	"context"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

type slowOutput struct {
	Body struct {
		OK bool `json:"ok"`
	}
}

// registerSlow adds GET /v1/test/slow, which waits for its caller to go away.
func registerSlow(e *env) chan struct{} {
	started := make(chan struct{}, 1)
	register(e.server, opSpec{ID: "testSlow", Method: http.MethodGet, Path: "/v1/test/slow", Scope: ScopeMarketRead, Class: ClassProvider},
		func(ctx context.Context, _ *struct{}) (*slowOutput, error) {
			started <- struct{}{}
			<-ctx.Done()
			return nil, Errorf(CodeUpstreamTimeout, "gave up")
		})
	return started
}

// waitForCall flushes usage until the consumer's call to operation is recorded.
func (e *env) waitForCall(consumerID int, operation string) metering.RecentCall {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if err := e.usage.Flush(context.Background()); err != nil {
			e.t.Fatal(err)
		}
		calls, err := e.usageDB.Recent(context.Background(), consumerID, metering.RecentFilter{}, 100)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, c := range calls {
			if c.Operation == operation {
				return c
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("no %s call recorded for consumer %d", operation, consumerID)
	return metering.RecentCall{}
}

// settleWatch is the in-process limiter, noting the error of every context Settle is given: a
// limiter that talks to a store (Redis) fails on a cancelled one.
type settleWatch struct {
	*metering.MemoryLimiter
	errs chan error
}

func (l settleWatch) Settle(ctx context.Context, r metering.Reservation, refund bool) error {
	l.errs <- ctx.Err()
	return l.MemoryLimiter.Settle(ctx, r, refund)
}

func TestCancellationIsRefunded(t *testing.T) {
	limiter := settleWatch{metering.NewMemoryLimiter(), make(chan error, 10)}
	e := newEnv(t, withTestOp("testSlow", ScopeMarketRead), withLimiter(limiter))
	started := registerSlow(e)
	id, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(0), Burst: ptr(5)})

	if r := e.do(request{path: "/v1/pools/hot", key: key}); r.header.Get("X-RateLimit-Remaining") != "4" {
		t.Fatalf("first call: remaining %q", r.header.Get("X-RateLimit-Remaining"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan response)
	go func() { done <- e.doCtx(ctx, request{path: "/v1/test/slow", key: key}) }()
	<-started
	cancel()
	<-done
	call := e.waitForCall(id, "testSlow")
	if call.Status != StatusClientClosedRequest || call.Cost != 0 {
		t.Fatalf("cancelled call recorded as status %d cost %d, want 499 and 0", call.Status, call.Cost)
	}
	for range 2 { // the first call's settlement, then the cancelled one's
		if err := <-limiter.errs; err != nil {
			t.Fatalf("a call was settled under a context that had ended (%v): a store-backed limiter would fail to refund or release it", err)
		}
	}
	// The cancelled call's token came back: 4 left before this call, 3 after it.
	if r := e.do(request{path: "/v1/pools/hot", key: key}); r.header.Get("X-RateLimit-Remaining") != "3" {
		t.Fatalf("after refund: remaining %q, want 3", r.header.Get("X-RateLimit-Remaining"))
	}
}

func TestHandlerFailureKeepsCost(t *testing.T) {
	e := newEnv(t)
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(0), Burst: ptr(3)})
	e.do(request{path: "/v1/tokens/" + solAddr + "/price", key: key}) // 400: chain not enabled
	if r := e.do(request{path: "/v1/pools/hot", key: key}); r.header.Get("X-RateLimit-Remaining") != "1" {
		t.Fatalf("a failed call's cost must be kept: remaining %q, want 1", r.header.Get("X-RateLimit-Remaining"))
	}
}

// errConnRefused is what a store's client returns when its server refuses the connection.
var errConnRefused error = &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}

// failingLimiter is an admission store that is down.
type failingLimiter struct{}

func (failingLimiter) Reserve(context.Context, int, int, metering.Limit) (metering.Reservation, error) {
	return metering.Reservation{}, errConnRefused
}
func (failingLimiter) Settle(context.Context, metering.Reservation, bool) error { return nil }
func (failingLimiter) Reclaim(context.Context, time.Time) (int, error)          { return 0, nil }

func TestFailClosed(t *testing.T) {
	t.Run("admission store down", func(t *testing.T) {
		e := newEnv(t, withLimiter(failingLimiter{}))
		r := e.do(request{path: "/v1/pools/hot", key: e.key})
		if r.status != 503 || r.code() != string(CodeUnavailable) {
			t.Fatalf("%d %s", r.status, r.rawBody)
		}
		if r.header.Get("Retry-After") != "1" || r.body["retryAfterSec"] != float64(1) {
			t.Fatalf("503 unavailable without Retry-After 1: %q %s", r.header.Get("Retry-After"), r.rawBody)
		}
		if strings.Contains(r.rawBody, "connection refused") {
			t.Fatalf("the store's error leaked: %s", r.rawBody)
		}
	})
	t.Run("key store down", func(t *testing.T) {
		e := newEnv(t)
		_, fresh := e.newConsumer(consumerWithAllScopes())
		if r := e.do(request{path: "/readyz"}); r.status != 200 {
			t.Fatalf("readyz with the store up: %d", r.status)
		}
		e.do(request{path: "/v1/pools/hot", key: e.key}) // cached from here on
		if err := e.store.DB.Close(); err != nil {
			t.Fatal(err)
		}
		r := e.do(request{path: "/v1/pools/hot", key: fresh})
		if r.status != 503 || r.code() != string(CodeUnavailable) {
			t.Fatalf("uncached key with the store down: %d %s", r.status, r.rawBody)
		}
		if r := e.do(request{path: "/readyz"}); r.status != 503 {
			t.Fatalf("readyz with the store down: %d", r.status)
		}
		if r := e.do(request{path: "/healthz"}); r.status != 200 {
			t.Fatalf("healthz with the store down: %d", r.status)
		}
		// A builder with a cached key reaches the idempotency store, which is down too.
		r = e.do(request{method: http.MethodPost, path: "/v1/build/transfer", key: e.key, body: `{}`, headers: map[string]string{"Idempotency-Key": "x"}})
		if r.status != 503 || r.code() != string(CodeUnavailable) {
			t.Fatalf("builder with the idempotency store down: %d %s", r.status, r.rawBody)
		}
	})
}

func TestUsageIsRecorded(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id, key := e.newConsumer(access.ConsumerChange{Scopes: &[]string{"market:read"}, RatePerMinute: ptr(0), Burst: ptr(2)})
	r := e.do(request{path: "/v1/pools/hot", key: key})                            // 200, cost 1
	e.do(request{path: "/v1/portfolio/holdings?owners=base:" + evmAddr, key: key}) // 403: no scope
	e.do(request{path: "/v1/pools/new", key: key})                                 // 200, cost 1
	e.do(request{path: "/v1/pools/new", key: key})                                 // 429
	e.do(request{path: "/v1/pools/new", key: "pk_live_" + "x"})                    // 401: not a call of this consumer
	e.do(request{path: "/v1/tokens/" + solAddr + "?chain=solana", key: e.key})     // another consumer
	if err := e.usage.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	calls, err := e.usageDB.Recent(ctx, id, metering.RecentFilter{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		op     string
		status int
		cost   int
	}
	want := []row{{"getNewPools", 429, 0}, {"getNewPools", 200, 1}, {"getHoldingsBatch", 403, 0}, {"getHotPools", 200, 1}}
	if len(calls) != len(want) {
		t.Fatalf("recorded %d calls, want %d: %+v", len(calls), len(want), calls)
	}
	for i, w := range want {
		c := calls[i]
		if c.Operation != w.op || c.Status != w.status || c.Cost != w.cost || c.RequestID == "" {
			t.Errorf("call %d = %+v, want %+v", i, c, w)
		}
	}
	byID, err := e.usageDB.Recent(ctx, id, metering.RecentFilter{RequestID: r.header.Get("X-Request-Id")}, 10)
	if err != nil || len(byID) != 1 || byID[0].Operation != "getHotPools" {
		t.Fatalf("lookup by request id: %+v %v", byID, err)
	}
	days, err := e.usageDB.Daily(ctx, id, time.Now().AddDate(0, 0, -1))
	if err != nil {
		t.Fatal(err)
	}
	var calls64, cost, errs int64
	for _, d := range days {
		calls64, cost, errs = calls64+d.Calls, cost+d.Cost, errs+d.Errors
	}
	if calls64 != 4 || cost != 2 || errs != 2 {
		t.Fatalf("rollups: calls %d cost %d errors %d, want 4, 2, 2", calls64, cost, errs)
	}
	keys, _ := e.svc.ListKeys(ctx, access.Operator("test"), id)
	if keys[0].LastUsedAt == nil {
		t.Fatal("key's last use not recorded")
	}
}

func TestUsageRecordsTheChainNamed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	bridge := `{"fromChain":"bsc","toChain":"base","inputToken":"` + evmAddr + `","outputToken":"` + evmAddr2 + `","amount":"1.5","user":"` + evmAddr + `"}`
	calls := []struct {
		req   request
		op    string
		chain string
	}{
		{request{path: "/v1/tokens/" + evmAddr + "/price?chain=base", key: e.key}, "getTokenPrice", "base"},
		{request{path: "/v1/tokens/" + solAddr + "/price", key: e.key}, "getTokenPrice", "solana"}, // the default
		{request{path: "/v1/markets/trending", key: e.key}, "getTrending", "all"},
		{request{path: "/v1/pools/new?chain=robinhood", key: e.key}, "getNewPools", "robinhood"},
		{request{method: http.MethodPost, path: "/v1/quotes/bridge", key: e.key, body: bridge}, "getBridgeQuote", "bsc"},
		{request{path: "/v1/portfolio/holdings?owners=" + solAddr, key: e.key}, "getHoldingsBatch", ""}, // per owner, not per call
	}
	for _, c := range calls {
		r := e.do(c.req)
		if err := e.usage.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := e.usageDB.Recent(ctx, e.consumer, metering.RecentFilter{RequestID: r.header.Get("X-Request-Id")}, 1)
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: recorded %v, %v", c.req.path, got, err)
		}
		if got[0].Operation != c.op || got[0].Chain != c.chain {
			t.Errorf("%s %s (status %d): recorded %s on chain %q, want %s on %q", c.req.method, c.req.path, r.status, got[0].Operation, got[0].Chain, c.op, c.chain)
		}
	}
}
