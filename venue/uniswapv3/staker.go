package uniswapv3

import (
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// The venue's farm builds (chain.V3StakerVenue) on the UniswapV3Staker (@uniswap/v3-staker
// 1.0.2): a position is deposited and staked in one position manager safeTransferFrom carrying
// the incentive's key; unstaking, claiming and withdrawing (or staking again) are one staker
// multicall. The staker credits a stake's rewards to its owner only when it is unstaked, and
// claimReward pays what it credited.

var _ chain.V3StakerVenue = Venue{}

// stakerABI is the part of the UniswapV3Staker and of the position manager the farm builds call.
var stakerABI = func() abi.ABI {
	const key = `{"name":"key","type":"tuple","components":[{"name":"rewardToken","type":"address"},{"name":"pool","type":"address"},
 {"name":"startTime","type":"uint256"},{"name":"endTime","type":"uint256"},{"name":"refundee","type":"address"}]}`
	fragments := `[
{"type":"function","name":"safeTransferFrom","stateMutability":"nonpayable","inputs":[{"name":"from","type":"address"},{"name":"to","type":"address"},
 {"name":"tokenId","type":"uint256"},{"name":"data","type":"bytes"}],"outputs":[]},
{"type":"function","name":"stakeToken","stateMutability":"nonpayable","inputs":[` + key + `,{"name":"tokenId","type":"uint256"}],"outputs":[]},
{"type":"function","name":"unstakeToken","stateMutability":"nonpayable","inputs":[` + key + `,{"name":"tokenId","type":"uint256"}],"outputs":[]},
{"type":"function","name":"claimReward","stateMutability":"nonpayable","inputs":[{"name":"rewardToken","type":"address"},{"name":"to","type":"address"},
 {"name":"amountRequested","type":"uint256"}],"outputs":[{"name":"reward","type":"uint256"}]},
{"type":"function","name":"withdrawToken","stateMutability":"nonpayable","inputs":[{"name":"tokenId","type":"uint256"},{"name":"to","type":"address"},
 {"name":"data","type":"bytes"}],"outputs":[]},
{"type":"function","name":"multicall","stateMutability":"payable","inputs":[{"name":"data","type":"bytes[]"}],"outputs":[{"name":"results","type":"bytes[]"}]}
]`
	return mustABI(fragments)
}()

// incentiveKey is the staker's IncentiveKey.
type incentiveKey struct {
	RewardToken, Pool  common.Address
	StartTime, EndTime *big.Int
	Refundee           common.Address
}

func keyOf(in chain.V3Incentive) incentiveKey {
	return incentiveKey{common.HexToAddress(in.RewardToken), common.HexToAddress(in.Pool), new(big.Int).SetUint64(in.StartTime),
		new(big.Int).SetUint64(in.EndTime), common.HexToAddress(in.Refundee)}
}

// StakeCall is safeTransferFrom(owner, staker, id, abi.encode(key)) on the position manager: the
// staker's onERC721Received deposits the NFT for owner and stakes it in the incentive.
func (Venue) StakeCall(cfg chain.VenueConfig, owner string, id *big.Int, in chain.V3Incentive) chain.EVMCall {
	k := keyOf(in)
	var data []byte
	for _, w := range [][]byte{k.RewardToken[:], k.Pool[:], k.StartTime.Bytes(), k.EndTime.Bytes(), k.Refundee[:]} {
		data = append(data, common.LeftPadBytes(w, 32)...)
	}
	return chain.EVMCall{To: strings.ToLower(cfg.PositionManager),
		Data: packCall(stakerABI, "safeTransferFrom", common.HexToAddress(owner), common.HexToAddress(cfg.Staker), id, data)}
}

// WithdrawCall is the staker's multicall of unstakeToken(key, id) for each incentive of staked,
// claimReward(token, recipient, 0) for each of their reward tokens (0 claims everything owed), and
// withdrawToken(id, recipient, "").
func (Venue) WithdrawCall(cfg chain.VenueConfig, id *big.Int, staked []chain.V3Incentive, recipient string) chain.EVMCall {
	calls := unstakeAndClaim(id, staked, recipient)
	calls = append(calls, packCall(stakerABI, "withdrawToken", id, common.HexToAddress(recipient), []byte{}))
	return chain.EVMCall{To: strings.ToLower(cfg.Staker), Data: packCall(stakerABI, "multicall", calls)}
}

// HarvestCall is the staker's multicall of unstakeToken(key, id) for each incentive of staked,
// claimReward(token, recipient, 0) for each of their reward tokens, and stakeToken(key, id) for
// each again.
func (Venue) HarvestCall(cfg chain.VenueConfig, id *big.Int, staked []chain.V3Incentive, recipient string) chain.EVMCall {
	calls := unstakeAndClaim(id, staked, recipient)
	for _, in := range staked {
		calls = append(calls, packCall(stakerABI, "stakeToken", keyOf(in), id))
	}
	return chain.EVMCall{To: strings.ToLower(cfg.Staker), Data: packCall(stakerABI, "multicall", calls)}
}

// unstakeAndClaim are the unstakeToken calls of id from each incentive of staked, then a
// claimReward of everything owed of each distinct reward token, to recipient.
func unstakeAndClaim(id *big.Int, staked []chain.V3Incentive, recipient string) [][]byte {
	var calls [][]byte
	for _, in := range staked {
		calls = append(calls, packCall(stakerABI, "unstakeToken", keyOf(in), id))
	}
	seen := map[string]bool{}
	for _, in := range staked {
		if !seen[in.RewardToken] {
			seen[in.RewardToken] = true
			calls = append(calls, packCall(stakerABI, "claimReward", common.HexToAddress(in.RewardToken), common.HexToAddress(recipient), new(big.Int)))
		}
	}
	return calls
}
