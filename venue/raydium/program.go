package raydium

import "github.com/partner-platform/partnerd/chain/svm"

// Program ids and fixed accounts CPMM's instructions name.
var (
	// ProgramID is Raydium CPMM's mainnet program id (where the local validator deploys our
	// CPMM-compatible program).
	ProgramID = MustPubkey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C")
	// CreatePoolFeeReceiver is the wrapped-SOL account initialize pays the config's pool creation
	// fee into (CPMM's create_pool_fee_reveiver).
	CreatePoolFeeReceiver = MustPubkey("DNXgeM9EiiaAbaWvwjHj9fQQLAX5ZsfHyvmYUNRAdNC8")
	// Admin is the only key CPMM lets create and update AmmConfigs.
	Admin = MustPubkey("GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ")

	TokenProgram           = Pubkey(svm.TokenProgram)
	Token2022Program       = Pubkey(svm.Token2022Program)
	AssociatedTokenProgram = Pubkey(svm.AssociatedTokenProgram)
	SystemProgram          = Pubkey(svm.SystemProgram)
	// RentSysvar is the Rent sysvar initialize names.
	RentSysvar = MustPubkey("SysvarRent111111111111111111111111111111111")
	// MemoProgram is SPL Memo (v2), which withdraw names.
	MemoProgram = MustPubkey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
)

// CPMM's constants.
const (
	// FeeRateDenominator: AmmConfig's rates are in millionths.
	FeeRateDenominator = 1_000_000
	// LockedLP is the LP initialize mints to nobody: the creator gets the initial liquidity less it.
	LockedLP = 100
	// LPMintDecimals are the LP mint's decimals.
	LPMintDecimals = 9
)

// The seeds of CPMM's program-derived addresses.
const (
	seedAuthority   = "vault_and_lp_mint_auth_seed"
	seedAmmConfig   = "amm_config"
	seedPool        = "pool"
	seedLPMint      = "pool_lp_mint"
	seedVault       = "pool_vault"
	seedObservation = "observation"
)
