package solana

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain"
)

// refusedURL returns the URL of a port nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/?api-key=refused-secret"
}

// hungServer accepts requests and never answers until the test ends.
func hungServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.URL + "/hung?api-key=hung-secret", &hits
}

// statusServer answers every request with an HTTP status and body.
func statusServer(t *testing.T, status int, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func newClient(t *testing.T, urls []string, opts Options) *Client {
	t.Helper()
	c, err := New(urls, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// checkKind checks err's kind, its adapter-neutral match, and that its public message says
// nothing of the RPC: no URL, no secret, no RPC text.
func checkKind(t *testing.T, err error, want ErrorKind, neutral error) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", want)
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T %v, want *Error", err, err)
	}
	if e.Kind != want {
		t.Fatalf("kind %s, want %s (%s)", e.Kind, want, e.Detail())
	}
	if !errors.Is(err, neutral) {
		t.Errorf("errors.Is(%v, %v) is false", err, neutral)
	}
	msg := err.Error()
	for _, leak := range []string{"127.0.0.1", "secret", "http", "quota", "internal"} {
		if strings.Contains(msg, leak) {
			t.Errorf("public message %q contains %q", msg, leak)
		}
	}
	if strings.Contains(e.Detail(), "secret") {
		t.Errorf("log detail %q contains a URL's secret", e.Detail())
	}
}

func TestNewRejects(t *testing.T) {
	for _, urls := range [][]string{nil, {"wss://api.mainnet-beta.solana.com"}, {"api.mainnet-beta.solana.com"}, {"http://"}} {
		if _, err := New(urls, Options{}); !errors.Is(err, chain.ErrInvalidConfig) {
			t.Errorf("New(%q) = %v, want chain.ErrInvalidConfig", urls, err)
		}
	}
	if _, err := New([]string{"https://x.invalid"}, Options{Commitment: "max"}); !errors.Is(err, chain.ErrInvalidConfig) {
		t.Errorf("commitment max: %v", err)
	}
}

func TestFailoverRefusedThenAnswers(t *testing.T) {
	f := newFakeRPC(t)
	c := newClient(t, []string{refusedURL(t), f.srv.URL}, Options{})
	h, err := c.GenesisHash(t.Context())
	if err != nil || h != MainnetGenesisHash {
		t.Fatalf("genesis = %q, %v", h, err)
	}
	// The next call starts at the URL that answered.
	f.reset()
	if _, err := c.Mints(t.Context(), []string{usdcMint.String()}); err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n != 1 {
		t.Errorf("%d round trips after failover, want 1", n)
	}
}

func TestFailoverStatusThenAnswers(t *testing.T) {
	f := newFakeRPC(t)
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusBadGateway} {
		c := newClient(t, []string{statusServer(t, status, "internal quota exhausted"), f.srv.URL}, Options{})
		if h, err := c.GenesisHash(t.Context()); err != nil || h != MainnetGenesisHash {
			t.Errorf("after HTTP %d: %q, %v", status, h, err)
		}
	}
}

func TestAllDown(t *testing.T) {
	c := newClient(t, []string{refusedURL(t), refusedURL(t)}, Options{})
	_, err := c.GenesisHash(t.Context())
	checkKind(t, err, KindUnavailable, chain.ErrUpstreamUnavailable)

	c = newClient(t, []string{statusServer(t, http.StatusServiceUnavailable, "internal quota"), statusServer(t, http.StatusTooManyRequests, "quota")}, Options{})
	_, err = c.Holdings(t.Context(), []string{sender.String()})
	checkKind(t, err, KindUnavailable, chain.ErrUpstreamUnavailable)

	c = newClient(t, []string{statusServer(t, http.StatusGatewayTimeout, "")}, Options{})
	_, err = c.GenesisHash(t.Context())
	checkKind(t, err, KindTimeout, chain.ErrUpstreamTimeout)
}

func TestHungTimesOut(t *testing.T) {
	hung, hits := hungServer(t)
	c := newClient(t, []string{hung}, Options{CallTimeout: 300 * time.Millisecond})
	done := make(chan error, 1)
	go func() { _, err := c.GenesisHash(context.Background()); done <- err }()
	select {
	case err := <-done:
		checkKind(t, err, KindTimeout, chain.ErrUpstreamTimeout)
	case <-time.After(30 * time.Second):
		t.Fatal("a hung RPC was waited for past the call's bound")
	}
	if hits.Load() != 1 {
		t.Errorf("%d requests reached the hung RPC", hits.Load())
	}

	// The caller's earlier deadline wins; a canceled caller is canceled, not a timeout.
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err := c.GenesisHash(ctx)
	checkKind(t, err, KindTimeout, chain.ErrUpstreamTimeout)
	ctx, cancel = context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = c.GenesisHash(ctx)
	checkKind(t, err, KindCanceled, chain.ErrCanceled)
}

