package chain

import (
	"math/big"
	"time"
)

// What EVM quotes and builds read at one block, in one JSON-RPC round trip (EVMTradeRead, answered
// by an EVMTradeState), and how they simulate the calls they return (EVMNextBlock, EVMSimResult):
// plain values, so that the trade service and the venues depend on no adapter. chain/evm reads and
// simulates them.

// EVMAllowance names an ERC-20 allowance of the read's owner: token, spender.
type EVMAllowance struct {
	Token, Spender string
}

// EVMTradeRead says what ReadTrade reads. Addresses are 0x hex in any case.
type EVMTradeRead struct {
	Pairs []string // Uniswap V2 pairs: token0, token1, reserves and LP supply
	// V3Pools are Uniswap V3 pools read as V3Pools reads them, through TickLens, in the same
	// aggregate3; a read whose word guess misses costs one more aggregate3 pinned to its block.
	V3Pools    []V3PoolRead
	TickLens   string         // required with V3Pools
	Owner      string         // optional: its native balance, pending nonce, and the rows below
	Balances   []string       // tokens (pairs too): Owner's balanceOf
	Allowances []EVMAllowance // Owner's allowances
	Decimals   []string       // tokens: decimals()
	Farms      []string       // StakingRewards contracts: Owner's stake and earned rewards, rewardsToken, stakingToken
	// FarmsOf looks up the StakingRewards farm of each of FarmsOf.Pairs in a StakingRewardsFactory.
	FarmsOf EVMFarmLookup
	// TaxProbes simulate a buy and a sell of tokens on pools (the audit's probe) to measure
	// transfer taxes, in the same batch.
	TaxProbes []EVMTaxProbe
	// Positions are NFT positions read with their pools' state, so that a build on a position
	// reads it at the same block as the rest of its state.
	Positions []EVMPositionRead
	// Stakes are NFT positions' stakes in a staker.
	Stakes []EVMStakesRead
}

// EVMPositionRead asks for position Position.ID of the position manager Where.PositionManager:
// its positions(id) and ownerOf(id), its pool's state (slot0, liquidity, global fee growth, the
// pool's balances of its tokens) and the fee growth outside its two ticks. Position is what an
// earlier read found (V3StakerReader): its pool, tokens and ticks, which never change.
type EVMPositionRead struct {
	Where    V3PositionsRead
	Position V3Position
}

// EVMPositionState is a position as an EVMPositionRead read it: Position with its State, and the
// NFT's holder (the staker when it is deposited; "" when it does not exist). OK is false when the
// position or its pool did not answer.
type EVMPositionState struct {
	Position V3Position
	Holder   string
	OK       bool
}

// EVMStakesRead asks a staker for position ID's stake in each of Incentives (incentives(id),
// stakes(ID, id) and getRewardInfo(key, ID)), and what it owes Owner in each of their reward tokens
// (rewards(token, Owner)).
type EVMStakesRead struct {
	Staker     string
	ID         *big.Int
	Owner      string
	Incentives []V3Incentive
}

// EVMStakesState is what an EVMStakesRead read: Incentives in its order, with the stakes, and
// Owed by reward token. OK is false when a getter did not answer.
type EVMStakesState struct {
	Incentives []V3IncentiveStake
	Owed       map[string]*big.Int
	OK         bool
}

// EVMTaxProbe asks for the audit simulation of Token on Pair (a Uniswap V2 pair holding it), buying
// through WrappedNative on Factory's pairs as Audit does.
type EVMTaxProbe struct {
	Pair, Token, WrappedNative, Factory string
}

// EVMFarmLookup asks a StakingRewardsFactory for the farms of staking tokens.
type EVMFarmLookup struct {
	Factory string
	Pairs   []string
}

// EVMTradeState is what ReadTrade read. Slices follow EVMTradeRead's; an entry that did not answer
// is nil (Decimals: -1; pairs and farms: OK false). Addresses are canonical (lower-case 0x hex).
type EVMTradeState struct {
	Block   uint64
	Time    uint64   // the block's timestamp, Unix seconds
	BaseFee *big.Int // the latest block's base fee per gas, wei
	// NextBaseFee is the base fee per gas of the block after Block, wei, as the node computes it
	// (eth_feeHistory), or from Block's header with Ethereum's EIP-1559 parameters when the node
	// does not say; nil on a chain without EIP-1559.
	NextBaseFee *big.Int
	Tip         *big.Int // the node's suggested priority fee per gas, wei
	Pairs       []PairState
	V3Pools     []V3PoolState
	Native      *big.Int // Owner's native balance, wei; nil without an owner
	Nonce       uint64   // Owner's pending nonce
	Balances    []*big.Int
	Allowances  []*big.Int
	Decimals    []int
	Farms       []EVMFarmState
	FarmsOf     []string     // the farm of each looked-up pair; "" when it has none
	TaxSims     []Simulation // one per EVMTaxProbe; Ran false (with a Reason) when it could not trade
	Positions   []EVMPositionState
	Stakes      []EVMStakesState
}

