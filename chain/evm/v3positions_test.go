package evm

import (
	"bytes"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

// v3PosWorld is a world with the official V3 contracts, two USD/WETH pools (0.3 % and 0.05 %)
// with positions of three holders, one of them staked in the UniswapV3Staker, and trades through
// both pools that cross the positions' ticks.
type v3PosWorld struct {
	*world
	v3    devnet.V3Addresses
	pools map[int64]common.Address // by fee
	ids   map[string]*big.Int      // the positions by name (see newV3PosWorld)
}

var (
	v3PosNPM    = bindings.NewNonfungiblePositionManager()
	v3PosPool   = v3pool.NewUniswapV3Pool()
	v3PosMaxU   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	v3PosMax128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
)

// newV3PosWorld mints, at base tick b and spacing s of each pool:
//   - 0.3 %: A [b-5s, b+5s) and C [b+20s, b+60s) (above the price throughout) for owners[0];
//     B [b-300s, b+300s) and G [b-40s, b-10s) (crossed into and out of) for owners[1]; D
//     [b-50s, b+50s) for the deployer, staked in an incentive on the pool;
//   - 0.05 %: E [b-20s, b+20s) for owners[1]; F [b-100s, b+100s) for the deployer, half of whose
//     liquidity is then removed and left uncollected (tokensOwed);
//
// then trades each pool down and up across the positions' ticks, and ends inside A's and E's range.
func newV3PosWorld(t *testing.T) *v3PosWorld {
	w := newWorld(t)
	ctx := w.ctx
	v3, err := w.deployer.DeployV3(ctx, w.sim, w.addrs)
	if err != nil {
		t.Fatal(err)
	}
	pw := &v3PosWorld{world: w, v3: v3, pools: map[int64]common.Address{}, ids: map[string]*big.Int{}}
	var (
		factoryABI = bindings.NewUniswapV3Factory()
		wethABI    = bindings.NewWETH9()
	)
	usd, weth := w.addrs.USD, w.addrs.WrappedNative
	w.tx(usd, tokenB.PackMint(w.deployer.Address, units(1_000_000_000, 6)))
	if _, err := w.deployer.Transact(ctx, w.sim, weth, units(100_000, 18), wethABI.PackDeposit()); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []common.Address{usd, weth} {
		w.tx(tok, tokenB.PackApprove(v3.PositionManager, v3PosMaxU))
		w.tx(tok, tokenB.PackApprove(v3.SwapRouter02, v3PosMaxU))
	}
	token0, token1 := usd, weth
	if weth.Cmp(usd) < 0 {
		token0, token1 = weth, usd
	}
	amount := map[common.Address]*big.Int{usd: units(3_000, 6), weth: units(1, 18)}
	mint := func(name string, fee int64, lo, hi int, scale int64, to common.Address) {
		rc, err := w.deployer.Transact(ctx, w.sim, v3.PositionManager, nil, v3PosNPM.PackMint(bindings.INonfungiblePositionManagerMintParams{
			Token0: token0, Token1: token1, Fee: big.NewInt(fee), TickLower: big.NewInt(int64(lo)), TickUpper: big.NewInt(int64(hi)),
			Amount0Desired: new(big.Int).Mul(big.NewInt(scale), amount[token0]), Amount1Desired: new(big.Int).Mul(big.NewInt(scale), amount[token1]),
			Amount0Min: new(big.Int), Amount1Min: new(big.Int), Recipient: to, Deadline: v3PosMaxU,
		}))
		if err != nil {
			t.Fatalf("mint %s: %v", name, err)
		}
		for _, l := range rc.Logs { // Transfer(0, to, id) of the position manager
			if l.Address == v3.PositionManager && len(l.Topics) == 4 && l.Topics[1] == (common.Hash{}) {
				pw.ids[name] = l.Topics[3].Big()
			}
		}
	}
	bases := map[int64][2]int{}
	for _, fee := range []int64{3000, 500} {
		w.tx(v3.Factory, factoryABI.PackCreatePool(usd, weth, big.NewInt(fee)))
		pool := callBinding(w, v3.Factory, factoryABI.PackGetPool(usd, weth, big.NewInt(fee)), factoryABI.UnpackGetPool)
		ratio := new(big.Int).Lsh(amount[token1], 192)
		ratio.Div(ratio, amount[token0])
		w.tx(pool, v3PosPool.PackInitialize(ratio.Sqrt(ratio)))
		s := int(callBinding(w, pool, v3PosPool.PackTickSpacing(), v3PosPool.UnpackTickSpacing).Int64())
		tick := int(callBinding(w, pool, v3PosPool.PackSlot0(), v3PosPool.UnpackSlot0).Tick.Int64())
		pw.pools[fee], bases[fee] = pool, [2]int{floorDiv(tick, s) * s, s}
	}
	b, s := bases[3000][0], bases[3000][1]
	mint("A", 3000, b-5*s, b+5*s, 10, w.owners[0])
	mint("B", 3000, b-300*s, b+300*s, 50, w.owners[1])
	mint("C", 3000, b+20*s, b+60*s, 5, w.owners[0])
	mint("D", 3000, b-50*s, b+50*s, 20, w.deployer.Address)
	mint("G", 3000, b-40*s, b-10*s, 5, w.owners[1])
	b5, s5 := bases[500][0], bases[500][1]
	mint("E", 500, b5-20*s5, b5+20*s5, 10, w.owners[1])
	mint("F", 500, b5-100*s5, b5+100*s5, 30, w.deployer.Address)

	// The incentive on the 0.3 % pool, starting shortly; D is staked in it once it has started.
	stakerABI := bindings.NewUniswapV3Staker()
	head, err := w.sim.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	key := bindings.IUniswapV3StakerIncentiveKey{RewardToken: usd, Pool: pw.pools[3000], StartTime: new(big.Int).SetUint64(head.Time + 30),
		EndTime: new(big.Int).SetUint64(head.Time + 30 + 365*24*3600), Refundee: w.deployer.Address}
	w.tx(usd, tokenB.PackApprove(v3.Staker, v3PosMaxU))
	w.tx(v3.Staker, stakerABI.PackCreateIncentive(key, units(10_000, 6)))
	if err := w.sim.AdjustTime(60 * time.Second); err != nil {
		t.Fatal(err)
	}
	encoded := bytes.Join([][]byte{common.LeftPadBytes(key.RewardToken[:], 32), common.LeftPadBytes(key.Pool[:], 32),
		common.LeftPadBytes(key.StartTime.Bytes(), 32), common.LeftPadBytes(key.EndTime.Bytes(), 32), common.LeftPadBytes(key.Refundee[:], 32)}, nil)
	w.tx(v3.PositionManager, v3PosNPM.PackSafeTransferFrom0(w.deployer.Address, v3.Staker, pw.ids["D"], encoded))
	if d := callBinding(w, v3.Staker, stakerABI.PackDeposits(pw.ids["D"]), stakerABI.UnpackDeposits); d.Owner != w.deployer.Address || d.NumberOfStakes.Int64() != 1 {
		t.Fatalf("D's deposit: %+v", d)
	}

	pw.moveTo(3000, b-25*s)
	pw.moveTo(3000, b+8*s)
	pw.moveTo(3000, b+2*s+17)
	pw.moveTo(500, b5-50*s5)
	pw.moveTo(500, b5+30*s5)
	// F: half its liquidity removed, nothing collected; then more trades.
	f := callBinding(w, v3.PositionManager, v3PosNPM.PackPositions(pw.ids["F"]), v3PosNPM.UnpackPositions)
	w.tx(v3.PositionManager, v3PosNPM.PackDecreaseLiquidity(bindings.INonfungiblePositionManagerDecreaseLiquidityParams{
		TokenId: pw.ids["F"], Liquidity: new(big.Int).Div(f.Liquidity, big.NewInt(2)), Amount0Min: new(big.Int), Amount1Min: new(big.Int), Deadline: v3PosMaxU}))
	pw.moveTo(500, b5-10*s5)
	pw.moveTo(500, b5+3*s5+5)
	return pw
}

// moveTo swaps through the pool of fee until its price is at tick target (SwapRouter02's
// exactInputSingle with the tick's sqrt price as the limit).
func (pw *v3PosWorld) moveTo(fee int64, target int) {
	pool := pw.pools[fee]
	tick := int(callBinding(pw.world, pool, v3PosPool.PackSlot0(), v3PosPool.UnpackSlot0).Tick.Int64())
	t0 := callBinding(pw.world, pool, v3PosPool.PackToken0(), v3PosPool.UnpackToken0)
	t1 := callBinding(pw.world, pool, v3PosPool.PackToken1(), v3PosPool.UnpackToken1)
	in, out := t1, t0 // up
	if target < tick {
		in, out = t0, t1
	}
	limit, err := uniswapv3.SqrtRatioAtTick(target)
	if err != nil {
		pw.t.Fatal(err)
	}
	amountIn := units(10_000, 18)
	if in == pw.addrs.USD {
		amountIn = units(30_000_000, 6)
	}
	pw.tx(pw.v3.SwapRouter02, bindings.NewSwapRouter02().PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{
		TokenIn: in, TokenOut: out, Fee: big.NewInt(fee), Recipient: pw.deployer.Address, AmountIn: amountIn,
		AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: limit}))
	if now := int(callBinding(pw.world, pool, v3PosPool.PackSlot0(), v3PosPool.UnpackSlot0).Tick.Int64()); now != target && now != target-1 {
		pw.t.Fatalf("pool %d at tick %d, want %d", fee, now, target)
	}
}

