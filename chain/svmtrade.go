package chain

import (
	"errors"
	"math/big"
)

// How a Solana venue quotes and builds swaps and liquidity for the trade service. The venue plans
// what to read (its pools and the accounts their state needs, derived without a lookup), prices
// routes with its exact math on what was read, and builds the instructions; the trade service reads
// (with the chain's adapter, in one round trip), seals quotes, simulates and assembles the build. A
// Solana venue is then its package plus its registration: the trade service names none. Amounts
// are base units (a token amount is a u64 on Solana); addresses are base58.

// Errors a venue's plans and builds wrap, so that the trade service answers them without knowing
// the venue: 400 invalid_request, 404 not_found, 400 operation_not_supported, 422
// prerequisite_failed, 404 no_route (and ErrInvalidAmount: 400 invalid_amount).
var (
	ErrInvalidRequest = errors.New("invalid request")
	ErrNotFound       = errors.New("not found")
	ErrNotSupported   = errors.New("operation not supported")
	ErrPrerequisite   = errors.New("prerequisite failed")
	ErrNoRoute        = errors.New("no route")
)

// SVMSwapVenue is a Solana venue's swaps (venue/raydium implements it).
type SVMSwapVenue interface {
	Venue
	// PlanSwap plans the quotes of input for output (mints) through the venue's pools: directly,
	// or in two hops through one of mids (such as wrapped SOL and the USD stablecoins). A plan
	// depends on its arguments only: a caller may keep it for the pair. Errors wrap
	// ErrInvalidRequest (the same mint twice, an address that is not one).
	PlanSwap(input, output string, mids []string) (SVMSwapPlan, error)
}

// SVMSwapPlan is what the quotes of one pair on one venue read, and how they are priced and built.
type SVMSwapPlan interface {
	// Addresses are the accounts to read, all at one slot (one getMultipleAccounts).
	Addresses() []string
	// Mints are the mints a route of the plan may send or receive (a build reads the user's token
	// accounts of them).
	Mints() []string
	// Best is the route that delivers the most output for amountIn of the input, on accounts (the
	// state of Addresses, in its order). Errors wrap ErrNoRoute when no pool or pair of pools
	// trades the amount.
	Best(accounts []SVMAccount, amountIn uint64) (SVMRoute, error)
	// Reprice is route r (its pools and mints, in order) priced again on accounts, the first hop
	// sending amountIn and each next one what the one before delivers. Errors: a pool of r is
	// gone, or no longer trades the amount.
	Reprice(accounts []SVMAccount, r SVMRoute, amountIn uint64) (SVMRoute, error)
	// Build is the instructions that trade r for user with each hop sending r's AmountIn and the
	// last delivering at least minOut: the user's token accounts created where missing (exists
	// says which accounts exist), wrapped SOL paid and received as SOL. Creates lists the accounts
	// the transaction creates and keeps (each holds a rent deposit).
	Build(accounts []SVMAccount, r SVMRoute, user string, minOut uint64, exists func(address string) bool) (calls []SVMCall, creates []string, err error)
}

// SVMRoute is an exact-input trade through one or two pools of a venue.
type SVMRoute struct {
	Hops []SVMHop
	// PriceImpact is how much less than the pools' mid price the route delivers, as a fraction,
	// every fee counted; nil when a pool has no price.
	PriceImpact *big.Rat
}

// SVMHop is one swap of a route, as its venue's exact math prices it.
type SVMHop struct {
	Venue, Pool           string
	InputMint, OutputMint string
	// InputDecimals and OutputDecimals are the mints' decimals.
	InputDecimals, OutputDecimals int
	// AmountIn is what the hop is sent; Received is what the user's account of the output (or the
	// next hop) receives, transfer fees withheld.
	AmountIn, Received uint64
	// Fee is the pool's fee as Jupiter's feeAmount states it, in FeeMint; TradeFee is the pool's
	// trade fee, in the input mint (a build's venue fee row).
	Fee      uint64
	FeeMint  string
	TradeFee uint64
	// InputTransferFee and OutputTransferFee are Token-2022 transfer fees withheld from the input
	// sent and from the output paid.
	InputTransferFee, OutputTransferFee uint64
}

// AmountIn is what the route is sent.
func (r SVMRoute) AmountIn() uint64 { return r.Hops[0].AmountIn }

// Received is what the user receives at the end of the route.
func (r SVMRoute) Received() uint64 { return r.Hops[len(r.Hops)-1].Received }
