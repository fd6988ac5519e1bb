package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// TestStoreDownFailsClosed: while Deps.StoreHealth reports the database unreachable, every
// authenticated call is 503 unavailable with Retry-After, before its key is looked up, its cost
// admitted or its Idempotency-Key claimed; public operations still answer. Once it reports healthy
// again, calls succeed.
func TestStoreDownFailsClosed(t *testing.T) {
	var down atomic.Pointer[error]
	e := newEnv(t, withDeps(func(d *Deps) {
		d.StoreHealth = func() error {
			if p := down.Load(); p != nil {
				return *p
			}
			return nil
		}
	}))
	_, fresh := e.newConsumer(consumerWithAllScopes())
	if r := e.do(request{path: "/v1/pools/hot", key: e.key}); r.status != http.StatusOK {
		t.Fatalf("with the database up: %d %s", r.status, r.rawBody)
	}

	cause := errors.New("database unreachable: dial tcp 10.0.0.7:5432: connection refused")
	down.Store(&cause)
	build := request{method: http.MethodPost, path: "/v1/build/transfer", key: e.key, body: `{}`, headers: map[string]string{"Idempotency-Key": "down"}}
	run(t, e, []scenario{
		{name: "cached key", req: request{path: "/v1/pools/hot", key: e.key}, status: 503, code: CodeUnavailable,
			headers: map[string]string{"Retry-After": "1", "Cache-Control": "private, no-store", "X-RateLimit-Remaining": ""}},
		{name: "uncached key", req: request{path: "/v1/pools/hot", key: fresh}, status: 503, code: CodeUnavailable,
			headers: map[string]string{"Retry-After": "1"}},
		{name: "no key", req: request{path: "/v1/pools/hot"}, status: 503, code: CodeUnavailable},
		{name: "builder", req: build, status: 503, code: CodeUnavailable, headers: map[string]string{"Retry-After": "1"}},
		{name: "public", req: request{path: "/v1/chains"}, status: 200},
	})
	r := e.do(request{path: "/v1/pools/hot", key: e.key})
	if secs, _ := r.body["retryAfterSec"].(float64); secs != 1 {
		t.Errorf("retryAfterSec = %v, want 1: %s", r.body["retryAfterSec"], r.rawBody)
	}
	if strings.Contains(r.rawBody, "10.0.0.7") || strings.Contains(r.rawBody, "refused") {
		t.Errorf("the cause leaked: %s", r.rawBody)
	}
	if n, err := e.store.Client.IdempotencyRecord.Query().Count(context.Background()); err != nil || n != 0 {
		t.Errorf("a refused builder claimed its Idempotency-Key: %d records (%v)", n, err)
	}

	down.Store(nil)
	if r := e.do(request{path: "/v1/pools/hot", key: fresh}); r.status != http.StatusOK {
		t.Fatalf("with the database back: %d %s", r.status, r.rawBody)
	}
	if r := e.do(build); r.status == http.StatusServiceUnavailable {
		t.Fatalf("builder with the database back: %d %s", r.status, r.rawBody)
	}
}
