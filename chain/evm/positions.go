package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// LP positions: LP tokens held in owners' wallets and staked in the farms of Uniswap's
// liquidity-staker (StakingRewardsFactory and its StakingRewards), read in one JSON-RPC batch.
//
// Farm discovery enumerates each configured factory's farms (its public stakingTokens array, then
// stakingRewardsInfoByStakingToken for each) once, and keeps them: a factory only ever adds farms,
// and never changes the farm of a staking token. Every positions read also asks each factory for
// the entry after the last one known, in the same batch; when it exists, the new farms are
// enumerated and the read made again. So a positions read reads every owner's stake in every farm
// of the factories, costs one round trip when no farm was added since the last read (two beyond
// MaxCalldataPerCall), and its calls grow with owners x farms, never with the number of pools.
// The factory emits no event when it deploys a farm, which is why farms are enumerated rather
// than indexed.

// farmPageSize is how many stakingTokens entries one enumeration round reads: each is an eth_call
// of its own in the round's JSON-RPC batch, well within the batch limits of common providers.
const farmPageSize = 32

// Farm is one StakingRewards farm of a StakingRewardsFactory.
type Farm struct {
	Address      common.Address // the StakingRewards contract
	StakingToken common.Address // the LP token it stakes
	RewardToken  common.Address // the token it pays (the factory's rewardsToken)
}

// stakingTokenCall is the eth_call of factory.stakingTokens(i). Past the end of the array it fails
// with an invalid opcode, which burns all the gas it is given (the factory is Solidity 0.5): so it
// is always sent as an eth_call of its own in a JSON-RPC batch, never inside an aggregate3, where
// it would starve the calls after it.
func stakingTokenCall(factory common.Address, i int) callArgs {
	return callArgs{To: factory, Data: pack(stakingFactoryABI, "stakingTokens", big.NewInt(int64(i)))}
}

// Farms enumerates a StakingRewardsFactory's farms from the from-th one (0: all of them), in the
// order it deployed them: stakingTokens(i) until the array ends, and each staking token's farm
// (stakingRewardsInfoByStakingToken). Each round is one JSON-RPC batch that reads a page of
// farmPageSize entries together with the farms of the previous page, so n farms cost
// n/farmPageSize + 2 round trips at most. An address that is not a factory has no farms. Errors
// are *Error: KindUnavailable, KindTimeout, KindCanceled or KindBadResponse (a staking token
// without a farm, or farms without a rewardsToken).
func (r *Reader) Farms(ctx context.Context, factory common.Address, from int) ([]Farm, error) {
	const op = "staking farms"
	var out []Farm
	var pending []common.Address // staking tokens whose farm is still to be read
	var reward *common.Address
	for next, more := from, true; more || len(pending) > 0; {
		var calls []call
		for _, t := range pending {
			calls = append(calls, call{Target: factory, AllowFailure: true, CallData: pack(stakingFactoryABI, "stakingRewardsInfoByStakingToken", t)})
		}
		if reward == nil {
			calls = append(calls, call{Target: factory, AllowFailure: true, CallData: pack(stakingFactoryABI, "rewardsToken")})
		}
		var probes []callArgs
		for i := 0; more && i < farmPageSize; i++ {
			probes = append(probes, stakingTokenCall(factory, next+i))
		}
		res, found, err := r.callBatch(ctx, op, "latest", calls, probes)
		if err != nil {
			return nil, err
		}
		for _, t := range pending {
			farm, ok := address(res[0])
			res = res[1:]
			if !ok || farm == (common.Address{}) {
				return nil, badResponse(op, "factory %s lists staking token %s without a farm", factory, t)
			}
			out = append(out, Farm{Address: farm, StakingToken: t})
		}
		if reward == nil {
			if a, ok := address(res[0]); ok {
				reward = &a
			}
		}
		pending = nil
		for _, data := range found {
			t, ok := address(result{Success: data != nil, ReturnData: data})
			if !ok {
				break // past the end of stakingTokens (or not a factory)
			}
			pending = append(pending, t)
		}
		next += len(pending)
		more = len(probes) > 0 && len(pending) == len(probes)
	}
	if len(out) > 0 && reward == nil {
		return nil, badResponse(op, "factory %s has farms but no rewardsToken", factory)
	}
	for i := range out {
		out[i].RewardToken = *reward
	}
	return out, nil
}

