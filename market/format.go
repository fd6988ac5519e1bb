package market

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Units formats a base-unit amount as an exact decimal string in token units.
func Units(amount *big.Int, decimals int) string {
	if amount == nil {
		return "0"
	}
	s := new(big.Int).Abs(amount).String()
	if decimals > 0 {
		if len(s) <= decimals {
			s = strings.Repeat("0", decimals-len(s)+1) + s
		}
		s = strings.TrimRight(s[:len(s)-decimals]+"."+s[len(s)-decimals:], "0")
		s = strings.TrimSuffix(s, ".")
	}
	if amount.Sign() < 0 {
		s = "-" + s
	}
	return s
}

// UnitsFloat is a base-unit amount in token units as a float64, for computed figures (values,
// market caps); amounts shown as such go through Units.
func UnitsFloat(amount *big.Int, decimals int) float64 {
	f, _ := new(big.Float).SetInt(amount).Float64()
	return f / math.Pow10(decimals)
}

// Ratio is a/b as a float64 (b must not be zero), for shares of a supply.
func Ratio(a, b *big.Int) float64 {
	f, _ := new(big.Rat).SetFrac(a, b).Float64()
	return f
}

// UnitsString is Units of a base-unit decimal string (as the index stores amounts).
func UnitsString(amount string, decimals int) string {
	n, ok := new(big.Int).SetString(amount, 10)
	if !ok {
		return "0"
	}
	return Units(n, decimals)
}

// significant is the number of significant digits of computed (floating-point) figures.
const significant = 12

// Decimal formats a computed figure (a price, a USD value, a percentage) as a decimal string with
// 12 significant digits and never an exponent; NaN and infinities become "0".
func Decimal(f float64) string {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return "0"
	}
	digits := significant - 1 - int(math.Floor(math.Log10(math.Abs(f))))
	digits = max(0, min(digits, 40))
	s := strconv.FormatFloat(f, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}
