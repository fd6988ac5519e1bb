package chain

import (
	"context"
	"math/big"
)

// Farming NFT positions in a staker (Uniswap's UniswapV3Staker) and migrating Uniswap V2 liquidity
// into them (V3Migrator): an EVM source reads a position as the staker sees it (V3StakerReader);
// the venue encodes the staker's, the position manager's and the migrator's calls
// (V3StakerVenue, V3MigrateVenue). Addresses are canonical; amounts are base units.

// V3Incentive is a staker incentive: its key (what the staker's functions take) and its id, the
// keccak256 of the abi-encoded key.
type V3Incentive struct {
	ID                 string // 0x hex, 32 bytes
	RewardToken, Pool  string
	StartTime, EndTime uint64 // Unix seconds: stakes are taken in [StartTime, EndTime)
	Refundee           string
}

// V3IncentiveStake is an incentive of a position's pool and the position's stake in it, read with
// a build's state (EVMTradeRead.Stakes).
type V3IncentiveStake struct {
	V3Incentive
	TotalRewardUnclaimed *big.Int // incentives(id): what is left to pay
	Liquidity            *big.Int // stakes(position, id): the liquidity staked, zero when not staked
	// Reward is getRewardInfo(key, position).reward: what unstaking at the read block's time would
	// add to the owner's rewards; zero when not staked.
	Reward *big.Int
}

// V3StakerRead asks for position ID as the position manager and the staker see it.
type V3StakerRead struct {
	Where V3PositionsRead // its PositionManager, Staker, Factory and InitCodeHash
	ID    *big.Int
	// Incentives requires the pool's incentives whoever holds the position (a stake); without it
	// a failed log query fails the read only when the position is deposited in the staker.
	Incentives bool
	// PositionOnly reads the holder and positions(ID) alone: no deposit, no incentives.
	PositionOnly bool
}

// V3StakerState is what a V3StakerRead read, at one block.
type V3StakerState struct {
	Block, Time uint64
	// Holder is the position manager's ownerOf(ID): the wallet holding the NFT, the staker when
	// it is deposited; "" when the NFT does not exist.
	Holder string
	// Position is positions(ID) (its State unread); PositionOK is false when that did not answer.
	Position   V3Position
	PositionOK bool
	// Depositor is the staker's deposits(ID).owner, "" when it is not deposited; Stakes counts the
	// incentives it is staked in.
	Depositor string
	Stakes    int
	// Incentives are the staker's incentives of the position's pool created by Block (its
	// IncentiveCreated logs), oldest first (none when their logs could not be read and the
	// read did not need them); EVMTradeRead.Stakes reads the position's stakes in them.
	Incentives []V3Incentive
}

// V3StakerReader reads a position in the staker: an EVM source (chain/evm's Source) implements it.
type V3StakerReader interface {
	// V3Staker reads q at the latest block in one JSON-RPC round trip. Errors
	// match ErrUpstreamUnavailable, ErrUpstreamTimeout, ErrUpstreamBadResponse or ErrCanceled.
	V3Staker(ctx context.Context, q V3StakerRead) (V3StakerState, error)
}

// V3StakerVenue is a venue whose positions are farmed in a staker (cfg.Staker).
type V3StakerVenue interface {
	V3LiquidityVenue
	// StakeCall deposits position id of owner in the staker and stakes it in incentive in one
	// call: the position manager's safeTransferFrom(owner, staker, id, abi.encode(key)).
	StakeCall(cfg VenueConfig, owner string, id *big.Int, incentive V3Incentive) EVMCall
	// WithdrawCall unstakes position id from every incentive of staked, claims everything the
	// staker owes recipient in their reward tokens and withdraws the NFT to recipient: one staker
	// multicall.
	WithdrawCall(cfg VenueConfig, id *big.Int, staked []V3Incentive, recipient string) EVMCall
	// HarvestCall unstakes position id from every incentive of staked, claims everything the
	// staker owes recipient in their reward tokens, and stakes it again in each: one staker
	// multicall; the NFT stays deposited.
	HarvestCall(cfg VenueConfig, id *big.Int, staked []V3Incentive, recipient string) EVMCall
}

// V3Migration is a migration of Uniswap V2 liquidity into a new position: the migrator's
// MigrateParams, with percentageToMigrate 100 (every token the burn returns is offered to the
// mint; what the mint does not take is refunded).
type V3Migration struct {
	Pair                   string
	Liquidity              *big.Int // LP tokens of Pair to burn
	Token0, Token1         string
	Fee                    int
	TickLower, TickUpper   int
	Amount0Min, Amount1Min *big.Int
	Recipient              string
	Deadline               int64
	RefundAsETH            bool
	// CreateAt, when set, creates and initializes the pool at this sqrt price first
	// (createAndInitializePoolIfNecessary, in the same migrator multicall).
	CreateAt *big.Int
}

// V3MigrateVenue is a venue that takes Uniswap V2 liquidity through a migrator (cfg.Migrator).
type V3MigrateVenue interface {
	V3LiquidityVenue
	// MigrateCall is the migration on the migrator.
	MigrateCall(cfg VenueConfig, m V3Migration) EVMCall
	// TickSpacing is the tick spacing of a fee tier (pips); false for a tier the venue lacks.
	TickSpacing(fee int) (int, bool)
	// PairPrice is the sqrt price (Q64.96) of reserve1 per reserve0, rounded down, and its tick:
	// where a pool created for a pair's liquidity starts.
	PairPrice(reserve0, reserve1 *big.Int) (*big.Int, int, error)
}
