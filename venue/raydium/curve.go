package raydium

import "math/big"

// CPMM's curve calculator (curve/calculator.rs, constant_product.rs), on u128 figures. Where the
// calculator returns None the program fails with ZeroTradingTokens (ErrZeroTradingTokens); where
// it unwraps a None the program aborts (ErrOverflow).

// SwapRates are the rates one swap uses: AmmConfig's trade, protocol and fund rates, its creator
// rate where the pool enables the creator fee (0 otherwise), and the side the pool takes the
// creator fee on for this direction.
type SwapRates struct {
	Trade, Protocol, Fund, Creator uint64 // millionths
	CreatorFeeOnInput              bool
}

// curveResult is the calculator's SwapResult.
type curveResult struct {
	newInputVault, newOutputVault              *big.Int // the curve's vault amounts after, fees excluded
	inputAmount, outputAmount                  *big.Int // input with fees, before transfer fees; output with transfer fees
	tradeFee, protocolFee, fundFee, creatorFee *big.Int
}

// curveSwapBaseInput is CurveCalculator::swap_base_input: what amountIn of the input buys from
// reserves x (input) and y (output).
func curveSwapBaseInput(amountIn, x, y uint64, r SwapRates) (curveResult, error) {
	in, X, Y := big64(amountIn), big64(x), big64(y)
	res := curveResult{inputAmount: in, creatorFee: new(big.Int)}
	var less *big.Int
	var ok bool
	if r.CreatorFeeOnInput {
		sum, fit := addRates(r.Trade, r.Creator)
		if !fit {
			return res, ErrOverflow
		}
		// one fee of both rates, rounded up once, then split: the creator's share rounded down
		total, ok := ceilDiv(in, sum, FeeRateDenominator)
		if !ok {
			return res, ErrZeroTradingTokens
		}
		if res.creatorFee, ok = floorDiv(total, r.Creator, sum); !ok {
			return res, ErrZeroTradingTokens
		}
		res.tradeFee = new(big.Int).Sub(total, res.creatorFee)
		if less, ok = sub128(in, total); !ok {
			return res, ErrZeroTradingTokens
		}
	} else {
		if res.tradeFee, ok = ceilDiv(in, r.Trade, FeeRateDenominator); !ok {
			return res, ErrZeroTradingTokens
		}
		if less, ok = sub128(in, res.tradeFee); !ok {
			return res, ErrZeroTradingTokens
		}
	}
	if res.protocolFee, ok = floorDiv(res.tradeFee, r.Protocol, FeeRateDenominator); !ok {
		return res, ErrZeroTradingTokens
	}
	if res.fundFee, ok = floorDiv(res.tradeFee, r.Fund, FeeRateDenominator); !ok {
		return res, ErrZeroTradingTokens
	}
	// swap_base_input_without_fees: less × y / (x + less), rounded down; it unwraps
	num, ok := mul128(less, Y)
	if !ok {
		return res, ErrOverflow
	}
	den, ok := add128(X, less)
	if !ok {
		return res, ErrOverflow
	}
	swapped, ok := div128(num, den)
	if !ok {
		return res, ErrOverflow
	}
	if r.CreatorFeeOnInput {
		res.outputAmount = swapped
	} else {
		if res.creatorFee, ok = ceilDiv(swapped, r.Creator, FeeRateDenominator); !ok {
			return res, ErrZeroTradingTokens
		}
		if res.outputAmount, ok = sub128(swapped, res.creatorFee); !ok {
			return res, ErrZeroTradingTokens
		}
	}
	if res.newInputVault, ok = add128(X, less); !ok {
		return res, ErrZeroTradingTokens
	}
	if res.newOutputVault, ok = sub128(Y, swapped); !ok {
		return res, ErrZeroTradingTokens
	}
	return res, nil
}

// curveSwapBaseOutput is CurveCalculator::swap_base_output: the input that buys amountOut (the
// output the user is paid, transfer fee included) from reserves x (input) and y (output).
func curveSwapBaseOutput(amountOut, x, y uint64, r SwapRates) (curveResult, error) {
	out, X, Y := big64(amountOut), big64(x), big64(y)
	res := curveResult{outputAmount: out, creatorFee: new(big.Int)}
	actualOut := out
	var ok bool
	if !r.CreatorFeeOnInput {
		// the pool pays out the output grossed up by the creator fee, and keeps the fee
		if actualOut, ok = preFeeAmount(out, r.Creator); !ok {
			return res, ErrZeroTradingTokens
		}
		res.creatorFee = new(big.Int).Sub(actualOut, out)
	}
	// swap_base_output_without_fees: x × out / (y − out), rounded up; it unwraps
	num, ok := mul128(X, actualOut)
	if !ok {
		return res, ErrOverflow
	}
	den, ok := sub128(Y, actualOut)
	if !ok || den.Sign() == 0 {
		return res, ErrOverflow
	}
	swapped, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	if rem.Sign() != 0 {
		if swapped, ok = add128(swapped, one); !ok {
			return res, ErrOverflow
		}
	}
	var withFee *big.Int
	if r.CreatorFeeOnInput {
		sum, fit := addRates(r.Trade, r.Creator)
		if !fit {
			return res, ErrOverflow
		}
		if withFee, ok = preFeeAmount(swapped, sum); !ok { // unwrapped
			return res, ErrOverflow
		}
		total := new(big.Int).Sub(withFee, swapped)
		if res.creatorFee, ok = floorDiv(total, r.Creator, sum); !ok {
			return res, ErrZeroTradingTokens
		}
		res.tradeFee = total.Sub(total, res.creatorFee)
	} else {
		if withFee, ok = preFeeAmount(swapped, r.Trade); !ok { // unwrapped
			return res, ErrOverflow
		}
		res.tradeFee = new(big.Int).Sub(withFee, swapped)
	}
	res.inputAmount = withFee
	if res.protocolFee, ok = floorDiv(res.tradeFee, r.Protocol, FeeRateDenominator); !ok {
		return res, ErrZeroTradingTokens
	}
	if res.fundFee, ok = floorDiv(res.tradeFee, r.Fund, FeeRateDenominator); !ok {
		return res, ErrZeroTradingTokens
	}
	if res.newInputVault, ok = add128(X, swapped); !ok {
		return res, ErrZeroTradingTokens
	}
	if res.newOutputVault, ok = sub128(Y, actualOut); !ok {
		return res, ErrZeroTradingTokens
	}
	return res, nil
}

// lpToTokens is CurveCalculator::lp_tokens_to_trading_tokens: lp of supply in token amounts of
// reserves r0 and r1, rounded up (ceiling: a nonzero amount with a remainder gains 1) or down;
// false for None (a zero supply).
func lpToTokens(lp, supply, r0, r1 uint64, ceiling bool) (a0, a1 *big.Int, ok bool) {
	if supply == 0 {
		return nil, nil, false
	}
	side := func(reserve uint64) *big.Int {
		q, m := new(big.Int).QuoRem(new(big.Int).Mul(big64(lp), big64(reserve)), big64(supply), new(big.Int))
		if ceiling && m.Sign() > 0 && q.Sign() > 0 {
			q.Add(q, one)
		}
		return q
	}
	return side(r0), side(r1), true
}
