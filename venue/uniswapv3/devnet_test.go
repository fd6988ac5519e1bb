package uniswapv3_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"sort"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

var (
	tokenABI   = bindings.NewToken()
	wethABI    = bindings.NewWETH9()
	factoryABI = bindings.NewUniswapV3Factory()
	poolABI    = v3pool.NewUniswapV3Pool()
	npmABI     = bindings.NewNonfungiblePositionManager()
	routerABI  = bindings.NewSwapRouter02()
	quoterABI  = bindings.NewQuoterV2()
	lensABI    = bindings.NewTickLens()
	maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
)

type chainT struct {
	t      *testing.T
	ctx    context.Context
	sim    devnet.Backend
	client bind.ContractBackend
}

// newV3Devnet is a fresh devnet funded for the accounts of two fixed keys (deployer, trader) with
// the core contracts and the official V3 set, deployed by the deployer.
func newV3Devnet(t *testing.T, deployerKey, traderKey string) (*chainT, devnet.Addresses, devnet.V3Addresses, *devnet.Account, *devnet.Account) {
	ctx := t.Context()
	var keys []*ecdsa.PrivateKey
	alloc := types.GenesisAlloc{}
	for _, hexKey := range []string{deployerKey, traderKey} {
		k, err := crypto.HexToECDSA(hexKey)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
		alloc[crypto.PubkeyToAddress(k.PublicKey)] = types.Account{Balance: units(100_000, 18)}
	}
	sim := devnet.NewBackend(alloc)
	t.Cleanup(func() { _ = sim.Close() })
	core, err := devnet.Deploy(ctx, sim, keys[0])
	if err != nil {
		t.Fatal(err)
	}
	deployer, err := devnet.NewAccount(ctx, sim.Client(), keys[0])
	if err != nil {
		t.Fatal(err)
	}
	trader, err := devnet.NewAccount(ctx, sim.Client(), keys[1])
	if err != nil {
		t.Fatal(err)
	}
	v3, err := deployer.DeployV3(ctx, sim, core)
	if err != nil {
		t.Fatal(err)
	}
	return &chainT{t: t, ctx: ctx, sim: sim, client: sim.Client()}, core, v3, deployer, trader
}

func (c *chainT) tx(from *devnet.Account, to common.Address, value *big.Int, data []byte) *types.Receipt {
	c.t.Helper()
	rc, err := from.Transact(c.ctx, c.sim, to, value, data)
	if err != nil {
		c.t.Fatal(err)
	}
	return rc
}

func call[T any](c *chainT, to common.Address, data []byte, unpack func([]byte) (T, error)) T {
	c.t.Helper()
	bc := bind.NewBoundContract(to, tokenABI.GetABI(), c.client, c.client, c.client)
	v, err := bind.Call(bc, &bind.CallOpts{Context: c.ctx}, data, unpack)
	if err != nil {
		c.t.Fatalf("call %s: %v", to, err)
	}
	return v
}

