package evm

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// v3ABI holds the Uniswap V3 pool getters V3Pools reads and TickLens's getPopulatedTicksInWord.
// slot0 is decoded by hand (its first two words only), so forks whose slot0 has other trailing
// fields (PancakeSwap V3's uint32 feeProtocol) decode too.
var v3ABI = func() abi.ABI {
	const fragments = `[
{"type":"function","name":"token0","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"token1","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"fee","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint24"}]},
{"type":"function","name":"tickSpacing","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"int24"}]},
{"type":"function","name":"slot0","stateMutability":"view","inputs":[],"outputs":[{"name":"sqrtPriceX96","type":"uint160"},{"name":"tick","type":"int24"}]},
{"type":"function","name":"liquidity","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint128"}]},
{"type":"function","name":"getPopulatedTicksInWord","stateMutability":"view","inputs":[{"name":"pool","type":"address"},{"name":"tickBitmapIndex","type":"int16"}],
 "outputs":[{"name":"populatedTicks","type":"tuple[]","components":[{"name":"tick","type":"int24"},{"name":"liquidityNet","type":"int128"},{"name":"liquidityGross","type":"uint128"}]}]}
]`
	a, err := abi.JSON(strings.NewReader(fragments))
	if err != nil {
		panic(err)
	}
	return a
}()

// v3Getters are the pool calls V3Pools makes for each pool, in order, before its TickLens calls.
var v3Getters = []string{"token0", "token1", "fee", "tickSpacing", "slot0", "liquidity"}

// populatedTick is one TickLens result.
type populatedTick struct {
	Tick           *big.Int
	LiquidityNet   *big.Int
	LiquidityGross *big.Int
}

// V3Pools reads Uniswap V3 pools at one block: for each read, token0, token1, fee, tickSpacing,
// slot0 (sqrtPriceX96, tick) and liquidity, and TickLens's getPopulatedTicksInWord (tickLens is
// the chain's TickLens, the uniswap-v3 venue's chain.VenueConfig.TickLens) for every tick bitmap
// word in [w-Words, w+Words] around the word w of the pool's current tick.
//
// Round trips: everything goes in ONE Multicall3 aggregate3 eth_call (as PairStates: with
// getBlockNumber inside it, so the state says its block) when each read's guess of w leads to
// words covering [w-Words, w+Words]: its Word, else the word of the pool's last known tick (from
// its last read, the follower's last event of it, or the index's, RememberTicks) at its
// TickSpacing (or the spacing last read). The word of the current tick is only known once slot0 is
// read, so a pool never seen, or a stale guess, costs a second aggregate3 eth_call, pinned to the
// block of the first, for the missing words only. Beyond MaxCalldataPerCall (about 40 pools
// at Words 2) the block is pinned first (eth_blockNumber) and the chunks go out as one JSON-RPC
// batch, as PairStates does. An address that is not a V3 pool answers OK false without failing
// the others. Errors are *Error: KindInvalidInput (no TickLens, negative Words), KindUnavailable,
// KindTimeout, KindCanceled or KindBadResponse (getBlockNumber failing: no Multicall3 there).
func (s *Source) V3Pools(ctx context.Context, tickLens string, reads []chain.V3PoolRead) ([]chain.V3PoolState, error) {
	return s.reader.v3Pools(ctx, common.HexToAddress(tickLens), reads)
}

// wordRange is the words [lo, hi] of a read around word w, clamped to int16.
func wordRange(w, words int) (int, int) {
	return max(w-words, math.MinInt16), min(w+words, math.MaxInt16)
}

