package raydium

import (
	"fmt"
	"math/big"
)

// SwapQuote is what a swap does, exactly as CPMM's swap_base_input or swap_base_output computes it
// on the snapshot's state.
type SwapQuote struct {
	ZeroForOne bool // token 0 in, token 1 out
	BaseInput  bool // swap_base_input (else swap_base_output)

	// AmountIn is what the payer sends (input_transfer_amount); InputTransferFee of it is withheld
	// by Token-2022 and CurveIn reaches the vault: the curve's input, fees included (SwapResult's
	// input_amount).
	AmountIn, InputTransferFee, CurveIn uint64
	// AmountOut leaves the vault (SwapResult's output_amount, output_transfer_amount);
	// OutputTransferFee of it is withheld by Token-2022 and the payer receives Received.
	AmountOut, OutputTransferFee, Received uint64

	// The fees: TradeFee (in the input token) of which ProtocolFee and FundFee are owed to the
	// protocol and the fund, the rest stays with the LPs; CreatorFee is owed to the pool's
	// creator, in the input token when CreatorFeeOnInput, else in the output token.
	TradeFee, ProtocolFee, FundFee, CreatorFee uint64
	CreatorFeeOnInput                          bool

	// ReserveIn and ReserveOut are the curve's reserves before (SwapEvent's input_vault_before and
	// output_vault_before). NewReserveIn and NewReserveOut are the curve's after (SwapResult's
	// new vault amounts): they leave out the whole trade fee; the pool's reserves after the swap
	// are NewReserveIn + TradeFee − ProtocolFee − FundFee and NewReserveOut.
	ReserveIn, ReserveOut, NewReserveIn, NewReserveOut uint64
}

// SwapBaseInput quotes swap_base_input of amountIn (what the payer sends) in the direction
// zeroForOne. Errors: ErrNotApproved, ErrZeroAmount, ErrZeroTradingTokens, ErrOverflow,
// ErrVaultOverflow, ErrInsufficientVault, ErrMathOverflow, ErrInvalidFeeModel.
func (s *Snapshot) SwapBaseInput(zeroForOne bool, amountIn uint64) (SwapQuote, error) {
	q, err := s.swapBaseInput(zeroForOne, amountIn)
	if err != nil {
		return SwapQuote{}, fmt.Errorf("swap_base_input: %w", err)
	}
	return q, nil
}

func (s *Snapshot) swapBaseInput(zeroForOne bool, amountIn uint64) (SwapQuote, error) {
	if !s.Pool.SwapEnabled() || s.Now < s.Pool.OpenTime {
		return SwapQuote{}, ErrNotApproved
	}
	feeIn, feeOut := s.TransferFee0, s.TransferFee1
	if !zeroForOne {
		feeIn, feeOut = feeOut, feeIn
	}
	inFee := transferFee(feeIn, amountIn)
	if inFee >= amountIn {
		return SwapQuote{}, ErrZeroAmount
	}
	actualIn := amountIn - inFee
	d, err := s.swapSide(zeroForOne)
	if err != nil {
		return SwapQuote{}, err
	}
	r, err := curveSwapBaseInput(actualIn, d.reserveIn, d.reserveOut, d.rates)
	if err != nil {
		return SwapQuote{}, err
	}
	if _, ok := mul128(r.newInputVault, r.newOutputVault); !ok { // the invariant check's product
		return SwapQuote{}, ErrOverflow
	}
	amountOut, ok := toU64(r.outputAmount)
	if !ok {
		return SwapQuote{}, ErrOverflow
	}
	outFee := transferFee(feeOut, amountOut)
	if outFee >= amountOut {
		return SwapQuote{}, ErrZeroAmount
	}
	q := SwapQuote{ZeroForOne: zeroForOne, BaseInput: true, AmountIn: amountIn, InputTransferFee: inFee, CurveIn: actualIn,
		AmountOut: amountOut, OutputTransferFee: outFee, Received: amountOut - outFee, CreatorFeeOnInput: d.rates.CreatorFeeOnInput,
		ReserveIn: d.reserveIn, ReserveOut: d.reserveOut}
	return q, s.finish(&q, &d, r)
}

// SwapBaseOutput quotes swap_base_output that pays the payer exactly received (after the output's
// transfer fee) in the direction zeroForOne; AmountIn is the least max_amount_in it accepts.
// Errors: as SwapBaseInput's, and ErrTransferFeeMismatch.
func (s *Snapshot) SwapBaseOutput(zeroForOne bool, received uint64) (SwapQuote, error) {
	q, err := s.swapBaseOutput(zeroForOne, received)
	if err != nil {
		return SwapQuote{}, fmt.Errorf("swap_base_output: %w", err)
	}
	return q, nil
}

