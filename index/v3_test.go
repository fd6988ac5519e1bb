package index_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

var (
	v3Factory = bindings.NewUniswapV3Factory()
	v3Pool    = v3pool.NewUniswapV3Pool()
	v3NPM     = bindings.NewNonfungiblePositionManager()
	v3Router  = bindings.NewSwapRouter02()
)

// v3World is a chainWorld with the official Uniswap V3 contracts, a USD/WETH pool at 0.05 % and a
// follower that indexes both venues.
type v3World struct {
	*chainWorld
	v3   devnet.V3Addresses
	pool common.Address
}

func newV3World(t *testing.T, st *store.Store, confirmations uint64) *v3World {
	w := &v3World{chainWorld: newChainWorld(t, st, confirmations)}
	var err error
	if w.v3, err = w.deployer.DeployV3(w.ctx, w.sim, w.addrs); err != nil {
		t.Fatal(err)
	}
	w.follower = evm.NewFollower(evm.FollowerConfig{Chain: "base", Reader: w.reader, Sink: w.ix, Confirmations: confirmations,
		WrappedNative: w.addrs.WrappedNative, MaxRange: 7, Interval: 50 * time.Millisecond, StepTimeout: 300 * time.Millisecond,
		Indexers: []chain.EVMIndexer{uniswapv2.Indexer{Factory: lowerHex(w.addrs.Factory), FeeBps: 30},
			uniswapv3.Indexer{Factory: lowerHex(w.v3.Factory), PositionManager: lowerHex(w.v3.PositionManager)}}})
	usd, weth := w.addrs.USD, w.addrs.WrappedNative
	for _, a := range append([]*devnet.Account{w.deployer}, w.users...) {
		w.tx(a, weth, units(500, 18), wethABI.PackDeposit())
		for _, tok := range []common.Address{usd, weth} {
			w.tx(a, tok, nil, tokenABI.PackApprove(w.v3.PositionManager, maxUint))
			w.tx(a, tok, nil, tokenABI.PackApprove(w.v3.SwapRouter02, maxUint))
		}
	}
	w.tx(w.deployer, w.v3.Factory, nil, v3Factory.PackCreatePool(usd, weth, big.NewInt(500)))
	w.pool = v3call(w.chainWorld, w.v3.Factory, v3Factory.PackGetPool(usd, weth, big.NewInt(500)), v3Factory.UnpackGetPool)
	token0, token1 := usd, weth
	if weth.Cmp(usd) < 0 {
		token0, token1 = weth, usd
	}
	price := map[common.Address]*big.Int{usd: units(3_000, 6), weth: units(1, 18)}
	ratio := new(big.Int).Lsh(price[token1], 192)
	ratio.Div(ratio, price[token0])
	w.tx(w.deployer, w.pool, nil, v3Pool.PackInitialize(ratio.Sqrt(ratio)))
	return w
}

// mint mints a position of the deployer's in [tick + lo*10, tick + hi*10) around the pool's tick.
func (w *v3World) mint(lo, hi int64, dollars int64) {
	w.t.Helper()
	slot0 := v3call(w.chainWorld, w.pool, v3Pool.PackSlot0(), v3Pool.UnpackSlot0)
	base := new(big.Int).Mul(new(big.Int).Div(slot0.Tick, big.NewInt(10)), big.NewInt(10))
	if slot0.Tick.Sign() < 0 {
		base.Sub(base, big.NewInt(10))
	}
	t0 := v3call(w.chainWorld, w.pool, v3Pool.PackToken0(), v3Pool.UnpackToken0)
	t1 := v3call(w.chainWorld, w.pool, v3Pool.PackToken1(), v3Pool.UnpackToken1)
	amount := func(tok common.Address) *big.Int {
		if tok == w.addrs.USD {
			return units(dollars, 6)
		}
		return new(big.Int).Div(units(dollars, 18), big.NewInt(3_000))
	}
	w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackMint(bindings.INonfungiblePositionManagerMintParams{
		Token0: t0, Token1: t1, Fee: big.NewInt(500),
		TickLower: new(big.Int).Add(base, big.NewInt(lo*10)), TickUpper: new(big.Int).Add(base, big.NewInt(hi*10)),
		Amount0Desired: amount(t0), Amount1Desired: amount(t1), Amount0Min: new(big.Int), Amount1Min: new(big.Int),
		Recipient: w.deployer.Address, Deadline: maxUint}))
}

// swap sells in of tokenIn through the pool for user i.
func (w *v3World) swap(i int, tokenIn, tokenOut common.Address, in *big.Int) {
	w.t.Helper()
	w.tx(w.users[i], w.v3.SwapRouter02, nil, v3Router.PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{
		TokenIn: tokenIn, TokenOut: tokenOut, Fee: big.NewInt(500), Recipient: w.users[i].Address,
		AmountIn: in, AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int)}))
}