func (r *Reader) v3Pools(ctx context.Context, lens common.Address, reads []chain.V3PoolRead) ([]chain.V3PoolState, error) {
	const op = "v3 pools"
	if len(reads) == 0 {
		return nil, nil
	}
	plan, calls, err := r.planV3(lens, reads)
	if err != nil {
		return nil, newError(op, KindInvalidInput, err)
	}
	calls = append(calls, call{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getBlockNumber")})
	var pinned *uint64
	if len(chunk(calls)) > 1 {
		n, err := r.blockNumber(ctx, op)
		if err != nil {
			return nil, err
		}
		pinned = &n
	}
	res, err := r.aggregate(ctx, op, pinned, calls)
	if err != nil {
		return nil, err
	}
	at, ok := word(res[len(res)-1])
	if !ok || !at.IsUint64() {
		return nil, badResponse(op, "getBlockNumber failed at %s: is Multicall3 deployed there?", r.multicall)
	}
	return r.finishV3(ctx, op, plan, res[:len(res)-1], at.Uint64())
}

// v3Plan is a V3 pool read's first aggregate3 calls (planV3), for decoding their results.
type v3Plan struct {
	lens    common.Address
	reads   []chain.V3PoolRead
	pools   []common.Address
	guessed [][2]int // the words read in the first call, lo > hi for none
}

// planV3 lists the first calls of reads: each pool's v3Getters, then TickLens for the words around
// its guessed word: the read's own, else the word of the pool's last read.
func (r *Reader) planV3(lens common.Address, reads []chain.V3PoolRead) (v3Plan, []call, error) {
	if lens == (common.Address{}) {
		return v3Plan{}, nil, fmt.Errorf("a TickLens address is required")
	}
	p := v3Plan{lens: lens, reads: reads, pools: make([]common.Address, len(reads)), guessed: make([][2]int, len(reads))}
	var calls []call
	for i, rd := range reads {
		if rd.Words < 0 {
			return v3Plan{}, nil, fmt.Errorf("read %d: negative Words %d", i, rd.Words)
		}
		if !common.IsHexAddress(rd.Pool) {
			return v3Plan{}, nil, fmt.Errorf("pool %q is not an address", rd.Pool)
		}
		p.pools[i] = common.HexToAddress(rd.Pool)
		for _, g := range v3Getters {
			calls = append(calls, call{Target: p.pools[i], AllowFailure: true, CallData: pack(v3ABI, g)})
		}
		p.guessed[i] = [2]int{1, 0}
		if rd.NoTicks {
			continue
		}
		guess, known := r.word(p.pools[i], rd.TickSpacing)
		if rd.Word != nil {
			guess, known = int(*rd.Word), true
		}
		if known {
			lo, hi := wordRange(guess, rd.Words)
			p.guessed[i] = [2]int{lo, hi}
			for w := lo; w <= hi; w++ {
				calls = append(calls, lensCall(lens, p.pools[i], w))
			}
		}
	}
	return p, calls, nil
}

// knownTick is a V3 pool's last known tick, and its tick spacing when known (0: not yet).
type knownTick struct{ tick, spacing int }

// word is the guess of the word of pool's current tick: from its last known tick and its spacing
// (spacing, else the one last read); ok is false when either is unknown.
func (r *Reader) word(pool common.Address, spacing int) (int, bool) {
	v, ok := r.ticks.Load(pool)
	if !ok {
		return 0, false
	}
	k := v.(knownTick)
	if spacing <= 0 {
		spacing = k.spacing
	}
	if spacing <= 0 {
		return 0, false
	}
	return floorDiv(floorDiv(k.tick, spacing), 256), true
}

// rememberTick records pool's tick (from an event or the index), keeping its spacing.
func (r *Reader) rememberTick(pool common.Address, tick int) {
	k := knownTick{tick: tick}
	if v, ok := r.ticks.Load(pool); ok {
		k.spacing = v.(knownTick).spacing
	}
	r.ticks.Store(pool, k)
}

// RememberTicks records the current ticks of V3 pools (address → tick) as the index holds them,
// so that a pool's first read guesses its words right (see V3Pools).
func (s *Source) RememberTicks(ticks map[string]int) {
	for pool, tick := range ticks {
		s.reader.rememberTick(common.HexToAddress(pool), tick)
	}
}

// calls is how many calls planV3 made for the plan.
func (p v3Plan) calls() int {
	n := 0
	for _, g := range p.guessed {
		n += len(v3Getters) + max(0, g[1]-g[0]+1)
	}
	return n
}

// finishV3 decodes the plan's first results (read at block), reads the words the guesses missed in
// one more aggregate3 pinned to block, and decodes every pool's ticks.
func (r *Reader) finishV3(ctx context.Context, op string, p v3Plan, res []result, block uint64) ([]chain.V3PoolState, error) {
	out := make([]chain.V3PoolState, len(p.reads))
	words := make([]map[int]result, len(p.reads)) // each pool's TickLens results by word
	var more []call
	type missing struct{ pool, word int }
	var wanted []missing
	for i, rd := range p.reads {
		n := len(v3Getters) + max(0, p.guessed[i][1]-p.guessed[i][0]+1)
		rs := res[:n]
		res = res[n:]
		st, ok := decodeV3(p.pools[i], rs)
		if !ok {
			out[i] = chain.V3PoolState{Address: canonical(p.pools[i]), Block: block}
			continue
		}
		st.Block = block
		out[i] = st
		words[i] = map[int]result{}
		for j, w := 0, p.guessed[i][0]; w <= p.guessed[i][1]; j, w = j+1, w+1 {
			words[i][w] = rs[len(v3Getters)+j]
		}
		r.ticks.Store(p.pools[i], knownTick{tick: st.Tick, spacing: st.TickSpacing})
		if rd.NoTicks {
			continue
		}
		lo, hi := wordRange(int(st.CurrentWord()), rd.Words)
		out[i].WordLow, out[i].WordHigh = int16(lo), int16(hi)
		for w := lo; w <= hi; w++ {
			if _, ok := words[i][w]; !ok {
				more = append(more, lensCall(p.lens, p.pools[i], w))
				wanted = append(wanted, missing{i, w})
			}
		}
	}
	if len(more) > 0 {
		res, err := r.aggregate(ctx, op, &block, more)
		if err != nil {
			return nil, err
		}
		for k, m := range wanted {
			words[m.pool][m.word] = res[k]
		}
	}
	for i := range out {
		if !out[i].OK || p.reads[i].NoTicks {
			continue
		}
		ticks, ok := decodeTicks(words[i], int(out[i].WordLow), int(out[i].WordHigh), out[i].TickSpacing)
		if !ok {
			out[i] = chain.V3PoolState{Address: out[i].Address, Block: block}
			continue
		}
		out[i].Ticks = ticks
	}
	return out, nil
}

func lensCall(lens, pool common.Address, w int) call {
	return call{Target: lens, AllowFailure: true, CallData: pack(v3ABI, "getPopulatedTicksInWord", pool, int16(w))}
}

// floorDiv is a/b rounded towards negative infinity, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// signed decodes a word holding a signed integer of at most bits bits (sign-extended to 256).
func signed(r result, offset, bits int) (*big.Int, bool) {
	if !r.Success || len(r.ReturnData) < offset+32 {
		return nil, false
	}
	v := new(big.Int).SetBytes(r.ReturnData[offset : offset+32])
	if v.Bit(255) == 1 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 256))
	}
	limit := new(big.Int).Lsh(big.NewInt(1), uint(bits-1))
	if v.Cmp(limit) >= 0 || v.Cmp(new(big.Int).Neg(limit)) < 0 {
		return nil, false
	}
	return v, true
}

