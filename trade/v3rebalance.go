package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// ratioWords is how many tick bitmap words a swap to a range's ratio reads on each side of the
// pool's current word: a swap that would leave them is not considered (SwapToRatio).
const ratioWords = 2

// BuildLPRebalance builds, as one ordered list computed from the state read at one block and
// simulated in order, the move of the position PositionID (which the user must hold in its
// wallet) to a new range (TickLower and TickUpper, or PriceLower and PriceUpper, as lp/add takes
// them) of the same pool:
//
//  1. exit: the position manager's multicall of decreaseLiquidity of all its liquidity (minimums
//     slippageBps below what it frees), collect of everything it is owed (that and its fees) to
//     the user, and burn of the emptied NFT: the user ends with one position, the new one;
//  2. approveRouter (exact) and swap: SwapRouter02's exactInputSingle through the position's own
//     pool, of the input after which what was collected buys the most liquidity in the new range
//     at the pool's price after the swap (computed with the pool's swap math on the pool as the
//     exit leaves it); minimum output slippageBps below; left out when nothing needs swapping;
//  3. approveToken0, approveToken1 (exact) and mint of the new position to the user (minimums
//     slippageBps below what it takes).
//
// Every approval is spent whole when nothing trades in between: nothing stays approved. metadata:
// positionId (the old one) and burned (true), oldTickLower and oldTickUpper, removedLiquidity,
// removed0 and removed1 (what the liquidity frees) and their minimums, fees0 and fees1, collect0
// and collect1 (their sums, what the exit pays), swap (see ratioDeposit.metadata), then the new
// position as lp/add states it (tickLower, tickUpper, liquidity, amount0, amount1, their minimums
// and desired amounts) and leftover0 and leftover1 (what stays in the wallet). The new position's
// id is known once mined: metadata.positionIdFrom says where to read it. Errors: ErrNotSupported,
// ErrInvalid (a bad range, the position's own range), ErrPrerequisite (not the user's position,
// or no liquidity), *SimulationError, and the adapter's and the store's.
func (s *Service) BuildLPRebalance(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	c, err := s.lpPositionChain(r.Chain, "lp/rebalance")
	if err != nil {
		return Build{}, err
	}
	pv, id, user, err := c.positionSetup(r)
	if err != nil {
		return Build{}, err
	}
	byTicks, byPrices := r.TickLower != nil && r.TickUpper != nil, r.PriceLower != "" && r.PriceUpper != ""
	if byTicks == byPrices {
		return Build{}, fmt.Errorf("%w: lp/rebalance takes the new range as tickLower and tickUpper, or priceLower and priceUpper", ErrInvalid)
	}
	pos, p, st, nativeUSD, err := c.ratioPosition(ctx, pv, user, id)
	if err != nil {
		return Build{}, err
	}
	tokens, decimals := [2]string{pos.Token0, pos.Token1}, [2]int{st.Decimals[0], st.Decimals[1]}
	lower, upper, err := c.positionRange(r, pv, p.TickSpacing, decimals)
	if err != nil {
		return Build{}, err
	}
	if lower == pos.TickLower && upper == pos.TickUpper {
		return Build{}, fmt.Errorf("%w: position %s is already in [%d, %d): lp/compound adds its fees to it", ErrInvalid, id, lower, upper)
	}
	if pos.Liquidity.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: position %s holds no liquidity to move (lp/add mints a new position)", ErrPrerequisite, id)
	}
	fig, err := pv.PositionFigures(pos)
	if err != nil {
		return Build{}, fmt.Errorf("%w: position %s: %v", ErrInvalid, id, err)
	}
	// What the exit collects: the liquidity's amounts (rounded down, as the pool's burn) and the fees.
	collect := [2]*big.Int{new(big.Int).Add(fig.Amount0, fig.Fees0), new(big.Int).Add(fig.Amount1, fig.Fees1)}
	rd, err := newRatioDeposit(pv, chain.V3Ratio{Pool: p, TickLower: lower, TickUpper: upper, Amount0: collect[0], Amount1: collect[1],
		Burned: pos.Liquidity, BurnLower: pos.TickLower, BurnUpper: pos.TickUpper}, r.SlippageBps)
	if errors.Is(err, ErrInvalidAmount) {
		return Build{}, fmt.Errorf("%w: what position %s holds buys no liquidity in [%d, %d): %v", ErrPrerequisite, id, lower, upper, err)
	} else if err != nil {
		return Build{}, err
	}
	removedMins := [2]*big.Int{chain.MinOut(fig.Amount0, r.SlippageBps), chain.MinOut(fig.Amount1, r.SlippageBps)}
	deadline := s.now().Add(RouterDeadline).Unix()
	exit := pv.ExitCall(pv.cfg, id, pos.Liquidity, removedMins[0], removedMins[1], user, deadline)
	steps := []step{callStep("exit", exit)}
	steps = append(steps, rd.steps(pv, user, tokens, pos.Fee, st.Allowances, deadline)...)
	mint := pv.MintCall(pv.cfg, chain.V3Mint{Token0: tokens[0], Token1: tokens[1], Fee: pos.Fee, TickLower: lower, TickUpper: upper,
		Amount0Desired: rd.ask[0], Amount1Desired: rd.ask[1], Amount0Min: rd.mins[0], Amount1Min: rd.mins[1], Recipient: user, Deadline: deadline})
	steps = append(steps, callStep("mint", mint))

	md := positionMetadata(pv, pos)
	md["oldTickLower"], md["oldTickUpper"], md["burned"], md["deadline"], md["recipient"] = pos.TickLower, pos.TickUpper, true, deadline, user
	md["removedLiquidity"], md["removed0"], md["removed1"] = pos.Liquidity.String(), fig.Amount0.String(), fig.Amount1.String()
	md["minRemoved0"], md["minRemoved1"] = removedMins[0].String(), removedMins[1].String()
	md["fees0"], md["fees1"], md["collect0"], md["collect1"] = fig.Fees0.String(), fig.Fees1.String(), collect[0].String(), collect[1].String()
	md["tickLower"], md["tickUpper"], md["tickSpacing"] = lower, upper, p.TickSpacing
	md["inRange"] = lower <= rd.swap.Tick && rd.swap.Tick < upper
	md["positionIdFrom"] = mintedIDFrom
	rd.metadata(md, tokens)
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD,
		venueFees: rd.venueFee(pv, pos.Pool, tokens, pos.Fee, decimals), metadata: md}, steps)
}

