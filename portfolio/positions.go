package portfolio

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// LP positions. An owner's LP tokens are either in its wallet or staked in a farm (Uniswap's
// liquidity-staker StakingRewards, on EVM chains), where they are still the owner's: each place is
// an entry of its own, so that every entry's liquidity, amounts, share and value describe the same
// LP tokens, and summing the entries sums the owner's whole position.
//
// On a chain whose source lists wallets (chain.WalletSource: Solana) the wallet's LP tokens are
// found among everything the owner holds (walletpositions.go). On any other chain (EVM) they are
// read for the indexed pools the index says the owner holds, through chain.EVMPositionSource; stakes
// are read in every farm of the chain's staking rewards factories, so a stake is found without any
// LP left in the wallet (see chain/evm's LPPositions for the cost). Everything is read at one
// block, in one round trip; NFT positions (nftpositions.go) are read at the same block, in four
// more.

// Position is one entry of an owner's LP positions: in a constant-product pool (a Uniswap V2 pair, a
// Raydium CPMM pool), the LP tokens it holds in its wallet, or, with Farm set, those it has staked
// in a farm; in a concentrated-liquidity pool (NFT set: nftpositions.go), one position NFT, in the
// wallet or, with Farm set, deposited in the venue's staker.
type Position struct {
	Pool market.PoolSummary
	// Liquidity is the LP tokens, token units (the LP token's decimals), in the wallet or staked in
	// Farm; for an NFT position, its liquidity L (an integer).
	Liquidity   string
	BaseAmount  string // the entry's share of the base reserve (NFT: what removing it pays), token units
	QuoteAmount string
	SharePct    string // of the pool's LP supply (NFT: of its in-range liquidity, 0 out of range)
	// ValueUSD is the value of the underlying amounts plus that of the priced rewards (NFT: plus
	// its uncollected fees); empty when the pool's tokens are not both priced.
	ValueUSD string
	Farm     *Farm        // nil: in the wallet
	NFT      *NFTPosition // set on an NFT position only
}

// Farm is the farm a staked entry is staked in, and what the owner earned there.
type Farm struct {
	Address string   // the StakingRewards contract, EIP-55
	Rewards []Reward // earned and not claimed yet, at the result's block
}

// Reward is an amount of a reward token earned in a farm.
type Reward struct {
	Token    market.Token
	Amount   string // token units
	ValueUSD string // empty when unpriced
}

// Positions is one owner's LP positions on one chain.
type Positions struct {
	Owner     string
	Chain     string
	Positions []Position // by pool address; a pool's wallet entry first, then its stakes by farm
	// ValueUSD is the sum of every priced amount: the entries' underlying amounts where the pool is
	// priced, and the rewards whose token is.
	ValueUSD string
	// Block is the block every amount was read at (on Solana, the slot of the pools' states); 0 when
	// nothing needed reading.
	Block   uint64
	Sources []Source
	// Err is this owner's own failure; the other fields but Owner and Chain are then zero, and the
	// other owners of the call are unaffected. Only wallet reads (chain.WalletSource) and
	// PositionsBatch set it: an index read fails as a whole, with Positions' error.
	Err error
}

