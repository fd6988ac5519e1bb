package evm

import (
	"errors"
	"math/big"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

// TestV3Pools reads three official Uniswap V3 pools (0.3 %, 0.05 % and 1 % USD/WETH, the last at
// the inverse price so its ticks and words are negative; six positions each at different ranges,
// one far enough below the price that its ticks lie outside the words read),
// a V2 pair and an address without code in one V3Pools call, and checks it against the contracts'
// own getters: one round trip when the callers' word guesses are right (two without guesses, with
// the same answer), token0, token1, fee, tickSpacing, slot0, liquidity and the block equal to the
// getters', every tick returned equal to the pool's ticks(i), the ticks of each word equal to
// TickLens's, and the pair and the empty address OK false. Then the state read, through
// uniswapv3.FromChain, quotes exactly what QuoterV2 quotes for a swap that crosses ticks (on the
// 0.3 % and 0.05 % pools).
func TestV3Pools(t *testing.T) {
	w := newWorld(t)
	ctx := w.ctx
	v3, err := w.deployer.DeployV3(ctx, w.sim, w.addrs)
	if err != nil {
		t.Fatal(err)
	}
	var (
		factoryABI = bindings.NewUniswapV3Factory()
		poolABI    = v3pool.NewUniswapV3Pool()
		npmABI     = bindings.NewNonfungiblePositionManager()
		quoterABI  = bindings.NewQuoterV2()
		lensABI    = bindings.NewTickLens()
		wethABI    = bindings.NewWETH9()
		maxUint    = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	)
	usd, weth := w.addrs.USD, w.addrs.WrappedNative
	w.tx(usd, tokenB.PackMint(w.deployer.Address, units(100_000_000, 6)))
	if _, err := w.deployer.Transact(ctx, w.sim, weth, units(20_000, 18), wethABI.PackDeposit()); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []common.Address{usd, weth} {
		w.tx(tok, tokenB.PackApprove(v3.PositionManager, maxUint))
	}

	var pools []common.Address
	for _, fee := range []int64{3000, 500, 10000} {
		w.tx(v3.Factory, factoryABI.PackCreatePool(usd, weth, big.NewInt(fee)))
		pool := callBinding(w, v3.Factory, factoryABI.PackGetPool(usd, weth, big.NewInt(fee)), factoryABI.UnpackGetPool)
		if want, err := chain.UniswapV3PoolAddress(v3.Factory.Hex(), chain.UniswapV3InitCodeHash, usd.Hex(), weth.Hex(), int(fee)); err != nil || canonical(pool) != want {
			t.Fatalf("fee %d: pool %s, UniswapV3PoolAddress says %s (%v)", fee, pool, want, err)
		}
		token0, token1 := usd, weth
		if weth.Cmp(usd) < 0 {
			token0, token1 = weth, usd
		}
		amount := map[common.Address]*big.Int{usd: units(3_000, 6), weth: units(1, 18)}
		ratio := new(big.Int).Lsh(amount[token1], 192)
		ratio.Div(ratio, amount[token0])
		if fee == 10000 { // the 1 % pool at the inverse price: negative ticks and words
			ratio.Div(new(big.Int).Lsh(big.NewInt(1), 384), ratio)
		}
		w.tx(pool, poolABI.PackInitialize(ratio.Sqrt(ratio)))
		spacing := int(callBinding(w, pool, poolABI.PackTickSpacing(), poolABI.UnpackTickSpacing).Int64())
		tick := int(callBinding(w, pool, poolABI.PackSlot0(), poolABI.UnpackSlot0).Tick.Int64())
		base := floorDiv(tick, spacing) * spacing
		// Nested ranges, one above and one below the price, and one 1,500 spacings below: outside
		// the five words a read of Words 2 covers, so its two ticks must not be returned.
		for i, r := range [][2]int{{-10, 10}, {-60, 45}, {-400, 300}, {20, 90}, {-150, -30}, {-1600, -1500}} {
			scale := big.NewInt(int64(i + 1))
			w.tx(v3.PositionManager, npmABI.PackMint(bindings.INonfungiblePositionManagerMintParams{
				Token0: token0, Token1: token1, Fee: big.NewInt(fee),
				TickLower: big.NewInt(int64(base + r[0]*spacing)), TickUpper: big.NewInt(int64(base + r[1]*spacing)),
				Amount0Desired: new(big.Int).Mul(scale, new(big.Int).Div(amount[token0], big.NewInt(10))),
				Amount1Desired: new(big.Int).Mul(scale, new(big.Int).Div(amount[token1], big.NewInt(10))),
				Amount0Min:     new(big.Int), Amount1Min: new(big.Int),
				Recipient: w.deployer.Address, Deadline: maxUint,
			}))
		}
		pools = append(pools, pool)
	}

	src := NewSource(w.reader, weth.Hex(), w.addrs.Factory.Hex())
	const words = 2
	var reads []chain.V3PoolRead
	for _, p := range pools {
		s := callBinding(w, p, poolABI.PackSlot0(), poolABI.UnpackSlot0)
		spacing := int(callBinding(w, p, poolABI.PackTickSpacing(), poolABI.UnpackTickSpacing).Int64())
		wd := int16(floorDiv(floorDiv(int(s.Tick.Int64()), spacing), 256))
		reads = append(reads, chain.V3PoolRead{Pool: p.Hex(), Words: words, Word: &wd})
	}
	reads = append(reads, chain.V3PoolRead{Pool: w.pair.Hex(), Words: words}, chain.V3PoolRead{Pool: w.owners[3].Hex(), Words: words})

	before := w.rt.n.Load()
	got, err := src.V3Pools(ctx, v3.TickLens.Hex(), reads)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.rt.n.Load() - before; n != 1 {
		t.Errorf("V3Pools of %d reads took %d round trips, want 1", len(reads), n)
	}
	// Without word guesses: a second round trip for the words, the same state.
	unguessed := slices.Clone(reads)
	for i := range unguessed {
		unguessed[i].Word = nil
	}
	before = w.rt.n.Load()
	again, err := src.V3Pools(ctx, v3.TickLens.Hex(), unguessed)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.rt.n.Load() - before; n != 1 {
		t.Errorf("V3Pools without word guesses, of pools read before, took %d round trips, want 1 (the reader remembers their words)", n)
	}
	// A stale guess (three words off) reads the missing words in a second round trip.
	stale := slices.Clone(reads)
	for i := range pools {
		wd := *reads[i].Word + 3
		stale[i].Word = &wd
	}
	before = w.rt.n.Load()
	staleGot, err := src.V3Pools(ctx, v3.TickLens.Hex(), stale)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.rt.n.Load() - before; n != 2 {
		t.Errorf("V3Pools with stale word guesses took %d round trips, want 2", n)
	}
	// A reader that never read the pools needs the second round trip without guesses.
	freshReader, err := New(w.reader.rpc, w.addrs.Multicall3)
	if err != nil {
		t.Fatal(err)
	}
	fresh := NewSource(freshReader, weth.Hex(), w.addrs.Factory.Hex())
	before = w.rt.n.Load()
	if _, err := fresh.V3Pools(ctx, v3.TickLens.Hex(), unguessed); err != nil {
		t.Fatal(err)
	}
	if n := w.rt.n.Load() - before; n != 2 {
		t.Errorf("V3Pools of unknown pools without word guesses took %d round trips, want 2", n)
	}
	// A reader told the pools' ticks (as the index holds them) reads them in one round trip when the
	// read says each pool's tick spacing.
	warm, err := New(w.reader.rpc, w.addrs.Multicall3)
	if err != nil {
		t.Fatal(err)
	}
	ticks := map[string]int{}
	spaced := slices.Clone(unguessed)
	for i := range pools {
		ticks[got[i].Address] = got[i].Tick
		spaced[i].TickSpacing = got[i].TickSpacing
	}
	NewSource(warm, weth.Hex(), w.addrs.Factory.Hex()).RememberTicks(ticks)
	before = w.rt.n.Load()
	if _, err := NewSource(warm, weth.Hex(), w.addrs.Factory.Hex()).V3Pools(ctx, v3.TickLens.Hex(), spaced); err != nil {
		t.Fatal(err)
	}
	if n := w.rt.n.Load() - before; n != 1 {
		t.Errorf("V3Pools of pools whose ticks and spacings are known took %d round trips, want 1", n)
	}
	// ReadTrade reads the same pools beside a pair and an owner's balance in its one round trip
	// when the guesses are right, two when they are not.
	for _, c := range []struct {
		reads []chain.V3PoolRead
		trips int64
	}{{reads, 1}, {unguessed, 1}, {stale, 2}} {
		before = w.rt.n.Load()
		st, err := src.ReadTrade(ctx, chain.EVMTradeRead{Pairs: []string{w.pair.Hex()}, V3Pools: c.reads, TickLens: v3.TickLens.Hex(),
			Owner: w.deployer.Address.Hex(), Balances: []string{usd.Hex()}})
		if err != nil {
			t.Fatal(err)
		}
		if n := w.rt.n.Load() - before; n != c.trips {
			t.Errorf("ReadTrade with %d V3 pools took %d round trips, want %d", len(c.reads), n, c.trips)
		}
		if len(st.V3Pools) != len(got) || !st.Pairs[0].OK || st.Balances[0] == nil {
			t.Fatalf("ReadTrade: %+v", st)
		}
		for i := range got {
			if !sameV3(got[i], st.V3Pools[i]) {
				t.Errorf("ReadTrade pool %d: %+v, V3Pools %+v", i, st.V3Pools[i], got[i])
			}
		}
	}
	if _, err := src.ReadTrade(ctx, chain.EVMTradeRead{V3Pools: reads}); err == nil {
		t.Error("ReadTrade of V3 pools without a TickLens answered no error")
	}
	for i := range got {
		if !sameV3(got[i], again[i]) || !sameV3(got[i], staleGot[i]) {
			t.Errorf("read %d: with guesses %+v, without %+v, stale %+v", i, got[i], again[i], staleGot[i])
		}
	}

	crossed := 0
	head, err := w.sim.Client().BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pools {
		s := got[i]
		slot0 := callBinding(w, p, poolABI.PackSlot0(), poolABI.UnpackSlot0)
		spacing := int(callBinding(w, p, poolABI.PackTickSpacing(), poolABI.UnpackTickSpacing).Int64())
		wd := floorDiv(floorDiv(int(slot0.Tick.Int64()), spacing), 256)
		if !s.OK || s.Address != canonical(p) || s.Block != head ||
			s.Token0 != canonical(callBinding(w, p, poolABI.PackToken0(), poolABI.UnpackToken0)) ||
			s.Token1 != canonical(callBinding(w, p, poolABI.PackToken1(), poolABI.UnpackToken1)) ||
			int64(s.Fee) != callBinding(w, p, poolABI.PackFee(), poolABI.UnpackFee).Int64() || s.TickSpacing != spacing ||
			s.SqrtPriceX96.Cmp(slot0.SqrtPriceX96) != 0 || int64(s.Tick) != slot0.Tick.Int64() ||
			s.Liquidity.Cmp(callBinding(w, p, poolABI.PackLiquidity(), poolABI.UnpackLiquidity)) != 0 ||
			int(s.WordLow) != wd-words || int(s.WordHigh) != wd+words {
			t.Fatalf("pool %s: %+v; slot0 %+v, spacing %d, block %d", p, s, slot0, spacing, head)
		}
		var lens []chain.V3Tick
		for w16 := s.WordLow; w16 <= s.WordHigh; w16++ {
			for _, pt := range callBinding(w, v3.TickLens, lensABI.PackGetPopulatedTicksInWord(p, w16), lensABI.UnpackGetPopulatedTicksInWord) {
				lens = append(lens, chain.V3Tick{Index: int(pt.Tick.Int64()), LiquidityNet: pt.LiquidityNet, LiquidityGross: pt.LiquidityGross})
			}
		}
		slices.SortFunc(lens, func(a, b chain.V3Tick) int { return a.Index - b.Index })
		if !sameTicks(s.Ticks, lens) || len(s.Ticks) != 10 {
			t.Fatalf("pool %s: ticks %v, TickLens %v", p, s.Ticks, lens)
		}
		lo, hi := int(s.WordLow)*256*spacing, (int(s.WordHigh)+1)*256*spacing
		for _, tk := range s.Ticks {
			pt := callBinding(w, p, poolABI.PackTicks(big.NewInt(int64(tk.Index))), poolABI.UnpackTicks)
			if !pt.Initialized || pt.LiquidityNet.Cmp(tk.LiquidityNet) != 0 || pt.LiquidityGross.Cmp(tk.LiquidityGross) != 0 || tk.Index < lo || tk.Index >= hi {
				t.Fatalf("pool %s tick %d: read %+v, ticks() %+v", p, tk.Index, tk, pt)
			}
		}
		t.Logf("pool %s (fee %d, spacing %d) at tick %d: %d initialized ticks in words [%d, %d]", p, s.Fee, spacing, s.Tick, len(s.Ticks), s.WordLow, s.WordHigh)

		// The read is what the swap math needs: equal to QuoterV2 for a swap crossing ticks. (Not on
		// the inverse-price pool, whose positions, minted with amounts for the real price, leave it
		// almost no liquidity at its price.)
		if s.Fee == 10000 {
			continue
		}
		state, ticks, err := uniswapv3.FromChain(s)
		if err != nil {
			t.Fatal(err)
		}
		token0 := common.HexToAddress(s.Token0)
		held := callBinding(w, token0, tokenB.PackBalanceOf(p), tokenB.UnpackBalanceOf)
		// The largest of a third, a tenth, ... of the pool's token0 that stays within the words read
		// (a larger one must fail with ErrTicksExhausted, never answer a number).
		var in *big.Int
		var sw uniswapv3.SwapResult
		for _, div := range []int64{3, 10, 100} {
			in = new(big.Int).Div(held, big.NewInt(div))
			if sw, err = uniswapv3.Swap(state, true, in, nil, ticks); !errors.Is(err, uniswapv3.ErrTicksExhausted) {
				break
			}
			t.Logf("pool %s: %s token0 in leaves the words read", p, in)
		}
		if err != nil {
			t.Fatal(err)
		}
		q := callBinding(w, v3.QuoterV2, quoterABI.PackQuoteExactInputSingle(bindings.IQuoterV2QuoteExactInputSingleParams{
			TokenIn: token0, TokenOut: common.HexToAddress(s.Token1), AmountIn: in, Fee: big.NewInt(int64(s.Fee)), SqrtPriceLimitX96: new(big.Int),
		}), quoterABI.UnpackQuoteExactInputSingle)
		if sw.AmountOut.Cmp(q.AmountOut) != 0 || sw.SqrtPriceX96.Cmp(q.SqrtPriceX96After) != 0 {
			t.Fatalf("pool %s: Swap of %s token0 %+v; QuoterV2 %s out, price %s", p, in, sw, q.AmountOut, q.SqrtPriceX96After)
		}
		t.Logf("pool %s: %s token0 in -> %s token1 out, %d ticks crossed, equal to QuoterV2", p, in, sw.AmountOut, sw.TicksCrossed)
		crossed += sw.TicksCrossed
	}
	if crossed == 0 {
		t.Error("no swap checked against QuoterV2 crossed an initialized tick")
	}
	for _, s := range got[len(pools):] {
		if s.OK || s.Block != head || s.SqrtPriceX96 != nil || s.Ticks != nil {
			t.Errorf("not a pool: %+v, want OK false", s)
		}
	}
	if _, err := src.V3Pools(ctx, "", reads); err == nil {
		t.Error("V3Pools without a TickLens answered no error")
	}
}

func sameTicks(a, b []chain.V3Tick) bool {
	return slices.EqualFunc(a, b, func(x, y chain.V3Tick) bool {
		return x.Index == y.Index && x.LiquidityNet.Cmp(y.LiquidityNet) == 0 && x.LiquidityGross.Cmp(y.LiquidityGross) == 0
	})
}

func sameV3(a, b chain.V3PoolState) bool {
	eq := func(x, y *big.Int) bool { return (x == nil) == (y == nil) && (x == nil || x.Cmp(y) == 0) }
	return a.Address == b.Address && a.Token0 == b.Token0 && a.Token1 == b.Token1 && a.Fee == b.Fee && a.TickSpacing == b.TickSpacing &&
		eq(a.SqrtPriceX96, b.SqrtPriceX96) && a.Tick == b.Tick && eq(a.Liquidity, b.Liquidity) && sameTicks(a.Ticks, b.Ticks) &&
		a.WordLow == b.WordLow && a.WordHigh == b.WordHigh && a.Block == b.Block && a.OK == b.OK
}