// mintedIDFrom says where a minted position's id is: known only once the mint is mined.
const mintedIDFrom = "the mint's receipt: tokenId of the position manager's IncreaseLiquidity event (also its ERC-721 Transfer from the zero address)"

// ratioRead is the state a swap to the ratio of position p's pool and a deposit in it read: the
// pool with its ticks (ratioWords words on each side of its current word, guessed from the tick the
// positions read gave), the tokens' decimals and the user's allowances to the router and the
// ratioPosition reads position id, which user holds in its wallet, with its pool's ticks around the
// price and the wallet (ratioRead): what compound and rebalance compute on.
func (c *EVMChain) ratioPosition(ctx context.Context, pv positionVenue, user string, id *big.Int) (chain.V3Position, chain.V3PoolState,
	chain.EVMTradeState, *big.Rat, error) {
	pos, st, nativeUSD, err := c.ownedPosition(ctx, pv, user, id, nil, func(p chain.V3Position) chain.EVMTradeRead {
		return ratioRead(pv, user, p)
	})
	if err != nil {
		return pos, chain.V3PoolState{}, st, nil, err
	}
	p := st.V3Pools[0]
	if !p.OK {
		return pos, p, st, nil, fmt.Errorf("%w: position %s's pool %s did not answer", chain.ErrUpstreamBadResponse, id, pos.Pool)
	}
	return pos, p, st, nativeUSD, nil
}

// position manager.
func ratioRead(pv positionVenue, user string, p chain.V3Position) chain.EVMTradeRead {
	tokens := [2]string{p.Token0, p.Token1}
	pr := chain.V3PoolRead{Pool: p.Pool, Words: ratioWords} // the adapter guesses the word from the pool's last known tick
	if spacing, ok := pv.TickSpacing(p.Fee); ok {
		pr.TickSpacing = spacing
	}
	return chain.EVMTradeRead{V3Pools: []chain.V3PoolRead{pr}, TickLens: pv.cfg.TickLens, Owner: user, Decimals: tokens[:],
		Allowances: ratioAllowances(pv, tokens)}
}
