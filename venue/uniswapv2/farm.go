package uniswapv2

import (
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// The venue's farms: Uniswap's StakingRewards (@uniswap/liquidity-staker), one per pair, listed by
// the configured StakingRewardsFactory.

// StakeCall is the farm's stake(amount).
func (Venue) StakeCall(farm string, amount *big.Int) chain.EVMCall {
	return chain.EVMCall{To: farm, Data: chain.EVMCalldata("stake(uint256)", amount)}
}

// UnstakeCall is the farm's withdraw(amount); the rewards stay earned.
func (Venue) UnstakeCall(farm string, amount *big.Int) chain.EVMCall {
	return chain.EVMCall{To: farm, Data: chain.EVMCalldata("withdraw(uint256)", amount)}
}

// ClaimCall is the farm's getReward().
func (Venue) ClaimCall(farm string) chain.EVMCall {
	return chain.EVMCall{To: farm, Data: chain.EVMCalldata("getReward()")}
}
