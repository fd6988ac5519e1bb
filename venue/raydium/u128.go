package raydium

import (
	"math/big"
	"math/bits"
)

// Unsigned 128-bit arithmetic on math/big, checked as CPMM's Rust is: each operation reports false
// where Rust's checked_* returns None (a result past u128, below zero, or a division by zero).

var (
	one       = big.NewInt(1)
	u128Limit = new(big.Int).Lsh(one, 128) // 2^128
)

func big64(v uint64) *big.Int { return new(big.Int).SetUint64(v) }

func fits128(x *big.Int) bool { return x.Sign() >= 0 && x.Cmp(u128Limit) < 0 }

func mul128(a, b *big.Int) (*big.Int, bool) {
	r := new(big.Int).Mul(a, b)
	return r, fits128(r)
}

func add128(a, b *big.Int) (*big.Int, bool) {
	r := new(big.Int).Add(a, b)
	return r, fits128(r)
}

func sub128(a, b *big.Int) (*big.Int, bool) {
	r := new(big.Int).Sub(a, b)
	return r, r.Sign() >= 0
}

func div128(a, b *big.Int) (*big.Int, bool) {
	if b.Sign() == 0 {
		return nil, false
	}
	return new(big.Int).Quo(a, b), true
}

// addRates adds two u64 rates; false where Rust's overflow check panics.
func addRates(a, b uint64) (uint64, bool) {
	s, carry := bits.Add64(a, b, 0)
	return s, carry == 0
}

// toU64 is u64::try_from: false past u64.
func toU64(x *big.Int) (uint64, bool) {
	if !x.IsUint64() {
		return 0, false
	}
	return x.Uint64(), true
}
