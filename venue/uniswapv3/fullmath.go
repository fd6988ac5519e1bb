package uniswapv3

import (
	"errors"
	"math/big"
)

// Fixed-width bounds and the Q96 unit.
var (
	one        = big.NewInt(1)
	q96        = new(big.Int).Lsh(one, 96)
	maxUint128 = new(big.Int).Sub(new(big.Int).Lsh(one, 128), one)
	maxUint160 = new(big.Int).Sub(new(big.Int).Lsh(one, 160), one)
	maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(one, 256), one)
)

// errOverflow is a result that does not fit its fixed-width type: the contract reverts.
var errOverflow = errors.New("uniswapv3: overflow")

// mulDiv is FullMath.mulDiv: floor(a*b/d), reverting when d is zero or the result exceeds uint256.
func mulDiv(a, b, d *big.Int) (*big.Int, error) {
	if d.Sign() == 0 {
		return nil, errors.New("uniswapv3: division by zero")
	}
	r := new(big.Int).Mul(a, b)
	r.Quo(r, d)
	if r.Cmp(maxUint256) > 0 {
		return nil, errOverflow
	}
	return r, nil
}

// mulDivRoundingUp is FullMath.mulDivRoundingUp: ceil(a*b/d), reverting as mulDiv does and when
// rounding up passes uint256.
func mulDivRoundingUp(a, b, d *big.Int) (*big.Int, error) {
	if d.Sign() == 0 {
		return nil, errors.New("uniswapv3: division by zero")
	}
	r, m := new(big.Int).QuoRem(new(big.Int).Mul(a, b), d, new(big.Int))
	if m.Sign() != 0 {
		r.Add(r, one)
	}
	if r.Cmp(maxUint256) > 0 {
		return nil, errOverflow
	}
	return r, nil
}

// divRoundingUp is UnsafeMath.divRoundingUp: ceil(a/d) for d > 0.
func divRoundingUp(a, d *big.Int) *big.Int {
	r, m := new(big.Int).QuoRem(a, d, new(big.Int))
	if m.Sign() != 0 {
		r.Add(r, one)
	}
	return r
}
