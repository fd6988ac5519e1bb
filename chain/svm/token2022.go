package svm

import "math/bits"

// FeeSchedule is one Token-2022 transfer fee (a TransferFee of the mint's TransferFeeConfig
// extension): from Epoch on, a transfer of n base units pays min(ceil(n × BasisPoints / 10,000),
// MaximumFee), withheld in the recipient's account: the adapter decodes it from a mint, and a
// venue takes it without importing the adapter.
type FeeSchedule struct {
	Epoch       uint64
	BasisPoints uint16
	MaximumFee  uint64
}

// Fee is the fee of a transfer of amount base units (Token-2022's calculate_fee).
func (f FeeSchedule) Fee(amount uint64) uint64 {
	if f.BasisPoints == 0 || amount == 0 {
		return 0
	}
	hi, lo := bits.Mul64(amount, uint64(f.BasisPoints))
	lo, carry := bits.Add64(lo, 9_999, 0)
	hi += carry
	if hi >= 10_000 { // the quotient would pass u64: above any u64 maximum
		return f.MaximumFee
	}
	q, _ := bits.Div64(hi, lo, 10_000)
	return min(q, f.MaximumFee)
}