func TestHungFailsOver(t *testing.T) {
	hung, hits := hungServer(t)
	f := newFakeRPC(t)
	c := newClient(t, []string{hung, f.srv.URL}, Options{AttemptTimeout: 100 * time.Millisecond, CallTimeout: 20 * time.Second})
	if h, err := c.GenesisHash(t.Context()); err != nil || h != MainnetGenesisHash {
		t.Fatalf("genesis = %q, %v", h, err)
	}
	// The hung URL is skipped from then on.
	if _, err := c.GenesisHash(t.Context()); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 1 {
		t.Errorf("the hung URL got %d requests, want 1", hits.Load())
	}
	// Every URL hung: a timeout within the call's bound.
	hung2, _ := hungServer(t)
	c = newClient(t, []string{hung, hung2}, Options{AttemptTimeout: 100 * time.Millisecond, CallTimeout: 400 * time.Millisecond})
	_, err := c.GenesisHash(context.Background())
	checkKind(t, err, KindTimeout, chain.ErrUpstreamTimeout)
}

func TestRPCErrors(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	for _, tc := range []struct {
		code    int
		kind    ErrorKind
		neutral error
	}{
		{-32602, KindBadResponse, chain.ErrUpstreamBadResponse},
		{-32601, KindBadResponse, chain.ErrUpstreamBadResponse},
		{-32005, KindUnavailable, chain.ErrUpstreamUnavailable},
		{-32016, KindUnavailable, chain.ErrUpstreamUnavailable},
		{429, KindUnavailable, chain.ErrUpstreamUnavailable},
	} {
		f.setOverride(func(method string, _ []json.RawMessage) (any, *rpcErr, bool) {
			return nil, &rpcErr{Code: tc.code, Message: "internal node-7: quota exhausted for key k1"}, true
		})
		_, err := c.GenesisHash(t.Context())
		checkKind(t, err, tc.kind, tc.neutral)
		if !strings.Contains(err.(*Error).Detail(), "quota exhausted") {
			t.Errorf("log detail %q lacks the RPC's text", err.(*Error).Detail())
		}
	}
	f.setOverride(nil)

	// Not JSON at all.
	c = newClient(t, []string{statusServer(t, http.StatusOK, "<html>internal</html>")}, Options{})
	_, err := c.GenesisHash(t.Context())
	checkKind(t, err, KindBadResponse, chain.ErrUpstreamBadResponse)
}

func TestResponseTooLarge(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{MaxResponseBytes: 2_000})
	_, err := c.Holdings(t.Context(), []string{sender.String()})
	checkKind(t, err, KindBadResponse, chain.ErrUpstreamBadResponse)
	if !errors.Is(err, ErrResponseTooLarge) {
		t.Errorf("%v does not wrap ErrResponseTooLarge", err)
	}
}

func TestCredentialsStayWithTheirURL(t *testing.T) {
	var seen []string
	record := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			user, pass, _ := r.BasicAuth()
			seen = append(seen, r.URL.Path+"?"+r.URL.RawQuery+" "+user+":"+pass)
			next.ServeHTTP(w, r)
		})
	}
	f := newFakeRPC(t)
	failing := httptest.NewServer(record(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })))
	t.Cleanup(failing.Close)
	good := httptest.NewServer(record(f.srv.Config.Handler))
	t.Cleanup(good.Close)
	a, _ := url.Parse(failing.URL + "/a?api-key=key-a")
	a.User = url.UserPassword("alice", "pa")
	b, _ := url.Parse(good.URL + "/b/key-b")
	c := newClient(t, []string{a.String(), b.String()}, Options{})
	if _, err := c.GenesisHash(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := []string{"/a?api-key=key-a alice:pa", "/b/key-b? :"}
	if len(seen) != 2 || seen[0] != want[0] || seen[1] != want[1] {
		t.Errorf("requests %q, want %q", seen, want)
	}
}

func TestOpen(t *testing.T) {
	f := newFakeRPC(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := chain.ChainConfig{RPCURLs: []string{refusedURL(t), f.srv.URL}, Network: chain.Mainnet}
	c, genesis, err := Open(t.Context(), "solana", cfg, Options{}, log)
	if err != nil || genesis != MainnetGenesisHash {
		t.Fatalf("Open = %q, %v", genesis, err)
	}
	c.Close()

	// Another cluster on mainnet is a configuration error; on a devnet it is what is expected.
	f.setOverride(func(method string, _ []json.RawMessage) (any, *rpcErr, bool) {
		return "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG", nil, method == "getGenesisHash"
	})
	if _, _, err := Open(t.Context(), "solana", cfg, Options{}, log); err == nil || !strings.Contains(err.Error(), "not mainnet-beta") {
		t.Errorf("devnet genesis on mainnet: %v", err)
	}
	cfg.Network = chain.Devnet
	if _, genesis, err := Open(t.Context(), "solana", cfg, Options{}, log); err != nil || genesis != "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG" {
		t.Errorf("devnet: %q, %v", genesis, err)
	}
	// Nothing answers: the error names the URLs redacted.
	cfg.RPCURLs = []string{refusedURL(t)}
	if _, _, err := Open(t.Context(), "solana", cfg, Options{}, log); err == nil || strings.Contains(err.Error(), "refused-secret") {
		t.Errorf("nothing answers: %v", err)
	}
}
