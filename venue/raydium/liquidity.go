package raydium

import (
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain/svm"
)

// DepositQuote is what deposit of LP tokens costs, as CPMM computes it: the LP's share of each
// reserve rounded up.
type DepositQuote struct {
	LP uint64 // minted to the owner
	// Amount0 and Amount1 reach the vaults (LpChangeEvent's token amounts); the owner sends Pay0
	// and Pay1, each grossed up by its Token-2022 inverse transfer fee TransferFee0/1. deposit's
	// maximum_token_0/1_amount must be at least Pay0/Pay1.
	Amount0, Amount1, TransferFee0, TransferFee1, Pay0, Pay1 uint64
	// The pool before: its reserves (vaults less fees owed) and LP supply.
	Reserve0, Reserve1, LPSupply uint64
}

// WithdrawQuote is what withdraw of LP tokens pays, as CPMM computes it: the LP's share of each
// reserve rounded down.
type WithdrawQuote struct {
	LP uint64 // burned from the owner
	// Amount0 and Amount1 leave the vaults; Token-2022 withholds TransferFee0/1 of them and the
	// owner receives Receive0 and Receive1 (LpChangeEvent's token amounts), which withdraw's
	// minimum_token_0/1_amount are held to.
	Amount0, Amount1, TransferFee0, TransferFee1, Receive0, Receive1 uint64
	Reserve0, Reserve1, LPSupply                                     uint64
}

// Deposit quotes deposit of lp LP tokens. It does not check the owner's balances. Errors:
// ErrZeroAmount, ErrNotApproved, ErrZeroTradingTokens, ErrOverflow, ErrVaultOverflow,
// ErrTransferFeeMismatch, ErrInsufficientVault, ErrMathOverflow.
func (s *Snapshot) Deposit(lp uint64) (DepositQuote, error) {
	q, err := s.deposit(lp)
	if err != nil {
		return DepositQuote{}, fmt.Errorf("deposit: %w", err)
	}
	return q, nil
}

func (s *Snapshot) deposit(lp uint64) (DepositQuote, error) {
	if lp == 0 {
		return DepositQuote{}, ErrZeroAmount
	}
	if !s.Pool.DepositEnabled() {
		return DepositQuote{}, ErrNotApproved
	}
	q := DepositQuote{LP: lp, LPSupply: s.Pool.LPSupply}
	var err error
	if q.Reserve0, q.Reserve1, err = s.Reserves(); err != nil {
		return DepositQuote{}, err
	}
	a0, a1, ok := lpToTokens(lp, q.LPSupply, q.Reserve0, q.Reserve1, true)
	if !ok || a0.Sign() == 0 || a1.Sign() == 0 {
		return DepositQuote{}, ErrZeroTradingTokens
	}
	for _, t := range []struct {
		a                *big.Int
		fee              *svm.FeeSchedule
		amount, tf, send *uint64
	}{{a0, s.TransferFee0, &q.Amount0, &q.TransferFee0, &q.Pay0}, {a1, s.TransferFee1, &q.Amount1, &q.TransferFee1, &q.Pay1}} {
		if *t.amount, ok = toU64(t.a); !ok {
			return DepositQuote{}, ErrOverflow
		}
		if *t.tf, err = transferInverseFee(t.fee, *t.amount); err != nil {
			return DepositQuote{}, err
		}
		if *t.send, ok = addRates(*t.amount, *t.tf); !ok {
			return DepositQuote{}, ErrOverflow
		}
	}
	// the transfers in: no holder can pay what would take a vault past u64
	if _, fit := addRates(s.Vault0, q.Pay0); !fit {
		return DepositQuote{}, ErrVaultOverflow
	}
	if _, fit := addRates(s.Vault1, q.Pay1); !fit {
		return DepositQuote{}, ErrVaultOverflow
	}
	if _, fit := addRates(q.LPSupply, lp); !fit {
		return DepositQuote{}, ErrOverflow
	}
	return q, nil
}

