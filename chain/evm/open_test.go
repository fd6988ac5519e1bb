package evm

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/rpcproxy"
)

// failoverWorld is a devnet with two proxies in front of it, a reached with alice's credentials and b
// with none.
type failoverWorld struct {
	t    *testing.T
	cfg  chain.ChainConfig // the devnet's, with RPC URLs still to choose
	usd  string
	a, b *rpcproxy.Proxy
	urlA string // a's URL with alice's credentials
	urlB string // b's URL, without credentials
	log  bytes.Buffer
}

func newFailoverWorld(t *testing.T) *failoverWorld {
	t.Helper()
	local, err := devnet.StartLocal(t.Context(), devnet.LocalOptions{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = local.Close() })
	w := &failoverWorld{t: t, cfg: local.ChainConfig(), usd: local.Market().Core.USD.Hex(),
		a: rpcproxy.Start(t, local.RPCURL()), b: rpcproxy.Start(t, local.RPCURL())}
	w.urlA, w.urlB = withUser(t, w.a.URL, "alice", "secret-a"), w.b.URL
	return w
}

func withUser(t *testing.T, raw, user, password string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(user, password)
	return u.String()
}

// open opens the devnet's chain at urls, logging into w.log.
func (w *failoverWorld) open(urls ...string) (*Adapter, error) {
	cfg := w.cfg
	cfg.RPCURLs = urls
	a, err := Open(w.t.Context(), "base", cfg, nil, nil, slog.New(slog.NewTextHandler(&w.log, nil)))
	if err == nil {
		w.t.Cleanup(a.Close)
	}
	return a, err
}

// read reads the USD stablecoin's metadata through the adapter under ctx; safe from any goroutine.
func (w *failoverWorld) read(ctx context.Context, a *Adapter) error {
	meta, err := a.Source.TokenMetadata(ctx, []string{w.usd})
	if err == nil && (len(meta) != 1 || meta[0].Decimals != 6) {
		return fmt.Errorf("metadata = %+v, want the USD stablecoin's", meta)
	}
	return err
}

// deadURL is an http URL nothing listens on.
func deadURL(t *testing.T) string {
	return "http://carol:secret-c@127.0.0.1:" + strconv.Itoa(freePort(t))
}

func basicAuth(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

// TestReadsFailOver: reads go to the URL that answered last, move to the next when it refuses
// service (within the same read) or keeps a read waiting past its deadline (from the next read on),
// and fail only when every URL fails. Each URL gets its own credentials (if any) and nobody else's.
func TestReadsFailOver(t *testing.T) {
	w := newFailoverWorld(t)
	ctx := t.Context()
	ad, err := w.open(w.urlA, w.urlB)
	if err != nil {
		t.Fatal(err)
	}
	trips := func() (int64, int64) { return w.a.RoundTrips(), w.b.RoundTrips() }

	a0, b0 := trips()
	if err := w.read(ctx, ad); err != nil {
		t.Fatal(err)
	}
	if a1, b1 := trips(); a1 == a0 || b1 != b0 {
		t.Fatalf("a healthy first URL: round trips a %d→%d, b %d→%d; want only a's to grow", a0, a1, b0, b1)
	}

	w.a.Fail() // the first URL refuses service: the same reads, made at once, are answered by the second
	errs := make(chan error, 8)
	for range cap(errs) {
		go func() { errs <- w.read(ctx, ad) }()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Fatalf("read with the first URL out of service: %v", err)
		}
	}
	a0, b0 = trips()
	for range 3 {
		if err := w.read(ctx, ad); err != nil {
			t.Fatal(err)
		}
	}
	if a1, b1 := trips(); a1 != a0 || b1 == b0 {
		t.Fatalf("after failing over: round trips a %d→%d, b %d→%d; want only b's to grow", a0, a1, b0, b1)
	}

	w.a.Release()
	w.b.Stall() // the second URL hangs: one read times out, the next goes back to the first
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	err = w.read(short, ad)
	cancel()
	if !errors.Is(err, chain.ErrUpstreamTimeout) {
		t.Fatalf("read against a hung URL: %v, want an upstream timeout", err)
	}
	bounded, cancel := context.WithTimeout(ctx, 5*time.Second)
	err = w.read(bounded, ad)
	cancel()
	if err != nil {
		t.Fatalf("read after the timeout: %v", err)
	}

	w.a.Fail() // every URL out of service
	w.b.Release()
	w.b.Fail()
	if err := w.read(ctx, ad); !errors.Is(err, chain.ErrUpstreamUnavailable) {
		t.Fatalf("read with every URL out of service: %v, want upstream unavailable", err)
	}

	if got, want := w.a.Authorizations(), []string{basicAuth("alice", "secret-a")}; !slices.Equal(got, want) {
		t.Errorf("a received Authorization %q, want only alice's %q", got, want)
	}
	if got := w.b.Authorizations(); !slices.Equal(got, []string{""}) {
		t.Errorf("b received Authorization %q, want none", got)
	}
}

