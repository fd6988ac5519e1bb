package uniswapv3

import (
	"errors"
	"math/big"
	"testing"
)

// encodeSqrtRatioX96 is the v3-sdk's encodeSqrtRatioX96: floor(sqrt(amount1 * 2^192 / amount0)).
func encodeSqrtRatioX96(amount1, amount0 int64) *big.Int {
	r := new(big.Int).Lsh(big.NewInt(amount1), 192)
	r.Quo(r, big.NewInt(amount0))
	return r.Sqrt(r)
}

// TestLiquidityForAmounts checks getLiquidityForAmounts against the v3-sdk's maxLiquidityForAmounts
// vectors without full precision (the periphery's own rounding), below, inside and above the range.
func TestLiquidityForAmounts(t *testing.T) {
	lower, upper := encodeSqrtRatioX96(100, 110), encodeSqrtRatioX96(110, 100)
	for _, tc := range []struct {
		name  string
		price *big.Int
		want  int64
	}{
		{"inside", encodeSqrtRatioX96(1, 1), 2148},
		{"below", encodeSqrtRatioX96(99, 110), 1048},
		{"above", encodeSqrtRatioX96(111, 100), 2097},
	} {
		got, err := LiquidityForAmounts(tc.price, lower, upper, big.NewInt(100), big.NewInt(200))
		if err != nil || got.Int64() != tc.want {
			t.Errorf("%s: %v, %v; want %d", tc.name, got, err, tc.want)
		}
		// The bounds in either order.
		if got, _ := LiquidityForAmounts(tc.price, upper, lower, big.NewInt(100), big.NewInt(200)); got.Int64() != tc.want {
			t.Errorf("%s, bounds swapped: %v, want %d", tc.name, got, tc.want)
		}
	}
	huge := new(big.Int).Lsh(big.NewInt(1), 200)
	if _, err := LiquidityForAmounts(encodeSqrtRatioX96(1, 1), lower, upper, huge, huge); !errors.Is(err, errOverflow) {
		t.Errorf("liquidity beyond uint128: %v, want errOverflow (toUint128 reverts)", err)
	}
}

// TestDeposit checks that a deposit takes at most the desired amounts and that one more unit of
// liquidity would take more than one of them (the liquidity is the most they buy), on each side
// of a range and inside it.
func TestDeposit(t *testing.T) {
	desired0, desired1 := big.NewInt(1_500_000_000), new(big.Int).Mul(big.NewInt(5), big.NewInt(1e17))
	for _, tick := range []int{195000, 196256, 197000} {
		sqrtP, err := SqrtRatioAtTick(tick)
		if err != nil {
			t.Fatal(err)
		}
		sqrtP.Add(sqrtP, big.NewInt(12345)) // a price between ticks
		l, a0, a1, err := Deposit(195650, 196860, tick, sqrtP, desired0, desired1)
		if err != nil || l.Sign() == 0 {
			t.Fatalf("tick %d: %v, %v", tick, l, err)
		}
		if a0.Cmp(desired0) > 0 || a1.Cmp(desired1) > 0 {
			t.Errorf("tick %d: takes %s and %s, more than desired %s and %s", tick, a0, a1, desired0, desired1)
		}
		b0, b1, err := MintAmounts(195650, 196860, tick, sqrtP, new(big.Int).Add(l, big.NewInt(1000)))
		if err != nil || (b0.Cmp(desired0) <= 0 && b1.Cmp(desired1) <= 0) {
			t.Errorf("tick %d: liquidity %s+1000 still fits the desired amounts (%s, %s): %v", tick, l, b0, b1, err)
		}
		switch {
		case tick < 195650 && a1.Sign() != 0, tick >= 196860 && a0.Sign() != 0:
			t.Errorf("tick %d out of range takes both tokens: %s and %s", tick, a0, a1)
		}
		// Burning it pays at most what minting took (rounded down, not up).
		p0, p1, _ := PositionAmounts(195650, 196860, tick, sqrtP, l)
		if p0.Cmp(a0) > 0 || p1.Cmp(a1) > 0 || new(big.Int).Sub(a0, p0).Cmp(big.NewInt(1)) > 0 || new(big.Int).Sub(a1, p1).Cmp(big.NewInt(1)) > 0 {
			t.Errorf("tick %d: burn pays %s and %s of the %s and %s minted; want at most one unit less", tick, p0, p1, a0, a1)
		}
	}
}

func TestSnapRange(t *testing.T) {
	for _, tc := range []struct {
		lower, upper, spacing int
		wantLo, wantHi        int
		bad                   bool
	}{
		{-603, 597, 10, -610, 600, false},
		{600, 660, 60, 600, 660, false},
		{-1, 1, 200, -200, 200, false},
		{MinTick, MaxTick, 60, -887220, 887220, false},
		{5, 5, 10, 0, 10, false},
		{10, 5, 10, 0, 0, true},
		{1, 2, 0, 0, 0, true},
	} {
		lo, hi, err := SnapRange(tc.lower, tc.upper, tc.spacing)
		if (err != nil) != tc.bad || (!tc.bad && (lo != tc.wantLo || hi != tc.wantHi)) {
			t.Errorf("SnapRange(%d, %d, %d) = %d, %d, %v; want %d, %d (error %v)", tc.lower, tc.upper, tc.spacing, lo, hi, err, tc.wantLo, tc.wantHi, tc.bad)
		}
	}
}

// TestPriceTick checks that the price of a tick's own sqrt ratio, in token units of tokens with
// different decimals, converts back to that tick, and a price just below it to the tick below.
func TestPriceTick(t *testing.T) {
	q192 := new(big.Int).Lsh(big.NewInt(1), 192)
	for _, tc := range []struct{ tick, dec0, dec1 int }{{0, 18, 18}, {196256, 6, 18}, {-201250, 18, 6}, {-887272, 0, 0}, {887271, 0, 0}, {1, 8, 18}} {
		s, err := SqrtRatioAtTick(tc.tick)
		if err != nil {
			t.Fatal(err)
		}
		raw := new(big.Rat).SetFrac(new(big.Int).Mul(s, s), q192) // token1 per token0, base units
		human := new(big.Rat).Mul(raw, new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tc.dec0)), nil),
			new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tc.dec1)), nil)))
		if got, err := PriceTick(human, tc.dec0, tc.dec1); err != nil || got != tc.tick {
			t.Errorf("PriceTick at tick %d (decimals %d, %d) = %d, %v", tc.tick, tc.dec0, tc.dec1, got, err)
		}
		if tc.tick == MinTick {
			continue
		}
		below := new(big.Rat).Mul(human, big.NewRat(999_999, 1_000_000))
		if got, err := PriceTick(below, tc.dec0, tc.dec1); err != nil || got != tc.tick-1 {
			t.Errorf("PriceTick just below tick %d = %d, %v; want %d", tc.tick, got, err, tc.tick-1)
		}
	}
	for _, p := range []*big.Rat{new(big.Rat), new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 130)), new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 130))} {
		if _, err := PriceTick(p, 0, 0); !errors.Is(err, ErrSqrtRatio) {
			t.Errorf("PriceTick(%s): %v, want ErrSqrtRatio", p.RatString(), err)
		}
	}
}