// Positions reads the LP positions of owners on one chain. An owner's result is the same alone as
// in any batch.
//
// On a chain whose source lists wallets (chain.WalletSource) it reads every token each owner holds
// and, for those that are LP tokens of indexed pools, the pools' live reserves and supply at one
// slot (walletPositions); an owner that cannot be read has its Err set, as in Holdings. On a chain
// whose source reads EVM positions (chain.EVMPositionSource) it reads, at one block, each owner's
// balances of the indexed pools' LP tokens the index says it holds, its stakes (and rewards earned)
// in every farm of the chain's staking rewards factories, and those pools' live reserves and supply.
// A stake in a pool the index does not follow is left out (the index source is never complete).
// Then, at the same block, every NFT position of the chain's NFT venues (Chain.NFTVenues) each
// owner holds or has deposited in the venue's staker, whether the index follows its pool or not
// (nftPositions).
//
// Errors: market.ErrNotFound (a chain the service does not read, or whose source reads no
// positions), the source's (chain.ErrUpstreamUnavailable, chain.ErrUpstreamTimeout,
// chain.ErrUpstreamBadResponse, chain.ErrCanceled) and the store's.
func (s *Service) Positions(ctx context.Context, chainName string, owners []string) ([]Positions, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return nil, err
	}
	if ws, ok := c.Source.(chain.WalletSource); ok {
		return s.walletPositions(ctx, c, ws, owners)
	}
	src, ok := c.Source.(chain.EVMPositionSource)
	if !ok {
		return nil, fmt.Errorf("portfolio: positions on %s: the chain's source does not read positions: %w", chainName, market.ErrNotFound)
	}
	owners = canonical(chainName, owners)
	held, err := s.held(ctx, chainName, owners, true)
	if err != nil {
		return nil, fmt.Errorf("portfolio: positions on %s: %w", chainName, err)
	}
	pairsOf := make([][]string, len(owners))
	for i, o := range owners {
		pairsOf[i] = held[o]
	}
	read, err := src.LPPositions(ctx, owners, pairsOf)
	if err != nil {
		return nil, fmt.Errorf("portfolio: positions on %s: %w", chainName, err)
	}
	d, err := s.describePositions(ctx, c, read, pairsOf)
	if err != nil {
		return nil, fmt.Errorf("portfolio: positions on %s: %w", chainName, err)
	}
	out := make([]Positions, len(owners))
	totals := make([]float64, len(owners))
	for i, o := range owners {
		out[i], totals[i] = d.owner(chainName, o, i, read, pairsOf[i])
	}
	if err := s.nftPositions(ctx, c, owners, out, totals, read.Block); err != nil {
		return nil, fmt.Errorf("portfolio: positions on %s: %w", chainName, err)
	}
	return out, nil
}

// positionInfo is what the index and the market snapshot say about the pools and reward tokens of
// a positions read.
type positionInfo struct {
	summaries map[string]market.PoolSummary // pools the index follows, by canonical address
	tokens    map[string]market.Token       // reward tokens, by canonical address
	prices    map[string]float64            // USD prices of pool sides and reward tokens
}

// describePositions looks up the pools in which some owner has LP (held or staked) and the reward
// tokens earned: pool summaries from the index, reward tokens from the index or, for one it does
// not describe, live; prices from the market snapshot.
func (s *Service) describePositions(ctx context.Context, c *Chain, read chain.LPPositions, pairsOf [][]string) (positionInfo, error) {
	info := positionInfo{summaries: map[string]market.PoolSummary{}}
	var pools, rewards []string
	for i := range pairsOf {
		for j, p := range pairsOf[i] {
			if b := read.Held[i][j]; b != nil && b.Sign() > 0 {
				pools = append(pools, p)
			}
		}
		for _, st := range read.Stakes[i] {
			pools = append(pools, st.StakingToken)
			if st.Earned.Sign() > 0 {
				rewards = append(rewards, st.RewardToken)
			}
		}
	}
	var priced []string
	for _, p := range distinct(pools) {
		sum, err := s.market.Summary(ctx, c.Name, p) // reserves come from the read
		if errors.Is(err, market.ErrNotFound) {
			continue // a farm staking a pool the index does not follow
		}
		if err != nil {
			return info, err
		}
		info.summaries[p] = sum
		priced = append(priced, chain.CanonicalAddress(c.Name, sum.Base.Address), chain.CanonicalAddress(c.Name, sum.Quote.Address))
	}
	rewards = distinct(rewards)
	var err error
	if info.tokens, err = s.tokens(ctx, c, rewards); err != nil {
		return info, err
	}
	info.prices, err = s.market.PricesUSD(ctx, c.Name, append(priced, rewards...))
	return info, err
}