func (s *Snapshot) swapBaseOutput(zeroForOne bool, received uint64) (SwapQuote, error) {
	if received == 0 {
		return SwapQuote{}, ErrZeroAmount
	}
	if !s.Pool.SwapEnabled() || s.Now < s.Pool.OpenTime {
		return SwapQuote{}, ErrNotApproved
	}
	feeIn, feeOut := s.TransferFee0, s.TransferFee1
	if !zeroForOne {
		feeIn, feeOut = feeOut, feeIn
	}
	outFee, err := transferInverseFee(feeOut, received)
	if err != nil {
		return SwapQuote{}, err
	}
	amountOut, ok := addRates(received, outFee)
	if !ok {
		return SwapQuote{}, ErrOverflow
	}
	d, err := s.swapSide(zeroForOne)
	if err != nil {
		return SwapQuote{}, err
	}
	r, err := curveSwapBaseOutput(amountOut, d.reserveIn, d.reserveOut, d.rates)
	if err != nil {
		return SwapQuote{}, err
	}
	if _, ok := mul128(r.newInputVault, r.newOutputVault); !ok {
		return SwapQuote{}, ErrOverflow
	}
	curveIn, ok := toU64(r.inputAmount)
	if !ok {
		return SwapQuote{}, ErrOverflow
	}
	if curveIn == 0 {
		return SwapQuote{}, ErrZeroAmount
	}
	inFee, err := transferInverseFee(feeIn, curveIn)
	if err != nil {
		return SwapQuote{}, err
	}
	amountIn, ok := addRates(curveIn, inFee)
	if !ok {
		return SwapQuote{}, ErrOverflow
	}
	q := SwapQuote{ZeroForOne: zeroForOne, AmountIn: amountIn, InputTransferFee: inFee, CurveIn: curveIn,
		AmountOut: amountOut, OutputTransferFee: outFee, Received: received, CreatorFeeOnInput: d.rates.CreatorFeeOnInput,
		ReserveIn: d.reserveIn, ReserveOut: d.reserveOut}
	return q, s.finish(&q, &d, r)
}

// finish is what both swaps check once the amounts are known: the fees fit u64 and the fees owed
// (update_fees), the new reserves, and the input vault can take the payment.
func (s *Snapshot) finish(q *SwapQuote, d *side, r curveResult) error {
	var ok [6]bool
	q.TradeFee, ok[0] = toU64(r.tradeFee)
	q.ProtocolFee, ok[1] = toU64(r.protocolFee)
	q.FundFee, ok[2] = toU64(r.fundFee)
	q.CreatorFee, ok[3] = toU64(r.creatorFee)
	q.NewReserveIn, ok[4] = toU64(r.newInputVault)
	q.NewReserveOut, ok[5] = toU64(r.newOutputVault)
	for _, o := range ok[:4] {
		if !o {
			return ErrOverflow
		}
	}
	if !s.Pool.EnableCreatorFee && q.CreatorFee != 0 { // update_fees' require_eq!: unreachable, the rate is 0
		return fmt.Errorf("%w: a creator fee where the pool has it off", ErrOverflow)
	}
	_, ok[0] = addRates(d.protocolOwed, q.ProtocolFee)
	_, ok[1] = addRates(d.fundOwed, q.FundFee)
	_, ok[2] = addRates(d.creatorOwedOnSide, q.CreatorFee)
	if !ok[0] || !ok[1] || !ok[2] {
		return ErrOverflow
	}
	if _, fits := addRates(d.vaultIn, q.AmountIn); !fits {
		return ErrVaultOverflow
	}
	if !ok[4] || !ok[5] { // the input vault takes CurveIn ≥ what the curve adds, so unreachable here
		return ErrOverflow
	}
	return nil
}

// ReservesAfter are the pool's reserves after the swap (vaults less the fees owed), in and out.
func (q *SwapQuote) ReservesAfter() (reserveIn, reserveOut uint64) {
	return q.NewReserveIn + q.TradeFee - q.ProtocolFee - q.FundFee, q.NewReserveOut
}

// MidPrice is the pool's price before the swap: output base units per input base unit.
func (q *SwapQuote) MidPrice() *big.Rat { return MidPrice(q.ReserveIn, q.ReserveOut) }

// PriceImpact is how much worse than the mid price the swap executes, as a fraction (0.013 is
// 1.3 %): (MidPrice × AmountIn − Received) / (MidPrice × AmountIn), with every fee included (the
// trade and creator fees and both transfer fees), as trade.PriceImpact defines it for a route.
func (q *SwapQuote) PriceImpact() *big.Rat {
	return PriceImpact(q.AmountIn, q.Received, q.ReserveIn, q.ReserveOut)
}