// callBatch sends, in one JSON-RPC batch at block tag, the aggregate3 eth_calls of calls (chunked
// at MaxCalldataPerCall; none when calls is empty) and the plain eth_calls singles. It returns
// the aggregate results, one per call, and each single's return data, nil when it failed with a
// JSON-RPC error (a revert, an invalid opcode). The batch failing, or an aggregate3 failing, is
// an *Error.
func (r *Reader) callBatch(ctx context.Context, op, tag string, calls []call, singles []callArgs) ([]result, [][]byte, error) {
	var chunks [][]call
	if len(calls) > 0 {
		chunks = chunk(calls)
	}
	raw := make([]hexutil.Bytes, len(chunks)+len(singles))
	batch := make([]rpc.BatchElem, 0, len(raw))
	for i, c := range chunks {
		data, err := multicall3ABI.Pack("aggregate3", c)
		if err != nil {
			return nil, nil, newError(op, KindInvalidInput, fmt.Errorf("pack aggregate3: %w", err))
		}
		batch = append(batch, rpc.BatchElem{Method: "eth_call", Args: []any{callArgs{To: r.multicall, Data: data}, tag}, Result: &raw[i]})
	}
	for i, c := range singles {
		batch = append(batch, rpc.BatchElem{Method: "eth_call", Args: []any{c, tag}, Result: &raw[len(chunks)+i]})
	}
	if len(batch) == 0 {
		return nil, nil, nil
	}
	if err := r.rpc.BatchCallContext(ctx, batch); err != nil {
		return nil, nil, classify(ctx, op, err)
	}
	var res []result
	for i, c := range chunks {
		if err := batch[i].Error; err != nil {
			return nil, nil, classify(ctx, op, err)
		}
		rs, err := decodeAggregate(op, raw[i], len(c))
		if err != nil {
			return nil, nil, err
		}
		res = append(res, rs...)
	}
	out := make([][]byte, len(singles))
	for i := range singles {
		b := batch[len(chunks)+i]
		var rpcErr rpc.Error
		switch {
		case b.Error == nil:
			out[i] = raw[len(chunks)+i]
		case !errors.As(b.Error, &rpcErr):
			return nil, nil, classify(ctx, op, b.Error) // not the call's own failure
		}
	}
	return res, out, nil
}

// Stake is an owner's stake in a farm, as Positions reads it.
type Stake struct {
	Staked *big.Int // balanceOf: LP base units
	Earned *big.Int // earned: reward base units claimable at the read's block
	OK     bool     // false when the farm did not answer both
}

// PositionsState is what Positions read, at Block.
type PositionsState struct {
	Block  uint64
	Pairs  []PairState      // one per distinct pair among the pools and the farms' staking tokens, by address
	Held   [][]*big.Int     // Held[i][j]: owners[i]'s balance of pools[i][j]; nil when it did not answer
	Stakes [][]Stake        // Stakes[i][k]: owners[i]'s stake in farms[k]
	Next   []common.Address // per probe: the factory's stakingTokens(Known) when it exists, else the zero address
}

