package chain

import "math/big"

// Liquidity on NFT positions (Uniswap V3's NonfungiblePositionManager, and its forks'): a venue
// that implements V3LiquidityVenue gives LP builds the exact math of a deposit and the position
// manager's calls; the trade service reads the pool and the positions (V3PositionReader), checks
// ownership, simulates and issues the build. Addresses are canonical; amounts are base units.

// V3Mint is a new position: the position manager's MintParams.
type V3Mint struct {
	Token0, Token1                 string
	Fee                            int // pips
	TickLower, TickUpper           int
	Amount0Desired, Amount1Desired *big.Int
	Amount0Min, Amount1Min         *big.Int
	Recipient                      string
	Deadline                       int64 // Unix seconds
}

// V3Deposit is what a mint or an increase of desired amounts takes at a pool's price: the
// liquidity it adds and the amounts the pool takes for it (at most the desired ones).
type V3Deposit struct {
	Liquidity, Amount0, Amount1 *big.Int
}

// V3LiquidityVenue is a venue whose liquidity is held as position NFTs and built through its
// position manager (cfg.PositionManager).
type V3LiquidityVenue interface {
	V3PositionsVenue
	V3RatioVenue // pool creation and swaps to a range's ratio (v3ratio.go)
	// PoolAddress is the venue's pool of token0 and token1 (sorted) at a fee tier on a chain whose
	// venue is configured as cfg, derived offline.
	PoolAddress(cfg VenueConfig, token0, token1 string, fee int) (string, error)
	// SnapRange snaps [lower, upper] outwards to the tick spacing (lower down, upper up), within
	// the ticks the spacing allows; an error when that is empty.
	SnapRange(lower, upper, tickSpacing int) (int, int, error)
	// PriceTick is the tick of a price in units of token1 per unit of token0, rounded down.
	PriceTick(price *big.Rat, decimals0, decimals1 int) (int, error)
	// Deposit is what the position manager takes of desired amounts in [tickLower, tickUpper)
	// with the pool at tick and sqrtPriceX96.
	Deposit(tickLower, tickUpper, tick int, sqrtPriceX96, desired0, desired1 *big.Int) (V3Deposit, error)
	// MintCall mints a new position.
	MintCall(cfg VenueConfig, m V3Mint) EVMCall
	// IncreaseCall adds desired amounts to position id, reverting below the minimums.
	IncreaseCall(cfg VenueConfig, id, desired0, desired1, min0, min1 *big.Int, deadline int64) EVMCall
	// RemoveCall removes liquidity from position id (reverting below the minimums) and collects
	// everything the position is owed, that liquidity's amounts and all fees, to recipient, in one
	// call; the NFT stays with its owner.
	RemoveCall(cfg VenueConfig, id, liquidity, min0, min1 *big.Int, recipient string, deadline int64) EVMCall
	// CollectCall collects everything position id is owed to recipient.
	CollectCall(cfg VenueConfig, id *big.Int, recipient string) EVMCall
}

// V3Liquidity returns the liquidity venues of a chain's configuration, sorted by name, with their
// configuration.
func (s VenueSet) V3Liquidity(cc ChainConfig) (venues []V3LiquidityVenue, configs []VenueConfig) {
	return configuredAs[V3LiquidityVenue](s, cc)
}
