package uniswapv3

import (
	"errors"
	"math/big"
)

// ErrPrice is a price move the liquidity cannot make: an output larger than the reserves in
// range, a zero price or zero liquidity (the contract's require fails).
var ErrPrice = errors.New("uniswapv3: price move out of bounds")

// NextSqrtPriceFromInput is SqrtPriceMath.getNextSqrtPriceFromInput: the sqrt price after adding
// amountIn of token0 (zeroForOne) or token1 at liquidity, rounded so the price never moves
// further than the input pays for.
func NextSqrtPriceFromInput(sqrtPX96, liquidity, amountIn *big.Int, zeroForOne bool) (*big.Int, error) {
	if sqrtPX96.Sign() <= 0 || liquidity.Sign() <= 0 {
		return nil, ErrPrice
	}
	if zeroForOne {
		return nextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
	}
	return nextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true)
}

// NextSqrtPriceFromOutput is SqrtPriceMath.getNextSqrtPriceFromOutput: the sqrt price after
// taking amountOut of token1 (zeroForOne) or token0 at liquidity, rounded so the price moves at
// least as far as the output needs.
func NextSqrtPriceFromOutput(sqrtPX96, liquidity, amountOut *big.Int, zeroForOne bool) (*big.Int, error) {
	if sqrtPX96.Sign() <= 0 || liquidity.Sign() <= 0 {
		return nil, ErrPrice
	}
	if zeroForOne {
		return nextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
	}
	return nextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false)
}

// nextSqrtPriceFromAmount0RoundingUp is SqrtPriceMath.getNextSqrtPriceFromAmount0RoundingUp,
// including its choice of formula by whether amount*sqrtP and liquidity<<96 + amount*sqrtP
// overflow 256 bits (the two formulas round differently).
func nextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amount *big.Int, add bool) (*big.Int, error) {
	if amount.Sign() == 0 {
		return new(big.Int).Set(sqrtPX96), nil
	}
	numerator1 := new(big.Int).Lsh(liquidity, 96)
	product := new(big.Int).Mul(amount, sqrtPX96)
	productFits := product.Cmp(maxUint256) <= 0
	if add {
		if productFits {
			denominator := new(big.Int).Add(numerator1, product)
			if denominator.Cmp(maxUint256) <= 0 {
				return mulDivRoundingUp(numerator1, sqrtPX96, denominator)
			}
		}
		d := new(big.Int).Quo(numerator1, sqrtPX96)
		d.Add(d, amount)
		if d.Cmp(maxUint256) > 0 {
			return nil, errOverflow
		}
		return divRoundingUp(numerator1, d), nil
	}
	if !productFits || numerator1.Cmp(product) <= 0 {
		return nil, ErrPrice
	}
	r, err := mulDivRoundingUp(numerator1, sqrtPX96, new(big.Int).Sub(numerator1, product))
	if err != nil {
		return nil, err
	}
	if r.Cmp(maxUint160) > 0 {
		return nil, errOverflow
	}
	return r, nil
}

// nextSqrtPriceFromAmount1RoundingDown is SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown.
func nextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amount *big.Int, add bool) (*big.Int, error) {
	if add {
		q, err := mulDiv(amount, q96, liquidity)
		if err != nil {
			return nil, err
		}
		q.Add(q, sqrtPX96)
		if q.Cmp(maxUint160) > 0 {
			return nil, errOverflow // SafeCast.toUint160
		}
		return q, nil
	}
	q, err := mulDivRoundingUp(amount, q96, liquidity)
	if err != nil {
		return nil, err
	}
	if sqrtPX96.Cmp(q) <= 0 {
		return nil, ErrPrice
	}
	return q.Sub(sqrtPX96, q), nil
}

// Amount0Delta is SqrtPriceMath.getAmount0Delta: the token0 that liquidity holds between two sqrt
// prices (in either order), liquidity*2^96*(b-a)/b/a, rounded up or down.
func Amount0Delta(sqrtA, sqrtB, liquidity *big.Int, roundUp bool) (*big.Int, error) {
	if sqrtA.Cmp(sqrtB) > 0 {
		sqrtA, sqrtB = sqrtB, sqrtA
	}
	if sqrtA.Sign() <= 0 {
		return nil, ErrPrice
	}
	numerator1 := new(big.Int).Lsh(liquidity, 96)
	numerator2 := new(big.Int).Sub(sqrtB, sqrtA)
	if roundUp {
		r, err := mulDivRoundingUp(numerator1, numerator2, sqrtB)
		if err != nil {
			return nil, err
		}
		return divRoundingUp(r, sqrtA), nil
	}
	r, err := mulDiv(numerator1, numerator2, sqrtB)
	if err != nil {
		return nil, err
	}
	return r.Quo(r, sqrtA), nil
}

// Amount1Delta is SqrtPriceMath.getAmount1Delta: the token1 that liquidity holds between two sqrt
// prices (in either order), liquidity*(b-a)/2^96, rounded up or down.
func Amount1Delta(sqrtA, sqrtB, liquidity *big.Int, roundUp bool) (*big.Int, error) {
	d := new(big.Int).Sub(sqrtB, sqrtA)
	d.Abs(d)
	if roundUp {
		return mulDivRoundingUp(liquidity, d, q96)
	}
	return mulDiv(liquidity, d, q96)
}
