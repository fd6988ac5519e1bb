package evm

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// What quotes and builds read from the chain: one ReadTrade call gathers, at one block and in ONE
// JSON-RPC round trip, the pairs' reserves, the user's balances, allowances, native balance and
// nonce, token decimals, farms, and the fee market.

var (
	stakingABI        = mustABI("abi/staking_rewards.json")
	stakingFactoryABI = mustABI("abi/staking_rewards_factory.json")
)

// ReadTrade reads what a quote or a build needs in one JSON-RPC batch: one aggregate3 eth_call at
// the latest block (with Multicall3's getBlockNumber and getCurrentBlockTimestamp, so the state
// says its block and that block's time), the latest header (base fee), eth_feeHistory of it (the
// next block's base fee), eth_maxPriorityFeePerGas and, with an owner, its pending nonce. Reads beyond
// MaxCalldataPerCall pin the block first (one more round trip). A chain without EIP-1559 reports
// a zero base fee. Errors are *Error: KindInvalidInput (a malformed address), KindUnavailable,
// KindTimeout, KindCanceled or KindBadResponse.
func (r *Reader) ReadTrade(ctx context.Context, q chain.EVMTradeRead) (chain.EVMTradeState, error) {
	const op = "trade read"
	addrs, err := parseAll(q)
	if err != nil {
		return chain.EVMTradeState{}, newError(op, KindInvalidInput, err)
	}
	owner := addrs.owner
	var calls []call
	for _, p := range addrs.pairs {
		calls = append(calls, pairCalls(p)...)
	}
	var v3 v3Plan
	if len(q.V3Pools) > 0 {
		var v3Calls []call
		if v3, v3Calls, err = r.planV3(common.HexToAddress(q.TickLens), q.V3Pools); err != nil {
			return chain.EVMTradeState{}, newError(op, KindInvalidInput, err)
		}
		calls = append(calls, v3Calls...)
	}
	if q.Owner != "" {
		calls = append(calls, call{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getEthBalance", owner)})
		for _, t := range addrs.balances {
			calls = append(calls, call{Target: t, AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", owner)})
		}
		for _, a := range addrs.allowances {
			calls = append(calls, call{Target: a[0], AllowFailure: true, CallData: pack(erc20ABI, "allowance", owner, a[1])})
		}
	}
	for _, t := range addrs.decimals {
		calls = append(calls, call{Target: t, AllowFailure: true, CallData: pack(erc20ABI, "decimals")})
	}
	for _, f := range addrs.farms {
		calls = append(calls,
			call{Target: f, AllowFailure: true, CallData: pack(stakingABI, "stakingToken")},
			call{Target: f, AllowFailure: true, CallData: pack(stakingABI, "rewardsToken")},
			call{Target: f, AllowFailure: true, CallData: pack(stakingABI, "balanceOf", owner)},
			call{Target: f, AllowFailure: true, CallData: pack(stakingABI, "earned", owner)})
	}
	for _, p := range addrs.farmPairs {
		calls = append(calls, call{Target: addrs.farmFactory, AllowFailure: true, CallData: pack(stakingFactoryABI, "stakingRewardsInfoByStakingToken", p)})
	}
	for _, p := range q.Positions {
		calls = append(calls, positionCalls(p)...)
	}
	stakes := make([]int, len(q.Stakes)) // each read's number of calls
	for i, sr := range q.Stakes {
		sc := stakesCalls(sr)
		stakes[i] = len(sc)
		calls = append(calls, sc...)
	}
	calls = append(calls, call{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getCurrentBlockTimestamp")},
		call{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getBlockNumber")})

	tag := "latest"
	chunks := chunk(calls)
	if len(chunks) > 1 {
		n, err := r.blockNumber(ctx, op)
		if err != nil {
			return chain.EVMTradeState{}, err
		}
		tag = hexutil.EncodeUint64(n)
	}
	raw := make([]hexutil.Bytes, len(chunks))
	var batch []rpc.BatchElem
	for i, c := range chunks {
		data, err := multicall3ABI.Pack("aggregate3", c)
		if err != nil {
			return chain.EVMTradeState{}, newError(op, KindInvalidInput, fmt.Errorf("pack aggregate3: %w", err))
		}
		batch = append(batch, rpc.BatchElem{Method: "eth_call", Args: []any{callArgs{To: r.multicall, Data: data}, tag}, Result: &raw[i]})
	}
	var head feeHeader
	var tip hexutil.Big
	var nonce hexutil.Uint64
	batch = append(batch,
		rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{tag, false}, Result: &head},
		rpc.BatchElem{Method: "eth_maxPriorityFeePerGas", Result: &tip})
	if q.Owner != "" {
		batch = append(batch, rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{owner, "pending"}, Result: &nonce})
	}
	probes := make([]hexutil.Bytes, len(q.TaxProbes))
	firstProbe := len(batch)
	for i, p := range q.TaxProbes {
		data, err := probeABI.Pack("audit", common.HexToAddress(p.Pair), common.HexToAddress(p.Token), common.HexToAddress(p.WrappedNative), common.HexToAddress(p.Factory), probeAmountWei)
		if err != nil {
			return chain.EVMTradeState{}, newError(op, KindInvalidInput, fmt.Errorf("pack probe: %w", err))
		}
		override := map[common.Address]overrideAccount{probeAddress: {Code: probeCode, Balance: (*hexutil.Big)(probeAmountWei)}}
		batch = append(batch, rpc.BatchElem{Method: "eth_call", Args: []any{callArgs{To: probeAddress, Data: data}, tag, override}, Result: &probes[i]})
	}
	// The next block's base fee as the node computes it, with the chain's own parameters: the last
	// of baseFeePerGas. Not required: without it, the header gives it (nextBaseFee).
	var history struct {
		BaseFees []*hexutil.Big `json:"baseFeePerGas"`
	}
	batch = append(batch, rpc.BatchElem{Method: "eth_feeHistory", Args: []any{hexutil.Uint64(1), tag, []float64{}}, Result: &history})
	if err := r.rpc.BatchCallContext(ctx, batch); err != nil {
		return chain.EVMTradeState{}, classify(ctx, op, err)
	}
	for _, b := range batch[:firstProbe] { // a probe's own error is its simulation's outcome
		if b.Error != nil {
			return chain.EVMTradeState{}, classify(ctx, op, b.Error)
		}
	}
	var res []result
	for i, data := range raw {
		rs, err := decodeAggregate(op, data, len(chunks[i]))
		if err != nil {
			return chain.EVMTradeState{}, err
		}
		res = append(res, rs...)
	}
	at, ok := word(res[len(res)-1])
	if !ok || !at.IsUint64() {
		return chain.EVMTradeState{}, badResponse(op, "getBlockNumber failed at %s: is Multicall3 deployed there?", r.multicall)
	}
	stamp, ok := word(res[len(res)-2])
	if !ok || !stamp.IsUint64() {
		return chain.EVMTradeState{}, badResponse(op, "getCurrentBlockTimestamp failed at %s: is Multicall3 deployed there?", r.multicall)
	}
	res = res[:len(res)-2]
	st := chain.EVMTradeState{Block: at.Uint64(), Time: stamp.Uint64(), BaseFee: new(big.Int), Tip: tip.ToInt(), Nonce: uint64(nonce)}
	if head.BaseFee != nil {
		st.BaseFee = head.BaseFee.ToInt()
		st.NextBaseFee = nextBaseFee(head)
		if h := history.BaseFees; batch[len(batch)-1].Error == nil && len(h) == 2 && h[1] != nil {
			st.NextBaseFee = h[1].ToInt()
		}
	}
	take := func(n int) []result { rs := res[:n]; res = res[n:]; return rs }
	for _, p := range addrs.pairs {
		st.Pairs = append(st.Pairs, chainPair(decodePair(p, take(len(pairGetters)), st.Block)))
	}
	if len(q.V3Pools) > 0 {
		if st.V3Pools, err = r.finishV3(ctx, op, v3, take(v3.calls()), st.Block); err != nil {
			return chain.EVMTradeState{}, err
		}
	}
	if q.Owner != "" {
		if st.Native, ok = word(take(1)[0]); !ok {
			return chain.EVMTradeState{}, badResponse(op, "getEthBalance failed at %s: is Multicall3 deployed there?", r.multicall)
		}
		for range addrs.balances {
			v, _ := word(take(1)[0])
			st.Balances = append(st.Balances, v)
		}
		for range addrs.allowances {
			v, _ := word(take(1)[0])
			st.Allowances = append(st.Allowances, v)
		}
	}
	for range addrs.decimals {
		d := -1
		if v, ok := word(take(1)[0]); ok && v.IsUint64() && v.Uint64() <= 255 {
			d = int(v.Uint64())
		}
		st.Decimals = append(st.Decimals, d)
	}
	for _, f := range addrs.farms {
		rs := take(4)
		fs := chain.EVMFarmState{Address: canonical(f)}
		staking, ok1 := address(rs[0])
		reward, ok2 := address(rs[1])
		staked, ok3 := word(rs[2])
		earned, ok4 := word(rs[3])
		if fs.OK = ok1 && ok2 && ok3 && ok4; fs.OK {
			fs.StakingToken, fs.RewardToken, fs.Staked, fs.Earned = canonical(staking), canonical(reward), staked, earned
		}
		st.Farms = append(st.Farms, fs)
	}
	for i := range q.TaxProbes {
		if p, reason := decodeProbe(batch[firstProbe+i].Error, probes[i]); p != nil {
			st.TaxSims = append(st.TaxSims, simulation(p))
		} else {
			st.TaxSims = append(st.TaxSims, chain.Simulation{Reason: reason})
		}
	}
	for range addrs.farmPairs {
		farm := ""
		if a, ok := address(take(1)[0]); ok && a != (common.Address{}) {
			farm = canonical(a)
		}
		st.FarmsOf = append(st.FarmsOf, farm)
	}
	for _, p := range q.Positions {
		st.Positions = append(st.Positions, decodePositionState(p, take(positionCallCount)))
	}
	for i, sr := range q.Stakes {
		st.Stakes = append(st.Stakes, decodeStakes(sr, take(stakes[i])))
	}
	return st, nil
}

// tradeAddrs is a chain.EVMTradeRead's addresses, parsed.
type tradeAddrs struct {
	owner                            common.Address
	pairs, balances, decimals, farms []common.Address
	farmPairs                        []common.Address
	farmFactory                      common.Address
	allowances                       [][2]common.Address
}

func parseAll(q chain.EVMTradeRead) (tradeAddrs, error) {
	var a tradeAddrs
	var err error
	one := func(what, s string) common.Address {
		if err == nil && !common.IsHexAddress(s) {
			err = fmt.Errorf("%s %q is not an address", what, s)
		}
		return common.HexToAddress(s)
	}
	list := func(what string, in []string) []common.Address {
		out := make([]common.Address, len(in))
		for i, s := range in {
			out[i] = one(what, s)
		}
		return out
	}
	if q.Owner != "" {
		a.owner = one("owner", q.Owner)
	}
	a.pairs, a.balances, a.decimals, a.farms = list("pair", q.Pairs), list("token", q.Balances), list("token", q.Decimals), list("farm", q.Farms)
	for _, al := range q.Allowances {
		a.allowances = append(a.allowances, [2]common.Address{one("token", al.Token), one("spender", al.Spender)})
	}
	if len(q.FarmsOf.Pairs) > 0 {
		a.farmFactory, a.farmPairs = one("staking rewards factory", q.FarmsOf.Factory), list("pair", q.FarmsOf.Pairs)
	}
	if err == nil && q.Owner == "" && (len(q.Balances) > 0 || len(q.Allowances) > 0) {
		err = fmt.Errorf("balances and allowances need an owner")
	}
	for _, p := range q.Positions {
		for _, s := range []string{p.Where.PositionManager, p.Position.Pool, p.Position.Token0, p.Position.Token1} {
			one("position address", s)
		}
		if err == nil && (p.Position.ID == nil || p.Position.ID.Sign() < 0 || p.Position.ID.BitLen() > 256) {
			err = fmt.Errorf("position id %v is not a uint256", p.Position.ID)
		}
	}
	for _, sr := range q.Stakes {
		one("staker", sr.Staker)
		one("owner", sr.Owner)
		if err == nil && (sr.ID == nil || sr.ID.Sign() < 0 || sr.ID.BitLen() > 256) {
			err = fmt.Errorf("position id %v is not a uint256", sr.ID)
		}
	}
	return a, err
}

// ReadTrade implements trade.EVM.
func (s *Source) ReadTrade(ctx context.Context, q chain.EVMTradeRead) (chain.EVMTradeState, error) {
	return s.reader.ReadTrade(ctx, q)
}

// Simulate implements trade.EVM.
func (s *Source) Simulate(ctx context.Context, next chain.EVMNextBlock, from string, calls []chain.EVMCall) ([]chain.EVMSimResult, error) {
	return s.reader.Simulate(ctx, next, from, calls)
}

// feeHeader is the part of a block header the fee market is read from.
type feeHeader struct {
	BaseFee  *hexutil.Big   `json:"baseFeePerGas"` // nil before London
	GasUsed  hexutil.Uint64 `json:"gasUsed"`
	GasLimit hexutil.Uint64 `json:"gasLimit"`
}

// nextBaseFee is the base fee per gas of the block after h by EIP-1559 with Ethereum's parameters
// (elasticity 2, change denominator 8): up by at most an eighth when h used more than half its gas
// limit, down by at most an eighth when less. Chains with other parameters (OP Stack's) differ; it
// is the fallback for a node that does not answer eth_feeHistory.
func nextBaseFee(h feeHeader) *big.Int {
	base := h.BaseFee.ToInt()
	target, used := uint64(h.GasLimit)/2, uint64(h.GasUsed)
	if target == 0 || used == target {
		return new(big.Int).Set(base)
	}
	gap := used - target
	if used < target {
		gap = target - used
	}
	delta := new(big.Int).Mul(base, new(big.Int).SetUint64(gap))
	delta.Quo(delta, new(big.Int).SetUint64(target))
	delta.Quo(delta, big.NewInt(8))
	if used > target {
		if delta.Sign() == 0 { // an increase is at least 1 wei
			delta.SetInt64(1)
		}
		return delta.Add(base, delta)
	}
	return delta.Sub(base, delta)
}
