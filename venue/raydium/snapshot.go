package raydium

import (
	"fmt"

	"github.com/partner-platform/partnerd/chain/svm"
)

// Snapshot is a pool as one read of the chain saw it: what a quote needs, all from the same slot.
type Snapshot struct {
	Pool   PoolState
	Config AmmConfig // the pool's AmmConfig
	// Vault0 and Vault1 are the vaults' token balances (the fees owed included).
	Vault0, Vault1 uint64
	// TransferFee0 and TransferFee1 are each mint's Token-2022 transfer fee in force at the
	// epoch the transaction will run in (chain.SVMMint.TransferFee); nil: none.
	TransferFee0, TransferFee1 *svm.FeeSchedule
	// Now is the cluster's unix time the quote is for: swaps need Now >= Pool.OpenTime.
	Now uint64
}

// Reserves are the pool's token amounts as its curve sees them: the vaults less the fees owed.
// Errors: ErrMathOverflow, ErrInsufficientVault.
func (s *Snapshot) Reserves() (reserve0, reserve1 uint64, err error) {
	return s.Pool.Reserves(s.Vault0, s.Vault1)
}

// side is one direction's view of the snapshot: input and output token.
type side struct {
	vaultIn, vaultOut      uint64 // balances, fees owed included
	reserveIn, reserveOut  uint64 // net of fees owed
	feeIn, feeOut          *svm.FeeSchedule
	rates                  SwapRates
	protocolOwed, fundOwed uint64 // of the input token
	creatorOwedOnSide      uint64 // of the token the creator fee is taken in
}

// swapSide is CPMM's get_swap_params for a direction, with the rates the swap uses.
func (s *Snapshot) swapSide(zeroForOne bool) (side, error) {
	r0, r1, err := s.Reserves()
	if err != nil {
		return side{}, err
	}
	if r0 == 0 || r1 == 0 { // token_price_x32 divides by each reserve
		return side{}, fmt.Errorf("%w: a reserve is zero", ErrOverflow)
	}
	rates, err := s.Pool.SwapRates(&s.Config, zeroForOne)
	if err != nil {
		return side{}, err
	}
	p := &s.Pool
	d := side{vaultIn: s.Vault0, vaultOut: s.Vault1, reserveIn: r0, reserveOut: r1, feeIn: s.TransferFee0,
		feeOut: s.TransferFee1, rates: rates, protocolOwed: p.ProtocolFeesToken0, fundOwed: p.FundFeesToken0}
	creatorOn0 := zeroForOne == rates.CreatorFeeOnInput // the creator fee is in token 0
	if !zeroForOne {
		d = side{vaultIn: s.Vault1, vaultOut: s.Vault0, reserveIn: r1, reserveOut: r0, feeIn: s.TransferFee1,
			feeOut: s.TransferFee0, rates: rates, protocolOwed: p.ProtocolFeesToken1, fundOwed: p.FundFeesToken1}
	}
	d.creatorOwedOnSide = p.CreatorFeesToken1
	if creatorOn0 {
		d.creatorOwedOnSide = p.CreatorFeesToken0
	}
	return d, nil
}
