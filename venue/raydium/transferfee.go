package raydium

import (
	"math/big"

	"github.com/partner-platform/partnerd/chain/svm"
)

// Token-2022 transfer fees as CPMM takes them (utils/token.rs) with Token-2022's own arithmetic
// (extension/transfer_fee): a mint's fee in force is a *svm.FeeSchedule (chain.SVMMint's
// TransferFee, or TransferFeeConfig.At(epoch)); nil is no fee (SPL Token, or Token-2022 without
// the extension).

const maxFeeBasisPoints = 10_000

// transferFee is CPMM's get_transfer_fee: what Token-2022 withholds from amount sent.
func transferFee(f *svm.FeeSchedule, amount uint64) uint64 {
	if f == nil {
		return 0
	}
	return f.Fee(amount)
}

// preFeeTransfer is Token-2022's calculate_pre_fee_amount: the amount to send so that post
// arrives; false for None.
func preFeeTransfer(f *svm.FeeSchedule, post uint64) (uint64, bool) {
	switch {
	case f.BasisPoints == 0:
		return post, true
	case post == 0:
		return 0, true
	case f.BasisPoints == maxFeeBasisPoints:
		s, ok := addRates(post, f.MaximumFee)
		return s, ok
	case f.BasisPoints > maxFeeBasisPoints:
		return 0, false
	}
	num := new(big.Int).Mul(big64(post), big.NewInt(maxFeeBasisPoints))
	raw, rem := num.QuoRem(num, big.NewInt(int64(maxFeeBasisPoints-f.BasisPoints)), new(big.Int))
	if rem.Sign() > 0 {
		raw.Add(raw, one)
	}
	if new(big.Int).Sub(raw, big64(post)).Cmp(big64(f.MaximumFee)) >= 0 {
		s, ok := addRates(post, f.MaximumFee)
		return s, ok
	}
	return toU64(raw)
}

// transferInverseFee is CPMM's get_transfer_inverse_fee: the fee to add to post so that post
// arrives, which must be the fee of the sum (ErrTransferFeeMismatch otherwise). The program
// unwraps Token-2022's None (ErrOverflow). CPMM refuses a post of 0 for a Token-2022 mint; every
// caller here has checked it positive.
func transferInverseFee(f *svm.FeeSchedule, post uint64) (uint64, error) {
	if f == nil {
		return 0, nil
	}
	if f.BasisPoints == maxFeeBasisPoints {
		return f.MaximumFee, nil
	}
	pre, ok := preFeeTransfer(f, post)
	if !ok {
		return 0, ErrOverflow
	}
	fee := f.Fee(pre)
	sum, ok := addRates(post, fee)
	if !ok {
		return 0, ErrOverflow
	}
	if f.Fee(sum) != fee {
		return 0, ErrTransferFeeMismatch
	}
	return fee, nil
}