func units(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// TestQuoterV2 holds Swap to the official QuoterV2 on a fresh devnet running the official V3
// contracts: for a 0.05 %, a 0.3 % and a 1 % USD/WETH pool with five positions each (nested ranges around
// the price, one above and one below it, so large swaps cross several initialized ticks), it reads
// the pool as a quote would (slot0, liquidity, and the initialized ticks of the bitmap words around
// the price through TickLens) and checks, for amounts in both directions from a thousandth of
// the pool's holdings to three times them, that Swap's amount out, price after and ticks crossed
// equal quoteExactInputSingle's amountOut, sqrtPriceX96After and initializedTicksCrossed exactly,
// and for exact output that Swap's amount in equals quoteExactOutputSingle's amountIn. A third
// pool, 1 %, sits at the inverse price so that its ticks are negative.
//
// initializedTicksCrossed is QuoterV2's PoolTicksCounter count between the tick before and after,
// which divides negative ticks by the spacing rounding towards zero: when a swap ends (upwards) or
// starts (downwards) at a negative tick that is not a multiple of the spacing, just below an
// initialized tick, it counts that tick although the swap did not cross it. The test checks the
// quoter's number against CountInitializedTicksCrossed always, and Swap's TicksCrossed (the
// crossings the pool made) against it where the two agree, logging how often they do not. A swap
// that leaves the words read must fail with ErrTicksExhausted and, on every tick of the pool,
// equal the quote. Then a real swap through SwapRouter02 moves the price across ticks, receives
// what Swap said, and the checks run again at the new state.
func TestQuoterV2(t *testing.T) {
	// Fixed keys: the same token addresses, hence the same token order and ticks, on every run.
	c, core, v3, deployer, trader := newV3Devnet(t, "5eed000000000000000000000000000000000000000000000000000000000001",
		"5eed000000000000000000000000000000000000000000000000000000000002")
	usd, weth := core.USD, core.WrappedNative
	c.tx(deployer, usd, nil, tokenABI.PackMint(deployer.Address, units(100_000_000, 6)))
	c.tx(deployer, usd, nil, tokenABI.PackMint(trader.Address, units(100_000_000, 6)))
	c.tx(deployer, weth, units(40_000, 18), wethABI.PackDeposit())
	c.tx(trader, weth, units(40_000, 18), wethABI.PackDeposit())
	for _, tok := range []common.Address{usd, weth} {
		c.tx(deployer, tok, nil, tokenABI.PackApprove(v3.PositionManager, maxUint256))
		c.tx(trader, tok, nil, tokenABI.PackApprove(v3.SwapRouter02, maxUint256))
	}

	for _, fee := range []int64{500, 3000, 10000} {
		rc := c.tx(deployer, v3.Factory, nil, factoryABI.PackCreatePool(usd, weth, big.NewInt(fee)))
		var created *bindings.UniswapV3FactoryPoolCreated
		for _, l := range rc.Logs {
			if ev, err := factoryABI.UnpackPoolCreatedEvent(l); err == nil && l.Address == v3.Factory {
				created = ev
			}
		}
		if created == nil {
			t.Fatal("no PoolCreated")
		}
		pool, token0, token1 := created.Pool, created.Token0, created.Token1
		spacing := int(created.TickSpacing.Int64())
		amount := map[common.Address]*big.Int{usd: units(3_000, 6), weth: units(1, 18)}
		ratio := new(big.Int).Lsh(amount[token1], 192)
		ratio.Div(ratio, amount[token0])
		if fee == 10000 {
			// the 1 % pool at the inverse price, so that its ticks are on the other side of 0
			ratio.Div(new(big.Int).Lsh(big.NewInt(1), 384), ratio)
		}
		c.tx(deployer, pool, nil, poolABI.PackInitialize(ratio.Sqrt(ratio)))
		tick := int(call(c, pool, poolABI.PackSlot0(), poolABI.UnpackSlot0).Tick.Int64())

		// Five positions (in units of the spacing around the price): nested ranges, one above, one below.
		base := floorDiv(tick, spacing) * spacing
		ranges := [][2]int{{-10, 10}, {-60, 45}, {-400, 300}, {20, 90}, {-150, -30}}
		for i, r := range ranges {
			scale := int64(i + 1)
			c.tx(deployer, v3.PositionManager, nil, npmABI.PackMint(bindings.INonfungiblePositionManagerMintParams{
				Token0: token0, Token1: token1, Fee: big.NewInt(fee),
				TickLower: big.NewInt(int64(base + r[0]*spacing)), TickUpper: big.NewInt(int64(base + r[1]*spacing)),
				Amount0Desired: new(big.Int).Mul(big.NewInt(scale), unitsOf(token0, usd, 300_000)),
				Amount1Desired: new(big.Int).Mul(big.NewInt(scale), unitsOf(token1, usd, 300_000)),
				Amount0Min:     new(big.Int), Amount1Min: new(big.Int),
				Recipient: deployer.Address, Deadline: maxUint256,
			}))
		}
		lo, hi := base-400*spacing, base+300*spacing // every initialized tick
		wordLo, wordHi := floorDiv(floorDiv(lo, spacing), 256), floorDiv(floorDiv(hi, spacing), 256)

		for round := range 2 {
			checkQuotes(c, v3, pool, token0, token1, fee, spacing, wordLo, wordHi)
			if round == 1 {
				break
			}
			// A real swap through SwapRouter02 moves the price across ticks and receives what Swap says.
			state, read := readPool(c, v3, pool, spacing, wordLo, wordHi)
			in := new(big.Int).Div(call(c, token0, tokenABI.PackBalanceOf(pool), tokenABI.UnpackBalanceOf), big.NewInt(2))
			want, err := uniswapv3.Swap(state, true, in, nil, uniswapv3.AllTicks(read.Ticks))
			if err != nil || want.TicksCrossed == 0 {
				t.Fatalf("fee %d: Swap of half the pool's token0: %+v, %v", fee, want, err)
			}
			before := call(c, token1, tokenABI.PackBalanceOf(trader.Address), tokenABI.UnpackBalanceOf)
			c.tx(trader, v3.SwapRouter02, nil, routerABI.PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{
				TokenIn: token0, TokenOut: token1, Fee: big.NewInt(fee), Recipient: trader.Address,
				AmountIn: in, AmountOutMinimum: want.AmountOut, SqrtPriceLimitX96: new(big.Int),
			}))
			got := new(big.Int).Sub(call(c, token1, tokenABI.PackBalanceOf(trader.Address), tokenABI.UnpackBalanceOf), before)
			slot0 := call(c, pool, poolABI.PackSlot0(), poolABI.UnpackSlot0)
			if got.Cmp(want.AmountOut) != 0 || slot0.SqrtPriceX96.Cmp(want.SqrtPriceX96) != 0 || int(slot0.Tick.Int64()) != want.Tick ||
				call(c, pool, poolABI.PackLiquidity(), poolABI.UnpackLiquidity).Cmp(want.Liquidity) != 0 {
				t.Fatalf("fee %d: the router swap received %s, pool at %s tick %d; Swap said %+v", fee, got, slot0.SqrtPriceX96, slot0.Tick, want)
			}
			t.Logf("fee %d: router swap of %s token0 crossed %d ticks, tick %d -> %d", fee, in, want.TicksCrossed, state.Tick, want.Tick)
		}
	}
}

