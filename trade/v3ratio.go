package trade

import (
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// Swapping to a range's ratio before a deposit (lp/rebalance, lp/compound): the venue finds the
// exact-input swap through the position's own pool (chain.V3RatioVenue.SwapToRatio, on the pool
// as the build's earlier calls leave it) after which what is held buys the most liquidity in the
// range; the swap runs through the venue's router (exactInputSingle, on that pool alone: its price
// then moves exactly as the swap math says, which a route through other pools would not make
// knowable), and the deposit is computed at the pool's price after it.

// ratioDeposit is a swap to a range's ratio and the deposit after it.
type ratioDeposit struct {
	plannedDeposit
	swap   chain.V3RatioSwap
	minOut *big.Int
}

// newRatioDeposit computes the swap to r's ratio and the deposit of what it leaves held, with
// minimums slippageBps below. ErrInvalidAmount when that adds no liquidity.
func newRatioDeposit(pv positionVenue, r chain.V3Ratio, slippageBps int) (ratioDeposit, error) {
	sw, err := pv.SwapToRatio(r)
	if err != nil {
		return ratioDeposit{}, fmt.Errorf("%w: swap to the range's ratio: %v", ErrInvalid, err)
	}
	pd, err := planDeposit(pv, r.TickLower, r.TickUpper, sw.Tick, sw.SqrtPriceX96, [2]*big.Int{sw.Held0, sw.Held1}, slippageBps)
	if err != nil {
		return ratioDeposit{}, err
	}
	return ratioDeposit{plannedDeposit: pd, swap: sw, minOut: chain.MinOut(sw.AmountOut, slippageBps)}, nil
}

// in and out are the swap's input and output token indexes (0: token0).
func (rd ratioDeposit) in() int {
	if rd.swap.ZeroForOne {
		return 0
	}
	return 1
}

// steps are the swap's (approveRouter, exact, and swap; none when there is no swap) and the
// deposit's exact approvals of the position manager (approveToken0, approveToken1), the
// allowances being the user's of token0 and token1 to the router, then to the position manager.
func (rd ratioDeposit) steps(pv positionVenue, user string, tokens [2]string, fee int, allowances []*big.Int, deadline int64) []step {
	var steps []step
	if rd.swap.AmountIn.Sign() > 0 {
		in := rd.in()
		if a := approval(tokens[in], user, pv.cfg.Router, allowances[in], rd.swap.AmountIn); a != nil {
			a.id = "approveRouter"
			steps = append(steps, *a)
		}
		sw := pv.SwapSingleCall(pv.cfg, tokens[in], tokens[1-in], fee, rd.swap.AmountIn, rd.minOut, user, deadline)
		steps = append(steps, callStep("swap", sw))
	}
	for i, amount := range []*big.Int{rd.d.Amount0, rd.d.Amount1} {
		if amount.Sign() == 0 {
			continue
		}
		if a := approval(tokens[i], user, pv.cfg.PositionManager, allowances[2+i], amount); a != nil {
			a.id = fmt.Sprintf("approveToken%d", i)
			steps = append(steps, *a)
		}
	}
	return steps
}

// ratioAllowances are the allowances a ratio deposit's steps read: token0 and token1 to the
// router, then to the position manager.
func ratioAllowances(pv positionVenue, tokens [2]string) []chain.EVMAllowance {
	return []chain.EVMAllowance{{Token: tokens[0], Spender: pv.cfg.Router}, {Token: tokens[1], Spender: pv.cfg.Router},
		{Token: tokens[0], Spender: pv.cfg.PositionManager}, {Token: tokens[1], Spender: pv.cfg.PositionManager}}
}

// metadata states the swap (metadata.swap: tokenIn, tokenOut, amountIn, amountOut, minAmountOut,
// and the pool's sqrtPriceX96 and tick after it; null when there is none), the deposit as
// plannedDeposit.metadata does, and leftover0 and leftover1: what the deposit leaves of what was held.
func (rd ratioDeposit) metadata(md map[string]any, tokens [2]string) {
	md["swap"] = nil
	if rd.swap.AmountIn.Sign() > 0 {
		in := rd.in()
		md["swap"] = map[string]any{"tokenIn": tokens[in], "tokenOut": tokens[1-in], "amountIn": rd.swap.AmountIn.String(),
			"amountOut": rd.swap.AmountOut.String(), "minAmountOut": rd.minOut.String(), "sqrtPriceX96After": rd.swap.SqrtPriceX96.String(),
			"tickAfter": rd.swap.Tick}
	}
	rd.plannedDeposit.metadata(md)
	md["leftover0"] = new(big.Int).Sub(rd.swap.Held0, rd.d.Amount0).String()
	md["leftover1"] = new(big.Int).Sub(rd.swap.Held1, rd.d.Amount1).String()
}

// venueFee is the swap's pool fee, as a fee row (none without a swap).
func (rd ratioDeposit) venueFee(pv positionVenue, pool string, tokens [2]string, fee int, decimals [2]int) []Fee {
	if rd.swap.AmountIn.Sign() == 0 {
		return nil
	}
	in := rd.in()
	amount := new(big.Int).Mul(rd.swap.AmountIn, big.NewInt(int64(fee)))
	f := newFee("venue", tokens[in], amount.Quo(amount, big.NewInt(1_000_000)), decimals[in])
	f.Venue, f.Pool, f.FeeBps = pv.Spec().Name, pool, fee/100
	return []Fee{f}
}
