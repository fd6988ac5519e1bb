package raydium

import "math/big"

// MidPrice is a pool's marginal price: reserveOut / reserveIn, output base units per input base
// unit, for the curve's reserves (vaults less fees owed; see Snapshot.Reserves). It is nil when a
// reserve is zero.
func MidPrice(reserveIn, reserveOut uint64) *big.Rat {
	if reserveIn == 0 || reserveOut == 0 {
		return nil
	}
	return new(big.Rat).SetFrac(big64(reserveOut), big64(reserveIn))
}

// PriceImpact is how much less than the mid price amountIn fetches when it buys amountOut, as a
// fraction: (mid × amountIn − amountOut) / (mid × amountIn) = 1 − amountOut × reserveIn /
// (amountIn × reserveOut). It counts everything the payer loses to the trade (the curve's slippage
// and the fees), as trade.PriceImpact does; it is negative if amountOut beats the mid price, and
// nil when amountIn or a reserve is zero.
func PriceImpact(amountIn, amountOut, reserveIn, reserveOut uint64) *big.Rat {
	if amountIn == 0 || reserveIn == 0 || reserveOut == 0 {
		return nil
	}
	quoted := new(big.Int).Mul(big64(amountIn), big64(reserveOut))
	got := new(big.Int).Mul(big64(amountOut), big64(reserveIn))
	return new(big.Rat).SetFrac(got.Sub(quoted, got), quoted)
}

// PoolPrice is the price of token 0 in token 1, in whole tokens: (reserve1 / 10^decimals1) /
// (reserve0 / 10^decimals0), as the Raydium SDK's poolPrice reads a pool. It is nil when a
// reserve is zero.
func PoolPrice(reserve0, reserve1 uint64, decimals0, decimals1 uint8) *big.Rat {
	if reserve0 == 0 || reserve1 == 0 {
		return nil
	}
	num := new(big.Int).Mul(big64(reserve1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals0)), nil))
	den := new(big.Int).Mul(big64(reserve0), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals1)), nil))
	return new(big.Rat).SetFrac(num, den)
}
