package trade

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// BuildLPMigrate builds the migration of Bps of the user's LP tokens of Pool, a pair of the
// chain's uniswap-v2 venue, into a new position of the venue Venue (chain.V3MigrateVenue:
// uniswap-v3's V3Migrator) at the fee tier FeeTier (pips: 500 is 0.05 %) in a range given as
// TickLower and TickUpper or PriceLower and PriceUpper (token1 per token0, as lp/add takes them),
// snapped outwards to the tier's tick spacing. In order: approveLP (an exact approve of the
// migrator for the LP tokens; left out when the allowance suffices), then migrate: the migrator
// burns the LP tokens, mints a position for the user of what the burn returned (all of it is
// offered: percentageToMigrate 100) with minimums slippageBps below what the mint takes at the
// read state, and refunds what the mint does not take (Native: its wrapped native side as the
// gas coin). When the V3 pool does not exist, the same migrator multicall creates and initializes
// it first, at the pair's price. metadata: pair, lpAmount (burned), lpBalance, bps, v2Amount0 and
// v2Amount1 (what the burn returns: liquidity times reserve over supply), poolId (the V3 pool),
// created, sqrtPriceX96 and tick (the pool's, or the price it is created at), fee, tickSpacing,
// tickLower, tickUpper, inRange, liquidity, amount0 and amount1 (what the mint takes) and their
// minimums, refund0 and refund1 (the burn's amounts less the mint's), all exact at the read state.
// Errors: ErrNotSupported (no migrator), ErrNotFound (not a pair), ErrInvalid, ErrInvalidAmount,
// ErrPrerequisite (no LP held), *SimulationError, and the adapter's and the store's.
func (s *Service) BuildLPMigrate(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	c, err := s.lpPositionChain(r.Chain, "lp/migrate")
	if err != nil {
		return Build{}, err
	}
	pv, ok := c.positionVenue(r.Venue)
	mv, migrates := pv.V3LiquidityVenue.(chain.V3MigrateVenue)
	if !ok || !migrates || pv.cfg.Migrator == "" {
		return Build{}, fmt.Errorf("%w: %s does not migrate liquidity on %s: no migrator is configured (chains.%s.venues.%s.migrator)",
			ErrNotSupported, r.Venue, c.Info.Name, c.Info.Name, r.Venue)
	}
	user, pair, migrator := strings.ToLower(r.User), strings.ToLower(r.Pool), strings.ToLower(pv.cfg.Migrator)
	switch {
	case r.SlippageBps < 0 || r.SlippageBps >= bpsDenominator:
		return Build{}, fmt.Errorf("%w: slippageBps must be 0 to 9999", ErrInvalid)
	case r.Bps < 1 || r.Bps > bpsDenominator:
		return Build{}, fmt.Errorf("%w: bps must be 1 to 10000", ErrInvalid)
	}
	spacing, ok := mv.TickSpacing(r.FeeTier)
	if !ok {
		return Build{}, fmt.Errorf("%w: feeTier %d is not a fee tier of %s (100, 500, 3000 or 10000)", ErrInvalid, r.FeeTier, r.Venue)
	}
	first, err := c.Source.ReadTrade(ctx, chain.EVMTradeRead{Pairs: []string{pair}})
	if err != nil {
		return Build{}, fmt.Errorf("pair: %w", err)
	}
	if _, err := c.pairVenueOf(pair, first.Pairs[0]); err != nil {
		return Build{}, err
	}
	tokens := [2]string{first.Pairs[0].Token0, first.Pairs[0].Token1}
	if r.Native && tokens[0] != c.WrappedNative && tokens[1] != c.WrappedNative {
		return Build{}, fmt.Errorf("%w: native refunds the wrapped native side as the gas coin; pair %s has none", ErrInvalid, pair)
	}
	v3pool, err := pv.PoolAddress(pv.cfg, tokens[0], tokens[1], r.FeeTier)
	if err != nil {
		return Build{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	st, nativeUSD, err := c.readPriced(ctx, chain.EVMTradeRead{Pairs: []string{pair}, V3Pools: []chain.V3PoolRead{{Pool: v3pool, TickSpacing: spacing, NoTicks: true}},
		TickLens: pv.cfg.TickLens, Owner: user, Balances: []string{pair}, Allowances: []chain.EVMAllowance{{Token: pair, Spender: migrator}},
		Decimals: tokens[:]})
	if err != nil {
		return Build{}, fmt.Errorf("lp migrate: %w", err)
	}
	p, pool := st.Pairs[0], st.V3Pools[0]
	v2, err := c.pairVenueOf(pair, p)
	if err != nil {
		return Build{}, err
	}
	decimals := [2]int{st.Decimals[0], st.Decimals[1]}
	if decimals[0] < 0 || decimals[1] < 0 {
		return Build{}, fmt.Errorf("%w: a token of pair %s does not answer decimals()", ErrInvalid, pair)
	}
	held := st.Balances[0]
	if held == nil || held.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: %s holds no LP tokens of pair %s", ErrPrerequisite, user, pair)
	}
	lp := new(big.Int).Mul(held, big.NewInt(int64(r.Bps)))
	lp.Quo(lp, bigBps)
	burned := v2.Withdrawal(p, lp)
	if lp.Sign() == 0 || burned[0].Sign() == 0 || burned[1].Sign() == 0 {
		return Build{}, fmt.Errorf("%w: %d bps of the %s LP base units held is too little to migrate anything", ErrInvalidAmount, r.Bps, held)
	}
	sqrt, tick, createAt := pool.SqrtPriceX96, pool.Tick, (*big.Int)(nil)
	if !pool.OK {
		if sqrt, tick, err = mv.PairPrice(p.Reserve0, p.Reserve1); err != nil {
			return Build{}, fmt.Errorf("%w: the pair's price: %v", ErrInvalid, err)
		}
		createAt = sqrt
	}
	lower, upper, err := c.positionRange(r, pv, spacing, decimals)
	if err != nil {
		return Build{}, err
	}
	d, err := pv.Deposit(lower, upper, tick, sqrt, burned[0], burned[1])
	if err != nil || d.Liquidity.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: what the burn returns adds no liquidity in [%d, %d) at the pool's price (%v)", ErrInvalidAmount, lower, upper, err)
	}
	mins := [2]*big.Int{chain.MinOut(d.Amount0, r.SlippageBps), chain.MinOut(d.Amount1, r.SlippageBps)}
	deadline := s.now().Add(RouterDeadline).Unix()
	var steps []step
	if a := approval(pair, user, migrator, st.Allowances[0], lp); a != nil {
		a.id = "approveLP"
		steps = append(steps, *a)
	}
	call := mv.MigrateCall(pv.cfg, chain.V3Migration{Pair: pair, Liquidity: lp, Token0: tokens[0], Token1: tokens[1], Fee: r.FeeTier,
		TickLower: lower, TickUpper: upper, Amount0Min: mins[0], Amount1Min: mins[1], Recipient: user, Deadline: deadline, RefundAsETH: r.Native,
		CreateAt: createAt})
	steps = append(steps, callStep("migrate", call))
	md := v3Metadata(pv, v3pool, tokens[0], tokens[1])
	md["pair"], md["migrator"], md["lpAmount"], md["lpBalance"], md["bps"] = pair, migrator, lp.String(), held.String(), r.Bps
	md["v2Amount0"], md["v2Amount1"], md["created"], md["sqrtPriceX96"], md["tick"] = burned[0].String(), burned[1].String(), createAt != nil, sqrt.String(), tick
	md["fee"], md["tickSpacing"], md["tickLower"], md["tickUpper"], md["inRange"] = r.FeeTier, spacing, lower, upper, lower <= tick && tick < upper
	md["liquidity"], md["amount0"], md["amount1"] = d.Liquidity.String(), d.Amount0.String(), d.Amount1.String()
	md["minAmount0"], md["minAmount1"] = mins[0].String(), mins[1].String()
	md["refund0"], md["refund1"] = new(big.Int).Sub(burned[0], d.Amount0).String(), new(big.Int).Sub(burned[1], d.Amount1).String()
	md["refundAsETH"], md["deadline"], md["recipient"] = r.Native, deadline, user
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md}, steps)
}

// pairVenueOf is the venue of pairs whose pair p (read at address pair) is.
func (c *EVMChain) pairVenueOf(pair string, p chain.PairState) (pairVenue, error) {
	err := fmt.Errorf("%w: pool %s is not a pair of a venue of pairs of %s (%s)", ErrInvalid, pair, c.Info.Name, c.lpVenues())
	for _, v := range c.Pairs {
		if err = c.checkPool(v, pair, p); err == nil {
			return v, nil
		}
	}
	return pairVenue{}, err
}
