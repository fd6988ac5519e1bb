package trade

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// lpCreatePosition builds on a venue of NFT positions the creation of the pool of TokenA and
// TokenB at the fee tier FeeTier (pips), initialized at Price (token units of token1 per token0,
// the pool's own order: token0 is the lower address), and its first position: AmountA of TokenA
// and AmountB of TokenB at most (human units) in a range (TickLower and TickUpper, or PriceLower and
// PriceUpper, as lp/add takes them). In order: approveToken0, approveToken1 (exact: what the mint
// takes at the pool's price) and createAndMint, the position manager's multicall of
// createAndInitializePoolIfNecessary and mint to the user (minimums slippageBps below).
//
// When the pool exists and is initialized, its price is used and the build is an add (the
// multicall's create is then a no-op): Price may be left out, and when given must be within
// slippageBps of the pool's, else ErrPrerequisite (someone set another price: lp/add at the pool's
// price, if that suits). metadata: poolId (derived offline from the factory), created (whether
// this build creates or initializes the pool), seeded (true: the build mints the first position
// of this build's user), sqrtPriceX96 and price (the pool's price the mint is computed at), fee,
// tickSpacing, the position as lp/add states it, and positionIdFrom (the position's id is known
// once mined). Errors: ErrNotSupported, ErrInvalid (the same token twice, not an ERC-20, a tier
// the venue lacks, no price for a new pool, a bad range), ErrInvalidAmount, ErrPrerequisite (a
// balance short, a pool at another price), *SimulationError, and the adapter's and the store's.
func (c *EVMChain) lpCreatePosition(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	pv, ok := c.positionVenue(r.Venue)
	if !ok {
		return Build{}, fmt.Errorf("%w: %s has no NFT-style positions built on %s; %s", ErrNotSupported, r.Venue, c.Info.Name, c.positionVenues())
	}
	if r.SlippageBps < 0 || r.SlippageBps >= bpsDenominator {
		return Build{}, fmt.Errorf("%w: slippageBps must be 0 to 9999", ErrInvalid)
	}
	spacing, ok := pv.TickSpacing(r.FeeTier)
	if !ok {
		return Build{}, fmt.Errorf("%w: feeTier %d is not a fee tier of %s (100, 500, 3000 or 10000)", ErrInvalid, r.FeeTier, r.Venue)
	}
	user := strings.ToLower(r.User)
	a, na := c.token(r.TokenA)
	b, nb := c.token(r.TokenB)
	switch {
	case na || nb:
		return Build{}, fmt.Errorf("%w: %s pools hold ERC-20 tokens: name the wrapped native token, not native", ErrInvalid, r.Venue)
	case a == b:
		return Build{}, fmt.Errorf("%w: tokenA and tokenB must be two different tokens", ErrInvalid)
	}
	tokens := [2]string{a, b}
	if a > b {
		tokens = [2]string{b, a}
	}
	pool, err := pv.PoolAddress(pv.cfg, tokens[0], tokens[1], r.FeeTier)
	if err != nil {
		return Build{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	read := chain.EVMTradeRead{V3Pools: []chain.V3PoolRead{{Pool: pool, TickSpacing: spacing, NoTicks: true}}, TickLens: pv.cfg.TickLens, Owner: user,
		Decimals: tokens[:], Balances: tokens[:],
		Allowances: []chain.EVMAllowance{{Token: tokens[0], Spender: pv.cfg.PositionManager}, {Token: tokens[1], Spender: pv.cfg.PositionManager}}}
	st, nativeUSD, err := c.readPriced(ctx, read)
	if err != nil {
		return Build{}, fmt.Errorf("lp create: %w", err)
	}
	decimals := [2]int{st.Decimals[0], st.Decimals[1]}
	for i, t := range tokens {
		if decimals[i] < 0 {
			return Build{}, fmt.Errorf("%w: %s is not an ERC-20 token on %s (decimals() does not answer)", ErrInvalid, t, c.Info.Name)
		}
	}
	sqrtPrice, tick, created, err := createPrice(pv, r, st.V3Pools[0], decimals)
	if err != nil {
		return Build{}, err
	}
	lower, upper, err := c.positionRange(r, pv, spacing, decimals)
	if err != nil {
		return Build{}, err
	}
	pd, steps, err := c.requestedDeposit(r, pv, user, tokens, decimals, lower, upper, tick, sqrtPrice, st)
	if err != nil {
		return Build{}, err
	}
	deadline := s.now().Add(RouterDeadline).Unix()
	call := pv.CreateCall(pv.cfg, chain.V3Mint{Token0: tokens[0], Token1: tokens[1], Fee: r.FeeTier, TickLower: lower, TickUpper: upper,
		Amount0Desired: pd.ask[0], Amount1Desired: pd.ask[1], Amount0Min: pd.mins[0], Amount1Min: pd.mins[1], Recipient: user, Deadline: deadline}, sqrtPrice)
	steps = append(steps, callStep("createAndMint", call))
	md := v3Metadata(pv, pool, tokens[0], tokens[1])
	md["fee"], md["tickSpacing"], md["tickLower"], md["tickUpper"], md["tick"] = r.FeeTier, spacing, lower, upper, tick
	md["created"], md["seeded"], md["sqrtPriceX96"], md["price"] = created, true, sqrtPrice.String(), priceOf(sqrtPrice, decimals).FloatString(18)
	md["inRange"], md["deadline"], md["recipient"], md["positionIdFrom"] = lower <= tick && tick < upper, deadline, user, mintedIDFrom
	pd.metadata(md)
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md}, steps)
}

