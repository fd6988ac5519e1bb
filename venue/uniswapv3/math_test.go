package uniswapv3

import (
	"errors"
	"math/big"
	"testing"
)

// FuzzTickRoundTrip: for every tick, TickAtSqrtRatio maps its sqrt ratio back to it and the ratio
// one below to the tick before; for every sqrt price in range, the tick found brackets it.
func FuzzTickRoundTrip(f *testing.F) {
	for _, seed := range []int64{MinTick, MinTick + 1, -1, 0, 1, 60, -887220, MaxTick - 1, MaxTick, 123456, -654321} {
		f.Add(seed, uint64(seed)*0x9e3779b97f4a7c15)
	}
	f.Fuzz(func(t *testing.T, tick int64, frac uint64) {
		tk := int(tick % (MaxTick + 1)) // in [-MaxTick, MaxTick] = [MinTick, MaxTick]
		p, err := SqrtRatioAtTick(tk)
		if err != nil {
			t.Fatal(err)
		}
		if tk < MaxTick {
			if got, err := TickAtSqrtRatio(p); err != nil || got != tk {
				t.Fatalf("TickAtSqrtRatio(SqrtRatioAtTick(%d)) = %d, %v", tk, got, err)
			}
			next, _ := SqrtRatioAtTick(tk + 1)
			// a price between the two ticks' ratios
			in := new(big.Int).Sub(next, p)
			in.Mul(in, new(big.Int).SetUint64(frac)).Rsh(in, 64).Add(in, p)
			if got, err := TickAtSqrtRatio(in); err != nil || got != tk {
				t.Fatalf("TickAtSqrtRatio(%s) = %d, %v, want %d", in, got, err, tk)
			}
		}
		if tk > MinTick {
			below := new(big.Int).Sub(p, one)
			if got, err := TickAtSqrtRatio(below); err != nil || got != tk-1 {
				t.Fatalf("TickAtSqrtRatio(SqrtRatioAtTick(%d)-1) = %d, %v", tk, got, err)
			}
		}
	})
}

func TestTickBounds(t *testing.T) {
	if p, _ := SqrtRatioAtTick(MinTick); p.Cmp(MinSqrtRatio) != 0 {
		t.Fatalf("SqrtRatioAtTick(MinTick) = %s", p)
	}
	if p, _ := SqrtRatioAtTick(MaxTick); p.Cmp(MaxSqrtRatio) != 0 {
		t.Fatalf("SqrtRatioAtTick(MaxTick) = %s", p)
	}
	for _, tk := range []int{MinTick - 1, MaxTick + 1} {
		if _, err := SqrtRatioAtTick(tk); !errors.Is(err, ErrTick) {
			t.Fatalf("SqrtRatioAtTick(%d): %v", tk, err)
		}
	}
	for _, p := range []*big.Int{new(big.Int).Sub(MinSqrtRatio, one), MaxSqrtRatio} {
		if _, err := TickAtSqrtRatio(p); !errors.Is(err, ErrSqrtRatio) {
			t.Fatalf("TickAtSqrtRatio(%s): %v", p, err)
		}
	}
}

// TestSwapTickRange: a swap that stays within the ticks read equals the one on all ticks; one that
// would step past them fails with ErrTicksExhausted, in both directions.
func TestSwapTickRange(t *testing.T) {
	const spacing = 60
	L := new(big.Int).Lsh(one, 80)
	// positions [-600, 600] and [-120000, 120000]: ticks in words -8 .. 7 of spacing 60
	all := []Tick{
		{-120000, new(big.Int).Set(L)}, {-600, new(big.Int).Set(L)},
		{600, new(big.Int).Neg(L)}, {120000, new(big.Int).Neg(L)},
	}
	p, _ := SqrtRatioAtTick(0)
	state := PoolState{SqrtPriceX96: p, Tick: 0, Liquidity: new(big.Int).Lsh(L, 1), Fee: 3000, TickSpacing: spacing}
	near := WordsTicks(all[1:3], spacing, -1, 0) // ticks [-15360, 15359]
	for _, zeroForOne := range []bool{true, false} {
		small := new(big.Int).Lsh(big.NewInt(3), 77) // crosses ±600, stays in the words read
		want, err := Swap(state, zeroForOne, small, nil, AllTicks(all))
		if err != nil || want.TicksCrossed != 1 || want.Partial {
			t.Fatalf("zeroForOne %v: %+v, %v", zeroForOne, want, err)
		}
		got, err := Swap(state, zeroForOne, small, nil, near)
		if err != nil || got.AmountOut.Cmp(want.AmountOut) != 0 || got.SqrtPriceX96.Cmp(want.SqrtPriceX96) != 0 {
			t.Fatalf("zeroForOne %v within the words read: %+v, %v; want %+v", zeroForOne, got, err, want)
		}
		large := new(big.Int).Lsh(one, 82)
		if _, err := Swap(state, zeroForOne, large, nil, AllTicks(all)); err != nil {
			t.Fatal(err)
		}
		if got, err := Swap(state, zeroForOne, large, nil, near); !errors.Is(err, ErrTicksExhausted) {
			t.Fatalf("zeroForOne %v past the words read: %+v, %v", zeroForOne, got, err)
		}
	}
	if _, err := Swap(state, true, big.NewInt(1), new(big.Int).Add(p, one), AllTicks(all)); !errors.Is(err, ErrSwap) {
		t.Fatalf("a limit above the price selling token0: %v", err)
	}
}