// Positions reads, in one JSON-RPC batch, owners[i]'s balance of each of pools[i], every owner's
// balanceOf and earned in every farm, and the state of every distinct pair among the pools and
// the farms' staking tokens, in one aggregate3 eth_call with Multicall3's getBlockNumber (the
// block pinned first, one more round trip, only beyond MaxCalldataPerCall); and, for each probe,
// the factory's stakingTokens(probe.Known) in an eth_call of its own: whether it has deployed
// farms beyond those known. Errors are *Error: KindInvalidInput (pool lists and owners of
// different lengths), KindUnavailable, KindTimeout, KindCanceled or KindBadResponse (no Multicall3
// there).
func (r *Reader) Positions(ctx context.Context, owners []common.Address, pools [][]common.Address, farms []Farm, probes []FactoryProbe) (PositionsState, error) {
	const op = "lp positions"
	if len(pools) != len(owners) {
		return PositionsState{}, newError(op, KindInvalidInput, fmt.Errorf("%d pool lists for %d owners", len(pools), len(owners)))
	}
	var pairs []common.Address
	for _, list := range pools {
		pairs = append(pairs, list...)
	}
	for _, f := range farms {
		pairs = append(pairs, f.StakingToken)
	}
	slices.SortFunc(pairs, func(a, b common.Address) int { return a.Cmp(b) })
	pairs = slices.Compact(pairs)

	var calls []call
	for i, o := range owners {
		for _, p := range pools[i] {
			calls = append(calls, call{Target: p, AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", o)})
		}
		for _, f := range farms {
			calls = append(calls,
				call{Target: f.Address, AllowFailure: true, CallData: pack(stakingABI, "balanceOf", o)},
				call{Target: f.Address, AllowFailure: true, CallData: pack(stakingABI, "earned", o)})
		}
	}
	for _, p := range pairs {
		calls = append(calls, pairCalls(p)...)
	}
	calls = append(calls, call{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getBlockNumber")})
	singles := make([]callArgs, len(probes))
	for i, p := range probes {
		singles[i] = stakingTokenCall(p.Factory, p.Known)
	}
	tag := "latest"
	if len(chunk(calls)) > 1 {
		n, err := r.blockNumber(ctx, op)
		if err != nil {
			return PositionsState{}, err
		}
		tag = hexutil.EncodeUint64(n)
	}
	res, next, err := r.callBatch(ctx, op, tag, calls, singles)
	if err != nil {
		return PositionsState{}, err
	}
	at, ok := word(res[len(res)-1])
	if !ok || !at.IsUint64() {
		return PositionsState{}, badResponse(op, "getBlockNumber failed at %s: is Multicall3 deployed there?", r.multicall)
	}
	st := PositionsState{Block: at.Uint64(), Held: make([][]*big.Int, len(owners)), Stakes: make([][]Stake, len(owners))}
	take := func(n int) []result { rs := res[:n]; res = res[n:]; return rs }
	for i := range owners {
		st.Held[i] = make([]*big.Int, len(pools[i]))
		for j := range pools[i] {
			st.Held[i][j], _ = word(take(1)[0])
		}
		st.Stakes[i] = make([]Stake, len(farms))
		for k := range farms {
			rs := take(2)
			staked, ok1 := word(rs[0])
			earned, ok2 := word(rs[1])
			st.Stakes[i][k] = Stake{Staked: staked, Earned: earned, OK: ok1 && ok2}
		}
	}
	for _, p := range pairs {
		st.Pairs = append(st.Pairs, decodePair(p, take(len(pairGetters)), st.Block))
	}
	for _, data := range next {
		a, _ := address(result{Success: data != nil, ReturnData: data}) // past the end: the zero address
		st.Next = append(st.Next, a)
	}
	return st, nil
}

// FactoryProbe asks Positions whether Factory has deployed more than Known farms.
type FactoryProbe struct {
	Factory common.Address
	Known   int
}

// farmList is one StakingRewardsFactory's farms as far as they are known. Safe for concurrent use.
type farmList struct {
	factory common.Address
	mu      sync.Mutex
	loaded  bool
	farms   []Farm
}

// known returns the farms known so far and whether they were ever enumerated.
func (l *farmList) known() ([]Farm, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.farms, l.loaded
}

// update enumerates the farms beyond those known (all of them the first time), unless another
// caller already went past had.
func (l *farmList) update(ctx context.Context, r *Reader, had int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.loaded && len(l.farms) > had {
		return nil
	}
	more, err := r.Farms(ctx, l.factory, len(l.farms))
	if err != nil {
		return err
	}
	l.farms, l.loaded = append(slices.Clip(l.farms), more...), true
	return nil
}

// withFarms makes the source read the farms of the StakingRewardsFactories given (empty ones are
// skipped) in LPPositions. It must be called before the source is used.
func (s *Source) withFarms(factories ...string) *Source {
	for _, f := range factories {
		if f != "" {
			s.farms = append(s.farms, &farmList{factory: common.HexToAddress(f)})
		}
	}
	return s
}

var _ chain.EVMPositionSource = (*Source)(nil)

// LPPositions implements chain.EVMPositionSource over Reader.Positions. The first read enumerates
// the factories' farms (Reader.Farms); a read that finds a factory has deployed farms since
// enumerates the new ones and reads again, once.
func (s *Source) LPPositions(ctx context.Context, owners []string, pools [][]string) (chain.LPPositions, error) {
	if len(pools) != len(owners) {
		return chain.LPPositions{}, newError("lp positions", KindInvalidInput, fmt.Errorf("%d pool lists for %d owners", len(pools), len(owners)))
	}
	out := chain.LPPositions{Pairs: map[string]chain.PairState{}, Held: make([][]*big.Int, len(owners)),
		Stakes: make([][]chain.FarmStake, len(owners)), Unanswered: make([][]string, len(owners))}
	for i := range owners {
		out.Held[i] = make([]*big.Int, len(pools[i]))
	}
	each := make([][]common.Address, len(pools))
	toRead := len(s.farms) > 0
	for i, list := range pools {
		each[i] = addresses(list)
		toRead = toRead || len(list) > 0
	}
	if len(owners) == 0 || !toRead {
		return out, nil
	}
	for _, l := range s.farms {
		if _, loaded := l.known(); !loaded {
			if err := l.update(ctx, s.reader, 0); err != nil {
				return chain.LPPositions{}, err
			}
		}
	}
	var st PositionsState
	var farms []Farm
	for attempt := 0; ; attempt++ {
		farms = farms[:0]
		probes := make([]FactoryProbe, len(s.farms))
		for i, l := range s.farms {
			known, _ := l.known()
			farms = append(farms, known...)
			probes[i] = FactoryProbe{Factory: l.factory, Known: len(known)}
		}
		var err error
		if st, err = s.reader.Positions(ctx, addresses(owners), each, farms, probes); err != nil {
			return chain.LPPositions{}, err
		}
		stale := false
		for i, next := range st.Next {
			if next != (common.Address{}) {
				stale = true
				if err := s.farms[i].update(ctx, s.reader, probes[i].Known); err != nil {
					return chain.LPPositions{}, err
				}
			}
		}
		if !stale || attempt == 1 {
			break // a farm deployed between the two reads is read from the next one on
		}
	}
	out.Block, out.Farms = st.Block, len(farms)
	for _, p := range st.Pairs {
		out.Pairs[canonical(p.Address)] = chainPair(p)
	}
	order := make([]int, len(farms)) // farms by staking token, then address
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := farms[a].StakingToken.Cmp(farms[b].StakingToken); c != 0 {
			return c
		}
		return farms[a].Address.Cmp(farms[b].Address)
	})
	for i := range owners {
		out.Held[i] = st.Held[i]
		for _, k := range order {
			stake, f := st.Stakes[i][k], farms[k]
			if !stake.OK {
				out.Unanswered[i] = append(out.Unanswered[i], canonical(f.Address))
				continue
			}
			if stake.Staked.Sign() == 0 && stake.Earned.Sign() == 0 {
				continue
			}
			out.Stakes[i] = append(out.Stakes[i], chain.FarmStake{Farm: canonical(f.Address), StakingToken: canonical(f.StakingToken),
				RewardToken: canonical(f.RewardToken), Staked: stake.Staked, Earned: stake.Earned})
		}
	}
	return out, nil
}

// chainPair is a PairState as chain.PairState: a pair is its own LP token.
func chainPair(p PairState) chain.PairState {
	s := chain.PairState{Address: canonical(p.Address), Token0: canonical(p.Token0), Token1: canonical(p.Token1),
		Reserve0: p.Reserve0, Reserve1: p.Reserve1, TotalSupply: p.TotalSupply, OK: p.OK(), Block: p.Block}
	if s.OK {
		s.LPToken = s.Address
	}
	return s
}
