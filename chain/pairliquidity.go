package chain

import "math/big"

// Liquidity on constant-product pairs with a fungible LP token (Uniswap V2 and its forks): a venue
// that implements PairLiquidityVenue gives LP builds the exact math of its router and pairs and
// their calls, and the calls of its farms (StakingRewards contracts listed by cfg's
// StakingRewardsFactory); the trade service reads the state (EVMTradeRead), checks balances,
// simulates and issues the build. Addresses are canonical; amounts are base units; [2] arrays are
// in the pair's token0, token1 order.

// PairDeposit is what a deposit of desired amounts takes at a pair's state: the amounts the router
// takes (at most the desired ones) and the LP the pair mints for them.
type PairDeposit struct {
	Amounts [2]*big.Int
	LP      *big.Int
}

// PairLiquidity is a router deposit or withdrawal.
type PairLiquidity struct {
	Token0, Token1 string
	// Amounts are a deposit's amounts (taken whole at the read state); nil for a withdrawal.
	Amounts [2]*big.Int
	// LP is the LP a withdrawal burns; nil for a deposit.
	LP        *big.Int
	Mins      [2]*big.Int
	Native    int // the side paid or received in the gas coin (0 or 1), or -1 for none
	Recipient string
	Deadline  int64 // Unix seconds
}

// PairLiquidityVenue is an EVM venue of constant-product pairs whose liquidity is built through
// its router (cfg.Router).
type PairLiquidityVenue interface {
	EVMSwapVenue
	// LPDecimals is the decimals of the venue's LP tokens.
	LPDecimals() int
	// PairAddress is the venue's pair of tokens a and b on a chain configured as cfg, derived
	// offline (it may not exist).
	PairAddress(cfg VenueConfig, a, b string) (string, error)
	// CreatePairCall creates the pair of a and b.
	CreatePairCall(cfg VenueConfig, a, b string) EVMCall
	// Deposit is what the router takes of desired amounts at the pair's state p and the LP it
	// mints; first is the index of the router call's first token (the one that is not paid in the
	// gas coin), in whose order the router computes. Errors wrap ErrInvalidAmount (nothing to
	// mint) or ErrInvalid (a pair that cannot take liquidity).
	Deposit(p PairState, desired [2]*big.Int, first int) (PairDeposit, error)
	// Withdrawal is what burning lp of the pair at state p pays, rounded down.
	Withdrawal(p PairState, lp *big.Int) [2]*big.Int
	// ZapSwapAmount is the share of amount, of a pair token with reserve r, to swap through the
	// pair for the other token so that what is left and what the swap gives deposit whole at the
	// pair's ratio after the swap.
	ZapSwapAmount(amount, r *big.Int, feeBps int) *big.Int
	// AddLiquidityCall deposits d through the router.
	AddLiquidityCall(cfg VenueConfig, d PairLiquidity) EVMCall
	// RemoveLiquidityCall withdraws d through the router (the LP approved to it first).
	RemoveLiquidityCall(cfg VenueConfig, d PairLiquidity) EVMCall
	// StakeCall stakes amount of LP in farm; UnstakeCall withdraws it; ClaimCall claims the
	// rewards earned.
	StakeCall(farm string, amount *big.Int) EVMCall
	UnstakeCall(farm string, amount *big.Int) EVMCall
	ClaimCall(farm string) EVMCall
}

// PairLiquidity returns the pair liquidity venues of a chain's configuration, sorted by name, with
// their configuration.
func (s VenueSet) PairLiquidity(cc ChainConfig) (venues []PairLiquidityVenue, configs []VenueConfig) {
	return configuredAs[PairLiquidityVenue](s, cc)
}
