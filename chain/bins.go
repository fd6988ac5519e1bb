package chain

import (
	"context"
	"math/big"
)

// LiquidityBin is a price range of a concentrated-liquidity pool and the liquidity active in it:
// the range between two neighbouring initialized ticks, where the liquidity is constant.
type LiquidityBin struct {
	TickLower, TickUpper int
	// SqrtPriceLowerX96 and SqrtPriceUpperX96 are the bounds' sqrt prices (token1 per token0, Q64.96).
	SqrtPriceLowerX96, SqrtPriceUpperX96 *big.Int
	Liquidity                            *big.Int // active while the price is in the range
	// Amount0 and Amount1 are the token base units the range holds at the pool's current price:
	// token0 above the price, token1 below it, both in the range holding it.
	Amount0, Amount1 *big.Int
	Current          bool // the pool's price is in the range
}

// BinsVenue is a venue whose pools keep liquidity by price range: GET /v1/pools/{pool}/bins reads
// a pool's state (V3Reader) and the venue groups it into bins.
type BinsVenue interface {
	Venue
	// BinsRead is what to read of pool on a chain configured as cfg, its fee feeBps as indexed (0:
	// unknown): the TickLens to read through and the read; ok is false when cfg does not serve
	// pool reads of the venue.
	BinsRead(cfg VenueConfig, pool string, feeBps int) (tickLens string, read V3PoolRead, ok bool)
	// Bins is the liquidity of a pool read as st, by range between neighbouring initialized ticks
	// within the ticks read, in price order; ranges without liquidity are left out.
	Bins(st V3PoolState) ([]LiquidityBin, error)
}

// V3Reader reads concentrated-liquidity pools: an EVM source (chain/evm's Source) implements it.
type V3Reader interface {
	V3Pools(ctx context.Context, tickLens string, reads []V3PoolRead) ([]V3PoolState, error)
}

// Bins returns the bins venues of a chain's configuration, sorted by name, with their configuration.
func (s VenueSet) Bins(cc ChainConfig) (venues []BinsVenue, configs []VenueConfig) {
	return configuredAs[BinsVenue](s, cc)
}
