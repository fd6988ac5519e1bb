package uniswapv3

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// Creating a pool with its first position, and leaving a position: the position manager's
// createAndInitializePoolIfNecessary (PoolInitializer) with mint in one multicall, and
// decreaseLiquidity, collect and burn in one multicall (@uniswap/v3-periphery 1.4.4).

// TickSpacing is the tick spacing of a fee tier (pips) the official factory enables; false for
// another fee.
func (Venue) TickSpacing(fee int) (int, bool) {
	for _, t := range FeeTiers {
		if t.Fee == fee {
			return t.TickSpacing, true
		}
	}
	return 0, false
}

// SqrtPriceAt is the sqrtPriceX96 of a price in token units of token1 per unit of token0, whose
// tokens have decimals0 and decimals1: floor(sqrt(price * 10^decimals1 / 10^decimals0) * 2^96).
// ErrSqrtRatio for a price outside the ticks' bounds.
func (Venue) SqrtPriceAt(price *big.Rat, decimals0, decimals1 int) (*big.Int, error) {
	return SqrtPriceAt(price, decimals0, decimals1)
}

// SqrtPriceAt is Venue.SqrtPriceAt.
func SqrtPriceAt(price *big.Rat, decimals0, decimals1 int) (*big.Int, error) {
	if price.Sign() <= 0 {
		return nil, fmt.Errorf("%w: price %s is not positive", ErrSqrtRatio, price.RatString())
	}
	num := new(big.Int).Mul(price.Num(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals1)), nil))
	den := new(big.Int).Mul(price.Denom(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals0)), nil))
	num.Lsh(num, 192)
	sqrt := num.Quo(num, den).Sqrt(num)
	if sqrt.Cmp(MinSqrtRatio) < 0 || sqrt.Cmp(MaxSqrtRatio) >= 0 {
		return nil, fmt.Errorf("%w: price %s", ErrSqrtRatio, price.FloatString(18))
	}
	return sqrt, nil
}

// CreateCall is multicall([createAndInitializePoolIfNecessary(token0, token1, fee, sqrtPriceX96),
// mint(params)]) on the position manager: the pool is created and initialized at sqrtPriceX96
// unless it exists and is initialized (then its price stands), and the position is minted.
func (v Venue) CreateCall(cfg chain.VenueConfig, m chain.V3Mint, sqrtPriceX96 *big.Int) chain.EVMCall {
	create := packCall(npmABI, "createAndInitializePoolIfNecessary", common.HexToAddress(m.Token0), common.HexToAddress(m.Token1),
		big.NewInt(int64(m.Fee)), sqrtPriceX96)
	calls := [][]byte{create, v.MintCall(cfg, m).Data}
	return chain.EVMCall{To: strings.ToLower(cfg.PositionManager), Data: packCall(npmABI, "multicall", calls)}
}

// ExitCall is multicall([decreaseLiquidity(id, liquidity, min0, min1, deadline), collect(id,
// recipient, max, max), burn(id)]) on the position manager: all of a position's liquidity removed,
// everything it is owed collected, and the emptied NFT burned.
func (Venue) ExitCall(cfg chain.VenueConfig, id, liquidity, min0, min1 *big.Int, recipient string, deadline int64) chain.EVMCall {
	calls := append(decreaseAndCollect(id, liquidity, min0, min1, recipient, deadline), packCall(npmABI, "burn", id))
	return chain.EVMCall{To: strings.ToLower(cfg.PositionManager), Data: packCall(npmABI, "multicall", calls)}
}
