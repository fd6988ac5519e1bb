package uniswapv3

// The vectors in testdata/vectors.json come from the official Uniswap V3 SDK (@uniswap/v3-sdk
// with @uniswap/sdk-core, exact versions pinned in testdata/package.json and package-lock.json),
// drawn by testdata/gen.mjs from a seeded PRNG. Regenerate them with testdata/gen.sh, which
// installs the pinned SDK in a temporary directory only.
//
// TestVectors checks every case exactly, by class:
//   - tickToSqrt (300): SqrtRatioAtTick at the bounds, near 0 and at random ticks over the range.
//   - sqrtToTick (350): TickAtSqrtRatio at the bounds, at exact tick ratios and one below and
//     above them (where the fixed-point log must pick the right tick), and at random ratios.
//   - sqrtPrice (500): NextSqrtPriceFromInput/Output in both directions (the 256-bit overflow
//     fallback of the token0 formula included, amounts up to 200 bits) and
//     Amount0Delta/Amount1Delta rounded up and down; the SDK's refusals are errors here too.
//   - swapStep (350): ComputeSwapStep, exact input and output, both directions, fees of 100,
//     500, 3000 and 10000 pips, zero liquidity included.
//   - swap (500): Swap against Pool.getOutputAmount (exact input) and Pool.getInputAmount (exact
//     output) on pools of 1 to 8 positions (up to 16 initialized ticks) at four spacings, with
//     and without a price limit: the amount, the price, tick and liquidity after.
//
// Where the SDK and the contract differ, this package follows the contract: the SDK's
// getNextSqrtPriceFromAmount1RoundingDown adds without the contract's SafeCast.toUint160, so for
// a token1 input that pushes the price past uint160 it returns a number where the contract (and
// NextSqrtPriceFromInput) reverts. Those sqrtPrice cases are counted and checked as errors.

import (
	"encoding/json"
	"math/big"
	"os"
	"testing"
)

type vectors struct {
	SDK        map[string]string `json:"sdk"`
	Counts     map[string]int    `json:"counts"`
	TickToSqrt []struct {
		Tick         int    `json:"tick"`
		SqrtPriceX96 string `json:"sqrtPriceX96"`
	} `json:"tickToSqrt"`
	SqrtToTick []struct {
		SqrtPriceX96 string `json:"sqrtPriceX96"`
		Tick         int    `json:"tick"`
	} `json:"sqrtToTick"`
	SqrtPrice []struct {
		Fn           string `json:"fn"`
		SqrtPriceX96 string `json:"sqrtPriceX96"`
		Liquidity    string `json:"liquidity"`
		Amount       string `json:"amount"`
		ZeroForOne   bool   `json:"zeroForOne"`
		SqrtA        string `json:"sqrtA"`
		SqrtB        string `json:"sqrtB"`
		RoundUp      bool   `json:"roundUp"`
		Result       string `json:"result"`
		Error        bool   `json:"error"`
	} `json:"sqrtPrice"`
	SwapStep []struct {
		Current         string `json:"current"`
		Target          string `json:"target"`
		Liquidity       string `json:"liquidity"`
		AmountRemaining string `json:"amountRemaining"`
		FeePips         uint32 `json:"feePips"`
		SqrtNext        string `json:"sqrtNext"`
		AmountIn        string `json:"amountIn"`
		AmountOut       string `json:"amountOut"`
		FeeAmount       string `json:"feeAmount"`
		Error           bool   `json:"error"`
	} `json:"swapStep"`
	Swap []struct {
		SqrtPriceX96      string   `json:"sqrtPriceX96"`
		Tick              int      `json:"tick"`
		Liquidity         string   `json:"liquidity"`
		Fee               uint32   `json:"fee"`
		TickSpacing       int      `json:"tickSpacing"`
		Ticks             [][2]any `json:"ticks"`
		ZeroForOne        bool     `json:"zeroForOne"`
		ExactIn           bool     `json:"exactIn"`
		Amount            string   `json:"amount"`
		SqrtPriceLimitX96 *string  `json:"sqrtPriceLimitX96"`
		AmountCalculated  string   `json:"amountCalculated"`
		SqrtPriceX96After string   `json:"sqrtPriceX96After"`
		TickAfter         int      `json:"tickAfter"`
		LiquidityAfter    string   `json:"liquidityAfter"`
		Error             bool     `json:"error"`
	} `json:"swap"`
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func num(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad number %q", s)
	}
	return v
}

func eq(a *big.Int, s string) bool { return a != nil && a.String() == s }