// unitsOf is n dollars' worth of tok (USD at 6 decimals, WETH at 3,000 USD).
func unitsOf(tok, usd common.Address, n int64) *big.Int {
	if tok == usd {
		return units(n, 6)
	}
	return new(big.Int).Div(units(n, 18), big.NewInt(3_000))
}

// readPool reads a pool as a quote does: slot0, liquidity, the fee and spacing, and the initialized
// ticks of the bitmap words wordLo..wordHi through TickLens.
func readPool(c *chainT, v3 devnet.V3Addresses, pool common.Address, spacing, wordLo, wordHi int) (uniswapv3.PoolState, uniswapv3.TickData) {
	c.t.Helper()
	slot0 := call(c, pool, poolABI.PackSlot0(), poolABI.UnpackSlot0)
	state := uniswapv3.PoolState{
		SqrtPriceX96: slot0.SqrtPriceX96, Tick: int(slot0.Tick.Int64()),
		Liquidity:   call(c, pool, poolABI.PackLiquidity(), poolABI.UnpackLiquidity),
		Fee:         uint32(call(c, pool, poolABI.PackFee(), poolABI.UnpackFee).Uint64()),
		TickSpacing: int(call(c, pool, poolABI.PackTickSpacing(), poolABI.UnpackTickSpacing).Int64()),
	}
	if state.TickSpacing != spacing {
		c.t.Fatalf("tick spacing %d, want %d", state.TickSpacing, spacing)
	}
	var ticks []uniswapv3.Tick
	for w := wordLo; w <= wordHi; w++ {
		for _, pt := range call(c, v3.TickLens, lensABI.PackGetPopulatedTicksInWord(pool, int16(w)), lensABI.UnpackGetPopulatedTicksInWord) {
			ticks = append(ticks, uniswapv3.Tick{Index: int(pt.Tick.Int64()), LiquidityNet: pt.LiquidityNet})
			// ticks() says the same as TickLens
			if got := call(c, pool, poolABI.PackTicks(pt.Tick), poolABI.UnpackTicks); got.LiquidityNet.Cmp(pt.LiquidityNet) != 0 || !got.Initialized {
				c.t.Fatalf("ticks(%s) = %+v, TickLens %+v", pt.Tick, got, pt)
			}
		}
	}
	sort.Slice(ticks, func(i, j int) bool { return ticks[i].Index < ticks[j].Index })
	return state, uniswapv3.WordsTicks(ticks, spacing, wordLo, wordHi)
}

