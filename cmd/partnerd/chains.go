package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/portfolio"
	"github.com/partner-platform/partnerd/trade"
	"github.com/partner-platform/partnerd/venue"
)

// chains is what serve runs for the configured chains: the registry of enabled chains, the index,
// the market and portfolio services over them, the adapters and, in local mode, the devnet and the
// local Solana validator.
//
// Replicas on one database share the index, and exactly one of them indexes a chain at a time: the
// holder of the chain's lease "index:<chain>" (index.Leases). The others serve reads from the
// shared index and take the lease over when its holder stops renewing it. In local mode on
// PostgreSQL the replica that runs the devnet holds the lease "devnet", and a second replica in
// local mode on that database is refused at start.
type chains struct {
	registry  *chain.Registry
	index     *index.Store
	market    *market.Service
	portfolio *portfolio.Service
	trade     *trade.Service
	adapters  []*evm.Adapter
	indexers  []indexer
	leases    *index.Leases
	devnet    *devnet.Local
	devnetKey string       // the devnet's lease when this replica holds it (local mode on PostgreSQL)
	solana    *solanaChain // nil: solana is not served
}

// indexer is one chain's follower and the sink it writes through.
type indexer struct {
	chain    string
	follower interface{ Run(ctx context.Context) } // *evm.Follower, *solana.Follower
	sink     *index.TermSink
}

// devnetLease is the lease of the replica that runs local mode's devnet on a shared PostgreSQL.
const devnetLease = "devnet"

// indexLease is the lease of the replica that indexes a chain.
func indexLease(chainName string) string { return "index:" + chainName }

// openChains starts local mode when no EVM chain is configured, then opens every configured EVM
// chain. A chain whose RPC does not answer (or answers with another chain id) stays disabled, said
// loudly in the log; the others are served. Solana is opened by openSolana (in local mode, on the
// local validator).
func (m *Main) openChains(ctx context.Context) (*chains, error) {
	cfg := chain.Config{Chains: map[string]chain.ChainConfig{}}
	for name, cc := range m.Config.Chains.Chains {
		cfg.Chains[name] = cc
	}
	leases, err := index.NewLeases(m.store.Client, m.store.Dialect, index.NewHolderID(), index.DefaultLeaseTimings, m.Log)
	if err != nil {
		return nil, err
	}
	out := &chains{leases: leases}
	venues := venue.All()
	if !hasEVM(cfg) {
		if m.store.Dialect == dialect.Postgres {
			// Local mode on a database other replicas may share: only one of them may run a devnet,
			// or each indexes its own chain into the same tables (SQLite is one process's: no lease).
			if err := leases.Claim(ctx, devnetLease); err != nil {
				if held, ok := errors.AsType[*index.HeldError](err); ok {
					return nil, fmt.Errorf("local mode on a shared PostgreSQL: another replica (%s) runs the devnet; "+
						"configure PARTNER_CHAINS with that devnet's RPC (its LOCAL MODE log line says which), or use SQLite", held.Holder)
				}
				return nil, fmt.Errorf("local mode: %w", err)
			}
			out.devnetKey = devnetLease
		}
		addr := m.Config.DevnetAddr
		if addr == "" {
			addr = "127.0.0.1:0"
		}
		local, err := devnet.StartLocal(ctx, devnet.LocalOptions{Addr: addr, TradeInterval: m.Config.DevnetTradeInterval, Logger: m.Log})
		if err != nil {
			return nil, errors.Join(fmt.Errorf("local mode: %w", err), out.close())
		}
		out.devnet = local
		name := m.Config.DevnetChain
		if name == "" {
			name = "base"
		}
		cfg.Chains[name] = local.ChainConfig()
		m.Log.Warn("LOCAL MODE: no EVM RPC is configured (PARTNER_CHAINS), so "+name+" is served from an in-process DEVNET, not the real chain",
			"chain", name, "rpc", local.RPCURL(), "chainId", devnet.ChainID)
	}
	out.solana = m.openSolana(ctx, cfg, out.devnet != nil)
	pricing := map[string]index.Pricing{}
	for name, cc := range cfg.Chains {
		pricing[name] = index.PricingOf(name, cc)
	}
	if out.solana != nil {
		pricing["solana"] = index.PricingOf("solana", out.solana.config)
	}
	out.index = index.New(m.store.Client, m.store.Dialect, pricing)
	out.index.SetFence(leases.Fence(indexLease)) // only the lease holder writes a chain's index
	enabled := map[string]chain.Served{}
	var marketChains []*market.Chain
	var portfolioChains []*portfolio.Chain
	var tradeChains []trade.Chain
	for _, info := range chain.Supported {
		cc, ok := cfg.Chains[info.Name]
		if !ok || info.Kind != chain.KindEVM {
			continue
		}
		sink := index.NewTermSink(out.index)
		a, err := evm.Open(ctx, info.Name, cc, venues, sink, m.Log)
		if err != nil {
			m.Log.Error("chain disabled: its RPC does not answer as configured", "chain", info.Name, "err", err)
			continue
		}
		out.adapters = append(out.adapters, a)
		if ticks, err := out.index.ConcentratedTicks(ctx, info.Name); err == nil {
			a.Source.RememberTicks(ticks) // quotes guess V3 pools' tick words from the index
		} else {
			m.Log.Warn("V3 pools' ticks not read from the index: their first quotes take a second round trip", "chain", info.Name, "err", err)
		}
		out.indexers = append(out.indexers, indexer{chain: info.Name, follower: a.Follower, sink: sink})
		enabled[info.Name] = chain.Served{Network: cc.Network, ChainID: cc.ChainID, Venues: venues.Configured(info.Name, cc)}
		marketChains = append(marketChains, &market.Chain{Name: info.Name, Source: a.Source, Pricing: pricing[info.Name],
			BinVenues: market.BinVenuesOf(venues, cc)})
		portfolioChains = append(portfolioChains, &portfolio.Chain{Name: info.Name, Source: a.Source, NativeSymbol: info.NativeToken,
			Pricing: pricing[info.Name], NFTVenues: portfolio.NFTVenuesOf(venues, cc)})
		tradeChains = append(tradeChains, m.tradeChain(info, cc, a.Source, venues))
	}
	if sc := out.solana; sc != nil {
		enabled["solana"] = chain.Served{Network: sc.config.Network, Venues: venues.Configured("solana", sc.config)}
		var pools []chain.SVMPoolVenue
		var indexers []chain.SVMIndexer
		var traded []chain.Venue // the venues that serve swaps or liquidity
		svmVenues, svmConfigs := venues.SVM(sc.config)
		for i, v := range svmVenues {
			pools = append(pools, v.Pools())
			if ix, ok := v.Indexer(svmConfigs[i]); ok {
				indexers = append(indexers, ix)
			}
			if st := v.Status("solana", svmConfigs[i]); st.Has(chain.CapSwaps) || st.Has(chain.CapLiquidity) {
				traded = append(traded, v)
			}
		}
		source := solana.NewSource(sc.client, pools...)
		marketChains = append(marketChains, &market.Chain{Name: "solana", Source: source, Pricing: pricing["solana"], Live: sc.client, Tokens: sc.tokens()})
		if len(indexers) > 0 {
			sink := index.NewTermSink(out.index)
			out.indexers = append(out.indexers, indexer{chain: "solana", sink: sink, follower: solana.NewFollower(solana.FollowerConfig{
				Chain: "solana", Client: sc.client, Sink: sink, Indexers: indexers, StartSlot: sc.config.StartBlock, Logger: m.Log})})
		}
		if info, ok := chain.Lookup("solana"); ok {
			portfolioChains = append(portfolioChains, &portfolio.Chain{Name: "solana", Source: source, NativeSymbol: info.NativeToken, Pricing: pricing["solana"]})
		}
		var stables []string
		for _, st := range sc.config.USDStablecoins {
			stables = append(stables, st.Address)
		}
		tradeChains = append(tradeChains, trade.NewSolanaChain(trade.SolanaChain{Name: "solana", Client: sc.client, Accounts: source, Stablecoins: stables, Venues: traded}))
	}
	if out.registry, err = chain.NewRegistry(enabled); err != nil {
		out.close()
		return nil, err
	}
	out.market = market.New(out.index, marketChains, m.Log)
	out.portfolio = portfolio.New(out.index, out.market, portfolioChains)
	key, _, err := secretKey(m.Config, m.store)
	if err != nil {
		out.close()
		return nil, err
	}
	if key == nil {
		key = make([]byte, 32)
		rand.Read(key)
		m.Log.Warn("Solana swap quotes are sealed with a key of this process only: set PARTNER_SECRET_KEY, the same on every replica, " +
			"so that a quote from one replica builds on another and after a restart")
	}
	out.trade = trade.New(m.store.Client, tradeChains, m.Log, trade.WithQuoteKey(key))
	return out, nil
}

