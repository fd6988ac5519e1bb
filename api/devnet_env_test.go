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
	"github.com/partner-platform/partnerd/venue"
)

// devnetChain is base (or the chain named) served from a local devnet (seeded, no background trader), indexed up to
// its head when the env is built and again on sync; the market snapshot is refreshed in the
// background as in the service. The market and portfolio reads reach the devnet through rpc, a
// proxy that counts their round trips and can hold them back; indexing goes around it.
type devnetChain struct {
	local   *devnet.Local
	rpc     *rpcproxy.Proxy
	indexer *evm.Follower
	config  chain.ChainConfig        // the chain's configuration, reads through rpc
	name    string                   // the chain the devnet serves; "" means base
	edit    func(*chain.ChainConfig) // changes the configuration the services get (nil: as the devnet has it)
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
		if d.name == "" {
			d.name = "base"
		}
		info, _ := chain.Lookup(d.name)
		pricing := index.PricingOf(info.Name, cc)
		ix := index.New(e.store.Client, e.store.Dialect, map[string]index.Pricing{info.Name: pricing})
		indexer, err := evm.Open(ctx, info.Name, cc, venue.All(), ix, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(indexer.Close)
		d.local, d.indexer = local, indexer.Follower
		d.sync(t)

		d.rpc = rpcproxy.Start(t, local.RPCURL())
		cc.RPCURLs = []string{d.rpc.URL}
		if d.edit != nil {
			d.edit(&cc)
		}
		reads, err := evm.Open(ctx, info.Name, cc, venue.All(), ix, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(reads.Close)
		ticks, err := ix.ConcentratedTicks(ctx, info.Name) // as the service does at start: V3 pools' words from the index
		if err != nil {
			t.Fatal(err)
		}
		reads.Source.RememberTicks(ticks)
		mkt := market.New(ix, []*market.Chain{{Name: info.Name, Source: reads.Source, Pricing: pricing, BinVenues: market.BinVenuesOf(venue.All(), cc)}}, log)
		refreshing := make(chan struct{})
		go func() { defer close(refreshing); mkt.Run(ctx) }()
		t.Cleanup(func() { <-refreshing }) // ctx ends before cleanups run
		folio := portfolio.New(ix, mkt, []*portfolio.Chain{{Name: info.Name, Source: reads.Source, NativeSymbol: info.NativeToken, Pricing: pricing}})
		chains, err := chain.NewRegistry(map[string]chain.Served{info.Name: {Network: chain.Devnet, ChainID: devnet.ChainID,
			Venues: venue.All().Configured(info.Name, cc)}})
		if err != nil {
			t.Fatal(err)
		}
		trader := trade.New(e.store.Client, []trade.Chain{trade.NewEVMChain(info, cc, reads.Source, venue.All())}, log)
		d.config = cc
		e.edits = append(e.edits, func(deps *Deps) {
			deps.Market, deps.Portfolio, deps.Trade, deps.Chains = mkt, folio, trader, chains
		})
	}
}