// checkState compares the indexed pool with the chain: its slot0 and liquidity(), and its reserves
// are the virtual reserves of that state.
func (w *v3World) checkState(what string) index.Pool {
	w.t.Helper()
	p, err := w.ix.Pool(w.ctx, "base", lowerHex(w.pool))
	if err != nil {
		w.t.Fatal(err)
	}
	slot0 := v3call(w.chainWorld, w.pool, v3Pool.PackSlot0(), v3Pool.UnpackSlot0)
	liq := v3call(w.chainWorld, w.pool, v3Pool.PackLiquidity(), v3Pool.UnpackLiquidity)
	c := p.Concentrated
	if c == nil || c.SqrtPriceX96.Cmp(slot0.SqrtPriceX96) != 0 || c.Liquidity.Cmp(liq) != 0 || int64(c.Tick) != slot0.Tick.Int64() {
		w.t.Fatalf("%s: indexed state %+v; chain sqrtPriceX96 %s liquidity %s tick %s", what, c, slot0.SqrtPriceX96, liq, slot0.Tick)
	}
	r0, r1 := c.Reserves()
	if p.Reserve0 != r0.String() || p.Reserve1 != r1.String() || p.Venue != uniswapv3.Name || p.FeeBps != 5 {
		w.t.Fatalf("%s: pool %+v, want virtual reserves %s, %s", what, p, r0, r1)
	}
	return p
}

func v3call[T any](w *chainWorld, to common.Address, data []byte, unpack func([]byte) (T, error)) T {
	w.t.Helper()
	c := bind.NewBoundContract(to, tokenABI.GetABI(), w.sim.Client(), w.sim.Client(), w.sim.Client())
	v, err := bind.Call(c, &bind.CallOpts{Context: w.ctx}, data, unpack)
	if err != nil {
		w.t.Fatal(err)
	}
	return v
}

// TestFollowV3 indexes a Uniswap V3 pool from its factory's and its own logs on SQLite and
// PostgreSQL: after its Initialize (no liquidity: zero reserves), mints in range and out of range
// (only the one in range moves the in-range liquidity), swaps in both directions crossing the
// narrow position's ticks, a partial burn and the position manager's fee poke (a burn of zero
// liquidity, not indexed) and collect (a collect event, not a trade), the indexed price, in-range
// liquidity and tick equal the pool's slot0 and liquidity() after each step, and the trades are the
// Swap events, side and amounts. Then a reorg drops the last swap: the state is restored to the
// pool's on the new chain.
func TestFollowV3(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		w := newV3World(t, st, 3)
		usd, weth := w.addrs.USD, w.addrs.WrappedNative
		w.sync()
		if p := w.checkState("initialized"); p.Reserve0 != "0" || p.Reserve1 != "0" {
			t.Fatalf("reserves %s, %s before any liquidity, want 0", p.Reserve0, p.Reserve1)
		}
		w.mint(-5, 5, 5_000)      // narrow, in range
		w.mint(-60, 60, 50_000)   // wide
		w.mint(20, 40, 10_000)    // above the price: token0 or token1 only
		w.mint(-900, 900, 30_000) // very wide
		w.sync()
		minted := w.checkState("minted")

		w.swap(1, usd, weth, units(18_000, 6)) // crosses the narrow position's bound
		w.sync()
		if sold := w.checkState("after a USD sale"); sold.Concentrated.Liquidity.Cmp(minted.Concentrated.Liquidity) == 0 {
			t.Fatalf("the swap moved the tick %d -> %d without crossing a position's bound", minted.Concentrated.Tick, sold.Concentrated.Tick)
		}
		w.swap(0, weth, usd, units(4, 18))
		w.swap(2, weth, usd, units(1, 18))
		w.sync()
		w.checkState("after WETH sales")

		// A partial decrease (a burn), then collect (a burn of zero, the fee poke, then Collect).
		pos := v3call(w.chainWorld, w.v3.PositionManager, v3NPM.PackPositions(big.NewInt(2)), v3NPM.UnpackPositions)
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackDecreaseLiquidity(bindings.INonfungiblePositionManagerDecreaseLiquidityParams{
			TokenId: big.NewInt(2), Liquidity: new(big.Int).Div(pos.Liquidity, big.NewInt(3)), Amount0Min: new(big.Int), Amount1Min: new(big.Int), Deadline: maxUint}))
		max128 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackCollect(bindings.INonfungiblePositionManagerCollectParams{
			TokenId: big.NewInt(1), Recipient: w.deployer.Address, Amount0Max: max128, Amount1Max: max128}))
		w.sync()
		w.checkState("after a burn and a collect")

		trades := w.trades(lowerHex(w.pool))
		if len(trades) != 3 {
			t.Fatalf("%d trades indexed, 3 made: %+v", len(trades), trades)
		}
		events, err := w.ix.Events(w.ctx, "base", lowerHex(w.pool), 0, time.Now().Add(time.Hour).Unix())
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]int{}
		for _, e := range events {
			kinds[e.Kind]++
		}
		if kinds["mint"] != 4 || kinds["burn"] != 1 || kinds["swap"] != 3 || kinds["sync"] != 1 || kinds["collect"] != 1 {
			t.Errorf("events by kind %v, want 4 mints, 1 burn (the pokes are not indexed), 3 swaps, 1 sync (Initialize), 1 collect", kinds)
		}
		// A reorg drops a swap: the state goes back to what the pool holds on the new chain.
		fork, err := w.sim.Client().HeaderByNumber(w.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.swap(2, usd, weth, units(20_000, 6))
		w.sync()
		w.checkState("after a swap about to be reorganized away")
		if err := w.sim.Fork(fork.Hash()); err != nil {
			t.Fatal(err)
		}
		w.sim.Rollback()
		for range 5 {
			w.sim.Commit()
		}
		w.sync()
		w.checkState("after the reorg")
		if trades := w.trades(lowerHex(w.pool)); len(trades) != 3 {
			t.Fatalf("%d trades after the reorg, want 3", len(trades))
		}
	})
}
