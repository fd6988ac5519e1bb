package raydium

import "math/big"

// CPMM's fee arithmetic (curve/fees.rs): rates in millionths of FeeRateDenominator.

// ceilDiv is CPMM's ceil_div: (amount × num + den − 1) / den; false for None.
func ceilDiv(amount *big.Int, num, den uint64) (*big.Int, bool) {
	if den == 0 {
		return nil, false
	}
	t, ok := mul128(amount, big64(num))
	if !ok {
		return nil, false
	}
	if t, ok = add128(t, big64(den)); !ok {
		return nil, false
	}
	t.Sub(t, one) // t ≥ den ≥ 1
	return div128(t, big64(den))
}

// floorDiv is CPMM's floor_div: amount × num / den; false for None.
func floorDiv(amount *big.Int, num, den uint64) (*big.Int, bool) {
	if den == 0 {
		return nil, false
	}
	t, ok := mul128(amount, big64(num))
	if !ok {
		return nil, false
	}
	return div128(t, big64(den))
}

// preFeeAmount is Fees::calculate_pre_fee_amount: the amount that leaves post once a fee of rate
// (rounded up) is taken, itself rounded up; false for None (a rate of 100% or more, or overflow).
func preFeeAmount(post *big.Int, rate uint64) (*big.Int, bool) {
	if rate == 0 {
		return new(big.Int).Set(post), true
	}
	if rate > FeeRateDenominator {
		return nil, false
	}
	return ceilDiv(post, FeeRateDenominator, FeeRateDenominator-rate)
}
