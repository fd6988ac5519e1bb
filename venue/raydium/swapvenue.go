package raydium

import (
	"errors"
	"fmt"

	"github.com/partner-platform/partnerd/chain"
)

// Raydium CPMM's swaps as the trade service runs them (chain.SVMSwapVenue): quotes of the pools of
// the pair and of two-hop routes through the middle mints, under each fee tier of DefaultAmmConfigs,
// read with one getMultipleAccounts (PlanQuote), priced with the program's exact math (BestRoute)
// and built as swap_base_input instructions (BuildSwap).

var _ chain.SVMSwapVenue = Venue{}

// DefaultAmmConfigs are the fee tiers a quote considers: the AmmConfigs at CPMM's indexes 0 to 3
// (the tiers the local validator seeds, at their mainnet addresses).
var DefaultAmmConfigs = func() []Pubkey {
	out := make([]Pubkey, 4)
	for i := range out {
		out[i] = AmmConfigAddress(uint16(i))
	}
	return out
}()

// PlanSwap implements chain.SVMSwapVenue. A middle mint that is not an address is left out.
// Errors wrap chain.ErrInvalidRequest (an input or output that is not an address, the same mint
// twice).
func (Venue) PlanSwap(input, output string, mids []string) (chain.SVMSwapPlan, error) {
	in, err := ParsePubkey(input)
	if err != nil {
		return nil, fmt.Errorf("%w: inputMint: %w", chain.ErrInvalidRequest, err)
	}
	out, err := ParsePubkey(output)
	if err != nil {
		return nil, fmt.Errorf("%w: outputMint: %w", chain.ErrInvalidRequest, err)
	}
	var middles []Pubkey
	for _, m := range mids {
		if k, err := ParsePubkey(m); err == nil {
			middles = append(middles, k)
		}
	}
	p, err := PlanQuote(in, out, middles, DefaultAmmConfigs)
	if errors.Is(err, ErrSameMint) {
		return nil, fmt.Errorf("%w: inputMint and outputMint are the same", chain.ErrInvalidRequest)
	}
	if err != nil {
		return nil, err
	}
	return swapPlan{p}, nil
}

// swapPlan is a QuotePlan as a chain.SVMSwapPlan.
type swapPlan struct{ plan *QuotePlan }

func (p swapPlan) Addresses() []string { return p.plan.Addresses }

func (p swapPlan) Mints() []string {
	out := make([]string, len(p.plan.Mints))
	for i, m := range p.plan.Mints {
		out[i] = m.String()
	}
	return out
}

// Best is BestRoute on the pools read; its errors wrap chain.ErrNoRoute (and ErrNoRoute).
func (p swapPlan) Best(accounts []chain.SVMAccount, amountIn uint64) (chain.SVMRoute, error) {
	pools, err := p.plan.Snapshots(accounts)
	if err != nil {
		return chain.SVMRoute{}, err
	}
	r, err := BestRoute(pools, p.plan.Input, p.plan.Output, amountIn, p.plan.Mids)
	if err != nil {
		return chain.SVMRoute{}, fmt.Errorf("%w: %w", chain.ErrNoRoute, err)
	}
	return routeOf(r, pools), nil
}

// Reprice prices r's pools again, in order, on the pools read.
func (p swapPlan) Reprice(accounts []chain.SVMAccount, r chain.SVMRoute, amountIn uint64) (chain.SVMRoute, error) {
	pools, err := p.plan.Snapshots(accounts)
	if err != nil {
		return chain.SVMRoute{}, err
	}
	var out Route
	amount := amountIn
	for _, h := range r.Hops {
		snap, ok := snapshotOf(pools, h.Pool)
		if !ok {
			return chain.SVMRoute{}, fmt.Errorf("pool %s of the quote's route is gone", h.Pool)
		}
		zeroForOne := snap.Pool.Token0Mint.String() == h.InputMint
		q, err := snap.SwapBaseInput(zeroForOne, amount)
		if err != nil {
			return chain.SVMRoute{}, fmt.Errorf("pool %s no longer trades the amount: %w", h.Pool, err)
		}
		out.Hops = append(out.Hops, Hop{Pool: snap.Address, ZeroForOne: zeroForOne, InputMint: MustPubkey(h.InputMint),
			OutputMint: MustPubkey(h.OutputMint), Quote: q})
		amount = q.Received
	}
	return routeOf(out, pools), nil
}

