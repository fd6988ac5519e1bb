package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// LP builders on venues whose liquidity is NFT positions (chain.V3LiquidityVenue: uniswap-v3's
// NonfungiblePositionManager). lp/add mints a new position in a range of a pool, lp/increase adds
// to a position, lp/remove decreases one and collects what that frees, lp/harvest collects its
// fees. The venue computes the deposit and the calls; the builds read, check, approve exactly what
// the position manager takes, simulate and issue the token like the uniswap-v2 ones (lp.go).
// Metadata names the venue, poolId, token0 and token1 and states every amount in base units, in
// the pool's token0/token1 order.

// positionVenue is a venue of the chain whose liquidity is NFT positions, with its configuration
// and where its positions are read.
type positionVenue struct {
	chain.V3LiquidityVenue
	cfg   chain.VenueConfig
	where chain.V3PositionsRead
}

// positionVenue returns the chain's venue of NFT positions of that name.
func (c *EVMChain) positionVenue(name string) (positionVenue, bool) {
	for _, v := range c.Positions {
		if v.Spec().Name == name {
			return v, true
		}
	}
	return positionVenue{}, false
}

// v3Metadata is the metadata every build on a position carries.
func v3Metadata(pv positionVenue, pool, token0, token1 string) map[string]any {
	return map[string]any{"venue": pv.Spec().Name, "poolId": pool, "token0": token0, "token1": token1, "positionManager": pv.cfg.PositionManager}
}

// desiredAmounts converts a request's AmountA and AmountB (human units of TokenA and TokenB, or of
// token0 and token1 when neither is named) to base units in token0/token1 order.
func (c *EVMChain) desiredAmounts(r LPRequest, tokens [2]string, decimals [2]int) ([2]*big.Int, error) {
	human := [2]string{r.AmountA, r.AmountB}
	if r.Native {
		return [2]*big.Int{}, fmt.Errorf("%w: %s positions take ERC-20 tokens: wrap the gas coin first (native is not served)", ErrInvalid, r.Venue)
	}
	if r.TokenA != "" || r.TokenB != "" {
		ta, na := c.token(r.TokenA)
		tb, nb := c.token(r.TokenB)
		switch {
		case na || nb:
			return [2]*big.Int{}, fmt.Errorf("%w: %s positions take ERC-20 tokens: wrap the gas coin first (native is not served)", ErrInvalid, r.Venue)
		case ta == tokens[0] && tb == tokens[1]:
		case ta == tokens[1] && tb == tokens[0]:
			human = [2]string{r.AmountB, r.AmountA}
		default:
			return [2]*big.Int{}, fmt.Errorf("%w: tokenA and tokenB must be the pool's tokens %s and %s", ErrInvalid, tokens[0], tokens[1])
		}
	}
	var out [2]*big.Int
	for i := range out {
		var err error
		if out[i], err = chain.HumanToBaseUnits(human[i], decimals[i]); errors.Is(err, chain.ErrInvalidAmount) {
			return out, fmt.Errorf("amount of %s: %w", tokens[i], err)
		} else if err != nil {
			return out, err
		}
	}
	return out, nil
}

// plannedDeposit is a deposit into a position: what the position manager takes (d), the desired
// amounts the build asks for, and the minimums slippageBps below what it takes.
type plannedDeposit struct {
	d    chain.V3Deposit
	ask  [2]*big.Int
	mins [2]*big.Int
}

