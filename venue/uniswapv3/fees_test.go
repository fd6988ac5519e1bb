package uniswapv3

import (
	"math/big"
	"testing"
)

// TestV3PosFeeGrowthInside checks Tick.getFeeGrowthInside's three cases (price below, inside and
// above the range) and its uint256 wrapping, against values worked by hand.
func TestV3PosFeeGrowthInside(t *testing.T) {
	n := big.NewInt
	wrapped := func(v int64) *big.Int { return new(big.Int).Add(mod256, n(v)) } // 2^256 + v, v < 0
	for _, tc := range []struct {
		name                 string
		current              int
		global, lower, upper *big.Int
		want                 *big.Int
	}{
		{"inside", 0, n(1000), n(100), n(200), n(700)},
		{"at the lower tick", -60, n(1000), n(100), n(200), n(700)},
		{"below", -61, n(1000), n(100), n(200), wrapped(-100)}, // 1000 - (1000-100) - 200
		{"above", 60, n(1000), n(100), n(200), n(100)},         // 1000 - 100 - (1000-200)
		{"outside above global", 0, n(10), n(20), n(0), wrapped(-10)},
		{"outside wrapped", 70, n(5), wrapped(-5), n(3), n(8)}, // 5 - (2^256-5) - (5-3), mod 2^256
	} {
		got := FeeGrowthInside(-60, 60, tc.current, tc.global, tc.lower, tc.upper)
		if got.Cmp(tc.want) != 0 {
			t.Errorf("%s: FeeGrowthInside = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestV3PosTokensOwed checks the position manager's fee accrual: the growth since the last update
// wraps modulo 2^256, the earned amount is truncated to uint128 and the sum with tokensOwed wraps
// modulo 2^128, as in Solidity 0.7.
func TestV3PosTokensOwed(t *testing.T) {
	n := big.NewInt
	pow := func(e uint) *big.Int { return new(big.Int).Lsh(one, e) }
	for _, tc := range []struct {
		name                          string
		owed, liquidity, inside, last *big.Int
		want                          *big.Int
	}{
		{"plain", n(7), pow(128), n(50), n(20), n(37)},
		{"rounded down", n(0), n(3), new(big.Int).Div(pow(128), n(2)), n(0), n(1)}, // 3 * 0.5
		{"growth wraps", n(1), pow(128), n(5), new(big.Int).Sub(mod256, n(3)), n(9)},
		{"earned truncated to uint128", n(5), pow(127), pow(255), n(0), n(5)},
		{"owed wraps", new(big.Int).Sub(pow(128), n(1)), pow(128), n(2), n(0), n(1)},
		{"no liquidity", n(42), n(0), n(99), n(1), n(42)},
	} {
		got, err := TokensOwed(tc.owed, tc.liquidity, tc.inside, tc.last)
		if err != nil || got.Cmp(tc.want) != 0 {
			t.Errorf("%s: TokensOwed = %v (%v), want %s", tc.name, got, err, tc.want)
		}
	}
}

// TestV3PosAmounts checks PositionAmounts against SqrtPriceMath on each side of the range and at
// its bounds: token0 only below, token1 only at or above the upper tick.
func TestV3PosAmounts(t *testing.T) {
	l := new(big.Int).Mul(big.NewInt(1e18), big.NewInt(1000))
	sa, _ := SqrtRatioAtTick(-600)
	sb, _ := SqrtRatioAtTick(600)
	mid, _ := SqrtRatioAtTick(17)
	all0, _ := Amount0Delta(sa, sb, l, false)
	all1, _ := Amount1Delta(sa, sb, l, false)
	in0, _ := Amount0Delta(mid, sb, l, false)
	in1, _ := Amount1Delta(sa, mid, l, false)
	zero := new(big.Int)
	for _, tc := range []struct {
		name      string
		tick      int
		sqrt      *big.Int
		want0, w1 *big.Int
	}{
		{"below", -601, sa, all0, zero},
		{"at the lower tick", -600, sa, all0, zero}, // Amount0Delta(sa, sb) and Amount1Delta(sa, sa) = 0
		{"inside", 17, mid, in0, in1},
		{"at the upper tick", 600, sb, zero, all1},
		{"a downward swap ending on the upper tick", 599, sb, zero, all1},
	} {
		a0, a1, err := PositionAmounts(-600, 600, tc.tick, tc.sqrt, l)
		if err != nil || a0.Cmp(tc.want0) != 0 || a1.Cmp(tc.w1) != 0 {
			t.Errorf("%s: amounts %v %v (%v), want %s %s", tc.name, a0, a1, err, tc.want0, tc.w1)
		}
	}
	if _, _, err := PositionAmounts(60, 60, 0, mid, l); err == nil {
		t.Error("an empty range has amounts")
	}
}