// TestOpenChecksEveryURL: a URL that serves another chain is a configuration error; a URL that does
// not answer is kept for failover with a warning, unless none answers. No error or log line carries
// a URL's credentials.
func TestOpenChecksEveryURL(t *testing.T) {
	w := newFailoverWorld(t)
	noSecrets := func(text string) {
		t.Helper()
		for _, s := range []string{"secret-a", "secret-c"} {
			if strings.Contains(text, s) {
				t.Errorf("%q shows a credential", text)
			}
		}
	}

	t.Run("another chain", func(t *testing.T) {
		_, err := w.open(w.urlA, otherChainURL(t, 31337))
		if err == nil || !strings.Contains(err.Error(), "rpcUrls[1]") || !strings.Contains(err.Error(), "serves chain id 31337, configured 1337") {
			t.Fatalf("open with a URL of another chain: %v", err)
		}
		noSecrets(err.Error())
	})

	t.Run("one down", func(t *testing.T) {
		w.log.Reset()
		ad, err := w.open(deadURL(t), w.urlB)
		if err != nil {
			t.Fatalf("open with one URL down: %v", err)
		}
		if !strings.Contains(w.log.String(), "rpcUrls[0]") || !strings.Contains(w.log.String(), "kept for failover") {
			t.Errorf("no warning about the URL that is down: %q", w.log.String())
		}
		noSecrets(w.log.String())
		before := w.b.RoundTrips()
		if err := w.read(t.Context(), ad); err != nil {
			t.Fatal(err)
		}
		if w.b.RoundTrips() == before {
			t.Error("the read did not go to the URL that answered")
		}
	})

	t.Run("all down", func(t *testing.T) {
		_, err := w.open(deadURL(t), deadURL(t))
		if err == nil || strings.Count(err.Error(), "does not answer") != 2 || !strings.Contains(err.Error(), "rpcUrls[1]") {
			t.Fatalf("open with every URL down: %v", err)
		}
		noSecrets(err.Error())
	})
}

// otherChainURL serves an empty chain with chain id id over HTTP JSON-RPC, for the test's lifetime.
func otherChainURL(t *testing.T, id int64) string {
	t.Helper()
	port := freePort(t)
	sim := devnet.NewBackend(nil, func(nc *node.Config, ec *ethconfig.Config) {
		nc.HTTPHost, nc.HTTPPort, nc.HTTPModules, nc.HTTPVirtualHosts = "127.0.0.1", port, []string{"eth"}, []string{"*"}
		nc.AuthPort = freePort(t)
		cc := *ec.Genesis.Config
		cc.ChainID = big.NewInt(id)
		ec.Genesis.Config, ec.NetworkId = &cc, uint64(id)
	})
	t.Cleanup(func() { _ = sim.Close() })
	return "http://dave:secret-c@127.0.0.1:" + strconv.Itoa(port)
}
