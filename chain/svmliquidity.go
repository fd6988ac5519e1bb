package chain

// How a Solana venue builds liquidity for the trade service: the creation of a pool funded at once,
// a deposit into a pool and a withdrawal from it. The venue checks the request, plans what the
// build reads (the pool, its vaults and mints, the user's accounts: all derived without a lookup)
// and builds from what was read: the amounts, the instructions, its fee rows and its figures. The
// trade service resolves the venue and the pool's mints, reads and simulates with the chain's
// adapter, prices the transaction and issues the build. Its errors are the chain package's
// (ErrInvalidRequest, ErrInvalidAmount, ErrNotFound, ErrNotSupported, ErrPrerequisite), so that
// the service answers a venue's without knowing it.

// The operations of an SVMLiquidityRequest (Op).
const (
	LiquidityCreate = "create" // create a pool of TokenA and TokenB, funded with AmountA and AmountB
	LiquidityAdd    = "add"    // deposit at most AmountA and AmountB into Pool
	LiquidityRemove = "remove" // withdraw Bps of the user's LP of Pool
)

// The kinds of an SVMFee.
const (
	SVMFeeVenue    = "venue"        // the venue's own fee (such as a pool creation fee)
	SVMFeeTransfer = "transfer_fee" // a Token-2022 transfer fee withheld from an amount, in the token
)

// SVMLiquidityVenue is a Solana venue's liquidity builds (venue/raydium implements it).
type SVMLiquidityVenue interface {
	Venue
	// PoolMints reads the mints of one of the venue's pools from its account (read on the chain
	// called chainName). Errors wrap ErrNotFound when the account holds none of the venue's pools.
	PoolMints(chainName string, pool SVMAccount) (mint0, mint1 string, err error)
	// PlanLiquidity checks r and plans its build: what it reads and how it builds from what was
	// read. Errors wrap ErrInvalidRequest, ErrInvalidAmount or ErrNotSupported.
	PlanLiquidity(r SVMLiquidityRequest) (SVMLiquidityPlan, error)
}

// SVMLiquidityRequest is a liquidity build as the API gives it: amounts in human units, addresses
// base58, unchecked.
type SVMLiquidityRequest struct {
	Op    string // LiquidityCreate, LiquidityAdd or LiquidityRemove
	Chain string // the chain's name, for errors
	User  string // signs and pays
	Pool  string // add, remove: the pool's address
	// TokenA and TokenB are the request's tokens as mints (wrapped SOL for the native coin), ""
	// when not given: create's two tokens; on add and remove, the pool's mints in either order
	// (on add, AmountA is of TokenA and AmountB of TokenB).
	TokenA, TokenB string
	// Mint0 and Mint1 are the pool's mints as the caller resolved them (its index, or PoolMints)
	// when the request names no tokens (add, remove); AmountA is then of the pool's token 0 and
	// AmountB of its token 1.
	Mint0, Mint1     string
	AmountA, AmountB string // create, add: human token units
	Bps              int    // remove: the share of the user's LP to withdraw, 1 to 10000
	SlippageBps      int    // add, remove: 0 to 9999
	FeeTier          int    // create: the venue's fee tier (its index)
}

// SVMLiquidityPlan is what a liquidity build reads, and how it builds from what was read.
type SVMLiquidityPlan interface {
	// Reads are the accounts to read with the blockhash, all at one slot (the user's wallet
	// included).
	Reads() []string
	// Writable are accounts the transaction writes, whose recent priority fees price it.
	Writable() []string
	// Observe are the accounts whose lamports after the simulation the build needs (those it
	// creates: their rent).
	Observe() []string
	// Build is the build from the accounts read (by address; Exists false for none) at slot.
	// Errors wrap the chain package's errors (ErrNotFound: no such pool; ErrPrerequisite:
	// balances short of what the build sends).
	Build(state map[string]SVMAccount, slot uint64) (SVMLiquidityBuild, error)
}

// SVMLiquidityBuild is a liquidity build's transaction as the venue makes it.
type SVMLiquidityBuild struct {
	Calls []SVMCall
	// Creates are the accounts the transaction creates and keeps (each holds a rent deposit; they
	// are among the plan's Observe).
	Creates []string
	// Fees are the venue's fee rows (SVMFeeVenue) and the Token-2022 transfer fees (SVMFeeTransfer).
	Fees []SVMFee
	// Metadata are the venue's figures of the build (the pool, its mints, the amounts ...), as the
	// API answers them.
	Metadata map[string]any
}

// SVMFee is a fee row of a Solana venue's build: Amount base units of Token (a mint, or Native for
// SOL) with its Decimals; Bps the rate, where it has one (a transfer fee); Venue and Pool for a
// venue's fee.
type SVMFee struct {
	Kind, Token string
	Amount      uint64
	Decimals    int
	Bps         int
	Venue, Pool string
}
