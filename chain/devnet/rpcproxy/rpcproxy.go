// Package rpcproxy puts an HTTP proxy between a test and a chain's JSON-RPC endpoint. It counts
// round trips (one HTTP request, whether it carries one call or a batch), records the credentials
// it is sent, and can hold requests back (what a slow or hung RPC looks like to its caller) or
// refuse them (an RPC out of service). It is imported by tests only.
package rpcproxy

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// maxBody bounds the request body the proxy reads to find the methods called.
const maxBody = 16 << 20

// Proxy forwards HTTP JSON-RPC requests to a target endpoint.
type Proxy struct {
	// URL is the proxy's endpoint, http://127.0.0.1:PORT: configure it as the chain's RPC URL.
	URL string

	roundTrips atomic.Int64
	closed     chan struct{} // closed on cleanup: releases every held request

	mu      sync.Mutex
	stalled map[string]bool // methods whose requests are held; nil when none are
	all     bool            // every request is held
	failing bool            // every request is answered 503
	auth    map[string]bool // the Authorization headers received
}

// Start serves a proxy to target for the test's lifetime.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatalf("rpcproxy: target %q: %v", target, err)
	}
	p := &Proxy{closed: make(chan struct{}), auth: map[string]bool{}}
	forward := httputil.NewSingleHostReverseProxy(u)
	forward.ErrorHandler = func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.roundTrips.Add(1)
		if p.received(r.Header.Get("Authorization")) {
			http.Error(w, "out of service", http.StatusServiceUnavailable)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if p.holds(methods(body)) {
			select { // a hung RPC: no answer until the caller gives up
			case <-r.Context().Done():
			case <-p.closed:
			}
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		close(p.closed)
		srv.Close()
	})
	p.URL = srv.URL
	return p
}

// RoundTrips is the number of HTTP requests the proxy has received.
func (p *Proxy) RoundTrips() int64 { return p.roundTrips.Load() }

// Stall holds back, from now on, every request that calls one of methods, or every request when
// none are named; a held request gets no answer until its caller gives up.
func (p *Proxy) Stall(methods ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(methods) == 0 {
		p.all = true
		return
	}
	p.stalled = map[string]bool{}
	for _, m := range methods {
		p.stalled[m] = true
	}
}

// Fail answers every request from now on with 503 Service Unavailable.
func (p *Proxy) Fail() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failing = true
}

// Release forwards every request from now on: it ends Stall and Fail.
func (p *Proxy) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalled, p.all, p.failing = nil, false, false
}

// Authorizations returns the distinct Authorization headers received so far ("" for none), sorted.
func (p *Proxy) Authorizations() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Sorted(maps.Keys(p.auth))
}

// received records a request's Authorization header and says whether the proxy fails it.
func (p *Proxy) received(authorization string) (fail bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.auth[authorization] = true
	return p.failing
}

func (p *Proxy) holds(called []string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.all {
		return true
	}
	for _, m := range called {
		if p.stalled[m] {
			return true
		}
	}
	return false
}

// methods returns the methods a JSON-RPC request body calls: one object, or a batch of them.
func methods(body []byte) []string {
	type call struct {
		Method string `json:"method"`
	}
	var batch []call
	if err := json.Unmarshal(body, &batch); err != nil {
		var one call
		if json.Unmarshal(body, &one) != nil {
			return nil
		}
		batch = []call{one}
	}
	out := make([]string, len(batch))
	for i, c := range batch {
		out[i] = c.Method
	}
	return out
}
