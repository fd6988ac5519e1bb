package chain

import (
	"math/big"
	"strings"
)

// Slippage bounds and percent figures as quotes state them, on every chain.

// FormatPercent renders the fraction r as a percent (r times 100) with at
// most decimals digits after the point, rounded half up (a tie rounds away
// from zero, like the SDK's Percent.toFixed, which uses big.js's
// ROUND_HALF_UP), with trailing zeros and a trailing point trimmed:
// 0.0123456 at 4 decimals is "1.2346", 0.5 is "50", -0.0123456 is
// "-1.2346". A value that rounds to zero is "0", never "-0". A negative
// decimals counts as 0; a nil r is "".
func FormatPercent(r *big.Rat, decimals int) string {
	if r == nil {
		return ""
	}
	if decimals < 0 {
		decimals = 0
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
	// |r| * 100 * 10^decimals, rounded half up to an integer.
	num := new(big.Int).Abs(r.Num())
	num.Mul(num, big.NewInt(100))
	num.Mul(num, scale)
	q, m := new(big.Int).QuoRem(num, r.Denom(), new(big.Int))
	if m.Lsh(m, 1).Cmp(r.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	digits := q.String()
	if decimals > 0 {
		if len(digits) <= decimals {
			digits = strings.Repeat("0", decimals-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-decimals] + "." + digits[len(digits)-decimals:]
		digits = strings.TrimRight(digits, "0")
		digits = strings.TrimSuffix(digits, ".")
	}
	if r.Sign() < 0 && q.Sign() != 0 {
		return "-" + digits
	}
	return digits
}

// MinOut returns the least output to accept for a quoted output out with a
// slippage tolerance in basis points, as the Uniswap V2 SDK's
// trade.minimumAmountOut(new Percent(slippageBps, 10000)) computes it for an
// exact-input trade (and Jupiter its otherAmountThreshold), held to the SDK in
// venue/uniswapv2's vectors:
//
//	floor(out * (10000 - slippageBps) / 10000)
//
// A tolerance over 10000 gives 0 (the SDK clamps the result at 0); a
// negative tolerance counts as 0 (the SDK throws), so the result is never
// more than out. A nil or non-positive out gives 0.
func MinOut(out *big.Int, slippageBps int) *big.Int {
	if out == nil || out.Sign() <= 0 || slippageBps >= 10000 {
		return new(big.Int)
	}
	if slippageBps < 0 {
		slippageBps = 0
	}
	v := new(big.Int).Mul(out, big.NewInt(int64(10000-slippageBps)))
	return v.Quo(v, big.NewInt(10000))
}
