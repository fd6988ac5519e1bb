package chain

import "math/big"

// V3Ratio is what a swap to a range's ratio starts from (lp/rebalance, lp/compound): Amount0 and
// Amount1 of the pool's tokens to deposit in [TickLower, TickUpper), swapped first through Pool
// itself as it stands after Burned liquidity (rebalance: the old position's) leaves
// [BurnLower, BurnUpper). Burned nil or zero: nothing leaves.
type V3Ratio struct {
	Pool                 V3PoolState
	TickLower, TickUpper int
	Amount0, Amount1     *big.Int
	Burned               *big.Int
	BurnLower, BurnUpper int
}

// V3RatioSwap is a swap to a range's ratio and where it leaves the pool and the holder. AmountIn
// zero is no swap (the amounts are at the ratio already, or a swap would buy nothing).
type V3RatioSwap struct {
	ZeroForOne          bool // sells token0 for token1; else token1 for token0
	AmountIn, AmountOut *big.Int
	// SqrtPriceX96, Tick and Liquidity are the pool's after the swap (after the burn when none).
	SqrtPriceX96 *big.Int
	Tick         int
	Liquidity    *big.Int
	// Held0 and Held1 are the amounts held after the swap, to deposit.
	Held0, Held1 *big.Int
}

// V3RatioVenue swaps to a range's ratio through a pool of NFT positions, and creates pools.
type V3RatioVenue interface {
	// TickSpacing is the tick spacing of a fee tier (pips); false for a tier the venue lacks.
	TickSpacing(fee int) (int, bool)
	// SqrtPriceAt is the sqrtPriceX96 of a price in units of token1 per unit of token0.
	SqrtPriceAt(price *big.Rat, decimals0, decimals1 int) (*big.Int, error)
	// CreateCall creates and initializes the pool at sqrtPriceX96 unless it is initialized, and
	// mints m, in one call.
	CreateCall(cfg VenueConfig, m V3Mint, sqrtPriceX96 *big.Int) EVMCall
	// ExitCall removes all of position id's liquidity (reverting below the minimums), collects
	// everything it is owed to recipient and burns the NFT, in one call.
	ExitCall(cfg VenueConfig, id, liquidity, min0, min1 *big.Int, recipient string, deadline int64) EVMCall
	// SwapToRatio is the exact-input swap through r.Pool after which the amounts held buy the most
	// liquidity in the range at the pool's new price.
	SwapToRatio(r V3Ratio) (V3RatioSwap, error)
	// SwapSingleCall is an exact-input swap of amountIn through the pool of tokenIn and tokenOut at
	// fee (pips) through the venue's router, paying at least minOut to recipient.
	SwapSingleCall(cfg VenueConfig, tokenIn, tokenOut string, fee int, amountIn, minOut *big.Int, recipient string, deadline int64) EVMCall
}
