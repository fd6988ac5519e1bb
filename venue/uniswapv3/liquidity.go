package uniswapv3

import (
	"errors"
	"fmt"
	"math/big"
)

// Depositing into a range, as the official periphery and pool compute it: LiquidityAmounts'
// getLiquidityForAmounts (the liquidity the NonfungiblePositionManager asks the pool to mint for
// desired amounts) and the pool's _modifyPosition for a positive liquidity delta (the amounts
// mint takes, rounded up). Ranges are snapped to a tier's tick spacing.

// ErrRange is a range that is empty or outside the ticks a tier's spacing allows.
var ErrRange = errors.New("uniswapv3: invalid range")

// LiquidityForAmounts is LiquidityAmounts.getLiquidityForAmounts: the most liquidity amount0 and
// amount1 buy in the range [sqrtA, sqrtB] (either order) with the pool at sqrtPriceX96: amount0's
// alone at or below the range, amount1's alone at or above it, the lesser of both inside it.
// errOverflow when it does not fit a uint128 (the library's toUint128 reverts).
func LiquidityForAmounts(sqrtPriceX96, sqrtA, sqrtB, amount0, amount1 *big.Int) (*big.Int, error) {
	if sqrtA.Cmp(sqrtB) > 0 {
		sqrtA, sqrtB = sqrtB, sqrtA
	}
	var l *big.Int
	var err error
	switch {
	case sqrtPriceX96.Cmp(sqrtA) <= 0:
		l, err = liquidityForAmount0(sqrtA, sqrtB, amount0)
	case sqrtPriceX96.Cmp(sqrtB) < 0:
		l0, err0 := liquidityForAmount0(sqrtPriceX96, sqrtB, amount0)
		l1, err1 := liquidityForAmount1(sqrtA, sqrtPriceX96, amount1)
		if err = errors.Join(err0, err1); err == nil {
			l = l0
			if l1.Cmp(l0) < 0 {
				l = l1
			}
		}
	default:
		l, err = liquidityForAmount1(sqrtA, sqrtB, amount1)
	}
	if err != nil {
		return nil, err
	}
	if l.Cmp(maxUint128) > 0 {
		return nil, errOverflow
	}
	return l, nil
}

// liquidityForAmount0 is getLiquidityForAmount0 before toUint128: mulDiv(amount0,
// mulDiv(sqrtA, sqrtB, Q96), sqrtB - sqrtA), for sqrtA < sqrtB.
func liquidityForAmount0(sqrtA, sqrtB, amount0 *big.Int) (*big.Int, error) {
	intermediate, err := mulDiv(sqrtA, sqrtB, q96)
	if err != nil {
		return nil, err
	}
	return mulDiv(amount0, intermediate, new(big.Int).Sub(sqrtB, sqrtA))
}

// liquidityForAmount1 is getLiquidityForAmount1 before toUint128: mulDiv(amount1, Q96, sqrtB - sqrtA).
func liquidityForAmount1(sqrtA, sqrtB, amount1 *big.Int) (*big.Int, error) {
	return mulDiv(amount1, q96, new(big.Int).Sub(sqrtB, sqrtA))
}

// MintAmounts is what the pool's mint takes for liquidity in [tickLower, tickUpper) with the pool
// at tick and sqrtPriceX96 (_modifyPosition with a positive delta, SqrtPriceMath rounding up):
// token0 only below the range, token1 only at or above it, both inside it.
func MintAmounts(tickLower, tickUpper, tick int, sqrtPriceX96, liquidity *big.Int) (amount0, amount1 *big.Int, err error) {
	return rangeAmounts(tickLower, tickUpper, tick, sqrtPriceX96, liquidity, true)
}

// Deposit is what the NonfungiblePositionManager's mint or increaseLiquidity takes of desired
// amounts in [tickLower, tickUpper) with the pool at tick and sqrtPriceX96: the liquidity
// LiquidityForAmounts gives and the amounts MintAmounts takes for it (at most the desired ones).
func Deposit(tickLower, tickUpper, tick int, sqrtPriceX96, desired0, desired1 *big.Int) (liquidity, amount0, amount1 *big.Int, err error) {
	sa, err := SqrtRatioAtTick(tickLower)
	if err != nil {
		return nil, nil, nil, err
	}
	sb, err := SqrtRatioAtTick(tickUpper)
	if err != nil {
		return nil, nil, nil, err
	}
	if liquidity, err = LiquidityForAmounts(sqrtPriceX96, sa, sb, desired0, desired1); err != nil {
		return nil, nil, nil, err
	}
	amount0, amount1, err = MintAmounts(tickLower, tickUpper, tick, sqrtPriceX96, liquidity)
	return liquidity, amount0, amount1, err
}

// SnapRange is [lower, upper] snapped outwards to multiples of tickSpacing (lower down, upper up)
// and clamped to the widest range the spacing allows; ErrRange when the result is empty.
func SnapRange(lower, upper, tickSpacing int) (int, int, error) {
	if tickSpacing <= 0 {
		return 0, 0, fmt.Errorf("%w: tick spacing %d", ErrRange, tickSpacing)
	}
	lo := floorDiv(lower, tickSpacing) * tickSpacing
	hi := -floorDiv(-upper, tickSpacing) * tickSpacing
	minUsable, maxUsable := -(MaxTick/tickSpacing)*tickSpacing, (MaxTick/tickSpacing)*tickSpacing
	lo, hi = max(lo, minUsable), min(hi, maxUsable)
	if lo >= hi {
		return 0, 0, fmt.Errorf("%w: [%d, %d] is empty at tick spacing %d", ErrRange, lower, upper, tickSpacing)
	}
	return lo, hi, nil
}

// PriceTick is the tick of a price in token units of token1 per unit of token0 (a pool's own
// order), whose tokens have decimals0 and decimals1: the greatest tick whose sqrt ratio is at most
// sqrt(price * 10^decimals1 / 10^decimals0) * 2^96 (rounded down). ErrSqrtRatio for a price
// beyond the ticks' bounds.
func PriceTick(price *big.Rat, decimals0, decimals1 int) (int, error) {
	if price.Sign() <= 0 {
		return 0, fmt.Errorf("%w: price %s is not positive", ErrSqrtRatio, price.RatString())
	}
	num := new(big.Int).Mul(price.Num(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals1)), nil))
	den := new(big.Int).Mul(price.Denom(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals0)), nil))
	num.Lsh(num, 192)
	sqrt := num.Quo(num, den).Sqrt(num)
	if sqrt.Cmp(MinSqrtRatio) < 0 || sqrt.Cmp(MaxSqrtRatio) >= 0 {
		return 0, fmt.Errorf("%w: price %s", ErrSqrtRatio, price.FloatString(18))
	}
	return TickAtSqrtRatio(sqrt)
}