// createPrice is the price a create mints at: the pool's when it is initialized (created false;
// r.Price, when given, must be within r.SlippageBps of it), else r.Price's (created true).
func createPrice(pv positionVenue, r LPRequest, p chain.V3PoolState, decimals [2]int) (sqrtPrice *big.Int, tick int, created bool, err error) {
	var want *big.Rat
	if r.Price != "" {
		var ok bool
		if want, ok = new(big.Rat).SetString(r.Price); !ok || want.Sign() <= 0 {
			return nil, 0, false, fmt.Errorf("%w: price %q is not a positive decimal number", ErrInvalid, r.Price)
		}
	}
	if p.OK && p.SqrtPriceX96 != nil && p.SqrtPriceX96.Sign() > 0 {
		if want != nil {
			have := priceOf(p.SqrtPriceX96, decimals)
			dev := new(big.Rat).Quo(new(big.Rat).Sub(have, want), want)
			if dev.Abs(dev).Cmp(big.NewRat(int64(r.SlippageBps), bpsDenominator)) > 0 {
				return nil, 0, false, fmt.Errorf("%w: pool %s exists at a price of %s, not %s (within slippageBps %d): build lp/add at its price",
					ErrPrerequisite, p.Address, have.FloatString(18), r.Price, r.SlippageBps)
			}
		}
		return p.SqrtPriceX96, p.Tick, false, nil
	}
	if want == nil {
		return nil, 0, false, fmt.Errorf("%w: the pool does not exist yet: give price, its initial price in units of token1 per token0", ErrInvalid)
	}
	if sqrtPrice, err = pv.SqrtPriceAt(want, decimals[0], decimals[1]); err != nil {
		return nil, 0, false, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if tick, err = pv.PriceTick(want, decimals[0], decimals[1]); err != nil {
		return nil, 0, false, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return sqrtPrice, tick, true, nil
}

// priceOf is the price at sqrtPriceX96 in token units of token1 per token0.
func priceOf(sqrtPriceX96 *big.Int, decimals [2]int) *big.Rat {
	num := new(big.Int).Mul(sqrtPriceX96, sqrtPriceX96)
	num.Mul(num, pow10(decimals[0]))
	den := new(big.Int).Lsh(pow10(decimals[1]), 192)
	return new(big.Rat).SetFrac(num, den)
}