// staticCall is an eth_call of data to the position manager from from at block.
func (pw *v3PosWorld) staticCall(from common.Address, data []byte, block uint64) []byte {
	pw.t.Helper()
	out, err := pw.sim.Client().CallContract(pw.ctx, ethereum.CallMsg{From: from, To: &pw.v3.PositionManager, Data: data}, new(big.Int).SetUint64(block))
	if err != nil {
		pw.t.Fatalf("static call from %s: %v", from, err)
	}
	return out
}

// TestV3PositionsOnDevnet reads the positions of four owners (one with none, one with a wallet
// position and a staked one) in four round trips, and holds every figure to the contracts: each
// position's fees equal what the position manager's collect pays in a static call from the NFT's
// holder (the owner, or the staker for the staked one) at the read's block, its amounts what
// decreaseLiquidity of all its liquidity pays, its fields positions()'s. A read pinned to that block
// after another trade reads the same; past the scan bound owners are reported incomplete; pools
// that do not answer leave their positions listed as unanswered.
func TestV3PositionsOnDevnet(t *testing.T) {
	pw := newV3PosWorld(t)
	w := pw.world
	src := NewSource(w.reader, w.addrs.WrappedNative.Hex(), w.addrs.Factory.Hex())
	where := chain.V3PositionsRead{PositionManager: canonical(pw.v3.PositionManager), Staker: canonical(pw.v3.Staker),
		Factory: canonical(pw.v3.Factory)}
	owners := []string{canonical(w.owners[0]), canonical(w.owners[1]), canonical(w.owners[2]), canonical(w.deployer.Address)}
	before := w.rt.n.Load()
	got, err := src.V3Positions(w.ctx, where, owners, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.rt.n.Load() - before; n != 4 {
		t.Errorf("V3Positions took %d round trips, want 4", n)
	}
	want := [][]string{{"A", "C"}, {"B", "G", "E"}, {}, {"F", "D"}} // wallet by id (the mint order), then staked
	for i := range owners {
		var ids []*big.Int
		for _, p := range got.Positions[i] {
			ids = append(ids, p.ID)
		}
		var wantIDs []*big.Int
		for _, name := range want[i] {
			wantIDs = append(wantIDs, pw.ids[name])
		}
		if !slices.EqualFunc(ids, wantIDs, func(a, b *big.Int) bool { return a.Cmp(b) == 0 }) || !got.Complete[i] || len(got.Unanswered[i]) > 0 {
			t.Fatalf("owner %d: positions %v (complete %v, unanswered %v), want %v", i, ids, got.Complete[i], got.Unanswered[i], wantIDs)
		}
	}

	venue := uniswapv3.Venue{}
	var feesSeen, crossed, outOfRange int
	for i := range owners {
		for _, p := range got.Positions[i] {
			holder := common.HexToAddress(owners[i])
			if p.Staked {
				holder = pw.v3.Staker
			}
			if p.Staked != (p.ID.Cmp(pw.ids["D"]) == 0) {
				t.Fatalf("position %s: staked %v", p.ID, p.Staked)
			}
			on := v3PosNPM.UnpackPositions
			pos, err := on(pw.staticCall(holder, v3PosNPM.PackPositions(p.ID), got.Block))
			if err != nil {
				t.Fatal(err)
			}
			pool, _ := chain.UniswapV3PoolAddress(where.Factory, chain.UniswapV3InitCodeHash, pos.Token0.Hex(), pos.Token1.Hex(), int(pos.Fee.Int64()))
			if p.Pool != pool || p.TickLower != int(pos.TickLower.Int64()) || p.TickUpper != int(pos.TickUpper.Int64()) ||
				p.Liquidity.Cmp(pos.Liquidity) != 0 || p.TokensOwed0.Cmp(pos.TokensOwed0) != 0 || p.TokensOwed1.Cmp(pos.TokensOwed1) != 0 ||
				p.FeeGrowthInside0LastX128.Cmp(pos.FeeGrowthInside0LastX128) != 0 || p.Token0 != canonical(pos.Token0) {
				t.Fatalf("position %s: read %+v, positions() says %+v", p.ID, p, pos)
			}
			fig, err := venue.PositionFigures(p)
			if err != nil {
				t.Fatal(err)
			}
			collected, err := v3PosNPM.UnpackCollect(pw.staticCall(holder, v3PosNPM.PackCollect(bindings.INonfungiblePositionManagerCollectParams{
				TokenId: p.ID, Recipient: holder, Amount0Max: v3PosMax128, Amount1Max: v3PosMax128}), got.Block))
			if err != nil {
				t.Fatal(err)
			}
			if fig.Fees0.Cmp(collected.Amount0) != 0 || fig.Fees1.Cmp(collected.Amount1) != 0 {
				t.Errorf("position %s: fees %s %s, collect pays %s %s", p.ID, fig.Fees0, fig.Fees1, collected.Amount0, collected.Amount1)
			}
			removed, err := v3PosNPM.UnpackDecreaseLiquidity(pw.staticCall(holder, v3PosNPM.PackDecreaseLiquidity(bindings.INonfungiblePositionManagerDecreaseLiquidityParams{
				TokenId: p.ID, Liquidity: p.Liquidity, Amount0Min: new(big.Int), Amount1Min: new(big.Int), Deadline: v3PosMaxU}), got.Block))
			if err != nil {
				t.Fatal(err)
			}
			if fig.Amount0.Cmp(removed.Amount0) != 0 || fig.Amount1.Cmp(removed.Amount1) != 0 {
				t.Errorf("position %s: amounts %s %s, decreaseLiquidity pays %s %s", p.ID, fig.Amount0, fig.Amount1, removed.Amount0, removed.Amount1)
			}
			slot0 := callBinding(w, common.HexToAddress(p.Pool), v3PosPool.PackSlot0(), v3PosPool.UnpackSlot0)
			if tick := int(slot0.Tick.Int64()); fig.InRange != (p.TickLower <= tick && tick < p.TickUpper) || p.State.Tick != tick {
				t.Errorf("position %s [%d, %d): in range %v, pool at tick %d (read %d)", p.ID, p.TickLower, p.TickUpper, fig.InRange, tick, p.State.Tick)
			}
			if fig.Fees0.Sign() > 0 && fig.Fees1.Sign() > 0 {
				feesSeen++
			}
			if !fig.InRange {
				outOfRange++
				if fig.Amount0.Sign() > 0 && fig.Amount1.Sign() > 0 {
					t.Errorf("position %s is out of range but holds both tokens", p.ID)
				}
			}
			if p.ID.Cmp(pw.ids["G"]) == 0 && fig.Fees0.Sign()+fig.Fees1.Sign() > 0 {
				crossed++ // G earned while the price was in its range, and is out of it now
			}
			t.Logf("position %s [%d, %d) staked %v: in range %v, amounts %s %s, fees %s %s", p.ID, p.TickLower, p.TickUpper, p.Staked,
				fig.InRange, fig.Amount0, fig.Amount1, fig.Fees0, fig.Fees1)
		}
	}
	if feesSeen < 4 || crossed != 1 || outOfRange != 2 {
		t.Errorf("%d positions with fees in both tokens (want at least 4), G crossed %d, %d out of range (want C and G)", feesSeen, crossed, outOfRange)
	}

	// A read pinned to the first one's block, after another trade, finds the same figures.
	pw.moveTo(3000, got.Positions[0][0].State.Tick-60)
	before = w.rt.n.Load()
	again, err := src.V3Positions(w.ctx, where, owners, got.Block)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.rt.n.Load() - before; n != 4 || again.Block != got.Block {
		t.Errorf("a read at block %d took %d round trips and read block %d", got.Block, n, again.Block)
	}
	for i := range owners {
		for j, p := range again.Positions[i] {
			a, _ := venue.PositionFigures(p)
			b, _ := venue.PositionFigures(got.Positions[i][j])
			if a.Fees0.Cmp(b.Fees0) != 0 || a.Amount1.Cmp(b.Amount1) != 0 {
				t.Errorf("position %s at block %d: %+v, first read %+v", p.ID, got.Block, a, b)
			}
		}
	}

	// Past the scan bound an owner is incomplete (owners[1] holds three NFTs), and past it for the
	// staker every owner is: nothing is dropped silently.
	defer func(limit int) { nftScanLimit = limit }(nftScanLimit)
	for _, tc := range []struct {
		limit    int
		complete []bool
	}{{2, []bool{true, false, true, true}}, {0, []bool{false, false, false, false}}} {
		nftScanLimit = tc.limit
		cut, err := src.V3Positions(w.ctx, where, owners, got.Block)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(cut.Complete, tc.complete) || len(cut.Positions[1]) != min(tc.limit, 3) {
			t.Errorf("scan bound %d: complete %v (want %v), owners[1] has %d positions", tc.limit, cut.Complete, tc.complete, len(cut.Positions[1]))
		}
	}
	nftScanLimit = MaxNFTsScanned

	// Pools that do not answer (derived with another init code hash: no code there) leave every
	// position out, each listed as unanswered for its owner.
	where.InitCodeHash = "0x" + strings.Repeat("ab", 32)
	broken, err := src.V3Positions(w.ctx, where, owners, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range owners {
		if len(broken.Positions[i]) != 0 || len(broken.Unanswered[i]) != len(want[i]) {
			t.Errorf("owner %d without pools: %d positions, unanswered %v, want %d unanswered", i, len(broken.Positions[i]), broken.Unanswered[i], len(want[i]))
		}
	}
}