func TestVectors(t *testing.T) {
	v := loadVectors(t)
	for class, n := range map[string]int{"tickToSqrt": len(v.TickToSqrt), "sqrtToTick": len(v.SqrtToTick),
		"sqrtPrice": len(v.SqrtPrice), "swapStep": len(v.SwapStep), "swap": len(v.Swap)} {
		if n == 0 || n != v.Counts[class] {
			t.Fatalf("%s: %d cases, the generator wrote %d", class, n, v.Counts[class])
		}
	}
	total := 0
	for _, n := range v.Counts {
		total += n
	}
	if total < 1000 {
		t.Fatalf("%d cases, want at least 1000", total)
	}

	t.Run("tickToSqrt", func(t *testing.T) {
		for _, c := range v.TickToSqrt {
			if got, err := SqrtRatioAtTick(c.Tick); err != nil || !eq(got, c.SqrtPriceX96) {
				t.Errorf("SqrtRatioAtTick(%d) = %v, %v; SDK %s", c.Tick, got, err, c.SqrtPriceX96)
			}
		}
	})
	t.Run("sqrtToTick", func(t *testing.T) {
		for _, c := range v.SqrtToTick {
			if got, err := TickAtSqrtRatio(num(t, c.SqrtPriceX96)); err != nil || got != c.Tick {
				t.Errorf("TickAtSqrtRatio(%s) = %d, %v; SDK %d", c.SqrtPriceX96, got, err, c.Tick)
			}
		}
	})
	t.Run("sqrtPrice", func(t *testing.T) {
		var errs, uint160 int
		for i, c := range v.SqrtPrice {
			var got *big.Int
			var err error
			switch c.Fn {
			case "nextFromInput":
				got, err = NextSqrtPriceFromInput(num(t, c.SqrtPriceX96), num(t, c.Liquidity), num(t, c.Amount), c.ZeroForOne)
			case "nextFromOutput":
				got, err = NextSqrtPriceFromOutput(num(t, c.SqrtPriceX96), num(t, c.Liquidity), num(t, c.Amount), c.ZeroForOne)
			case "amount0Delta":
				got, err = Amount0Delta(num(t, c.SqrtA), num(t, c.SqrtB), num(t, c.Liquidity), c.RoundUp)
			case "amount1Delta":
				got, err = Amount1Delta(num(t, c.SqrtA), num(t, c.SqrtB), num(t, c.Liquidity), c.RoundUp)
			default:
				t.Fatalf("case %d: unknown function %q", i, c.Fn)
			}
			switch {
			case c.Error:
				errs++
				if err == nil {
					t.Errorf("case %d %s: got %s, the SDK refuses", i, c.Fn, got)
				}
			case c.Fn == "nextFromInput" && !c.ZeroForOne && num(t, c.Result).Cmp(maxUint160) > 0:
				uint160++ // the contract reverts (SafeCast.toUint160); the SDK returns the sum
				if err == nil {
					t.Errorf("case %d %s: got %s past uint160, the contract reverts", i, c.Fn, got)
				}
			case err != nil || !eq(got, c.Result):
				t.Errorf("case %d %s %+v: got %v, %v; SDK %s", i, c.Fn, c, got, err, c.Result)
			}
		}
		t.Logf("%d cases: %d refused by both, %d past uint160 (the SDK returns them, the contract and we revert)", len(v.SqrtPrice), errs, uint160)
	})
	t.Run("swapStep", func(t *testing.T) {
		for i, c := range v.SwapStep {
			got, err := ComputeSwapStep(num(t, c.Current), num(t, c.Target), num(t, c.Liquidity), num(t, c.AmountRemaining), c.FeePips)
			if c.Error {
				if err == nil {
					t.Errorf("case %d: got %+v, the SDK refuses", i, got)
				}
				continue
			}
			if err != nil || !eq(got.SqrtPriceNextX96, c.SqrtNext) || !eq(got.AmountIn, c.AmountIn) ||
				!eq(got.AmountOut, c.AmountOut) || !eq(got.FeeAmount, c.FeeAmount) {
				t.Errorf("case %d %+v: got %+v, %v", i, c, got, err)
			}
		}
	})
	t.Run("swap", func(t *testing.T) {
		crossed, partial := 0, 0
		for i, c := range v.Swap {
			ticks := make([]Tick, len(c.Ticks))
			for j, tk := range c.Ticks {
				ticks[j] = Tick{Index: int(tk[0].(float64)), LiquidityNet: num(t, tk[1].(string))}
			}
			state := PoolState{SqrtPriceX96: num(t, c.SqrtPriceX96), Tick: c.Tick, Liquidity: num(t, c.Liquidity), Fee: c.Fee, TickSpacing: c.TickSpacing}
			amount := num(t, c.Amount)
			if !c.ExactIn {
				amount.Neg(amount)
			}
			var limit *big.Int
			if c.SqrtPriceLimitX96 != nil {
				limit = num(t, *c.SqrtPriceLimitX96)
			}
			got, err := Swap(state, c.ZeroForOne, amount, limit, AllTicks(ticks))
			if c.Error {
				if err == nil {
					t.Errorf("case %d: got %+v, the SDK refuses", i, got)
				}
				continue
			}
			calculated := got.AmountOut
			if !c.ExactIn {
				calculated = got.AmountIn
			}
			if err != nil || !eq(calculated, c.AmountCalculated) || !eq(got.SqrtPriceX96, c.SqrtPriceX96After) ||
				got.Tick != c.TickAfter || !eq(got.Liquidity, c.LiquidityAfter) {
				t.Errorf("case %d (exactIn %v zeroForOne %v amount %s): got %v %s tick %d liquidity %s, %v; SDK %s %s tick %d liquidity %s",
					i, c.ExactIn, c.ZeroForOne, c.Amount, calculated, got.SqrtPriceX96, got.Tick, got.Liquidity, err,
					c.AmountCalculated, c.SqrtPriceX96After, c.TickAfter, c.LiquidityAfter)
			}
			crossed += got.TicksCrossed
			if got.Partial {
				partial++
			}
		}
		t.Logf("%d swaps: %d initialized ticks crossed in all, %d stopped by the price limit or bound", len(v.Swap), crossed, partial)
	})
}
