package uniswapv3

import (
	"math/big"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// ratioPool is a 0.3 % pool at tick 0 holding liquidity l over the full range and l2 in [-600, 600).
func ratioPool(l, l2 *big.Int) chain.V3PoolState {
	full := (MaxTick / 60) * 60
	return chain.V3PoolState{Address: "0xpool", OK: true, Fee: 3000, TickSpacing: 60, SqrtPriceX96: new(big.Int).Set(q96), Tick: 0,
		Liquidity: new(big.Int).Add(l, l2), WordLow: -58, WordHigh: 57, Ticks: []chain.V3Tick{
			{Index: -full, LiquidityNet: new(big.Int).Set(l), LiquidityGross: new(big.Int).Set(l)},
			{Index: -600, LiquidityNet: new(big.Int).Set(l2), LiquidityGross: new(big.Int).Set(l2)},
			{Index: 600, LiquidityNet: new(big.Int).Neg(l2), LiquidityGross: new(big.Int).Set(l2)},
			{Index: full, LiquidityNet: new(big.Int).Neg(l), LiquidityGross: new(big.Int).Set(l)},
		}}
}

// TestSwapToRatio: amounts all in token0 (then all in token1) for a range around the price are
// swapped so that the deposit after the swap buys the most liquidity: one unit more or less of
// input buys no more (checked with Swap on the same pool), and what is left over is a sliver.
func TestSwapToRatio(t *testing.T) {
	l := new(big.Int).Lsh(big.NewInt(1), 70)
	e18 := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	for _, tc := range []struct {
		name       string
		a0, a1     *big.Int
		zeroForOne bool
	}{
		{"token0 only", e18, new(big.Int), true},
		{"token1 only", new(big.Int), e18, false},
	} {
		r := chain.V3Ratio{Pool: ratioPool(l, l), TickLower: -1200, TickUpper: 1800, Amount0: tc.a0, Amount1: tc.a1}
		s, err := SwapToRatio(r)
		if err != nil || s.AmountIn.Sign() == 0 || s.ZeroForOne != tc.zeroForOne {
			t.Fatalf("%s: %+v, %v; want a swap zeroForOne %v", tc.name, s, err, tc.zeroForOne)
		}
		sa, _ := SqrtRatioAtTick(r.TickLower)
		sb, _ := SqrtRatioAtTick(r.TickUpper)
		state, ticks, _ := FromChain(r.Pool)
		got := liquidityAt(s, sa, sb)
		for _, d := range []int64{-1, 1} {
			x := new(big.Int).Add(s.AmountIn, big.NewInt(d))
			sw, err := Swap(state, tc.zeroForOne, x, nil, ticks)
			if err != nil {
				t.Fatal(err)
			}
			h0, h1 := new(big.Int).Set(tc.a0), new(big.Int).Set(tc.a1)
			if tc.zeroForOne {
				h0.Sub(h0, sw.AmountIn)
				h1.Add(h1, sw.AmountOut)
			} else {
				h1.Sub(h1, sw.AmountIn)
				h0.Add(h0, sw.AmountOut)
			}
			if other, _ := LiquidityForAmounts(sw.SqrtPriceX96, sa, sb, h0, h1); other.Cmp(got) > 0 {
				t.Errorf("%s: swapping %s buys %s liquidity, more than the %s of swapping %s", tc.name, x, other, got, s.AmountIn)
			}
		}
		_, a0, a1, err := Deposit(r.TickLower, r.TickUpper, s.Tick, s.SqrtPriceX96, s.Held0, s.Held1)
		if err != nil {
			t.Fatal(err)
		}
		left := new(big.Int).Add(new(big.Int).Sub(s.Held0, a0), new(big.Int).Sub(s.Held1, a1))
		if left.Cmp(new(big.Int).Quo(e18, big.NewInt(1_000_000))) > 0 {
			t.Errorf("%s: %s left over of 1e18 after the deposit", tc.name, left)
		}
	}
	// A range above the price takes token0 alone: all the token1 is sold.
	e15 := new(big.Int).Exp(big.NewInt(10), big.NewInt(15), nil)
	if s, err := SwapToRatio(chain.V3Ratio{Pool: ratioPool(l, l), TickLower: 600, TickUpper: 1800, Amount0: e15, Amount1: e15}); err != nil ||
		s.ZeroForOne || s.AmountIn.Cmp(e15) != 0 || s.Held1.Sign() != 0 {
		t.Errorf("a range above the price: swap %+v, %v; want all of token1 sold", s, err)
	}
	// At the ratio already: no swap.
	sa, _ := SqrtRatioAtTick(-600)
	sb, _ := SqrtRatioAtTick(600)
	a0, _ := Amount0Delta(q96, sb, l, true)
	a1, _ := Amount1Delta(sa, q96, l, true)
	if s, err := SwapToRatio(chain.V3Ratio{Pool: ratioPool(l, l), TickLower: -600, TickUpper: 600, Amount0: a0, Amount1: a1}); err != nil || s.AmountIn.Sign() != 0 {
		t.Errorf("amounts at the ratio: swap %+v, %v; want none", s, err)
	}
}

// TestSwapToRatioBurned: the liquidity a rebalance burns leaves the pool before the swap: with
// only the burned range's liquidity in range, the swap sees the full range's alone, and the
// range's ticks are no longer initialized.
func TestSwapToRatioBurned(t *testing.T) {
	l := new(big.Int).Lsh(big.NewInt(1), 70)
	p := burned(ratioPool(l, l), l, -600, 600)
	if p.Liquidity.Cmp(l) != 0 || len(p.Ticks) != 2 {
		t.Fatalf("after the burn: liquidity %s, ticks %v; want %s and the full range's two", p.Liquidity, p.Ticks, l)
	}
	e18 := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	with, err1 := SwapToRatio(chain.V3Ratio{Pool: ratioPool(l, l), TickLower: -1200, TickUpper: 1800, Amount0: e18, Amount1: new(big.Int)})
	without, err2 := SwapToRatio(chain.V3Ratio{Pool: ratioPool(l, l), TickLower: -1200, TickUpper: 1800, Amount0: e18, Amount1: new(big.Int),
		Burned: l, BurnLower: -600, BurnUpper: 600})
	if err1 != nil || err2 != nil || without.SqrtPriceX96.Cmp(with.SqrtPriceX96) >= 0 {
		t.Errorf("a swap after the burn moves the price to %s, want below %s (half the liquidity): %v %v", without.SqrtPriceX96, with.SqrtPriceX96, err1, err2)
	}
}

// TestSqrtPriceAt: 1 of equal decimals is 2^96; 4 is 2^97; 3000 USD (6 decimals) per ETH (18) is
// the tick PriceTick gives.
func TestSqrtPriceAt(t *testing.T) {
	if s, _ := SqrtPriceAt(big.NewRat(1, 1), 18, 18); s.Cmp(q96) != 0 {
		t.Errorf("price 1: %s, want 2^96", s)
	}
	if s, _ := SqrtPriceAt(big.NewRat(4, 1), 6, 6); s.Cmp(new(big.Int).Lsh(q96, 1)) != 0 {
		t.Errorf("price 4: %s, want 2^97", s)
	}
	price := big.NewRat(3000, 1)
	s, err := SqrtPriceAt(price, 18, 6)
	tick, _ := PriceTick(price, 18, 6)
	if at, _ := TickAtSqrtRatio(s); err != nil || at != tick {
		t.Errorf("3000 USD per ETH: sqrt %s at tick %d, want tick %d (%v)", s, at, tick, err)
	}
	if _, err := SqrtPriceAt(big.NewRat(0, 1), 18, 18); err == nil {
		t.Error("price 0: no error")
	}
}