// Withdraw quotes withdraw of lp LP tokens. It does not check that the owner holds lp. Errors:
// ErrZeroAmount, ErrNotApproved, ErrZeroTradingTokens, ErrOverflow (lp over the supply),
// ErrInsufficientVault, ErrMathOverflow.
func (s *Snapshot) Withdraw(lp uint64) (WithdrawQuote, error) {
	q, err := s.withdraw(lp)
	if err != nil {
		return WithdrawQuote{}, fmt.Errorf("withdraw: %w", err)
	}
	return q, nil
}

func (s *Snapshot) withdraw(lp uint64) (WithdrawQuote, error) {
	if lp == 0 {
		return WithdrawQuote{}, ErrZeroAmount
	}
	if !s.Pool.WithdrawEnabled() {
		return WithdrawQuote{}, ErrNotApproved
	}
	q := WithdrawQuote{LP: lp, LPSupply: s.Pool.LPSupply}
	var err error
	if q.Reserve0, q.Reserve1, err = s.Reserves(); err != nil {
		return WithdrawQuote{}, err
	}
	a0, a1, ok := lpToTokens(lp, q.LPSupply, q.Reserve0, q.Reserve1, false)
	if !ok || a0.Sign() == 0 || a1.Sign() == 0 {
		return WithdrawQuote{}, ErrZeroTradingTokens
	}
	for _, t := range []struct {
		a                    *big.Int
		reserve              uint64
		fee                  *svm.FeeSchedule
		amount, tf, received *uint64
	}{{a0, q.Reserve0, s.TransferFee0, &q.Amount0, &q.TransferFee0, &q.Receive0}, {a1, q.Reserve1, s.TransferFee1, &q.Amount1, &q.TransferFee1, &q.Receive1}} {
		if *t.amount, ok = toU64(t.a); !ok {
			return WithdrawQuote{}, ErrOverflow
		}
		*t.amount = min(*t.amount, t.reserve)
		*t.tf = transferFee(t.fee, *t.amount)
		*t.received = *t.amount - *t.tf
	}
	if lp > q.LPSupply {
		return WithdrawQuote{}, ErrOverflow
	}
	return q, nil
}

// InitializeQuote is what initialize does with its initial amounts.
type InitializeQuote struct {
	// Vault0 and Vault1 reach the vaults: the amounts sent less their Token-2022 transfer fees
	// TransferFee0 and TransferFee1.
	Vault0, Vault1, TransferFee0, TransferFee1 uint64
	// Liquidity is the pool's LP supply: isqrt(Vault0 × Vault1). The creator gets CreatorLP, that
	// less the LockedLP that stay locked.
	Liquidity, CreatorLP uint64
}

// InitialLiquidity quotes initialize with init_amount_0 and init_amount_1 under the mints' transfer fees
// (nil: none). It does not check the mints' extensions or the config. Errors: ErrEmptySupply,
// ErrInitLPTooLess.
func InitialLiquidity(amount0, amount1 uint64, fee0, fee1 *svm.FeeSchedule) (InitializeQuote, error) {
	q := InitializeQuote{TransferFee0: transferFee(fee0, amount0), TransferFee1: transferFee(fee1, amount1)}
	q.Vault0, q.Vault1 = amount0-q.TransferFee0, amount1-q.TransferFee1
	if q.Vault0 == 0 || q.Vault1 == 0 {
		return InitializeQuote{}, fmt.Errorf("initialize: %w", ErrEmptySupply)
	}
	q.Liquidity = new(big.Int).Sqrt(new(big.Int).Mul(big64(q.Vault0), big64(q.Vault1))).Uint64()
	if q.Liquidity < LockedLP {
		return InitializeQuote{}, fmt.Errorf("initialize: %w", ErrInitLPTooLess)
	}
	q.CreatorLP = q.Liquidity - LockedLP
	return q, nil
}
