package evm

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// A position NFT as the position manager and the UniswapV3Staker (@uniswap/v3-staker 1.0.2) see it,
// for the builds on a position, in one JSON-RPC batch: an aggregate3 of the position manager's
// ownerOf(id) and positions(id), the staker's deposits(id), and the block's number and time; and
// eth_getLogs of every IncentiveCreated the staker emitted (the staker does not list its
// incentives: their keys are only in these logs; logs after the aggregate's block are left out; a
// node refusing the query, over a range too long for it, fails only a read that needs them).
// Without a staker (or with PositionOnly), the aggregate alone, without deposits(id). The stakes
// themselves are read with the build's state (chain.EVMTradeRead.Stakes).

// incentiveCreated is IncentiveCreated(rewardToken indexed, pool indexed, startTime, endTime,
// refundee, reward)'s topic.
var incentiveCreated = crypto.Keccak256Hash([]byte("IncentiveCreated(address,address,uint256,uint256,address,uint256)"))

// v3StakerABI holds the staker's getters the read calls beyond v3PositionsABI's; their results are
// decoded word by word.
var v3StakerABI = func() abi.ABI {
	const key = `{"name":"key","type":"tuple","components":[{"name":"rewardToken","type":"address"},{"name":"pool","type":"address"},
 {"name":"startTime","type":"uint256"},{"name":"endTime","type":"uint256"},{"name":"refundee","type":"address"}]}`
	fragments := `[
{"type":"function","name":"ownerOf","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[]},
{"type":"function","name":"incentives","stateMutability":"view","inputs":[{"name":"id","type":"bytes32"}],"outputs":[]},
{"type":"function","name":"stakes","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"},{"name":"id","type":"bytes32"}],"outputs":[]},
{"type":"function","name":"getRewardInfo","stateMutability":"view","inputs":[` + key + `,{"name":"tokenId","type":"uint256"}],"outputs":[]},
{"type":"function","name":"rewards","stateMutability":"view","inputs":[{"name":"rewardToken","type":"address"},{"name":"owner","type":"address"}],"outputs":[]}
]`
	a, err := abi.JSON(strings.NewReader(fragments))
	if err != nil {
		panic(err)
	}
	return a
}()

// incentiveKey is the staker's IncentiveKey as go-ethereum packs the tuple.
type incentiveKey struct {
	RewardToken, Pool  common.Address
	StartTime, EndTime *big.Int
	Refundee           common.Address
}

var _ chain.V3StakerReader = (*Source)(nil)

// V3Staker implements chain.V3StakerReader: see the rounds above. Errors are *Error:
// KindInvalidInput (a malformed address, no position manager or staker), KindUnavailable,
// KindTimeout, KindCanceled or KindBadResponse.
func (s *Source) V3Staker(ctx context.Context, q chain.V3StakerRead) (chain.V3StakerState, error) {
	const op = "v3 staker"
	w := q.Where
	for _, a := range []string{w.PositionManager, w.Staker} {
		if a != "" && !common.IsHexAddress(a) {
			return chain.V3StakerState{}, newError(op, KindInvalidInput, fmt.Errorf("%q is not an address", a))
		}
	}
	if w.PositionManager == "" || q.ID == nil {
		return chain.V3StakerState{}, newError(op, KindInvalidInput, fmt.Errorf("no position manager or position"))
	}
	r := s.reader
	npm, staker := common.HexToAddress(w.PositionManager), common.HexToAddress(w.Staker)
	deposits := w.Staker != "" && !q.PositionOnly
	calls := []call{
		{Target: npm, AllowFailure: true, CallData: pack(v3StakerABI, "ownerOf", q.ID)},
		{Target: npm, AllowFailure: true, CallData: pack(v3PositionsABI, "positions", q.ID)},
		{Target: staker, AllowFailure: true, CallData: pack(v3PositionsABI, "deposits", q.ID)},
		{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getCurrentBlockTimestamp")},
		{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getBlockNumber")},
	}
	var raw hexutil.Bytes
	var logs []types.Log
	batch := []rpc.BatchElem{
		{Method: "eth_call", Args: []any{callArgs{To: r.multicall, Data: pack(multicall3ABI, "aggregate3", calls)}, "latest"}, Result: &raw},
	}
	if deposits {
		filter := map[string]any{"address": staker, "topics": [][]common.Hash{{incentiveCreated}}, "fromBlock": hexutil.EncodeUint64(w.StakerStartBlock), "toBlock": "latest"}
		batch = append(batch, rpc.BatchElem{Method: "eth_getLogs", Args: []any{filter}, Result: &logs})
	}
	if err := r.rpc.BatchCallContext(ctx, batch); err != nil {
		return chain.V3StakerState{}, classify(ctx, op, err)
	}
	if err := batch[0].Error; err != nil {
		return chain.V3StakerState{}, classify(ctx, op, err)
	}
	res, err := decodeAggregate(op, raw, len(calls))
	if err != nil {
		return chain.V3StakerState{}, err
	}
	at, ok1 := word(res[4])
	stamp, ok2 := word(res[3])
	if !ok1 || !ok2 || !at.IsUint64() || !stamp.IsUint64() {
		return chain.V3StakerState{}, badResponse(op, "getBlockNumber failed at %s: is Multicall3 deployed there?", r.multicall)
	}
	out := chain.V3StakerState{Block: at.Uint64(), Time: stamp.Uint64()}
	if holder, ok := address(res[0]); ok {
		out.Holder = canonical(holder)
	}
	out.Position, out.PositionOK = decodePosition(q.ID, res[1], w)
	if depositor, ok := address(res[2]); deposits && ok && depositor != (common.Address{}) {
		out.Depositor = canonical(depositor)
		if n, ok := wordAt(res[2], 1); ok && n.IsInt64() {
			out.Stakes = int(n.Int64())
		}
	}
	if !out.PositionOK || !deposits {
		return out, nil
	}
	if err := batch[1].Error; err != nil {
		if q.Incentives || out.Holder == canonical(staker) {
			return chain.V3StakerState{}, classify(ctx, op, err)
		}
		return out, nil // a position in a wallet, read for what holds it
	}
	for _, l := range logs {
		in, ok := decodeIncentive(l)
		if ok && l.BlockNumber <= out.Block && l.Address == staker && in.Pool == out.Position.Pool {
			out.Incentives = append(out.Incentives, in)
		}
	}
	return out, nil
}

// decodeIncentive decodes an IncentiveCreated log into the incentive's key and id.
func decodeIncentive(l types.Log) (chain.V3Incentive, bool) {
	if len(l.Topics) != 3 || l.Topics[0] != incentiveCreated || len(l.Data) != 4*32 {
		return chain.V3Incentive{}, false
	}
	start, end := new(big.Int).SetBytes(l.Data[:32]), new(big.Int).SetBytes(l.Data[32:64])
	if !start.IsUint64() || !end.IsUint64() {
		return chain.V3Incentive{}, false
	}
	reward, pool, refundee := common.BytesToAddress(l.Topics[1][:]), common.BytesToAddress(l.Topics[2][:]), common.BytesToAddress(l.Data[64:96])
	encoded := make([]byte, 0, 5*32)
	for _, w := range [][]byte{reward[:], pool[:], start.Bytes(), end.Bytes(), refundee[:]} {
		encoded = append(encoded, common.LeftPadBytes(w, 32)...)
	}
	return chain.V3Incentive{ID: crypto.Keccak256Hash(encoded).Hex(), RewardToken: canonical(reward), Pool: canonical(pool),
		StartTime: start.Uint64(), EndTime: end.Uint64(), Refundee: canonical(refundee)}, true
}