// decodeV3 decodes the v3Getters results of pool p; ok is false when any failed.
func decodeV3(p common.Address, rs []result) (chain.V3PoolState, bool) {
	st := chain.V3PoolState{Address: canonical(p)}
	t0, ok0 := address(rs[0])
	t1, ok1 := address(rs[1])
	fee, ok2 := word(rs[2])
	spacing, ok3 := signed(rs[3], 0, 24)
	sqrt, ok4 := word(rs[4])
	tick, ok5 := signed(rs[4], 32, 24)
	liq, ok6 := word(rs[5])
	if !ok0 || !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || fee.BitLen() > 24 || spacing.Sign() <= 0 || sqrt.BitLen() > 160 || liq.BitLen() > 128 {
		return chain.V3PoolState{}, false
	}
	st.Token0, st.Token1 = canonical(t0), canonical(t1)
	st.Fee, st.TickSpacing = int(fee.Int64()), int(spacing.Int64())
	st.SqrtPriceX96, st.Tick, st.Liquidity = sqrt, int(tick.Int64()), liq
	st.OK = true
	return st, true
}

// decodeTicks decodes the TickLens results of words lo..hi into ticks sorted by index, checking
// each lies in its word; ok is false when a call failed or answered something else.
func decodeTicks(words map[int]result, lo, hi, spacing int) ([]chain.V3Tick, bool) {
	var out []chain.V3Tick
	for w := lo; w <= hi; w++ {
		r, have := words[w]
		if !have || !r.Success {
			return nil, false
		}
		vals, err := v3ABI.Unpack("getPopulatedTicksInWord", r.ReturnData)
		if err != nil || len(vals) != 1 {
			return nil, false
		}
		pts, ok := abi.ConvertType(vals[0], new([]populatedTick)).(*[]populatedTick)
		if !ok || pts == nil {
			return nil, false
		}
		for _, pt := range *pts {
			idx := int(pt.Tick.Int64())
			if idx%spacing != 0 || floorDiv(idx/spacing, 256) != w {
				return nil, false
			}
			out = append(out, chain.V3Tick{Index: idx, LiquidityNet: pt.LiquidityNet, LiquidityGross: pt.LiquidityGross})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out, true
}