// tradeChain is a configured EVM chain as the trade service sees it, saying in the log what each
// venue cannot serve and why (GET /v1/chains and the refused calls say it too).
func (m *Main) tradeChain(info chain.Info, cc chain.ChainConfig, src *evm.Source, venues chain.VenueSet) *trade.EVMChain {
	for _, v := range venues.Configured(info.Name, cc) {
		if why, ok := v.Missing[chain.CapSwaps]; ok && v.Has(chain.CapPools) {
			m.Log.Warn("venue not traded on: swaps and liquidity are not built there", "chain", info.Name, "venue", v.Name, "why", why)
		}
	}
	return trade.NewEVMChain(info, cc, src, venues)
}

func hasEVM(cfg chain.Config) bool {
	for name := range cfg.Chains {
		if info, ok := chain.Lookup(name); ok && info.Kind == chain.KindEVM {
			return true
		}
	}
	return false
}

// run starts the indexers, each while this replica holds its chain's lease, and the market
// snapshot refresher on m's background loops; in local mode on PostgreSQL it keeps the devnet's
// lease.
func (c *chains) run(ctx context.Context, m *Main) {
	for _, ix := range c.indexers {
		m.every(ctx, 0, func(ctx context.Context) error {
			terms := 0
			c.leases.Hold(ctx, indexLease(ix.chain), func(ctx context.Context) {
				if terms++; terms > 1 { // another replica may have indexed meanwhile
					ix.sink.NewTerm()
				}
				ix.follower.Run(ctx)
			})
			return nil
		})
	}
	if c.devnetKey != "" {
		m.every(ctx, 0, func(ctx context.Context) error {
			c.leases.Hold(ctx, c.devnetKey, func(ctx context.Context) { <-ctx.Done() })
			return nil
		})
	}
	m.every(ctx, 0, func(ctx context.Context) error { c.market.Run(ctx); return nil })
}

// close closes the adapters, stops the devnet and gives its lease up.
func (c *chains) close() error {
	for _, a := range c.adapters {
		a.Close()
	}
	var errs []error
	if c.solana != nil {
		c.solana.close()
	}
	if c.devnet != nil {
		errs = append(errs, c.devnet.Close())
	}
	if c.devnetKey != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		errs = append(errs, c.leases.Release(ctx, c.devnetKey))
		cancel()
	}
	return errors.Join(errs...)
}
