package chain

import (
	"context"
	"math/big"
)

// Concentrated-liquidity positions held as NFTs (Uniswap V3's NonfungiblePositionManager, and its
// forks'): the NFTs an owner holds in its wallet and those it has deposited in the staker
// (UniswapV3Staker), read at one block with the pool state their figures need. An EVM source reads
// them (V3PositionReader); the venue computes their amounts and fees (V3PositionsVenue).
// Addresses are canonical (lower-case 0x hex); amounts are base units.

// V3PositionsRead says where a chain's position NFTs are and how to find their pools.
type V3PositionsRead struct {
	PositionManager string // the NonfungiblePositionManager (ERC721Enumerable)
	Staker          string // the UniswapV3Staker whose deposits are read; "" reads none
	// StakerStartBlock is the staker's deployment block, where its IncentiveCreated logs are read
	// from.
	StakerStartBlock uint64
	// Factory and InitCodeHash derive each position's pool (UniswapV3PoolAddress).
	Factory, InitCodeHash string
}

// V3Position is one position NFT as the position manager's positions(id) reports it, with its pool's
// state at the read's block.
type V3Position struct {
	ID *big.Int
	// Staked is set when the NFT is deposited in the staker (which holds it) by the owner it was read
	// for; otherwise that owner holds it in its wallet.
	Staked                   bool
	Pool                     string // derived from the factory, token0, token1 and fee
	Token0, Token1           string
	Fee                      int // pips: 3000 is 0.3 %
	TickLower, TickUpper     int
	Liquidity                *big.Int // uint128
	FeeGrowthInside0LastX128 *big.Int // the position manager's, at the position's last update
	FeeGrowthInside1LastX128 *big.Int
	TokensOwed0, TokensOwed1 *big.Int // fees and removed liquidity the position manager owes, as of its last update
	State                    V3PositionPool
}

// V3PositionPool is what a position's figures need of its pool, read at the same block as the
// position: slot0's price and tick, the in-range liquidity, the global fee growth, the fee growth
// outside the position's two ticks (ticks(i)) and the tokens the pool holds.
type V3PositionPool struct {
	SqrtPriceX96                               *big.Int
	Tick                                       int
	Liquidity                                  *big.Int
	FeeGrowthGlobal0X128, FeeGrowthGlobal1X128 *big.Int
	// LowerOutside0X128 and LowerOutside1X128 are ticks(TickLower)'s feeGrowthOutside0/1X128;
	// UpperOutside0X128 and UpperOutside1X128 are ticks(TickUpper)'s.
	LowerOutside0X128, LowerOutside1X128 *big.Int
	UpperOutside0X128, UpperOutside1X128 *big.Int
	Balance0, Balance1                   *big.Int // the pool's balances of token0 and token1
}

// V3Positions is what one V3PositionReader read found for a list of owners.
type V3Positions struct {
	Block uint64 // the block every figure was read at; 0 when nothing needed reading
	// Positions[i] is owners[i]'s positions whose pool answered: the wallet's by id, then those
	// deposited in the staker by id.
	Positions [][]V3Position
	// Unanswered[i] lists the ids of owners[i]'s positions left out of Positions[i] because
	// positions(id) or their pool did not answer.
	Unanswered [][]*big.Int
	// Complete[i] is false when owners[i]'s discovery was cut short: it holds more NFTs than the
	// reader enumerates, or the staker holds more deposits than it scans (then every owner's is).
	Complete []bool
}

// V3PositionReader reads position NFTs: an EVM source (chain/evm's Source) implements it.
type V3PositionReader interface {
	// V3Positions reads, at block (0: the latest), every position NFT each owner holds in its
	// wallet or has deposited in where.Staker, and its pool's state. Errors match
	// ErrUpstreamUnavailable, ErrUpstreamTimeout, ErrUpstreamBadResponse or ErrCanceled.
	V3Positions(ctx context.Context, where V3PositionsRead, owners []string, block uint64) (V3Positions, error)
}

// V3PositionFigures is what a position holds at its pool's state.
type V3PositionFigures struct {
	// SqrtPriceLowerX96 and SqrtPriceUpperX96 are the range's bounds (token1 per token0, Q64.96).
	SqrtPriceLowerX96, SqrtPriceUpperX96 *big.Int
	InRange                              bool // the pool's tick is in [TickLower, TickUpper): its liquidity is active
	// Amount0 and Amount1 are what removing all the position's liquidity would pay now, rounded
	// down as the pool's burn rounds them.
	Amount0, Amount1 *big.Int
	// Fees0 and Fees1 are what collect would pay now before any removal: the tokens owed plus the
	// fees earned since the position's last update.
	Fees0, Fees1 *big.Int
}

// V3PositionsVenue is a venue whose positions are NFTs: the portfolio reads an owner's through the
// chain's V3PositionReader and the venue computes their figures.
type V3PositionsVenue interface {
	Venue
	// PositionsRead is where the positions of a chain whose venue is configured as cfg are; ok is
	// false when cfg locates no position manager.
	PositionsRead(cfg VenueConfig) (where V3PositionsRead, ok bool)
	// PositionFigures is what p holds at p.State.
	PositionFigures(p V3Position) (V3PositionFigures, error)
}

// V3Positions returns the position venues of a chain's configuration that locate a position
// manager, sorted by name, with where their positions are.
func (s VenueSet) V3Positions(cc ChainConfig) (venues []V3PositionsVenue, where []V3PositionsRead) {
	vs, configs := configuredAs[V3PositionsVenue](s, cc)
	for i, v := range vs {
		if w, ok := v.PositionsRead(configs[i]); ok {
			venues = append(venues, v)
			where = append(where, w)
		}
	}
	return venues, where
}