// Build is BuildSwap of r, each hop sending r's AmountIn and the first delivering at least its
// Received (what the second sends).
func (p swapPlan) Build(accounts []chain.SVMAccount, r chain.SVMRoute, user string, minOut uint64, exists func(string) bool) ([]chain.SVMCall, []string, error) {
	payer, err := ParsePubkey(user)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: user: %w", chain.ErrInvalidRequest, err)
	}
	pools, err := p.plan.Snapshots(accounts)
	if err != nil {
		return nil, nil, err
	}
	states := map[Pubkey]PoolState{}
	var route Route
	for _, h := range r.Hops {
		snap, ok := snapshotOf(pools, h.Pool)
		if !ok {
			return nil, nil, ErrRouteState
		}
		states[snap.Address] = snap.Pool
		route.Hops = append(route.Hops, Hop{Pool: snap.Address, ZeroForOne: snap.Pool.Token0Mint.String() == h.InputMint,
			InputMint: MustPubkey(h.InputMint), OutputMint: MustPubkey(h.OutputMint), Quote: SwapQuote{AmountIn: h.AmountIn, Received: h.Received}})
	}
	b, err := BuildSwap(route, states, payer, minOut, func(k Pubkey) bool { return exists(k.String()) })
	if err != nil {
		return nil, nil, err
	}
	calls := make([]chain.SVMCall, len(b.Instructions))
	for i, ix := range b.Instructions {
		calls[i] = ix.Call()
	}
	creates := make([]string, len(b.Creates))
	for i, k := range b.Creates {
		creates[i] = k.String()
	}
	return calls, creates, nil
}

// snapshotOf is the snapshot of the pool at address (base58).
func snapshotOf(pools []PoolSnapshot, address string) (*PoolSnapshot, bool) {
	k, err := ParsePubkey(address)
	if err != nil {
		return nil, false
	}
	return snapshotAt(pools, k)
}

// snapshotAt is the snapshot of the pool at k.
func snapshotAt(pools []PoolSnapshot, k Pubkey) (*PoolSnapshot, bool) {
	for i := range pools {
		if pools[i].Address == k {
			return &pools[i], true
		}
	}
	return nil, false
}

// routeOf is r as the trade service reads it: each hop's fee as Jupiter states it (the trade fee,
// plus the creator fee where the pool takes it from the input, in the input mint).
func routeOf(r Route, pools []PoolSnapshot) chain.SVMRoute {
	out := chain.SVMRoute{PriceImpact: r.PriceImpact()}
	for _, h := range r.Hops {
		snap, _ := snapshotAt(pools, h.Pool)
		d0, d1 := int(snap.Pool.Mint0Decimals), int(snap.Pool.Mint1Decimals)
		if !h.ZeroForOne {
			d0, d1 = d1, d0
		}
		fee := h.Quote.TradeFee
		if h.Quote.CreatorFeeOnInput {
			fee += h.Quote.CreatorFee
		}
		out.Hops = append(out.Hops, chain.SVMHop{Venue: VenueName, Pool: h.Pool.String(), InputMint: h.InputMint.String(),
			OutputMint: h.OutputMint.String(), InputDecimals: d0, OutputDecimals: d1, AmountIn: h.Quote.AmountIn, Received: h.Quote.Received,
			Fee: fee, FeeMint: h.InputMint.String(), TradeFee: h.Quote.TradeFee,
			InputTransferFee: h.Quote.InputTransferFee, OutputTransferFee: h.Quote.OutputTransferFee})
	}
	return out
}
