package chain

import (
	"context"
	"math/big"
)

// LP positions as an EVM adapter reads them for the portfolio service: LP tokens in owners'
// wallets and LP tokens staked in farms (Uniswap's liquidity-staker StakingRewards), at one block.
// Addresses are canonical (lower-case 0x hex); amounts are base units.

// LPPositions is what one EVMPositionSource read found for a list of owners.
type LPPositions struct {
	// Block is the block every figure was read at; 0 when nothing needed reading.
	Block uint64
	// Pairs is the state of every pair read (the pools asked for and the farms' staking tokens), by
	// address.
	Pairs map[string]PairState
	// Held[i][j] is owners[i]'s balance of pools[i][j]; nil when balanceOf did not answer.
	Held [][]*big.Int
	// Stakes[i] is every farm in which owners[i] has LP staked or rewards to claim, ordered by
	// staking token then farm.
	Stakes [][]FarmStake
	// Farms is how many farms were read for every owner: all the farms of the chain's configured
	// staking rewards factories.
	Farms int
	// Unanswered[i] lists the farms that did not answer balanceOf or earned for owners[i], whose
	// stakes there are then missing from Stakes[i].
	Unanswered [][]string
}

// FarmStake is an owner's stake in one StakingRewards farm.
type FarmStake struct {
	Farm         string   // the StakingRewards contract
	StakingToken string   // the LP token it stakes (a pair)
	RewardToken  string   // the token it pays
	Staked       *big.Int // the owner's staked LP (the farm's balanceOf)
	Earned       *big.Int // the rewards the owner could claim at the read's block (the farm's earned)
}

// EVMPositionSource reads liquidity positions: the EVM adapter's Source implements it next to
// Source.
type EVMPositionSource interface {
	// LPPositions reads, at one block, owners[i]'s balance of each of pools[i] (Uniswap V2 pairs),
	// every owner's stakes in every farm of the chain's staking rewards factories, and the state of
	// every pair involved. Errors match ErrUpstreamUnavailable, ErrUpstreamTimeout,
	// ErrUpstreamBadResponse or ErrCanceled.
	LPPositions(ctx context.Context, owners []string, pools [][]string) (LPPositions, error)
}
