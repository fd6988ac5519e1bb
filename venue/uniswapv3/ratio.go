package uniswapv3

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// Swapping to a range's ratio through the position's own pool (lp/rebalance, lp/compound): the
// exact-input swap, computed with the pool's exact swap math (Swap) on the pool as the build leaves
// it, after which the amounts held buy the most liquidity in the range at the pool's new price;
// executed by SwapRouter02's exactInputSingle.

// SwapSingleCall is SwapRouter02's multicall(deadline, [exactInputSingle(tokenIn, tokenOut, fee,
// recipient, amountIn, minOut, no price limit)]).
func (Venue) SwapSingleCall(cfg chain.VenueConfig, tokenIn, tokenOut string, fee int, amountIn, minOut *big.Int, recipient string, deadline int64) chain.EVMCall {
	params := struct {
		TokenIn, TokenOut common.Address
		Fee               *big.Int
		Recipient         common.Address
		AmountIn          *big.Int
		AmountOutMinimum  *big.Int
		SqrtPriceLimitX96 *big.Int
	}{common.HexToAddress(tokenIn), common.HexToAddress(tokenOut), big.NewInt(int64(fee)), common.HexToAddress(recipient), amountIn, minOut, new(big.Int)}
	data := packCall(routerABI, "exactInputSingle", params)
	return chain.EVMCall{To: strings.ToLower(cfg.Router), Data: packCall(routerABI, "multicall", big.NewInt(deadline), [][]byte{data})}
}

// SwapToRatio is the package's SwapToRatio.
func (Venue) SwapToRatio(r chain.V3Ratio) (chain.V3RatioSwap, error) {
	return SwapToRatio(r)
}

