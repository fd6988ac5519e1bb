package uniswapv3_test

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

// routeWorld is a devnet with the official V2 and V3 contracts, a token X, and pools for routes:
// V2 pairs X/WETH (1 X = 0.01 WETH) and X/USD (1 X = 30 USD); V3 pools USD/WETH at 0.05 % and
// 0.3 % (3,000 USD), and X/USD at 1 % (30 USD), each with a narrow, a medium and a wide position.
type routeWorld struct {
	*chainT
	core             devnet.Addresses
	v3               devnet.V3Addresses
	deployer, trader *devnet.Account
	usd, weth, x     common.Address
}

func newRouteWorld(t *testing.T) routeWorld {
	c, core, v3, deployer, trader := newV3Devnet(t, "5eed000000000000000000000000000000000000000000000000000000000011",
		"5eed000000000000000000000000000000000000000000000000000000000012")
	x, err := deployer.Deploy(c.ctx, c.sim, &bindings.TokenMetaData, bindings.NewToken().PackConstructor("Route X", "RTX", 18))
	if err != nil {
		t.Fatal(err)
	}
	usd, weth := core.USD, core.WrappedNative
	v2Router := bindings.NewUniswapV2Router02()
	for _, a := range []*devnet.Account{deployer, trader} {
		c.tx(deployer, usd, nil, tokenABI.PackMint(a.Address, units(100_000_000, 6)))
		c.tx(deployer, x, nil, tokenABI.PackMint(a.Address, units(100_000_000, 18)))
		c.tx(a, weth, units(20_000, 18), wethABI.PackDeposit())
		for _, tok := range []common.Address{usd, weth, x} {
			c.tx(a, tok, nil, tokenABI.PackApprove(v3.PositionManager, maxUint256))
			c.tx(a, tok, nil, tokenABI.PackApprove(v3.SwapRouter02, maxUint256))
			c.tx(a, tok, nil, tokenABI.PackApprove(core.Router, maxUint256))
		}
	}
	c.tx(deployer, core.Router, nil, v2Router.PackAddLiquidity(x, weth, units(100_000, 18), units(1_000, 18), new(big.Int), new(big.Int), deployer.Address, maxUint256))
	c.tx(deployer, core.Router, nil, v2Router.PackAddLiquidity(x, usd, units(100_000, 18), units(3_000_000, 6), new(big.Int), new(big.Int), deployer.Address, maxUint256))
	price := map[common.Address]*big.Int{usd: units(3_000, 6), weth: units(1, 18)}
	for _, p := range []struct {
		a, b common.Address
		fee  int64
	}{{usd, weth, 500}, {usd, weth, 3000}, {x, usd, 10000}} {
		if p.a == x {
			price = map[common.Address]*big.Int{x: units(1, 18), usd: units(30, 6)}
		}
		mintPool(c, deployer, v3, p.a, p.b, p.fee, price)
	}
	return routeWorld{chainT: c, core: core, v3: v3, deployer: deployer, trader: trader, usd: usd, weth: weth, x: x}
}