// planDeposit is what the position manager takes of desired amounts in a range at the pool's
// price, and the desired amounts to ask for it: the fixed point of asking for what it takes (so
// that it takes exactly what the build approves, and never more should the price move), or, when
// that does not settle in a few steps, the request's own.
func planDeposit(pv positionVenue, lower, upper, tick int, sqrtPriceX96 *big.Int, desired [2]*big.Int, slippageBps int) (plannedDeposit, error) {
	planned := func(d chain.V3Deposit, ask [2]*big.Int) plannedDeposit {
		return plannedDeposit{d: d, ask: ask, mins: [2]*big.Int{chain.MinOut(d.Amount0, slippageBps), chain.MinOut(d.Amount1, slippageBps)}}
	}
	ask := desired
	for range 8 {
		d, err := pv.Deposit(lower, upper, tick, sqrtPriceX96, ask[0], ask[1])
		if err != nil {
			return plannedDeposit{}, fmt.Errorf("%w: %v", ErrInvalidAmount, err)
		}
		if d.Liquidity.Sign() == 0 {
			return plannedDeposit{}, fmt.Errorf("%w: too little to add any liquidity in [%d, %d) at the pool's price", ErrInvalidAmount, lower, upper)
		}
		if d.Amount0.Cmp(ask[0]) == 0 && d.Amount1.Cmp(ask[1]) == 0 {
			return planned(d, ask), nil
		}
		ask = [2]*big.Int{d.Amount0, d.Amount1}
	}
	d, err := pv.Deposit(lower, upper, tick, sqrtPriceX96, desired[0], desired[1])
	if err != nil {
		return plannedDeposit{}, fmt.Errorf("%w: %v", ErrInvalidAmount, err)
	}
	return planned(d, desired), nil
}

// requestedDeposit is the deposit of the request's AmountA and AmountB into [lower, upper) at the
// pool's tick and price, and the exact approvals of the position manager it needs after checking
// the balances; st read the user's balances and allowances (to the position manager) of tokens,
// in that order, first.
func (c *EVMChain) requestedDeposit(r LPRequest, pv positionVenue, user string, tokens [2]string, decimals [2]int, lower, upper, tick int,
	sqrtPriceX96 *big.Int, st chain.EVMTradeState) (plannedDeposit, []step, error) {
	desired, err := c.desiredAmounts(r, tokens, decimals)
	if err != nil {
		return plannedDeposit{}, nil, err
	}
	pd, err := planDeposit(pv, lower, upper, tick, sqrtPriceX96, desired, r.SlippageBps)
	if err != nil {
		return plannedDeposit{}, nil, err
	}
	var steps []step
	for i, amount := range []*big.Int{pd.d.Amount0, pd.d.Amount1} {
		if st.Balances[i] == nil || st.Balances[i].Cmp(amount) < 0 {
			return plannedDeposit{}, nil, insufficient(tokens[i], st.Balances[i], amount, decimals[i])
		}
		if a := approval(tokens[i], user, pv.cfg.PositionManager, st.Allowances[i], amount); a != nil {
			a.id = fmt.Sprintf("approveToken%d", i)
			steps = append(steps, *a)
		}
	}
	return pd, steps, nil
}

// metadata states the deposit: liquidity, amounts, their minimums and the desired amounts asked.
func (pd plannedDeposit) metadata(md map[string]any) {
	md["liquidity"], md["amount0"], md["amount1"] = pd.d.Liquidity.String(), pd.d.Amount0.String(), pd.d.Amount1.String()
	md["minAmount0"], md["minAmount1"] = pd.mins[0].String(), pd.mins[1].String()
	md["amount0Desired"], md["amount1Desired"] = pd.ask[0].String(), pd.ask[1].String()
}

