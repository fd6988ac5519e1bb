package uniswapv2

import (
	"errors"
	"fmt"
	"math/big"
)

// FeeDenominator is the denominator of fees and slippage tolerances given in
// basis points: a fee of 30 is 30/10000 = 0.3%.
const FeeDenominator = 10000

// Uniswap V2's fee (0.3%, the pair contract's 997/1000) and PancakeSwap V2's
// (0.25%, its 9975/10000), in basis points.
const (
	UniswapV2FeeBps     = 30
	PancakeSwapV2FeeBps = 25
)

var (
	// ErrInsufficientInput is returned when the amount in is not positive, or
	// is too small to buy a single unit of the output token (the output rounds
	// down to 0). The Uniswap V2 SDK throws InsufficientInputAmountError and
	// the router reverts with INSUFFICIENT_INPUT_AMOUNT (or the pair with
	// INSUFFICIENT_OUTPUT_AMOUNT) in these cases.
	ErrInsufficientInput = errors.New("uniswapv2: insufficient input amount")

	// ErrInsufficientOutput is returned by AmountIn when the amount out is not
	// positive, as the router's getAmountIn requires (INSUFFICIENT_OUTPUT_AMOUNT).
	// The SDK's Pair.getInputAmount does not check this and quotes 1 for 0
	// out.
	ErrInsufficientOutput = errors.New("uniswapv2: insufficient output amount")

	// ErrInsufficientLiquidity is returned when a reserve is not positive, or
	// when the amount out asked of AmountIn is at least the output reserve
	// (the pool cannot give it for any input). The SDK throws
	// InsufficientReservesError in these cases.
	ErrInsufficientLiquidity = errors.New("uniswapv2: insufficient liquidity")

	// ErrInvalidFee is returned when a fee is outside 0..9999 basis points.
	ErrInvalidFee = errors.New("uniswapv2: fee out of range (0..9999 basis points)")

	// ErrEmptyRoute is returned by RouteAmountOut for a route without hops.
	ErrEmptyRoute = errors.New("uniswapv2: route has no hops")
)

var bigFeeDenominator = big.NewInt(FeeDenominator)

func positive(x *big.Int) bool { return x != nil && x.Sign() > 0 }

func checkFee(feeBps int) error {
	if feeBps < 0 || feeBps >= FeeDenominator {
		return fmt.Errorf("%w: %d", ErrInvalidFee, feeBps)
	}
	return nil
}

// AmountOut returns the output of a constant-product pool for an exact
// input, as Uniswap V2's getAmountOut computes it, with the fee in basis
// points instead of the fixed 0.3%:
//
//	amountInWithFee = amountIn * (10000 - feeBps)
//	amountOut = amountInWithFee * reserveOut / (reserveIn * 10000 + amountInWithFee)
//
// rounded down. With feeBps 30 this equals the pair's 997/1000 formula;
// PancakeSwap V2 uses 25. Errors, the first that applies: ErrInvalidFee if
// feeBps is outside 0..9999, ErrInsufficientLiquidity if a reserve <= 0,
// ErrInsufficientInput if amountIn <= 0 or the output rounds down to 0 (the
// SDK's order). The arguments are not modified; nil counts as 0.
func AmountOut(amountIn, reserveIn, reserveOut *big.Int, feeBps int) (*big.Int, error) {
	if err := checkFee(feeBps); err != nil {
		return nil, err
	}
	// The SDK checks the reserves first (the router the amount): an empty
	// pool is ErrInsufficientLiquidity whatever the amount.
	if !positive(reserveIn) || !positive(reserveOut) {
		return nil, ErrInsufficientLiquidity
	}
	if !positive(amountIn) {
		return nil, ErrInsufficientInput
	}
	withFee := new(big.Int).Mul(amountIn, big.NewInt(int64(FeeDenominator-feeBps)))
	num := new(big.Int).Mul(withFee, reserveOut)
	den := new(big.Int).Mul(reserveIn, bigFeeDenominator)
	den.Add(den, withFee)
	out := num.Quo(num, den)
	if out.Sign() == 0 {
		return nil, ErrInsufficientInput
	}
	return out, nil
}

