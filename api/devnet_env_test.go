package api

import (
	"io"
	"log/slog"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/rpcproxy"
	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/portfolio"
	"github.com/partner-platform/partnerd/trade"
)

// devnetChain is base served from a local devnet (seeded, no background trader), indexed up to
// its head when the env is built and again on sync; the market snapshot is refreshed in the
// background as in the service. The market and portfolio reads reach the devnet through rpc, a
// proxy that counts their round trips and can hold them back; indexing goes around it.
type devnetChain struct {
	local   *devnet.Local
	rpc     *rpcproxy.Proxy
	indexer *evm.Follower
	config  chain.ChainConfig // the chain's configuration, reads through rpc
}

// sync indexes the devnet up to its head.
func (d *devnetChain) sync(t testing.TB) {
	t.Helper()
	for caughtUp := false; !caughtUp; {
		var err error
		if caughtUp, err = d.indexer.Step(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
}

// withDevnet gives the env the market, portfolio and trade services of a devnetChain, described into d.
func withDevnet(d *devnetChain) envOption {
	return func(e *env) {
		t := e.t
		ctx := t.Context()
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		local, err := devnet.StartLocal(ctx, devnet.LocalOptions{Addr: "127.0.0.1:0", Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = local.Close() })
		cc := local.ChainConfig()
		pricing := index.PricingOf(cc)
		ix := index.New(e.store.Client, e.store.Dialect, map[string]index.Pricing{"base": pricing})
		indexer, err := evm.Open(ctx, "base", cc, ix, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(indexer.Close)
		d.local, d.indexer = local, indexer.Follower
		d.sync(t)

		d.rpc = rpcproxy.Start(t, local.RPCURL())
		cc.RPCURLs = []string{d.rpc.URL}
		reads, err := evm.Open(ctx, "base", cc, ix, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(reads.Close)
		mkt := market.New(ix, []*market.Chain{{Name: "base", Source: reads.Source, Pricing: pricing}}, log)
		refreshing := make(chan struct{})
		go func() { defer close(refreshing); mkt.Run(ctx) }()
		t.Cleanup(func() { <-refreshing }) // ctx ends before cleanups run
		folio := portfolio.New(ix, mkt, []*portfolio.Chain{{Name: "base", Source: reads.Source, NativeSymbol: "ETH", Pricing: pricing}})
		chains, err := chain.NewRegistry(map[string]chain.Served{"base": {Network: chain.Devnet, ChainID: devnet.ChainID}})
		if err != nil {
			t.Fatal(err)
		}
		base, _ := chain.Lookup("base")
		trader := trade.New(e.store.Client, []*trade.Chain{trade.NewChain(base, cc, reads.Source)}, log)
		d.config = cc
		e.edits = append(e.edits, func(deps *Deps) {
			deps.Market, deps.Portfolio, deps.Trade, deps.Chains = mkt, folio, trader, chains
		})
	}
}