// checkQuotes compares Swap with QuoterV2 for a range of amounts in both directions at the pool's
// current state.
func checkQuotes(c *chainT, v3 devnet.V3Addresses, pool, token0, token1 common.Address, fee int64, spacing, wordLo, wordHi int) {
	t := c.t
	t.Helper()
	state, read := readPool(c, v3, pool, spacing, wordLo, wordHi)
	if len(read.Ticks) < 8 {
		t.Fatalf("fee %d: %d initialized ticks read, want the positions' 10", fee, len(read.Ticks))
	}
	all := uniswapv3.AllTicks(read.Ticks) // every initialized tick lies in the words read
	var quotes, exhausted, crossed, exactOut, quirks int
	for _, zeroForOne := range []bool{true, false} {
		tokenIn, tokenOut := token0, token1
		if !zeroForOne {
			tokenIn, tokenOut = token1, token0
		}
		held := call(c, tokenIn, tokenABI.PackBalanceOf(pool), tokenABI.UnpackBalanceOf)
		heldOut := call(c, tokenOut, tokenABI.PackBalanceOf(pool), tokenABI.UnpackBalanceOf)
		for _, frac := range [][2]int64{{1, 100_000}, {1, 1000}, {1, 100}, {1, 20}, {1, 5}, {1, 2}, {1, 1}, {3, 1}, {30, 1}} {
			in := new(big.Int).Mul(held, big.NewInt(frac[0]))
			in.Div(in, big.NewInt(frac[1])).Add(in, big.NewInt(frac[0]))
			q := call(c, v3.QuoterV2, quoterABI.PackQuoteExactInputSingle(bindings.IQuoterV2QuoteExactInputSingleParams{
				TokenIn: tokenIn, TokenOut: tokenOut, AmountIn: in, Fee: big.NewInt(fee), SqrtPriceLimitX96: new(big.Int),
			}), quoterABI.UnpackQuoteExactInputSingle)
			quotes++
			got, err := uniswapv3.Swap(state, zeroForOne, in, nil, read)
			if errors.Is(err, uniswapv3.ErrTicksExhausted) {
				exhausted++
				got, err = uniswapv3.Swap(state, zeroForOne, in, nil, all)
			}
			if err != nil {
				t.Fatalf("fee %d zeroForOne %v in %s: %v", fee, zeroForOne, in, err)
			}
			count, err := uniswapv3.CountInitializedTicksCrossed(state.Tick, got.Tick, spacing, all)
			if err != nil {
				t.Fatal(err)
			}
			if count != got.TicksCrossed {
				quirks++ // QuoterV2's count differs from the crossings: checked against CountInitializedTicksCrossed
			}
			if got.AmountOut.Cmp(q.AmountOut) != 0 || got.SqrtPriceX96.Cmp(q.SqrtPriceX96After) != 0 || uint32(count) != q.InitializedTicksCrossed {
				t.Fatalf("fee %d zeroForOne %v in %s (tick %d): Swap %s out, price %s, %d crossed (counted %d); QuoterV2 %s, %s, %d",
					fee, zeroForOne, in, state.Tick, got.AmountOut, got.SqrtPriceX96, got.TicksCrossed, count,
					q.AmountOut, q.SqrtPriceX96After, q.InitializedTicksCrossed)
			}
			crossed += got.TicksCrossed

			// Exact output for what the pool can deliver.
			out := new(big.Int).Mul(heldOut, big.NewInt(frac[0]))
			out.Div(out, big.NewInt(frac[1]*2))
			if out.Sign() == 0 || out.Cmp(heldOut) >= 0 {
				continue
			}
			qo := call(c, v3.QuoterV2, quoterABI.PackQuoteExactOutputSingle(bindings.IQuoterV2QuoteExactOutputSingleParams{
				TokenIn: tokenIn, TokenOut: tokenOut, Amount: out, Fee: big.NewInt(fee), SqrtPriceLimitX96: new(big.Int),
			}), quoterABI.UnpackQuoteExactOutputSingle)
			exactOut++
			gotOut, err := uniswapv3.Swap(state, zeroForOne, new(big.Int).Neg(out), nil, all)
			if err != nil {
				t.Fatal(err)
			}
			countOut, err := uniswapv3.CountInitializedTicksCrossed(state.Tick, gotOut.Tick, spacing, all)
			if err != nil {
				t.Fatal(err)
			}
			if countOut != gotOut.TicksCrossed {
				quirks++
			}
			if gotOut.AmountIn.Cmp(qo.AmountIn) != 0 || gotOut.AmountOut.Cmp(out) != 0 ||
				gotOut.SqrtPriceX96.Cmp(qo.SqrtPriceX96After) != 0 || uint32(countOut) != qo.InitializedTicksCrossed {
				t.Fatalf("fee %d zeroForOne %v out %s: Swap %+v, %v; QuoterV2 %s in, %s, %d crossed",
					fee, zeroForOne, out, gotOut, err, qo.AmountIn, qo.SqrtPriceX96After, qo.InitializedTicksCrossed)
			}
		}
	}
	if crossed == 0 {
		t.Fatalf("fee %d: no quote crossed an initialized tick", fee)
	}
	t.Logf("fee %d at tick %d: %d exact-input and %d exact-output quotes equal QuoterV2, %d ticks crossed in all, %d left the words read (ErrTicksExhausted), %d where QuoterV2's initializedTicksCrossed is not the crossings",
		fee, state.Tick, quotes, exactOut, crossed, exhausted, quirks)
}