// AmountIn returns the input a constant-product pool needs to give an exact
// output, as Uniswap V2's getAmountIn computes it, with the fee in basis
// points:
//
//	amountIn = reserveIn * amountOut * 10000 / ((reserveOut - amountOut) * (10000 - feeBps)) + 1
//
// with the division rounded down. The +1 makes the input always enough:
// AmountOut(AmountIn(y)) >= y; it is one more than the least sufficient
// input when the division is exact. Errors, the first that applies:
// ErrInvalidFee if feeBps is outside 0..9999, ErrInsufficientLiquidity if a
// reserve <= 0 or amountOut >= reserveOut, ErrInsufficientOutput if
// amountOut <= 0 (where the SDK's getInputAmount quotes 1 for 0 out). The
// arguments are not modified; nil counts as 0.
func AmountIn(amountOut, reserveIn, reserveOut *big.Int, feeBps int) (*big.Int, error) {
	if err := checkFee(feeBps); err != nil {
		return nil, err
	}
	if !positive(reserveIn) || !positive(reserveOut) || (amountOut != nil && amountOut.Cmp(reserveOut) >= 0) {
		return nil, ErrInsufficientLiquidity
	}
	if !positive(amountOut) {
		return nil, ErrInsufficientOutput
	}
	num := new(big.Int).Mul(reserveIn, amountOut)
	num.Mul(num, bigFeeDenominator)
	den := new(big.Int).Sub(reserveOut, amountOut)
	den.Mul(den, big.NewInt(int64(FeeDenominator-feeBps)))
	in := num.Quo(num, den)
	return in.Add(in, big.NewInt(1)), nil
}

// Hop is one pool of a route, seen in the direction of the trade: the
// reserve of the token going in, the reserve of the token coming out, and
// the pool's fee in basis points (30 for Uniswap V2).
type Hop struct {
	ReserveIn, ReserveOut *big.Int
	FeeBps                int
}

// RouteAmountOut quotes an exact input through the pools of a route, like
// the router's getAmountsOut: amounts[0] is amountIn and amounts[i+1] is the
// output of hops[i], which is the input of hops[i+1]; the last amount is the
// route's output. An error of a hop is AmountOut's, wrapped with the hop's
// index (test it with errors.Is); a route without hops is ErrEmptyRoute.
func RouteAmountOut(amountIn *big.Int, hops []Hop) (amounts []*big.Int, err error) {
	if len(hops) == 0 {
		return nil, ErrEmptyRoute
	}
	if amountIn == nil {
		return nil, fmt.Errorf("hop 0: %w", ErrInsufficientInput)
	}
	amounts = make([]*big.Int, 0, len(hops)+1)
	amounts = append(amounts, new(big.Int).Set(amountIn))
	for i, h := range hops {
		out, err := AmountOut(amounts[i], h.ReserveIn, h.ReserveOut, h.FeeBps)
		if err != nil {
			return nil, fmt.Errorf("hop %d: %w", i, err)
		}
		amounts = append(amounts, out)
	}
	return amounts, nil
}

// MidPrice returns the route's mid price before the trade, in output units
// per input unit: the product of each hop's ReserveOut/ReserveIn (the
// Uniswap V2 SDK's Route.midPrice, on raw amounts). It is nil for an empty
// route or a reserve <= 0.
func MidPrice(hops []Hop) *big.Rat {
	if len(hops) == 0 {
		return nil
	}
	num, den := big.NewInt(1), big.NewInt(1)
	for _, h := range hops {
		if !positive(h.ReserveIn) || !positive(h.ReserveOut) {
			return nil
		}
		num.Mul(num, h.ReserveOut)
		den.Mul(den, h.ReserveIn)
	}
	return new(big.Rat).SetFrac(num, den)
}

// PriceImpact returns the price impact of trading amountIn for amountOut
// through hops, as a fraction (0.013 is 1.3%), exactly as the Uniswap V2
// SDK's Trade.priceImpact (computePriceImpact) computes it:
//
//	quoted = MidPrice(hops) * amountIn
//	impact = (quoted - amountOut) / quoted
//
// It includes the pools' fees, so even a tiny trade has an impact of about
// the fee; it is negative if amountOut is more than the mid price gives. It
// is nil if amountIn or amountOut is nil, amountIn <= 0 or MidPrice is nil.
func PriceImpact(amountIn, amountOut *big.Int, hops []Hop) *big.Rat {
	mid := MidPrice(hops)
	if mid == nil || !positive(amountIn) || amountOut == nil {
		return nil
	}
	quoted := new(big.Rat).Mul(mid, new(big.Rat).SetInt(amountIn))
	diff := new(big.Rat).Sub(quoted, new(big.Rat).SetInt(amountOut))
	return diff.Quo(diff, quoted)
}