// SwapToRatio finds the exact input, of the token the amounts hold in excess of the range's ratio
// at the pool's price, whose swap through the pool leaves amounts that buy the most liquidity
// (LiquidityForAmounts) in [r.TickLower, r.TickUpper) at the pool's price after it. The excess
// only shrinks as the input grows (less input held, more output, the price moving against the
// input), so the input is found by bisection on Swap, each candidate swapped exactly; a swap the
// pool cannot fill whole, or that leaves the ticks read, is not a candidate. No swap when the
// amounts are at the ratio or the best swap buys nothing.
func SwapToRatio(r chain.V3Ratio) (chain.V3RatioSwap, error) {
	pool := r.Pool
	if r.Burned != nil && r.Burned.Sign() > 0 {
		pool = burned(pool, r.Burned, r.BurnLower, r.BurnUpper)
	}
	state, ticks, err := FromChain(pool)
	if err != nil {
		return chain.V3RatioSwap{}, err
	}
	sa, err := SqrtRatioAtTick(r.TickLower)
	if err != nil {
		return chain.V3RatioSwap{}, err
	}
	sb, err := SqrtRatioAtTick(r.TickUpper)
	if err != nil {
		return chain.V3RatioSwap{}, err
	}
	out := chain.V3RatioSwap{AmountIn: new(big.Int), AmountOut: new(big.Int), SqrtPriceX96: state.SqrtPriceX96, Tick: state.Tick,
		Liquidity: state.Liquidity, Held0: new(big.Int).Set(r.Amount0), Held1: new(big.Int).Set(r.Amount1)}
	dir, err := excess(state.SqrtPriceX96, sa, sb, r.Amount0, r.Amount1)
	if err != nil || dir == 0 {
		return out, err
	}
	zeroForOne := dir > 0
	held := r.Amount1
	if zeroForOne {
		held = r.Amount0
	}
	// try swaps x: filled when the pool fills it whole, inExcess when the input is still in
	// excess after it.
	try := func(x *big.Int) (c chain.V3RatioSwap, filled, inExcess bool) {
		s, err := Swap(state, zeroForOne, x, nil, ticks)
		if err != nil || s.Partial {
			return c, false, false
		}
		c = chain.V3RatioSwap{ZeroForOne: zeroForOne, AmountIn: s.AmountIn, AmountOut: s.AmountOut, SqrtPriceX96: s.SqrtPriceX96, Tick: s.Tick,
			Liquidity: s.Liquidity, Held0: new(big.Int).Set(r.Amount0), Held1: new(big.Int).Set(r.Amount1)}
		if zeroForOne {
			c.Held0.Sub(c.Held0, s.AmountIn)
			c.Held1.Add(c.Held1, s.AmountOut)
		} else {
			c.Held1.Sub(c.Held1, s.AmountIn)
			c.Held0.Add(c.Held0, s.AmountOut)
		}
		d, err := excess(c.SqrtPriceX96, sa, sb, c.Held0, c.Held1)
		return c, true, err == nil && d == dir
	}
	// Bisection: lo is in excess still (0 is), hi is not or cannot be swapped.
	lo, hi := new(big.Int), new(big.Int).Add(held, one)
	for new(big.Int).Sub(hi, lo).Cmp(one) > 0 {
		mid := new(big.Int).Add(lo, hi)
		mid.Rsh(mid, 1)
		if _, _, ok := try(mid); ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	// The best of lo (input still in excess) and hi (just past the ratio), when it can be swapped.
	best, bestL := out, liquidityAt(out, sa, sb)
	for _, x := range []*big.Int{lo, hi} {
		if x.Sign() == 0 || x.Cmp(held) > 0 {
			continue
		}
		c, filled, _ := try(x)
		if !filled || c.AmountOut.Sign() == 0 {
			continue
		}
		if l := liquidityAt(c, sa, sb); l.Cmp(bestL) > 0 {
			best, bestL = c, l
		}
	}
	return best, nil
}

// liquidityAt is the liquidity what a swap leaves held buys at the price it leaves (0 on overflow).
func liquidityAt(s chain.V3RatioSwap, sa, sb *big.Int) *big.Int {
	l, err := LiquidityForAmounts(s.SqrtPriceX96, sa, sb, s.Held0, s.Held1)
	if err != nil {
		return new(big.Int)
	}
	return l
}

// excess says which token amount0 and amount1 hold beyond the range [sa, sb]'s ratio at
// sqrtPriceX96: 1 token0 (selling it buys more liquidity), -1 token1, 0 neither.
func excess(sqrtPriceX96, sa, sb, amount0, amount1 *big.Int) (int, error) {
	switch {
	case sqrtPriceX96.Cmp(sa) <= 0: // token0 only
		if amount1.Sign() > 0 {
			return -1, nil
		}
		return 0, nil
	case sqrtPriceX96.Cmp(sb) >= 0: // token1 only
		if amount0.Sign() > 0 {
			return 1, nil
		}
		return 0, nil
	}
	l0, err := liquidityForAmount0(sqrtPriceX96, sb, amount0)
	if err != nil {
		return 0, fmt.Errorf("uniswapv3: ratio: %w", err)
	}
	l1, err := liquidityForAmount1(sa, sqrtPriceX96, amount1)
	if err != nil {
		return 0, fmt.Errorf("uniswapv3: ratio: %w", err)
	}
	return l0.Cmp(l1), nil
}

// burned is the pool after liquidity leaves [lower, upper): the in-range liquidity falls when the
// range holds the tick, and the range's ticks lose it (a tick no liquidity references any more is
// no longer initialized, so a swap no longer stops at it).
func burned(p chain.V3PoolState, liquidity *big.Int, lower, upper int) chain.V3PoolState {
	if lower <= p.Tick && p.Tick < upper {
		p.Liquidity = new(big.Int).Sub(p.Liquidity, liquidity)
	}
	ticks := make([]chain.V3Tick, 0, len(p.Ticks))
	for _, t := range p.Ticks {
		if t.Index == lower || t.Index == upper {
			t.LiquidityGross = new(big.Int).Sub(t.LiquidityGross, liquidity)
			if t.Index == lower {
				t.LiquidityNet = new(big.Int).Sub(t.LiquidityNet, liquidity)
			} else {
				t.LiquidityNet = new(big.Int).Add(t.LiquidityNet, liquidity)
			}
			if t.LiquidityGross.Sign() == 0 {
				continue
			}
		}
		ticks = append(ticks, t)
	}
	p.Ticks = slices.Clip(ticks)
	return p
}
