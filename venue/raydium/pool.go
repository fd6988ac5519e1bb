package raydium

import "fmt"

// PoolStateSize is a PoolState account's size: its discriminator and the packed struct.
const PoolStateSize = 637

// Pool status bits: a set bit disables the operation.
const (
	StatusDepositDisabled  = 1 << 0
	StatusWithdrawDisabled = 1 << 1
	StatusSwapDisabled     = 1 << 2
)

// Creator fee modes (PoolState.CreatorFeeOn): which token the creator fee is taken in.
const (
	CreatorFeeBothTokens = 0 // on whatever the swap's input is
	CreatorFeeOnlyToken0 = 1
	CreatorFeeOnlyToken1 = 2
)

// PoolState is a CPMM pool (states/pool.rs, a packed zero-copy account).
type PoolState struct {
	AmmConfig      Pubkey
	PoolCreator    Pubkey
	Token0Vault    Pubkey
	Token1Vault    Pubkey
	LPMint         Pubkey
	Token0Mint     Pubkey
	Token1Mint     Pubkey
	Token0Program  Pubkey
	Token1Program  Pubkey
	ObservationKey Pubkey
	AuthBump       uint8
	Status         uint8 // Status* bits
	LPMintDecimals uint8
	Mint0Decimals  uint8
	Mint1Decimals  uint8
	LPSupply       uint64 // the LP in circulation plus the 100 locked at initialize
	// Fees owed, held in the vaults but not the pool's: the curve leaves them out.
	ProtocolFeesToken0 uint64
	ProtocolFeesToken1 uint64
	FundFeesToken0     uint64
	FundFeesToken1     uint64
	OpenTime           uint64 // unix seconds from which swaps are allowed
	RecentEpoch        uint64
	CreatorFeeOn       uint8 // CreatorFee* mode
	EnableCreatorFee   bool
	CreatorFeesToken0  uint64
	CreatorFeesToken1  uint64
}

// DecodePoolState decodes a PoolState account's data. Errors wrap ErrLayout.
func DecodePoolState(data []byte) (PoolState, error) {
	r, err := account("PoolState", data, PoolStateDiscriminator, PoolStateSize)
	if err != nil {
		return PoolState{}, err
	}
	var p PoolState
	for _, k := range []*Pubkey{&p.AmmConfig, &p.PoolCreator, &p.Token0Vault, &p.Token1Vault, &p.LPMint,
		&p.Token0Mint, &p.Token1Mint, &p.Token0Program, &p.Token1Program, &p.ObservationKey} {
		*k = r.key()
	}
	p.AuthBump, p.Status, p.LPMintDecimals, p.Mint0Decimals, p.Mint1Decimals = r.u8(), r.u8(), r.u8(), r.u8(), r.u8()
	for _, v := range []*uint64{&p.LPSupply, &p.ProtocolFeesToken0, &p.ProtocolFeesToken1, &p.FundFeesToken0,
		&p.FundFeesToken1, &p.OpenTime, &p.RecentEpoch} {
		*v = r.u64()
	}
	p.CreatorFeeOn = r.u8()
	p.EnableCreatorFee = r.u8() != 0 // a zero-copy bool, read as the program reads it
	r.skip(6)                        // padding1
	p.CreatorFeesToken0 = r.u64()
	p.CreatorFeesToken1 = r.u64()
	return p, nil // then padding: [u64; 28]
}

// Owed0 and Owed1 are the fees owed of each token (protocol, fund and creator), as
// vault_amount_without_fee sums them; ErrMathOverflow where the sum overflows.
func (p *PoolState) owed() (o0, o1 uint64, err error) {
	s0, ok0 := addRates(p.ProtocolFeesToken0, p.FundFeesToken0)
	s0, ok0b := addRates(s0, p.CreatorFeesToken0)
	s1, ok1 := addRates(p.ProtocolFeesToken1, p.FundFeesToken1)
	s1, ok1b := addRates(s1, p.CreatorFeesToken1)
	if !ok0 || !ok0b || !ok1 || !ok1b {
		return 0, 0, ErrMathOverflow
	}
	return s0, s1, nil
}

// Reserves are the pool's token amounts as its curve sees them: the vault balances less the fees
// owed from them (CPMM's vault_amount_without_fee). Errors: ErrMathOverflow, ErrInsufficientVault.
func (p *PoolState) Reserves(vault0, vault1 uint64) (reserve0, reserve1 uint64, err error) {
	o0, o1, err := p.owed()
	if err != nil {
		return 0, 0, err
	}
	if vault0 < o0 || vault1 < o1 {
		return 0, 0, ErrInsufficientVault
	}
	return vault0 - o0, vault1 - o1, nil
}

// CreatorFeeOnInput reports whether a swap in this direction takes the creator fee from its input
// (else from its output), as CPMM's is_creator_fee_on_input decides. Errors: ErrInvalidFeeModel.
func (p *PoolState) CreatorFeeOnInput(zeroForOne bool) (bool, error) {
	switch p.CreatorFeeOn {
	case CreatorFeeBothTokens:
		return true, nil
	case CreatorFeeOnlyToken0:
		return zeroForOne, nil
	case CreatorFeeOnlyToken1:
		return !zeroForOne, nil
	}
	return false, fmt.Errorf("%w: %d", ErrInvalidFeeModel, p.CreatorFeeOn)
}

// SwapRates are the rates a swap in this direction uses under config: the creator rate only where
// the pool enables the creator fee (CPMM's adjust_creator_fee_rate). Errors: ErrInvalidFeeModel.
func (p *PoolState) SwapRates(config *AmmConfig, zeroForOne bool) (SwapRates, error) {
	onInput, err := p.CreatorFeeOnInput(zeroForOne)
	if err != nil {
		return SwapRates{}, err
	}
	r := SwapRates{Trade: config.TradeFeeRate, Protocol: config.ProtocolFeeRate, Fund: config.FundFeeRate, CreatorFeeOnInput: onInput}
	if p.EnableCreatorFee {
		r.Creator = config.CreatorFeeRate
	}
	return r, nil
}

// SwapEnabled, DepositEnabled and WithdrawEnabled read the pool's status bits.
func (p *PoolState) SwapEnabled() bool     { return p.Status&StatusSwapDisabled == 0 }
func (p *PoolState) DepositEnabled() bool  { return p.Status&StatusDepositDisabled == 0 }
func (p *PoolState) WithdrawEnabled() bool { return p.Status&StatusWithdrawDisabled == 0 }
