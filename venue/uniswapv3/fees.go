package uniswapv3

import (
	"fmt"
	"math/big"
)

// A position's uncollected fees and underlying amounts, as the official contracts compute them:
// the pool's Tick.getFeeGrowthInside and Position.update, the position manager's collect, and the
// pool's burn. Solidity 0.7 arithmetic is unchecked, so fee growth is uint256 and tokens owed
// uint128, both wrapping: the functions reduce modulo 2^256 and 2^128 where the contracts do.

var (
	q128   = new(big.Int).Lsh(one, 128)
	mod256 = new(big.Int).Lsh(one, 256)
)

// wrap256 is x modulo 2^256 (in place).
func wrap256(x *big.Int) *big.Int { return x.Mod(x, mod256) }

// FeeGrowthInside is Tick.getFeeGrowthInside for one token: the fee growth per unit of liquidity
// (X128) inside [tickLower, tickUpper) with the pool at tickCurrent, from the pool's global fee
// growth and the feeGrowthOutside of the two ticks, modulo 2^256.
func FeeGrowthInside(tickLower, tickUpper, tickCurrent int, global, lowerOutside, upperOutside *big.Int) *big.Int {
	below := lowerOutside
	if tickCurrent < tickLower {
		below = wrap256(new(big.Int).Sub(global, lowerOutside))
	}
	above := upperOutside
	if tickCurrent >= tickUpper {
		above = wrap256(new(big.Int).Sub(global, upperOutside))
	}
	inside := new(big.Int).Sub(global, below)
	return wrap256(inside.Sub(inside, above))
}

// TokensOwed is what the position manager's collect pays of one token (amountMax unbounded): the
// position's tokensOwed plus uint128(mulDiv(inside - insideLast, liquidity, 2^128)), modulo 2^128,
// where inside is the fee growth inside its range now and insideLast the position's.
func TokensOwed(owed, liquidity, inside, insideLast *big.Int) (*big.Int, error) {
	growth := wrap256(new(big.Int).Sub(inside, insideLast))
	earned, err := mulDiv(growth, liquidity, q128)
	if err != nil {
		return nil, err
	}
	// uint128(earned) + owed in uint128: the sum modulo 2^128.
	earned.Add(earned, owed)
	return earned.And(earned, maxUint128), nil
}

// PositionAmounts is what burning all of liquidity in [tickLower, tickUpper) pays with the pool at
// tick and sqrtPriceX96, as the pool's _modifyPosition computes it (SqrtPriceMath, rounded down):
// token0 only below the range, token1 only at or above it, both inside it.
func PositionAmounts(tickLower, tickUpper, tick int, sqrtPriceX96, liquidity *big.Int) (amount0, amount1 *big.Int, err error) {
	return rangeAmounts(tickLower, tickUpper, tick, sqrtPriceX96, liquidity, false)
}

// rangeAmounts is _modifyPosition's amounts for liquidity in [tickLower, tickUpper) with the pool
// at tick and sqrtPriceX96, rounded up (a mint) or down (a burn).
func rangeAmounts(tickLower, tickUpper, tick int, sqrtPriceX96, liquidity *big.Int, roundUp bool) (amount0, amount1 *big.Int, err error) {
	if tickLower >= tickUpper {
		return nil, nil, fmt.Errorf("uniswapv3: range [%d, %d) is empty", tickLower, tickUpper)
	}
	sa, err := SqrtRatioAtTick(tickLower)
	if err != nil {
		return nil, nil, err
	}
	sb, err := SqrtRatioAtTick(tickUpper)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case tick < tickLower:
		amount0, err = Amount0Delta(sa, sb, liquidity, roundUp)
		return amount0, new(big.Int), err
	case tick < tickUpper:
		if amount0, err = Amount0Delta(sqrtPriceX96, sb, liquidity, roundUp); err != nil {
			return nil, nil, err
		}
		amount1, err = Amount1Delta(sa, sqrtPriceX96, liquidity, roundUp)
		return amount0, amount1, err
	default:
		amount1, err = Amount1Delta(sa, sb, liquidity, roundUp)
		return new(big.Int), amount1, err
	}
}