// lpAddPosition is BuildLPAdd on a venue of NFT positions: mint a new position in a range of
// Pool. See BuildLPAdd.
func (c *EVMChain) lpAddPosition(ctx context.Context, s *Service, consumerID int, r LPRequest, pv positionVenue) (Build, error) {
	user, pool := strings.ToLower(r.User), strings.ToLower(r.Pool)
	if r.SlippageBps < 0 || r.SlippageBps >= bpsDenominator {
		return Build{}, fmt.Errorf("%w: slippageBps must be 0 to 9999", ErrInvalid)
	}
	byTicks, byPrices := r.TickLower != nil || r.TickUpper != nil, r.PriceLower != "" || r.PriceUpper != ""
	if byTicks == byPrices || (byTicks && (r.TickLower == nil || r.TickUpper == nil)) || (byPrices && (r.PriceLower == "" || r.PriceUpper == "")) {
		return Build{}, fmt.Errorf("%w: a %s position's range takes tickLower and tickUpper, or priceLower and priceUpper", ErrInvalid, r.Venue)
	}
	poolRead := []chain.V3PoolRead{{Pool: pool, NoTicks: true}} // a mint needs the price alone
	first, err := c.Source.ReadTrade(ctx, chain.EVMTradeRead{V3Pools: poolRead, TickLens: pv.cfg.TickLens})
	if err != nil {
		return Build{}, fmt.Errorf("pool: %w", err)
	}
	p := first.V3Pools[0]
	if !p.OK {
		return Build{}, fmt.Errorf("%w: pool %s is not a Uniswap V3 pool on %s", ErrNotFound, pool, c.Info.Name)
	}
	if want, err := pv.PoolAddress(pv.cfg, p.Token0, p.Token1, p.Fee); err != nil || want != pool {
		return Build{}, fmt.Errorf("%w: pool %s is not a pool of %s's factory %s", ErrInvalid, pool, r.Venue, pv.cfg.Factory)
	}
	tokens := [2]string{p.Token0, p.Token1}
	read := chain.EVMTradeRead{V3Pools: poolRead, TickLens: pv.cfg.TickLens, Owner: user, Decimals: tokens[:], Balances: tokens[:],
		Allowances: []chain.EVMAllowance{{Token: tokens[0], Spender: pv.cfg.PositionManager}, {Token: tokens[1], Spender: pv.cfg.PositionManager}}}
	st, nativeUSD, err := c.readPriced(ctx, read)
	if err != nil {
		return Build{}, fmt.Errorf("lp add: %w", err)
	}
	if p = st.V3Pools[0]; !p.OK {
		return Build{}, fmt.Errorf("%w: pool %s is not a Uniswap V3 pool on %s", ErrNotFound, pool, c.Info.Name)
	}
	decimals := [2]int{st.Decimals[0], st.Decimals[1]}
	if decimals[0] < 0 || decimals[1] < 0 {
		return Build{}, fmt.Errorf("%w: a token of pool %s does not answer decimals()", ErrInvalid, pool)
	}
	lower, upper, err := c.positionRange(r, pv, p.TickSpacing, decimals)
	if err != nil {
		return Build{}, err
	}
	pd, steps, err := c.requestedDeposit(r, pv, user, tokens, decimals, lower, upper, p.Tick, p.SqrtPriceX96, st)
	if err != nil {
		return Build{}, err
	}
	deadline := s.now().Add(RouterDeadline).Unix()
	mint := pv.MintCall(pv.cfg, chain.V3Mint{Token0: tokens[0], Token1: tokens[1], Fee: p.Fee, TickLower: lower, TickUpper: upper,
		Amount0Desired: pd.ask[0], Amount1Desired: pd.ask[1], Amount0Min: pd.mins[0], Amount1Min: pd.mins[1], Recipient: user, Deadline: deadline})
	steps = append(steps, callStep("mint", mint))
	md := v3Metadata(pv, pool, tokens[0], tokens[1])
	md["fee"], md["tickSpacing"], md["tickLower"], md["tickUpper"], md["tick"] = p.Fee, p.TickSpacing, lower, upper, p.Tick
	md["inRange"], md["deadline"], md["recipient"] = lower <= p.Tick && p.Tick < upper, deadline, user
	pd.metadata(md)
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md}, steps)
}

// positionRange is the range of an add: its ticks, or the ticks of its prices (rounded down),
// snapped outwards to the pool's tick spacing.
func (c *EVMChain) positionRange(r LPRequest, pv positionVenue, spacing int, decimals [2]int) (int, int, error) {
	var lower, upper int
	if r.TickLower != nil {
		lower, upper = *r.TickLower, *r.TickUpper
	} else {
		ticks := [2]int{}
		for i, s := range []string{r.PriceLower, r.PriceUpper} {
			price, ok := new(big.Rat).SetString(s)
			if !ok {
				return 0, 0, fmt.Errorf("%w: price %q is not a decimal number", ErrInvalid, s)
			}
			t, err := pv.PriceTick(price, decimals[0], decimals[1])
			if err != nil {
				return 0, 0, fmt.Errorf("%w: %v", ErrInvalid, err)
			}
			ticks[i] = t
		}
		lower, upper = ticks[0], ticks[1]
	}
	if lower >= upper {
		return 0, 0, fmt.Errorf("%w: the range's lower bound must be below its upper bound", ErrInvalid)
	}
	lo, hi, err := pv.SnapRange(lower, upper, spacing)
	if err != nil {
		return 0, 0, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return lo, hi, nil
}
