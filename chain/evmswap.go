package chain

import "math/big"

// What an EVM venue gives swap quotes and builds: its candidate pools between two tokens (derived
// offline), each pool priced exactly from the state read in the quote's one round trip, and the
// router call that executes a route. The trade service takes it from every configured venue that
// implements it and serves swaps, so an EVM venue is wired by its registration alone.

// EVMPoolModel is how an EVM pool is read and priced.
type EVMPoolModel int

// Pool models.
const (
	// EVMPair is a Uniswap V2 style pair: two reserves (a PairState).
	EVMPair EVMPoolModel = iota + 1
	// EVMConcentrated is a Uniswap V3 style pool: slot0, in-range liquidity and the initialized
	// ticks near the price (a V3PoolState).
	EVMConcentrated
)

// EVMSwapPool is a pool a route may take between two tokens, as its venue derives it offline.
type EVMSwapPool struct {
	Venue   string // the venue's name
	Address string // canonical
	Model   EVMPoolModel
	// FeePips is the pool's swap fee in pips (hundredths of a basis point): a pair's configured
	// fee, a concentrated pool's fee tier (its address is derived with it).
	FeePips int
	// TickSpacing is a concentrated pool's tick spacing (its fee tier's); 0 for a pair.
	TickSpacing int
}

// FeeBps is the pool's fee in basis points, rounded down (a 0.01 % tier is 1).
func (p EVMSwapPool) FeeBps() int { return p.FeePips / 100 }

// EVMPoolState is a candidate pool as read at one block: Pair for an EVMPair pool, V3 for an
// EVMConcentrated one.
type EVMPoolState struct {
	Pair *PairState
	V3   *V3PoolState
}

// EVMHop is a pool priced for a swap in one direction.
type EVMHop interface {
	// AmountOut is the exact output of the pool for an exact input amountIn, as the pool computes
	// it; an error when the pool cannot fill all of it (too small to buy a unit, not enough
	// liquidity, or a concentrated pool's swap leaving the ticks read).
	AmountOut(amountIn *big.Int) (*big.Int, error)
	// MidPrice is the pool's price before fees: base units of the output token per base unit of
	// the input token, for a swap's price impact.
	MidPrice() *big.Rat
}

// EVMSwapRoute is a route to execute: its pools in order, the tokens it passes (Path[0] the input,
// the wrapped native token for a native end), the exact input and the minimum the recipient must
// receive.
type EVMSwapRoute struct {
	Pools     []EVMSwapPool
	Path      []string // len(Pools)+1 canonical token addresses
	AmountIn  *big.Int
	MinOut    *big.Int
	Recipient string
	// NativeIn pays the input in the native coin (the call's value), NativeOut pays the output in
	// it: the router wraps and unwraps.
	NativeIn, NativeOut bool
	// FeeOnTransfer says a token of the route keeps part of each transfer: the router must check
	// MinOut against what arrives.
	FeeOnTransfer bool
	Deadline      int64 // Unix seconds
}

// EVMCall is a call a build makes: its target, calldata and native value (nil for none).
type EVMCall struct {
	To    string
	Data  []byte
	Value *big.Int
}

// EVMSwapVenue is an EVM venue's swaps.
type EVMSwapVenue interface {
	Venue
	// SwapPools are the venue's pools between tokens a and b on a chain configured as cfg (one
	// pair, or one pool per fee tier), derived offline: they may not exist.
	SwapPools(cfg VenueConfig, a, b string) ([]EVMSwapPool, error)
	// Hop prices pool, read as st, for selling tokenIn; ok is false when the pool is not live.
	Hop(pool EVMSwapPool, st EVMPoolState, tokenIn string) (hop EVMHop, ok bool)
	// Executes reports whether the venue's router (cfg.Router) executes a route through pools, with
	// a fee-on-transfer token when feeOnTransfer: every pool must be one it reaches.
	Executes(cfg VenueConfig, pools []EVMSwapPool, feeOnTransfer bool) bool
	// SwapCall is the call of the venue's router that executes r, a route it Executes.
	SwapCall(cfg VenueConfig, r EVMSwapRoute) EVMCall
}

// EVMSwap returns the EVM swap venues of a chain's configuration, sorted by name, with their
// configuration.
func (s VenueSet) EVMSwap(cc ChainConfig) (venues []EVMSwapVenue, configs []VenueConfig) {
	return configuredAs[EVMSwapVenue](s, cc)
}
