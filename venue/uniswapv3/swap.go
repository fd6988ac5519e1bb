package uniswapv3

import (
	"errors"
	"fmt"
	"math/big"
)

// PoolState is what a swap reads from a pool: slot0's sqrtPriceX96 and tick, the in-range
// liquidity, and the pool's fee (pips) and tick spacing.
type PoolState struct {
	SqrtPriceX96 *big.Int
	Tick         int
	Liquidity    *big.Int
	Fee          uint32
	TickSpacing  int
}

// SwapResult is a simulated swap's outcome.
type SwapResult struct {
	AmountIn     *big.Int // input the pool takes, fee included
	AmountOut    *big.Int // output the pool gives
	FeeAmount    *big.Int // the fees within AmountIn (protocol fee included)
	SqrtPriceX96 *big.Int // slot0's price after the swap
	Tick         int      // slot0's tick after the swap
	Liquidity    *big.Int // in-range liquidity after the swap
	TicksCrossed int      // initialized ticks crossed
	// Partial says the swap stopped at the price limit (or the price bound) before using all of
	// amountSpecified: AmountIn (exact input) or AmountOut (exact output) is then smaller.
	Partial bool
}

// ErrSwap is a swap the pool refuses (the contract reverts): zero amount, a price limit on the
// wrong side of the price or beyond the bounds, or a liquidity change out of range.
var ErrSwap = errors.New("uniswapv3: swap refused")

// Swap simulates UniswapV3Pool.swap: zeroForOne sells token0 for token1 (the price falls);
// amountSpecified > 0 is an exact input (fee included), < 0 an exact output. sqrtPriceLimitX96
// nil means no limit (MinSqrtRatio+1 or MaxSqrtRatio-1, as QuoterV2 and the router use). The swap
// moves through the price range by the contract's steps (at most to the end of the tick bitmap
// word), crossing initialized ticks as the contract does; it needs ticks to cover every word it
// enters, else it returns ErrTicksExhausted (never a number computed on missing ticks).
func Swap(state PoolState, zeroForOne bool, amountSpecified, sqrtPriceLimitX96 *big.Int, ticks TickData) (SwapResult, error) {
	if state.TickSpacing <= 0 || state.Fee >= FeeDenominator || state.SqrtPriceX96 == nil || state.Liquidity == nil {
		return SwapResult{}, fmt.Errorf("%w: bad pool state", ErrSwap)
	}
	if err := ticks.validate(state.TickSpacing); err != nil {
		return SwapResult{}, err
	}
	if amountSpecified.Sign() == 0 {
		return SwapResult{}, fmt.Errorf("%w: zero amount", ErrSwap)
	}
	limit := sqrtPriceLimitX96
	if limit == nil {
		if zeroForOne {
			limit = new(big.Int).Add(MinSqrtRatio, one)
		} else {
			limit = new(big.Int).Sub(MaxSqrtRatio, one)
		}
	}
	if zeroForOne && (limit.Cmp(state.SqrtPriceX96) >= 0 || limit.Cmp(MinSqrtRatio) <= 0) ||
		!zeroForOne && (limit.Cmp(state.SqrtPriceX96) <= 0 || limit.Cmp(MaxSqrtRatio) >= 0) {
		return SwapResult{}, fmt.Errorf("%w: price limit %s on the wrong side of %s", ErrSwap, limit, state.SqrtPriceX96)
	}
	exactIn := amountSpecified.Sign() > 0
	remaining := new(big.Int).Set(amountSpecified)
	r := SwapResult{
		AmountIn: new(big.Int), AmountOut: new(big.Int), FeeAmount: new(big.Int),
		SqrtPriceX96: new(big.Int).Set(state.SqrtPriceX96), Tick: state.Tick, Liquidity: new(big.Int).Set(state.Liquidity),
	}
	for remaining.Sign() != 0 && r.SqrtPriceX96.Cmp(limit) != 0 {
		start := r.SqrtPriceX96
		next, idx, initialized, err := ticks.nextInitializedTickWithinOneWord(r.Tick, state.TickSpacing, zeroForOne)
		if err != nil {
			return SwapResult{}, fmt.Errorf("%w (at tick %d, known [%d, %d])", err, r.Tick, ticks.Lower, ticks.Upper)
		}
		next = min(max(next, MinTick), MaxTick)
		sqrtNext, err := SqrtRatioAtTick(next)
		if err != nil {
			return SwapResult{}, err
		}
		target := sqrtNext
		if zeroForOne && sqrtNext.Cmp(limit) < 0 || !zeroForOne && sqrtNext.Cmp(limit) > 0 {
			target = limit
		}
		step, err := ComputeSwapStep(r.SqrtPriceX96, target, r.Liquidity, remaining, state.Fee)
		if err != nil {
			return SwapResult{}, err
		}
		r.SqrtPriceX96 = step.SqrtPriceNextX96
		in := new(big.Int).Add(step.AmountIn, step.FeeAmount)
		r.AmountIn.Add(r.AmountIn, in)
		r.AmountOut.Add(r.AmountOut, step.AmountOut)
		r.FeeAmount.Add(r.FeeAmount, step.FeeAmount)
		if exactIn {
			remaining.Sub(remaining, in)
		} else {
			remaining.Add(remaining, step.AmountOut)
		}
		switch {
		case r.SqrtPriceX96.Cmp(sqrtNext) == 0:
			if initialized {
				net := new(big.Int).Set(ticks.Ticks[idx].LiquidityNet)
				if zeroForOne {
					net.Neg(net)
				}
				r.Liquidity.Add(r.Liquidity, net)
				if r.Liquidity.Sign() < 0 || r.Liquidity.Cmp(maxUint128) > 0 {
					return SwapResult{}, fmt.Errorf("%w: liquidity out of range crossing tick %d", ErrSwap, next)
				}
				r.TicksCrossed++
			}
			if zeroForOne {
				r.Tick = next - 1
			} else {
				r.Tick = next
			}
		case r.SqrtPriceX96.Cmp(start) != 0:
			if r.Tick, err = TickAtSqrtRatio(r.SqrtPriceX96); err != nil {
				return SwapResult{}, err
			}
		}
	}
	r.Partial = remaining.Sign() != 0
	return r, nil
}
