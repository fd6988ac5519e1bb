package evm

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// The NFT positions and staker stakes a ReadTrade reads in its aggregate3 (EVMTradeRead.Positions
// and Stakes), so that a build on a position costs no round trip of its own beyond finding it.

// positionCalls are an EVMPositionRead's calls: positions(id), ownerOf(id), the pool's slot0,
// liquidity, feeGrowthGlobal0X128, feeGrowthGlobal1X128 and balances of its tokens, and ticks(i)
// of the position's two ticks.
func positionCalls(p chain.EVMPositionRead) []call {
	npm, pos := common.HexToAddress(p.Where.PositionManager), p.Position
	pool := common.HexToAddress(pos.Pool)
	return []call{
		{Target: npm, AllowFailure: true, CallData: pack(v3PositionsABI, "positions", pos.ID)},
		{Target: npm, AllowFailure: true, CallData: pack(v3StakerABI, "ownerOf", pos.ID)},
		{Target: pool, AllowFailure: true, CallData: pack(v3ABI, "slot0")},
		{Target: pool, AllowFailure: true, CallData: pack(v3ABI, "liquidity")},
		{Target: pool, AllowFailure: true, CallData: pack(v3PositionsABI, "feeGrowthGlobal0X128")},
		{Target: pool, AllowFailure: true, CallData: pack(v3PositionsABI, "feeGrowthGlobal1X128")},
		{Target: common.HexToAddress(pos.Token0), AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", pool)},
		{Target: common.HexToAddress(pos.Token1), AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", pool)},
		{Target: pool, AllowFailure: true, CallData: pack(v3PositionsABI, "ticks", big.NewInt(int64(pos.TickLower)))},
		{Target: pool, AllowFailure: true, CallData: pack(v3PositionsABI, "ticks", big.NewInt(int64(pos.TickUpper)))},
	}
}

// positionCallCount is len(positionCalls(p)).
const positionCallCount = 10

// decodePositionState decodes positionCalls' results. A position whose positions(id) answers
// another pool or range than p's is not OK: an id's pool and range never change.
func decodePositionState(p chain.EVMPositionRead, rs []result) chain.EVMPositionState {
	pos, ok := decodePosition(p.Position.ID, rs[0], p.Where)
	out := chain.EVMPositionState{Position: pos}
	if holder, known := address(rs[1]); known {
		out.Holder = canonical(holder)
	}
	pool := decodePositionPool(rs[2:8])
	lower0, ok0 := wordAt(rs[8], 2)
	lower1, ok1 := wordAt(rs[8], 3)
	upper0, ok2 := wordAt(rs[9], 2)
	upper1, ok3 := wordAt(rs[9], 3)
	same := pos.Pool == p.Position.Pool && pos.TickLower == p.Position.TickLower && pos.TickUpper == p.Position.TickUpper
	if !ok || !same || pool == nil || !ok0 || !ok1 || !ok2 || !ok3 {
		return out
	}
	out.Position.State = *pool
	out.Position.State.LowerOutside0X128, out.Position.State.LowerOutside1X128 = lower0, lower1
	out.Position.State.UpperOutside0X128, out.Position.State.UpperOutside1X128 = upper0, upper1
	out.OK = true
	return out
}

// stakesCalls are an EVMStakesRead's calls: incentives(id), stakes(ID, id) and getRewardInfo(key,
// ID) of each incentive, then rewards(token, Owner) of each reward token (rewardTokens, in the
// order of first appearance).
func stakesCalls(q chain.EVMStakesRead) []call {
	staker := common.HexToAddress(q.Staker)
	var calls []call
	for _, in := range q.Incentives {
		id := common.HexToHash(in.ID)
		key := incentiveKey{common.HexToAddress(in.RewardToken), common.HexToAddress(in.Pool), new(big.Int).SetUint64(in.StartTime),
			new(big.Int).SetUint64(in.EndTime), common.HexToAddress(in.Refundee)}
		calls = append(calls,
			call{Target: staker, AllowFailure: true, CallData: pack(v3StakerABI, "incentives", id)},
			call{Target: staker, AllowFailure: true, CallData: pack(v3StakerABI, "stakes", q.ID, id)},
			call{Target: staker, AllowFailure: true, CallData: pack(v3StakerABI, "getRewardInfo", key, q.ID)})
	}
	for _, t := range rewardTokens(q.Incentives) {
		calls = append(calls, call{Target: staker, AllowFailure: true, CallData: pack(v3StakerABI, "rewards", common.HexToAddress(t), common.HexToAddress(q.Owner))})
	}
	return calls
}

// rewardTokens are the incentives' reward tokens, each once, in the order of first appearance.
func rewardTokens(incentives []chain.V3Incentive) []string {
	var tokens []string
	seen := map[string]bool{}
	for _, in := range incentives {
		if !seen[in.RewardToken] {
			seen[in.RewardToken] = true
			tokens = append(tokens, in.RewardToken)
		}
	}
	return tokens
}

// decodeStakes decodes stakesCalls' results; OK is false when a getter did not answer.
func decodeStakes(q chain.EVMStakesRead, rs []result) chain.EVMStakesState {
	out := chain.EVMStakesState{Owed: map[string]*big.Int{}}
	for _, in := range q.Incentives {
		unclaimed, ok1 := word(rs[0])
		liquidity, ok2 := wordAt(rs[1], 1)
		if !ok1 || !ok2 {
			return chain.EVMStakesState{}
		}
		stake := chain.V3IncentiveStake{V3Incentive: in, TotalRewardUnclaimed: unclaimed, Liquidity: liquidity, Reward: new(big.Int)}
		if reward, ok := word(rs[2]); ok && liquidity.Sign() > 0 {
			stake.Reward = reward
		}
		out.Incentives = append(out.Incentives, stake)
		rs = rs[3:]
	}
	for i, t := range rewardTokens(q.Incentives) {
		owed, ok := word(rs[i])
		if !ok {
			return chain.EVMStakesState{}
		}
		out.Owed[t] = owed
	}
	out.OK = true
	return out
}
