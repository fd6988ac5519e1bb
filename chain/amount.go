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

// maxUint256 is the most base units any token (ERC-20 or native) can hold: 2^256 - 1.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// tooLarge is the error of an amount beyond every token's range.
func tooLarge(s string) error {
	return fmt.Errorf("%w: %s exceeds the token's range: no token holds more than 2^256 - 1 base units (78 digits)", ErrInvalidAmount, abbreviate(s))
}

// abbreviate shortens a long amount for a message.
func abbreviate(s string) string {
	if len(s) <= 24 {
		return s
	}
	return fmt.Sprintf("%s... (%d characters)", s[:12], len(s))
}

// ParseBaseUnits checks an integer base-unit amount ("1500000"): digits only, no sign, no leading
// zeros, greater than zero, at most 78 digits. It returns the string unchanged.
func ParseBaseUnits(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("%w: want integer base units, such as 1500000 for 1.5 of a token with 6 decimals", ErrInvalidAmount)
	}
	if len(s) > maxAmountDigits && digits(s) {
		return "", tooLarge(s)
	}
	if s[0] == '0' {
		return "", fmt.Errorf("%w: want integer base units greater than zero, without leading zeros", ErrInvalidAmount)
	}
	if !digits(s) {
		return "", fmt.Errorf("%w: want integer base units (digits only: no sign, decimal point or exponent), "+
			"such as 1500000 for 1.5 of a token with 6 decimals", ErrInvalidAmount)
	}
	if n, _ := new(big.Int).SetString(s, 10); n.Cmp(maxUint256) > 0 {
		return "", tooLarge(s)
	}
	return s, nil
}

// ParseHumanAmount checks a token-unit amount ("12.5"): a positive plain decimal with at most
// maxDecimals fraction digits. It rejects anything a numeric conversion would change — signs,
// exponents, leading zeros, a trailing dot, surrounding spaces — instead of rounding it.
func ParseHumanAmount(s string, maxDecimals int) (string, error) {
	intPart, frac, hasDot := cut(s, '.')
	switch {
	case intPart == "":
		return "", fmt.Errorf("%w: want a plain decimal such as 12.5", ErrInvalidAmount)
	case len(intPart)+len(frac) > maxAmountDigits && digits(intPart) && digits(frac):
		return "", tooLarge(s)
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
	if n.Cmp(maxUint256) > 0 {
		return nil, fmt.Errorf("%w: %s exceeds the token's range: with %d decimals it is more than 2^256 - 1 base units",
			ErrInvalidAmount, abbreviate(s), decimals)
	}
	return n, nil
}