// tokens describes tokens (canonical addresses): as the index does, else, for one it does not
// describe, from metadata read live.
func (s *Service) tokens(ctx context.Context, c *Chain, tokens []string) (map[string]market.Token, error) {
	out, err := s.market.TokenInfo(ctx, c.Name, tokens)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, t := range tokens {
		if _, ok := out[t]; !ok {
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	metas, err := c.Source.TokenMetadata(ctx, missing)
	if err != nil {
		return nil, err
	}
	for _, m := range metas {
		out[m.Address] = market.Token{Chain: c.Name, Address: chain.DisplayAddress(c.Name, m.Address), Symbol: m.Symbol, Name: m.Name, Decimals: m.Decimals}
	}
	return out, nil
}

// owner makes owners[i]'s result (o) of a positions read, and returns the sum of its priced values.
func (d positionInfo) owner(chainName, o string, i int, read chain.LPPositions, pairs []string) (Positions, float64) {
	out := Positions{Owner: chain.DisplayAddress(chainName, o), Chain: chainName, Positions: []Position{}, Block: read.Block, Sources: sources(chainName)}
	if read.Farms > 0 || len(read.Unanswered[i]) > 0 {
		out.Sources = append(out.Sources, Source{Name: chainName + ":farms", OK: true, Complete: len(read.Unanswered[i]) == 0})
	}
	var total float64
	add := func(pool string, lp *big.Int, farm *chain.FarmStake) {
		sum, ok := d.summaries[pool]
		st := read.Pairs[pool]
		if !ok || !st.OK || st.TotalSupply == nil || st.TotalSupply.Sign() == 0 {
			return
		}
		pos, value, priced := entry(sum, st, lp, evmLPDecimals, d.prices)
		if priced {
			total += value
		}
		if farm != nil {
			f := &Farm{Address: chain.DisplayAddress(chainName, farm.Farm), Rewards: []Reward{}}
			if farm.Earned.Sign() > 0 {
				t := d.tokens[farm.RewardToken]
				r := Reward{Token: t, Amount: market.Units(farm.Earned, t.Decimals)}
				if p, ok := d.prices[farm.RewardToken]; ok {
					v := market.UnitsFloat(farm.Earned, t.Decimals) * p
					r.ValueUSD = market.Decimal(v)
					value += v
					total += v
				}
				f.Rewards = append(f.Rewards, r)
			}
			pos.Farm = f
		}
		if priced {
			pos.ValueUSD = market.Decimal(value)
		}
		out.Positions = append(out.Positions, pos)
	}
	// Walk the pools in address order: the wallet's LP first, then the stakes (ordered by pool, then
	// farm). pairs is sorted, as the index lists what an owner holds.
	pairs = slices.Clone(pairs)
	balances := map[string]*big.Int{}
	for j, p := range pairs {
		balances[p] = read.Held[i][j]
	}
	stakes := read.Stakes[i]
	for _, st := range stakes {
		pairs = append(pairs, st.StakingToken)
	}
	for _, pool := range distinct(pairs) {
		if b := balances[pool]; b != nil && b.Sign() > 0 {
			add(pool, b, nil)
		}
		for k := range stakes {
			if stakes[k].StakingToken == pool {
				add(pool, stakes[k].Staked, &stakes[k])
			}
		}
	}
	out.ValueUSD = market.Decimal(total)
	return out, total
}

// evmLPDecimals is the decimals of a Uniswap V2 pair's LP token.
const evmLPDecimals = 18

// entry is the position of lp LP tokens (of lpDecimals decimals) of a pool in state st: the pool
// with st's reserves, the pro-rata share of each reserve (rounded down, as the pair's burn and
// CPMM's withdraw pay it), the share of the supply and, when both sides are priced, the underlying
// value. prices are by canonical address.
func entry(sum market.PoolSummary, st chain.PairState, lp *big.Int, lpDecimals int, prices map[string]float64) (Position, float64, bool) {
	share := func(reserve *big.Int) *big.Int {
		return new(big.Int).Div(new(big.Int).Mul(reserve, lp), st.TotalSupply)
	}
	base, quote := chain.CanonicalAddress(sum.Chain, sum.Base.Address), chain.CanonicalAddress(sum.Chain, sum.Quote.Address)
	baseReserve, quoteReserve := st.Reserve0, st.Reserve1
	if base != st.Token0 {
		baseReserve, quoteReserve = st.Reserve1, st.Reserve0
	}
	baseAmt, quoteAmt := share(baseReserve), share(quoteReserve)
	// The pool's reserves are the ones read with the position, at its block, never the market
	// snapshot's (which may lag the chain by a refresh).
	sum.BaseReserve, sum.QuoteReserve = market.Units(baseReserve, sum.Base.Decimals), market.Units(quoteReserve, sum.Quote.Decimals)
	pos := Position{Pool: sum, Liquidity: market.Units(lp, lpDecimals), BaseAmount: market.Units(baseAmt, sum.Base.Decimals),
		QuoteAmount: market.Units(quoteAmt, sum.Quote.Decimals), SharePct: market.Decimal(market.Ratio(lp, st.TotalSupply) * 100)}
	bp, bok := prices[base]
	qp, qok := prices[quote]
	if !bok || !qok {
		return pos, 0, false
	}
	return pos, market.UnitsFloat(baseAmt, sum.Base.Decimals)*bp + market.UnitsFloat(quoteAmt, sum.Quote.Decimals)*qp, true
}
