package portfolio

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
)

// LP positions on a chain whose source lists wallets (Solana). A pool's LP token there is a token
// of its own (Raydium CPMM's LP mint, the PDA ["pool_lp_mint", pool]), which the index records
// as the pool's LP token when it indexes the pool. An owner's positions are found from the same
// complete wallet read as its holdings: every token it holds that is an indexed pool's LP token is
// one wallet entry of that pool (no venue served there has farms, so there are no staked entries).
// The pools' states are then read live, all at one slot: the reserves as the pool's curve sees them
// (on Raydium CPMM the vaults less the fees the pool owes) and the pool's LP supply.
//
// Sources: the chain's, complete (every token account of the owner was listed) unless a held token
// could not be described, and the index's, never complete (a held LP token of a pool the index does
// not follow is not recognised as one). The balances come from the wallet read and the pools'
// states from a read just after it; Block is the slot of the pools' states, so an owner whose LP
// balance changed between the two reads is answered with its balance of the first.

// walletPositions reads the LP positions of owners on a chain whose source lists wallets, in the
// order asked: an owner that cannot be read has Err set (see readWallets). Positions are by pool
// address, each with its share of the pool's reserves (rounded down, as the pool's withdraw pays
// them), its share of the LP supply and, when both sides of the pool are priced, its USD value.
// Errors: market.ErrNotFound when the service has no index or market serving the chain, the
// source's, the pricer's and the store's.
func (s *Service) walletPositions(ctx context.Context, c *Chain, ws chain.WalletSource, owners []string) ([]Positions, error) {
	if s.index == nil || s.market == nil || !s.market.Serves(c.Name) {
		return nil, fmt.Errorf("portfolio: positions on %s: no index and market of the chain: %w", c.Name, market.ErrNotFound)
	}
	read, err := readWallets(ctx, c, ws, owners, "positions")
	if err != nil {
		return nil, err
	}
	out := make([]Positions, len(owners))
	sums := make([]map[string]balance, len(owners)) // per owner: token -> its balance
	complete := make([]bool, len(owners))
	var tokens []string
	for i, w := range read.wallets {
		out[i] = Positions{Owner: owners[i], Chain: c.Name, Err: w.Err}
		if w.Err != nil {
			continue
		}
		sums[i], complete[i] = held(w)
		tokens = append(tokens, slices.Collect(maps.Keys(sums[i]))...)
	}
	pools, err := s.index.PoolsOfLPTokens(ctx, c.Name, distinct(tokens))
	if err != nil {
		return nil, fmt.Errorf("portfolio: positions on %s: %w", c.Name, err)
	}
	d, err := s.describeLPPools(ctx, c, pools)
	if err != nil {
		return nil, fmt.Errorf("portfolio: positions on %s: %w", c.Name, err)
	}
	for i, w := range read.wallets {
		if w.Err == nil {
			out[i] = d.owner(c, w.Owner, sums[i], complete[i], pools)
		}
	}
	return out, nil
}

// lpPools is what a wallet positions read knows of the pools whose LP tokens someone holds.
type lpPools struct {
	summaries map[string]market.PoolSummary // pools the market describes, by address
	states    map[string]chain.PairState    // their live states, by address, all at one slot
	prices    map[string]float64            // USD prices of their sides, by canonical address
}

// describeLPPools reads the pools of held LP tokens: their summaries from the market (a pool the
// market does not describe is left out), their states live at one slot, and their sides' prices.
func (s *Service) describeLPPools(ctx context.Context, c *Chain, pools map[string]index.Pool) (lpPools, error) {
	d := lpPools{summaries: map[string]market.PoolSummary{}, states: map[string]chain.PairState{}, prices: map[string]float64{}}
	var addrs, sides []string
	for _, p := range pools {
		addrs = append(addrs, p.Address)
	}
	for _, a := range distinct(addrs) {
		sum, err := s.market.Summary(ctx, c.Name, a) // reserves come from the live read
		if errors.Is(err, market.ErrNotFound) {
			continue
		}
		if err != nil {
			return d, err
		}
		d.summaries[a] = sum
		sides = append(sides, chain.CanonicalAddress(c.Name, sum.Base.Address), chain.CanonicalAddress(c.Name, sum.Quote.Address))
	}
	if len(d.summaries) == 0 {
		return d, nil
	}
	read := slices.Sorted(maps.Keys(d.summaries))
	states, err := c.Source.PairStates(ctx, read)
	if err != nil {
		return d, err
	}
	if len(states) != len(read) {
		return d, fmt.Errorf("%d pool states for %d pools: %w", len(states), len(read), chain.ErrUpstreamBadResponse)
	}
	for i, a := range read {
		d.states[a] = states[i]
	}
	d.prices, err = s.pricer(c).PricesUSD(ctx, c.Name, distinct(sides))
	return d, err
}

// owner makes an owner's positions from its balances (sums, by token): one wallet entry per held
// LP token of a pool described and read, by pool address.
func (d lpPools) owner(c *Chain, owner string, sums map[string]balance, complete bool, pools map[string]index.Pool) Positions {
	out := Positions{Owner: chain.DisplayAddress(c.Name, owner), Chain: c.Name, Positions: []Position{},
		Sources: []Source{rpcSource(c.Name, complete), indexSource(c.Name)}}
	type held struct {
		pool string
		lp   balance
	}
	var list []held
	for token, b := range sums {
		if p, ok := pools[token]; ok {
			list = append(list, held{p.Address, b})
		}
	}
	slices.SortFunc(list, func(a, b held) int { return strings.Compare(a.pool, b.pool) })
	var total float64
	for _, h := range list {
		sum, ok := d.summaries[h.pool]
		if !ok {
			continue
		}
		st := d.states[h.pool]
		out.Block = st.Block
		if !st.OK || st.TotalSupply == nil || st.TotalSupply.Sign() == 0 {
			continue
		}
		pos, value, priced := entry(sum, st, h.lp.amount, h.lp.decimals, d.prices)
		if priced {
			pos.ValueUSD = market.Decimal(value)
			total += value
		}
		out.Positions = append(out.Positions, pos)
	}
	out.ValueUSD = market.Decimal(total)
	return out
}