// EVMFarmState is a StakingRewards farm as the read's owner sees it.
type EVMFarmState struct {
	Address      string
	StakingToken string
	RewardToken  string
	Staked       *big.Int // Owner's staked balance (zero without an owner)
	Earned       *big.Int // Owner's claimable rewards (zero without an owner)
	OK           bool
}

// EVMSimResult is one simulated call's outcome.
type EVMSimResult struct {
	OK      bool
	GasUsed uint64 // net of refunds, as a receipt reports it
	// PeakGas is the most gas the call had consumed at any point of its execution, before refunds:
	// the node's maxUsedGas when it reports one (go-ethereum does), otherwise the largest the London
	// refund cap allows, GasUsed plus a quarter (a refund is at most a fifth of the gas consumed).
	PeakGas uint64
	Return  []byte // the return data (a revert's data when !OK)
	Revert  string // !OK: the decoded revert reason, or the node's message when nothing decodes
}

// EVMNextBlock is where a build's transactions are expected to run: the block after the one its
// state was read at. Simulate runs the first call in it and each later call one block (and one
// second) after the previous one, since a wallet sends each transaction once the previous one is
// mined.
//
// go-ethereum and anvil both run the calls at the number and time asked for. The base fee goes into
// the simulated header on both, but anvil's EVM reads BASEFEE as 0 with validation off (as Simulate
// runs), where go-ethereum reads the base fee asked for; no call a build makes reads it.
type EVMNextBlock struct {
	Number  uint64   // the first call's block: the state's block + 1
	Time    uint64   // the first call's block timestamp, Unix seconds
	BaseFee *big.Int // each block's base fee per gas; nil on a chain without one (pre-London)
}

// Next is the block after st's as it can be mined at the earliest: number st.Block+1, timestamp the
// later of st.Time+1 (a block is stamped after its parent) and now (the chain will not mine it
// before this answer is out), base fee st.NextBaseFee.
//
// Gas depends on the timestamp: a Uniswap V2 pair writes its price accumulators only when time has
// passed since its last update, two storage writes (about 22,100 gas each while still zero, 5,000
// after) that a simulation at the latest block's time skips for every pair traded in that block,
// and that the mined transaction pays. Any time after the latest block costs the same; the earliest
// plausible one keeps time-dependent amounts (farm rewards) at the least the transaction sees.
func (st EVMTradeState) Next(now time.Time) EVMNextBlock {
	t := st.Time + 1
	if u := now.Unix(); u > 0 && uint64(u) > t {
		t = uint64(u)
	}
	var fee *big.Int
	if st.NextBaseFee != nil {
		fee = new(big.Int).Set(st.NextBaseFee)
	}
	return EVMNextBlock{Number: st.Block + 1, Time: t, BaseFee: fee}
}

// callStipend is the gas a value-carrying CALL gives its callee for free (go-ethereum's
// eth_estimateGas adds it to its first guess, as EVMGasNeed does).
const callStipend = 2_300

// EVMGasNeed is the least gas limit with which a simulated call is expected to succeed in the block
// it was simulated in, as eth_estimateGas would search for it: the gas it consumed at its peak,
// before refunds (PeakGas: gasUsed alone falls short by the refund, up to a quarter of it), plus a
// CALL's stipend, times 64/63 for the sixty-fourth of the gas left that every nested call withholds
// from its callee (EIP-150). Measured on the official Uniswap V2 router, pairs and farms it is at
// most 2 % above the least gas that succeeded (an LP removal: peak 146,726, needed 149,715,
// EVMGasNeed 151,392).
func EVMGasNeed(r EVMSimResult) uint64 {
	peak := max(r.PeakGas, r.GasUsed)
	return (peak + callStipend) * 64 / 63
}

// EVMGasLimit is the gas limit a build sets for a simulated call: EVMGasNeed plus a tenth and
// 20,000 for the state changing before the transaction is mined (a storage slot it writes becoming
// zero or non-zero costs up to about 20,000 more). Unused gas is not charged.
func EVMGasLimit(r EVMSimResult) uint64 {
	need := EVMGasNeed(r)
	return need + need/10 + 20_000
}
