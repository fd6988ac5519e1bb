package raydium

import "errors"

// Errors of the math: each is a failure of the on-chain program on the same state, so a quote
// fails where the transaction would. The comment names the program's error.
var (
	// ErrZeroAmount: an amount the program requires positive is zero: the swap input left after
	// the input's transfer fee, the swap output received after the output's transfer fee, the
	// input base output needs, or an LP amount (Anchor's RequireGtViolated, 2505).
	ErrZeroAmount = errors.New("raydium: the amount is zero")
	// ErrZeroTradingTokens: the curve has no figure (a zero fee-rate sum to split, a figure
	// past the curve's bounds) or an LP amount converts to zero of a token (ZeroTradingTokens, 6006).
	ErrZeroTradingTokens = errors.New("raydium: the amount gives zero trading tokens")
	// ErrOverflow: a figure leaves u64 where the program casts it, or u128 inside the curve, or an
	// output reaches the reserve: the program aborts (a Rust panic; Solana's
	// ProgramFailedToComplete).
	ErrOverflow = errors.New("raydium: a figure leaves the program's integer bounds")
	// ErrVaultOverflow: a vault would hold more than u64 allows, so no holder can pay it (a
	// mint's supply is a u64): the token program refuses the transfer.
	ErrVaultOverflow = errors.New("raydium: the vault would pass u64")
	// ErrInsufficientVault: a vault holds less than the fees owed from it (InsufficientVault, 6012).
	ErrInsufficientVault = errors.New("raydium: a vault holds less than the fees owed")
	// ErrMathOverflow: the fees owed of one token overflow u64 (MathOverflow, 6011).
	ErrMathOverflow = errors.New("raydium: the fees owed overflow")
	// ErrInvalidFeeModel: the pool's creator_fee_on is not 0, 1 or 2 (InvalidFeeModel, 6013).
	ErrInvalidFeeModel = errors.New("raydium: invalid creator fee mode")
	// ErrTransferFeeMismatch: Token-2022's inverse transfer fee does not give back the fee
	// (TransferFeeCalculateNotMatch, 6010).
	ErrTransferFeeMismatch = errors.New("raydium: the transfer fee does not invert")
	// ErrNotApproved: the pool has the operation disabled, is not open yet, or its config
	// disables pool creation (NotApproved, 6000).
	ErrNotApproved = errors.New("raydium: the pool does not allow this now")
	// ErrEmptySupply: initialize leaves a vault empty (EmptySupply, 6002).
	ErrEmptySupply = errors.New("raydium: a vault would be empty")
	// ErrInitLPTooLess: the initial liquidity is under the 100 LP that stay locked
	// (InitLpAmountTooLess, 6009).
	ErrInitLPTooLess = errors.New("raydium: the initial liquidity is under the locked 100 LP")
	// ErrUnsortedMints: initialize's token 0 mint is not before token 1's (Anchor's
	// ConstraintRaw, 2003).
	ErrUnsortedMints = errors.New("raydium: token 0's mint must sort before token 1's")
	// ErrLayout: account data is not the layout it is decoded as: wrong owner discriminator,
	// too short, or an invalid Borsh value.
	ErrLayout = errors.New("raydium: account data does not match the layout")
)