// TestSwapCallOnSwapRouter02 executes the venue's SwapCall on the official SwapRouter02 for every
// kind of route it builds, each priced by the venues' Hops from the pools' state read just before:
// a V3 hop, two V3 hops, a V2 pair then a V3 pool, a V3 pool then a V2 pair, the native coin in
// (the call's value) and out (unwrapWETH9), and a mixed route ending in the native coin. Each must
// pay the recipient exactly the route's priced output, and fail when minOut is one more. Executes
// must refuse what SwapRouter02 cannot do (a route of pairs only, a 0.25 % pair, a taxed token).
func TestSwapCallOnSwapRouter02(t *testing.T) {
	w := newRouteWorld(t)
	c, ctx, sim, core, v3, trader := w.chainT, w.ctx, w.sim, w.core, w.v3, w.trader
	usd, weth, x := w.usd, w.weth, w.x
	cfg2 := chain.VenueConfig{Factory: strings.ToLower(core.Factory.Hex()), Router: strings.ToLower(core.Router.Hex()), FeeBps: 30, InitCodeHash: chain.UniswapV2InitCodeHash}
	cfg3 := chain.VenueConfig{Factory: strings.ToLower(v3.Factory.Hex()), Router: strings.ToLower(v3.SwapRouter02.Hex()), TickLens: strings.ToLower(v3.TickLens.Hex())}
	pool := func(venue string, a, b common.Address, fee int) chain.EVMSwapPool {
		var pools []chain.EVMSwapPool
		var err error
		if venue == uniswapv2.Name {
			pools, err = uniswapv2.Venue{}.SwapPools(cfg2, lower(a), lower(b))
		} else {
			pools, err = uniswapv3.Venue{}.SwapPools(cfg3, lower(a), lower(b))
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pools {
			if venue == uniswapv2.Name || p.FeePips == fee {
				return p
			}
		}
		t.Fatalf("no %s pool at %d", venue, fee)
		return chain.EVMSwapPool{}
	}
	v2 := func(a, b common.Address) chain.EVMSwapPool { return pool(uniswapv2.Name, a, b, 0) }
	v3p := func(a, b common.Address, fee int) chain.EVMSwapPool { return pool(uniswapv3.Name, a, b, fee) }

	for _, tc := range []struct {
		name                string
		path                []common.Address
		pools               []chain.EVMSwapPool
		in                  *big.Int
		nativeIn, nativeOut bool
	}{
		{"V3", []common.Address{usd, weth}, []chain.EVMSwapPool{v3p(usd, weth, 500)}, units(250_000, 6), false, false},
		{"V3 then V3", []common.Address{x, usd, weth}, []chain.EVMSwapPool{v3p(x, usd, 10000), v3p(usd, weth, 3000)}, units(2_000, 18), false, false},
		{"V2 then V3", []common.Address{x, weth, usd}, []chain.EVMSwapPool{v2(x, weth), v3p(weth, usd, 500)}, units(3_000, 18), false, false},
		{"V3 then V2", []common.Address{weth, usd, x}, []chain.EVMSwapPool{v3p(weth, usd, 3000), v2(usd, x)}, units(40, 18), false, false},
		{"native in", []common.Address{weth, usd}, []chain.EVMSwapPool{v3p(weth, usd, 500)}, units(30, 18), true, false},
		{"native out", []common.Address{usd, weth}, []chain.EVMSwapPool{v3p(usd, weth, 3000)}, units(90_000, 6), false, true},
		{"V2 then V3, native out", []common.Address{x, usd, weth}, []chain.EVMSwapPool{v2(x, usd), v3p(usd, weth, 500)}, units(1_500, 18), false, true},
		{"native in, V3 then V2", []common.Address{weth, usd, x}, []chain.EVMSwapPool{v3p(weth, usd, 500), v2(usd, x)}, units(12, 18), true, false},
	} {
		pools := tc.pools
		if !(uniswapv3.Venue{}).Executes(cfg3, pools, false) {
			t.Fatalf("%s: Executes refuses the route", tc.name)
		}
		// Price the route from the pools' state now.
		amounts := []*big.Int{tc.in}
		for i, p := range pools {
			var hop chain.EVMHop
			var ok bool
			if p.Model == chain.EVMPair {
				hop, ok = uniswapv2.Venue{}.Hop(p, chain.EVMPoolState{Pair: readPair(c, p)}, lower(tc.path[i]))
			} else {
				hop, ok = uniswapv3.Venue{}.Hop(p, chain.EVMPoolState{V3: readV3(c, v3, p)}, lower(tc.path[i]))
			}
			if !ok {
				t.Fatalf("%s: hop %d not live", tc.name, i)
			}
			out, err := hop.AmountOut(amounts[i])
			if err != nil {
				t.Fatalf("%s: hop %d: %v", tc.name, i, err)
			}
			amounts = append(amounts, out)
		}
		want := amounts[len(amounts)-1]
		route := chain.EVMSwapRoute{Pools: pools, AmountIn: tc.in, MinOut: new(big.Int).Add(want, big.NewInt(1)), Recipient: lower(trader.Address),
			NativeIn: tc.nativeIn, NativeOut: tc.nativeOut, Deadline: 1 << 40}
		for _, a := range tc.path {
			route.Path = append(route.Path, lower(a))
		}
		tooMuch := uniswapv3.Venue{}.SwapCall(cfg3, route)
		if _, err := trader.Transact(ctx, sim, common.HexToAddress(tooMuch.To), tooMuch.Value, tooMuch.Data); err == nil {
			t.Fatalf("%s: a swap asking one more than the priced output succeeded", tc.name)
		}
		route.MinOut = want
		call := uniswapv3.Venue{}.SwapCall(cfg3, route)
		last := tc.path[len(tc.path)-1]
		before := balanceOf(c, last, trader.Address, tc.nativeOut)
		rc := c.tx(trader, common.HexToAddress(call.To), call.Value, call.Data)
		got := new(big.Int).Sub(balanceOf(c, last, trader.Address, tc.nativeOut), before)
		if tc.nativeOut {
			got.Add(got, new(big.Int).Mul(new(big.Int).SetUint64(rc.GasUsed), rc.EffectiveGasPrice))
		}
		if got.Cmp(want) != 0 {
			t.Fatalf("%s: received %s, the route priced %s (amounts %v)", tc.name, got, want, amounts)
		}
		if router := balanceOf(c, weth, v3.SwapRouter02, false); router.Sign() != 0 {
			t.Fatalf("%s: %s WETH left in the router", tc.name, router)
		}
		t.Logf("%s: %s in, %s out as priced, gas %d", tc.name, tc.in, got, rc.GasUsed)
	}

	pancake := v2(x, weth)
	pancake.FeePips = 2500
	for name, refused := range map[string]bool{
		"pairs only":       uniswapv3.Venue{}.Executes(cfg3, []chain.EVMSwapPool{v2(x, weth)}, false),
		"a 0.25 % pair":    uniswapv3.Venue{}.Executes(cfg3, []chain.EVMSwapPool{pancake, v3p(weth, usd, 500)}, false),
		"a taxed token":    uniswapv3.Venue{}.Executes(cfg3, []chain.EVMSwapPool{v3p(weth, usd, 500)}, true),
		"V2 router, mixed": uniswapv2.Venue{}.Executes(cfg2, []chain.EVMSwapPool{v2(x, weth), v3p(weth, usd, 500)}, false),
	} {
		if refused {
			t.Errorf("Executes takes a route with %s", name)
		}
	}
}

func lower(a common.Address) string { return strings.ToLower(a.Hex()) }

// mintPool creates and initializes the V3 pool of a and b at fee, at price (amounts of equal
// value), with a narrow, a medium and a wide position around the price.
func mintPool(c *chainT, deployer *devnet.Account, v3 devnet.V3Addresses, a, b common.Address, fee int64, price map[common.Address]*big.Int) {
	c.tx(deployer, v3.Factory, nil, factoryABI.PackCreatePool(a, b, big.NewInt(fee)))
	pool := call(c, v3.Factory, factoryABI.PackGetPool(a, b, big.NewInt(fee)), factoryABI.UnpackGetPool)
	token0, token1 := a, b
	if b.Cmp(a) < 0 {
		token0, token1 = b, a
	}
	ratio := new(big.Int).Lsh(price[token1], 192)
	ratio.Div(ratio, price[token0])
	c.tx(deployer, pool, nil, poolABI.PackInitialize(ratio.Sqrt(ratio)))
	spacing := int(call(c, pool, poolABI.PackTickSpacing(), poolABI.UnpackTickSpacing).Int64())
	tick := int(call(c, pool, poolABI.PackSlot0(), poolABI.UnpackSlot0).Tick.Int64())
	base := floorDiv(tick, spacing) * spacing
	for i, r := range [][2]int{{-5, 5}, {-40, 40}, {-300, 300}} {
		scale := big.NewInt(int64(200 * (i + 1)))
		c.tx(deployer, v3.PositionManager, nil, npmABI.PackMint(bindings.INonfungiblePositionManagerMintParams{
			Token0: token0, Token1: token1, Fee: big.NewInt(fee),
			TickLower: big.NewInt(int64(base + r[0]*spacing)), TickUpper: big.NewInt(int64(base + r[1]*spacing)),
			Amount0Desired: new(big.Int).Mul(scale, price[token0]), Amount1Desired: new(big.Int).Mul(scale, price[token1]),
			Amount0Min: new(big.Int), Amount1Min: new(big.Int), Recipient: deployer.Address, Deadline: maxUint256,
		}))
	}
}

// readPair reads a V2 pair as chain.PairState.
func readPair(c *chainT, p chain.EVMSwapPool) *chain.PairState {
	pairABI := bindings.NewUniswapV2Pair()
	addr := common.HexToAddress(p.Address)
	r := call(c, addr, pairABI.PackGetReserves(), pairABI.UnpackGetReserves)
	return &chain.PairState{Address: p.Address, Token0: lower(call(c, addr, pairABI.PackToken0(), pairABI.UnpackToken0)),
		Token1: lower(call(c, addr, pairABI.PackToken1(), pairABI.UnpackToken1)), Reserve0: r.Reserve0, Reserve1: r.Reserve1, OK: true}
}

// readV3 reads a V3 pool as chain.V3PoolState: the word of its tick and one on each side.
func readV3(c *chainT, v3 devnet.V3Addresses, p chain.EVMSwapPool) *chain.V3PoolState {
	return readV3Words(c, v3, p, 1)
}

// readV3Words reads a V3 pool as chain.V3PoolState: the word of its tick and words on each side.
func readV3Words(c *chainT, v3 devnet.V3Addresses, p chain.EVMSwapPool, words int16) *chain.V3PoolState {
	addr := common.HexToAddress(p.Address)
	slot0 := call(c, addr, poolABI.PackSlot0(), poolABI.UnpackSlot0)
	s := &chain.V3PoolState{Address: p.Address, Token0: lower(call(c, addr, poolABI.PackToken0(), poolABI.UnpackToken0)),
		Token1: lower(call(c, addr, poolABI.PackToken1(), poolABI.UnpackToken1)), Fee: p.FeePips,
		TickSpacing:  int(call(c, addr, poolABI.PackTickSpacing(), poolABI.UnpackTickSpacing).Int64()),
		SqrtPriceX96: slot0.SqrtPriceX96, Tick: int(slot0.Tick.Int64()), Liquidity: call(c, addr, poolABI.PackLiquidity(), poolABI.UnpackLiquidity), OK: true}
	w := s.CurrentWord()
	s.WordLow, s.WordHigh = w-words, w+words
	for wd := s.WordLow; wd <= s.WordHigh; wd++ {
		for _, pt := range call(c, v3.TickLens, lensABI.PackGetPopulatedTicksInWord(addr, wd), lensABI.UnpackGetPopulatedTicksInWord) {
			s.Ticks = append(s.Ticks, chain.V3Tick{Index: int(pt.Tick.Int64()), LiquidityNet: pt.LiquidityNet, LiquidityGross: pt.LiquidityGross})
		}
	}
	slices.SortFunc(s.Ticks, func(a, b chain.V3Tick) int { return a.Index - b.Index })
	return s
}

// balanceOf is owner's balance of token, or of the native coin when native.
func balanceOf(c *chainT, token, owner common.Address, native bool) *big.Int {
	if native {
		b, err := c.sim.Client().BalanceAt(c.ctx, owner, nil)
		if err != nil {
			c.t.Fatal(err)
		}
		return b
	}
	return call(c, token, tokenABI.PackBalanceOf(owner), tokenABI.UnpackBalanceOf)
}

// TestBins holds Bins to the positions minted: every bin's liquidity is the sum of the positions
// whose range covers it (positions() of every position NFT), the current bin's is the pool's
// liquidity(), and the bins' amounts add up to what the pool holds less at most a unit per
// position and bin (each rounds down). Then a swap moves the price across ticks and the checks run
// again, the current bin moving with it.
func TestBins(t *testing.T) {
	w := newRouteWorld(t)
	cfg3 := chain.VenueConfig{Factory: lower(w.v3.Factory), Router: lower(w.v3.SwapRouter02), TickLens: lower(w.v3.TickLens)}
	pools, err := uniswapv3.Venue{}.SwapPools(cfg3, lower(w.usd), lower(w.weth))
	if err != nil {
		t.Fatal(err)
	}
	p := pools[1] // 0.05 %
	if p.FeePips != 500 {
		t.Fatalf("pool %+v, want the 0.05 %% tier", p)
	}
	var currents [2]int // the current bin's lower tick in each round
	for round := range 2 {
		st := readV3Words(w.chainT, w.v3, p, uniswapv3.BinWords)
		bins, err := uniswapv3.Venue{}.Bins(*st)
		if err != nil {
			t.Fatal(err)
		}
		var positions []bindings.PositionsOutput
		n := call(w.chainT, w.v3.PositionManager, npmABI.PackTotalSupply(), npmABI.UnpackTotalSupply)
		for id := int64(1); id <= n.Int64(); id++ {
			pos := call(w.chainT, w.v3.PositionManager, npmABI.PackPositions(big.NewInt(id)), npmABI.UnpackPositions)
			if lower(pos.Token0) == st.Token0 && lower(pos.Token1) == st.Token1 && int(pos.Fee.Int64()) == st.Fee {
				positions = append(positions, pos)
			}
		}
		current := 0
		sum0, sum1 := new(big.Int), new(big.Int)
		for i, b := range bins {
			want := new(big.Int)
			for _, pos := range positions {
				if int(pos.TickLower.Int64()) <= b.TickLower && b.TickUpper <= int(pos.TickUpper.Int64()) {
					want.Add(want, pos.Liquidity)
				}
			}
			if b.Liquidity.Cmp(want) != 0 || b.TickLower >= b.TickUpper || (i > 0 && bins[i-1].TickUpper > b.TickLower) {
				t.Fatalf("round %d bin %d [%d, %d): liquidity %s, the positions covering it hold %s", round, i, b.TickLower, b.TickUpper, b.Liquidity, want)
			}
			if b.Current {
				current++
				currents[round] = b.TickLower
				if b.Liquidity.Cmp(st.Liquidity) != 0 || st.Tick < b.TickLower || st.Tick >= b.TickUpper {
					t.Fatalf("round %d: current bin %+v, pool at tick %d with liquidity %s", round, b, st.Tick, st.Liquidity)
				}
			} else if (b.TickUpper <= st.Tick && b.Amount0.Sign() != 0) || (b.TickLower > st.Tick && b.Amount1.Sign() != 0) {
				t.Fatalf("round %d: bin %+v off the price holds the wrong token", round, b)
			}
			sum0.Add(sum0, b.Amount0)
			sum1.Add(sum1, b.Amount1)
		}
		if current != 1 || len(bins) < 4 {
			t.Fatalf("round %d: %d bins, %d current", round, len(bins), current)
		}
		slack := big.NewInt(int64(len(bins) + len(positions)))
		for i, sum := range []*big.Int{sum0, sum1} {
			token := common.HexToAddress([]string{st.Token0, st.Token1}[i])
			held := call(w.chainT, token, tokenABI.PackBalanceOf(common.HexToAddress(p.Address)), tokenABI.UnpackBalanceOf)
			if round == 1 { // the swap's fees stay in the pool besides the liquidity
				continue
			}
			if gap := new(big.Int).Sub(held, sum); gap.Sign() < 0 || gap.Cmp(slack) > 0 {
				t.Fatalf("round %d token%d: the bins hold %s, the pool %s", round, i, sum, held)
			}
		}
		t.Logf("round %d: %d bins over %d positions at tick %d", round, len(bins), len(positions), st.Tick)
		if round == 0 { // sell enough USD to cross the narrow position's upper or lower tick
			in := units(1_500_000, 6)
			w.tx(w.trader, w.v3.SwapRouter02, nil, routerABI.PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{
				TokenIn: w.usd, TokenOut: w.weth, Fee: big.NewInt(500), Recipient: w.trader.Address,
				AmountIn: in, AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int)}))
		}
	}
	if currents[0] == currents[1] {
		t.Errorf("the swap left the price in the same bin [%d, ...)", currents[0])
	}
}
