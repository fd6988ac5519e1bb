package evm

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// Uniswap V3 position NFTs: those owners hold in their wallets and those they deposited in the
// UniswapV3Staker, read at one block in four aggregate3 round trips:
//
//  1. the position manager's balanceOf of every owner and of the staker, and the block number;
//  2. tokenOfOwnerByIndex for each of them: the owners' NFTs and the staker's (every deposit);
//  3. positions(id) of every NFT found, and the staker's deposits(id) of each of its NFTs, whose
//     owner says whose deposit it is (the staker does not list deposits by owner);
//  4. for every pool of a position found: slot0, liquidity, feeGrowthGlobal0X128/1X128, its
//     balances of its two tokens, and ticks(i) of every position's two ticks.
//
// Every round is at the caller's block when it gives one; otherwise rounds 2 to 4 are pinned to the
// block of round 1 (when round 1 itself needs more than one aggregate3 chunk, the block is pinned
// first with eth_blockNumber: one more round trip). A round that is more than one chunk goes out as
// one JSON-RPC batch; a round with nothing to read (no NFT held, no position found) costs nothing.
// Discovery is bounded by MaxNFTsScanned: beyond it the owner (or, for the staker, every owner) is
// reported incomplete.

// MaxNFTsScanned is how many NFTs a V3Positions read enumerates at most per owner, and how many of
// the staker's deposits it scans at most (their positions and deposits are read with them).
const MaxNFTsScanned = 1000

// nftScanLimit is MaxNFTsScanned, lowered by tests that reach it.
var nftScanLimit = MaxNFTsScanned

// v3PositionsABI holds the position manager's, the staker's and the pool's getters V3Positions
// reads beyond v3ABI's. positions, deposits and ticks are decoded by hand, word by word.
var v3PositionsABI = func() abi.ABI {
	const fragments = `[
{"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"tokenOfOwnerByIndex","stateMutability":"view","inputs":[{"name":"owner","type":"address"},{"name":"index","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"positions","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[]},
{"type":"function","name":"deposits","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[]},
{"type":"function","name":"feeGrowthGlobal0X128","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"feeGrowthGlobal1X128","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"ticks","stateMutability":"view","inputs":[{"name":"tick","type":"int24"}],"outputs":[]}
]`
	a, err := abi.JSON(strings.NewReader(fragments))
	if err != nil {
		panic(err)
	}
	return a
}()

var _ chain.V3PositionReader = (*Source)(nil)

// V3Positions implements chain.V3PositionReader: see the rounds above. Errors are *Error:
// KindInvalidInput (no position manager, or an address that is not one), KindUnavailable,
// KindTimeout, KindCanceled or KindBadResponse (getBlockNumber or the position manager's balanceOf
// failing: no Multicall3, or no position manager there).
func (s *Source) V3Positions(ctx context.Context, where chain.V3PositionsRead, owners []string, block uint64) (chain.V3Positions, error) {
	const op = "v3 positions"
	out := chain.V3Positions{Positions: make([][]chain.V3Position, len(owners)), Unanswered: make([][]*big.Int, len(owners)),
		Complete: make([]bool, len(owners))}
	for i := range owners {
		out.Positions[i], out.Complete[i] = []chain.V3Position{}, true
	}
	for _, a := range []string{where.PositionManager, where.Staker} {
		if a != "" && !common.IsHexAddress(a) {
			return chain.V3Positions{}, newError(op, KindInvalidInput, fmt.Errorf("%q is not an address", a))
		}
	}
	if where.PositionManager == "" {
		return chain.V3Positions{}, newError(op, KindInvalidInput, fmt.Errorf("no position manager"))
	}
	if len(owners) == 0 {
		return out, nil
	}
	rd := v3PositionsRead{r: s.reader, op: op, where: where, npm: common.HexToAddress(where.PositionManager), owners: addresses(owners), out: &out,
		block: block}
	if err := rd.enumerate(ctx); err != nil {
		return chain.V3Positions{}, err
	}
	found, err := rd.positions(ctx)
	if err != nil {
		return chain.V3Positions{}, err
	}
	if err := rd.pools(ctx, found); err != nil {
		return chain.V3Positions{}, err
	}
	return out, nil
}

