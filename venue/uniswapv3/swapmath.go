package uniswapv3

import (
	"errors"
	"math/big"
)

// FeeDenominator is the unit of fee pips: a fee of 3000 pips is 3000/1e6 = 0.3 %.
const FeeDenominator = 1_000_000

// SwapStep is one step's result, as SwapMath.computeSwapStep returns it.
type SwapStep struct {
	SqrtPriceNextX96 *big.Int // the price after the step
	AmountIn         *big.Int // input the step takes, fee excluded
	AmountOut        *big.Int // output the step gives
	FeeAmount        *big.Int // fee the step takes on top of AmountIn
}

// ComputeSwapStep is SwapMath.computeSwapStep: a swap within one price range of constant
// liquidity, from sqrtCurrent towards sqrtTarget (down for zero for one), with amountRemaining
// positive for exact input (fee included) or negative for exact output; feePips in hundredths of
// a bip (below FeeDenominator).
func ComputeSwapStep(sqrtCurrent, sqrtTarget, liquidity, amountRemaining *big.Int, feePips uint32) (SwapStep, error) {
	if feePips >= FeeDenominator {
		return SwapStep{}, errors.New("uniswapv3: fee pips at or above 1e6")
	}
	zeroForOne := sqrtCurrent.Cmp(sqrtTarget) >= 0
	exactIn := amountRemaining.Sign() >= 0
	fee := big.NewInt(int64(feePips))
	feeComplement := big.NewInt(int64(FeeDenominator - feePips))
	million := big.NewInt(FeeDenominator)

	var s SwapStep
	var err error
	amount := func(next *big.Int, in bool, roundUp bool) (*big.Int, error) {
		// in: the input token's delta between next and current; else the output token's.
		if zeroForOne == in {
			return Amount0Delta(next, sqrtCurrent, liquidity, roundUp)
		}
		return Amount1Delta(sqrtCurrent, next, liquidity, roundUp)
	}
	if exactIn {
		lessFee, err := mulDiv(amountRemaining, feeComplement, million)
		if err != nil {
			return SwapStep{}, err
		}
		if s.AmountIn, err = amount(sqrtTarget, true, true); err != nil {
			return SwapStep{}, err
		}
		if lessFee.Cmp(s.AmountIn) >= 0 {
			s.SqrtPriceNextX96 = new(big.Int).Set(sqrtTarget)
		} else if s.SqrtPriceNextX96, err = NextSqrtPriceFromInput(sqrtCurrent, liquidity, lessFee, zeroForOne); err != nil {
			return SwapStep{}, err
		}
	} else {
		if s.AmountOut, err = amount(sqrtTarget, false, false); err != nil {
			return SwapStep{}, err
		}
		want := new(big.Int).Neg(amountRemaining)
		if want.Cmp(s.AmountOut) >= 0 {
			s.SqrtPriceNextX96 = new(big.Int).Set(sqrtTarget)
		} else if s.SqrtPriceNextX96, err = NextSqrtPriceFromOutput(sqrtCurrent, liquidity, want, zeroForOne); err != nil {
			return SwapStep{}, err
		}
	}
	reached := sqrtTarget.Cmp(s.SqrtPriceNextX96) == 0
	if !reached || !exactIn {
		if s.AmountIn, err = amount(s.SqrtPriceNextX96, true, true); err != nil {
			return SwapStep{}, err
		}
	}
	if !reached || exactIn {
		if s.AmountOut, err = amount(s.SqrtPriceNextX96, false, false); err != nil {
			return SwapStep{}, err
		}
	}
	if !exactIn {
		if want := new(big.Int).Neg(amountRemaining); s.AmountOut.Cmp(want) > 0 {
			s.AmountOut = want
		}
	}
	if exactIn && !reached {
		s.FeeAmount = new(big.Int).Sub(amountRemaining, s.AmountIn)
	} else if s.FeeAmount, err = mulDivRoundingUp(s.AmountIn, fee, feeComplement); err != nil {
		return SwapStep{}, err
	}
	return s, nil
}
