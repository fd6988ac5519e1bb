package chain

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// ErrInvalidAmount is returned for an amount that is not a plain non-negative decimal.
var ErrInvalidAmount = errors.New("invalid amount")

// maxAmountDigits bounds amounts: a uint256 has 78 decimal digits.
const maxAmountDigits = 78

// ParseBaseUnits checks an integer base-unit amount ("1500000"): digits only, no sign, no leading
// zeros, greater than zero, at most 78 digits. It returns the string unchanged.
func ParseBaseUnits(s string) (string, error) {
	if s == "" || len(s) > maxAmountDigits {
		return "", fmt.Errorf("%w: want 1 to %d digits", ErrInvalidAmount, maxAmountDigits)
	}
	if s[0] == '0' {
		return "", fmt.Errorf("%w: base units must be a positive integer without leading zeros", ErrInvalidAmount)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", fmt.Errorf("%w: base units must be an integer string", ErrInvalidAmount)
		}
	}
	return s, nil
}

// ParseHumanAmount checks a token-unit amount ("12.5"): a positive plain decimal with at most
// maxDecimals fraction digits. It rejects anything a numeric conversion would change — signs,
// exponents, leading zeros, a trailing dot, surrounding spaces — instead of rounding it.
func ParseHumanAmount(s string, maxDecimals int) (string, error) {
	intPart, frac, hasDot := cut(s, '.')
	switch {
	case intPart == "" || len(intPart)+len(frac) > maxAmountDigits:
		return "", fmt.Errorf("%w: want a plain decimal such as 12.5", ErrInvalidAmount)
	case hasDot && frac == "":
		return "", fmt.Errorf("%w: a decimal point must be followed by digits", ErrInvalidAmount)
	case len(intPart) > 1 && intPart[0] == '0':
		return "", fmt.Errorf("%w: leading zeros are not allowed", ErrInvalidAmount)
	case len(frac) > maxDecimals:
		return "", fmt.Errorf("%w: at most %d decimals for this token", ErrInvalidAmount, maxDecimals)
	case !digits(intPart) || !digits(frac):
		return "", fmt.Errorf("%w: want a plain decimal such as 12.5", ErrInvalidAmount)
	}
	nonZero := false
	for i := 0; i < len(s); i++ {
		if s[i] >= '1' && s[i] <= '9' {
			nonZero = true
		}
	}
	if !nonZero {
		return "", fmt.Errorf("%w: amount must be greater than zero", ErrInvalidAmount)
	}
	return s, nil
}

func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// HumanToBaseUnits converts a token-unit amount ("12.5") to base units of a token with the given
// decimals, exactly: ParseHumanAmount's checks, with decimals as the most fraction digits allowed.
func HumanToBaseUnits(s string, decimals int) (*big.Int, error) {
	if _, err := ParseHumanAmount(s, decimals); err != nil {
		return nil, err
	}
	intPart, frac, _ := cut(s, '.')
	n, ok := new(big.Int).SetString(intPart+frac+strings.Repeat("0", decimals-len(frac)), 10)
	if !ok {
		return nil, fmt.Errorf("%w: want a plain decimal such as 12.5", ErrInvalidAmount)
	}
	return n, nil
}