// v3PositionsRead is one V3Positions read in progress.
type v3PositionsRead struct {
	r      *Reader
	op     string
	where  chain.V3PositionsRead
	npm    common.Address
	owners []common.Address
	out    *chain.V3Positions
	block  uint64       // the block read at, 0 until round 1 when the caller gave none
	ids    [][]*big.Int // the NFTs of each owner, then (last, with a staker) the staker's, sorted
}

// incomplete marks owner i's discovery cut short; i past the owners (the staker) marks every
// owner's, as the staker's deposits past the cut may be anyone's.
func (rd *v3PositionsRead) incomplete(i int) {
	if i < len(rd.owners) {
		rd.out.Complete[i] = false
		return
	}
	clear(rd.out.Complete)
}

// enumerate is rounds 1 and 2: the block, and the NFTs of every owner and of the staker, at most
// MaxNFTsScanned each.
func (rd *v3PositionsRead) enumerate(ctx context.Context) error {
	holders := slices.Clone(rd.owners)
	if rd.where.Staker != "" {
		holders = append(holders, common.HexToAddress(rd.where.Staker))
	}
	calls := make([]call, 0, len(holders)+1)
	for _, h := range holders {
		calls = append(calls, call{Target: rd.npm, AllowFailure: true, CallData: pack(v3PositionsABI, "balanceOf", h)})
	}
	calls = append(calls, call{Target: rd.r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getBlockNumber")})
	var pinned *uint64
	switch {
	case rd.block != 0:
		pinned = &rd.block
	case len(chunk(calls)) > 1:
		n, err := rd.r.blockNumber(ctx, rd.op)
		if err != nil {
			return err
		}
		pinned = &n
	}
	res, err := rd.r.aggregate(ctx, rd.op, pinned, calls)
	if err != nil {
		return err
	}
	at, ok := word(res[len(res)-1])
	if !ok || !at.IsUint64() {
		return badResponse(rd.op, "getBlockNumber failed at %s: is Multicall3 deployed there?", rd.r.multicall)
	}
	rd.block, rd.out.Block = at.Uint64(), at.Uint64()
	counts := make([]int, len(holders))
	for i := range holders {
		n, ok := word(res[i])
		if !ok {
			return badResponse(rd.op, "balanceOf failed at %s: is it a position manager?", rd.npm)
		}
		counts[i] = nftScanLimit
		if n.IsInt64() && n.Int64() <= int64(nftScanLimit) {
			counts[i] = int(n.Int64())
		} else {
			rd.incomplete(i)
		}
	}
	calls = calls[:0]
	for i, h := range holders {
		for k := range counts[i] {
			calls = append(calls, call{Target: rd.npm, AllowFailure: true, CallData: pack(v3PositionsABI, "tokenOfOwnerByIndex", h, big.NewInt(int64(k)))})
		}
	}
	if res, err = rd.r.aggregate(ctx, rd.op, &rd.block, calls); err != nil {
		return err
	}
	rd.ids = make([][]*big.Int, len(holders))
	for i := range holders {
		for _, r := range res[:counts[i]] {
			if id, ok := word(r); ok {
				rd.ids[i] = append(rd.ids[i], id)
			} else {
				rd.incomplete(i) // the enumeration failed
			}
		}
		res = res[counts[i]:]
		slices.SortFunc(rd.ids[i], func(a, b *big.Int) int { return a.Cmp(b) })
	}
	return nil
}

// foundPosition is a position NFT of an owner, ok when positions(id) answered.
type foundPosition struct {
	owner int
	pos   chain.V3Position
	ok    bool
}

// positions is round 3: positions(id) of every NFT enumerated, and the staker's deposits(id) of
// its own, which say whose deposit each is. It returns the owners' positions, the wallets' first.
func (rd *v3PositionsRead) positions(ctx context.Context) ([]foundPosition, error) {
	staker := common.HexToAddress(rd.where.Staker)
	var calls []call
	for i, ids := range rd.ids {
		for _, id := range ids {
			calls = append(calls, call{Target: rd.npm, AllowFailure: true, CallData: pack(v3PositionsABI, "positions", id)})
			if i == len(rd.owners) {
				calls = append(calls, call{Target: staker, AllowFailure: true, CallData: pack(v3PositionsABI, "deposits", id)})
			}
		}
	}
	res, err := rd.r.aggregate(ctx, rd.op, &rd.block, calls)
	if err != nil {
		return nil, err
	}
	index := map[common.Address]int{}
	for i, o := range rd.owners {
		index[o] = i
	}
	var out []foundPosition
	for i, ids := range rd.ids {
		for _, id := range ids {
			pos, ok := decodePosition(id, res[0], rd.where)
			res = res[1:]
			if i < len(rd.owners) {
				out = append(out, foundPosition{owner: i, pos: pos, ok: ok})
				continue
			}
			depositor, known := address(res[0])
			res = res[1:]
			if !known {
				rd.incomplete(i) // a deposit whose owner is unknown may be anyone's
				continue
			}
			if j, mine := index[depositor]; mine {
				pos.Staked = true
				out = append(out, foundPosition{owner: j, pos: pos, ok: ok})
			}
		}
	}
	return out, nil
}

// v3Tick is a tick of a pool.
type v3Tick struct {
	pool string
	tick int
}

// pools is round 4: the state of every pool of a position found and the fee growth outside the
// positions' ticks; it fills the result, a position whose pool or ticks did not answer going to
// Unanswered.
func (rd *v3PositionsRead) pools(ctx context.Context, found []foundPosition) error {
	var pools []chain.V3Position // one position of each pool, for its address and tokens
	var ticks []v3Tick
	seenPool, seenTick := map[string]bool{}, map[v3Tick]bool{}
	for _, f := range found {
		if !f.ok {
			continue
		}
		if !seenPool[f.pos.Pool] {
			seenPool[f.pos.Pool] = true
			pools = append(pools, f.pos)
		}
		for _, t := range []int{f.pos.TickLower, f.pos.TickUpper} {
			if k := (v3Tick{f.pos.Pool, t}); !seenTick[k] {
				seenTick[k] = true
				ticks = append(ticks, k)
			}
		}
	}
	var calls []call
	for _, p := range pools {
		pool := common.HexToAddress(p.Pool)
		calls = append(calls,
			call{Target: pool, AllowFailure: true, CallData: pack(v3ABI, "slot0")},
			call{Target: pool, AllowFailure: true, CallData: pack(v3ABI, "liquidity")},
			call{Target: pool, AllowFailure: true, CallData: pack(v3PositionsABI, "feeGrowthGlobal0X128")},
			call{Target: pool, AllowFailure: true, CallData: pack(v3PositionsABI, "feeGrowthGlobal1X128")},
			call{Target: common.HexToAddress(p.Token0), AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", pool)},
			call{Target: common.HexToAddress(p.Token1), AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", pool)})
	}
	for _, k := range ticks {
		calls = append(calls, call{Target: common.HexToAddress(k.pool), AllowFailure: true, CallData: pack(v3PositionsABI, "ticks", big.NewInt(int64(k.tick)))})
	}
	res, err := rd.r.aggregate(ctx, rd.op, &rd.block, calls)
	if err != nil {
		return err
	}
	states := map[string]*chain.V3PositionPool{}
	for _, p := range pools {
		states[p.Pool] = decodePositionPool(res[:6])
		res = res[6:]
	}
	outside := map[v3Tick][2]*big.Int{} // ticks(i)'s feeGrowthOutside0X128 and 1X128
	for _, k := range ticks {
		g0, ok0 := wordAt(res[0], 2)
		g1, ok1 := wordAt(res[0], 3)
		if ok0 && ok1 {
			outside[k] = [2]*big.Int{g0, g1}
		}
		res = res[1:]
	}
	for _, f := range found {
		st := states[f.pos.Pool]
		lower, okL := outside[v3Tick{f.pos.Pool, f.pos.TickLower}]
		upper, okU := outside[v3Tick{f.pos.Pool, f.pos.TickUpper}]
		if !f.ok || st == nil || !okL || !okU {
			rd.out.Unanswered[f.owner] = append(rd.out.Unanswered[f.owner], f.pos.ID)
			continue
		}
		pos := f.pos
		pos.State = *st
		pos.State.LowerOutside0X128, pos.State.LowerOutside1X128 = lower[0], lower[1]
		pos.State.UpperOutside0X128, pos.State.UpperOutside1X128 = upper[0], upper[1]
		rd.out.Positions[f.owner] = append(rd.out.Positions[f.owner], pos)
	}
	return nil
}

// wordAt decodes the i-th word of a call's return data as a uint256.
func wordAt(r result, i int) (*big.Int, bool) {
	if !r.Success || len(r.ReturnData) < 32*(i+1) {
		return nil, false
	}
	return new(big.Int).SetBytes(r.ReturnData[32*i : 32*(i+1)]), true
}

// decodePosition decodes the position manager's positions(id): (nonce, operator, token0, token1,
// fee, tickLower, tickUpper, liquidity, feeGrowthInside0LastX128, feeGrowthInside1LastX128,
// tokensOwed0, tokensOwed1), and derives its pool; ok is false when the call failed (an id that
// does not exist) or answered something else. ID is set either way.
func decodePosition(id *big.Int, r result, where chain.V3PositionsRead) (chain.V3Position, bool) {
	p := chain.V3Position{ID: id}
	if len(r.ReturnData) < 12*32 {
		return p, false
	}
	var w [12]*big.Int
	for i := range w {
		w[i], _ = wordAt(r, i)
	}
	t0, ok0 := address(result{Success: r.Success, ReturnData: r.ReturnData[2*32:]})
	t1, ok1 := address(result{Success: r.Success, ReturnData: r.ReturnData[3*32:]})
	lower, ok2 := signed(r, 5*32, 24)
	upper, ok3 := signed(r, 6*32, 24)
	if !ok0 || !ok1 || !ok2 || !ok3 || w[4].BitLen() > 24 || w[7].BitLen() > 128 || w[10].BitLen() > 128 || w[11].BitLen() > 128 {
		return p, false
	}
	hash := where.InitCodeHash
	if hash == "" {
		hash = chain.UniswapV3InitCodeHash
	}
	pool, err := chain.UniswapV3PoolAddress(where.Factory, hash, t0.Hex(), t1.Hex(), int(w[4].Int64()))
	if err != nil {
		return p, false
	}
	p.Pool, p.Token0, p.Token1, p.Fee = pool, canonical(t0), canonical(t1), int(w[4].Int64())
	p.TickLower, p.TickUpper, p.Liquidity = int(lower.Int64()), int(upper.Int64()), w[7]
	p.FeeGrowthInside0LastX128, p.FeeGrowthInside1LastX128 = w[8], w[9]
	p.TokensOwed0, p.TokensOwed1 = w[10], w[11]
	return p, true
}

// decodePositionPool decodes a pool's slot0, liquidity, feeGrowthGlobal0X128, feeGrowthGlobal1X128
// and balances of its tokens; nil when any failed.
func decodePositionPool(rs []result) *chain.V3PositionPool {
	sqrt, ok0 := word(rs[0])
	tick, ok1 := signed(rs[0], 32, 24)
	liq, ok2 := word(rs[1])
	g0, ok3 := word(rs[2])
	g1, ok4 := word(rs[3])
	b0, ok5 := word(rs[4])
	b1, ok6 := word(rs[5])
	if !ok0 || !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || sqrt.Sign() == 0 || sqrt.BitLen() > 160 || liq.BitLen() > 128 {
		return nil
	}
	return &chain.V3PositionPool{SqrtPriceX96: sqrt, Tick: int(tick.Int64()), Liquidity: liq, FeeGrowthGlobal0X128: g0,
		FeeGrowthGlobal1X128: g1, Balance0: b0, Balance1: b1}
}
