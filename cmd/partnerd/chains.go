package main

import (
	"context"
	"fmt"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/portfolio"
	"github.com/partner-platform/partnerd/trade"
)

// chains is what serve runs for the configured chains: the registry of enabled chains, the index,
// the market and portfolio services over them, the adapters and, in local mode, the devnet.
type chains struct {
	registry  *chain.Registry
	index     *index.Store
	market    *market.Service
	portfolio *portfolio.Service
	trade     *trade.Service
	adapters  []*evm.Adapter
	devnet    *devnet.Local
}

// openChains starts local mode when no EVM chain is configured, then opens every configured EVM
// chain. A chain whose RPC does not answer (or answers with another chain id) stays disabled, said
// loudly in the log; the others are served. (Solana has no adapter yet: it stays disabled.)
func (m *Main) openChains(ctx context.Context) (*chains, error) {
	cfg := chain.Config{Chains: map[string]chain.ChainConfig{}}
	for name, cc := range m.Config.Chains.Chains {
		cfg.Chains[name] = cc
	}
	out := &chains{}
	if !hasEVM(cfg) {
		addr := m.Config.DevnetAddr
		if addr == "" {
			addr = "127.0.0.1:0"
		}
		local, err := devnet.StartLocal(ctx, devnet.LocalOptions{Addr: addr, TradeInterval: m.Config.DevnetTradeInterval, Logger: m.Log})
		if err != nil {
			return nil, fmt.Errorf("local mode: %w", err)
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
	pricing := map[string]index.Pricing{}
	for name, cc := range cfg.Chains {
		pricing[name] = index.PricingOf(cc)
	}
	out.index = index.New(m.store.Client, m.store.Dialect, pricing)
	enabled := map[string]chain.Served{}
	var marketChains []*market.Chain
	var portfolioChains []*portfolio.Chain
	var tradeChains []*trade.Chain
	for _, info := range chain.Supported {
		cc, ok := cfg.Chains[info.Name]
		if !ok || info.Kind != chain.KindEVM {
			continue
		}
		a, err := evm.Open(ctx, info.Name, cc, out.index, m.Log)
		if err != nil {
			m.Log.Error("chain disabled: its RPC does not answer as configured", "chain", info.Name, "err", err)
			continue
		}
		out.adapters = append(out.adapters, a)
		enabled[info.Name] = chain.Served{Network: cc.Network, ChainID: cc.ChainID}
		marketChains = append(marketChains, &market.Chain{Name: info.Name, Source: a.Source, Pricing: pricing[info.Name]})
		portfolioChains = append(portfolioChains, &portfolio.Chain{Name: info.Name, Source: a.Source, NativeSymbol: info.NativeToken,
			Pricing: pricing[info.Name]})
		tradeChains = append(tradeChains, m.tradeChain(info, cc, a.Source))
	}
	var err error
	if out.registry, err = chain.NewRegistry(enabled); err != nil {
		out.close()
		return nil, err
	}
	out.market = market.New(out.index, marketChains, m.Log)
	out.portfolio = portfolio.New(out.index, out.market, portfolioChains)
	out.trade = trade.New(m.store.Client, tradeChains, m.Log)
	return out, nil
}

// tradeChain is a configured EVM chain as the trade service sees it, saying in the log when its
// uniswap-v2 venue cannot be traded on.
func (m *Main) tradeChain(info chain.Info, cc chain.ChainConfig, src *evm.Source) *trade.Chain {
	tc := trade.NewChain(info, cc, src)
	if _, ok := cc.Venues["uniswap-v2"]; ok && len(tc.Venues) == 0 {
		m.Log.Warn("uniswap-v2 has no initCodeHash or router: swaps and liquidity are not built there", "chain", info.Name)
	}
	return tc
}

func hasEVM(cfg chain.Config) bool {
	for name := range cfg.Chains {
		if info, ok := chain.Lookup(name); ok && info.Kind == chain.KindEVM {
			return true
		}
	}
	return false
}

// run starts the indexers and the market snapshot refresher on m's background loops.
func (c *chains) run(ctx context.Context, m *Main) {
	for _, a := range c.adapters {
		m.every(ctx, 0, func(ctx context.Context) error { a.Follower.Run(ctx); return nil })
	}
	m.every(ctx, 0, func(ctx context.Context) error { c.market.Run(ctx); return nil })
}

// close closes the adapters and stops the devnet.
func (c *chains) close() error {
	for _, a := range c.adapters {
		a.Close()
	}
	if c.devnet != nil {
		return c.devnet.Close()
	}
	return nil
}
