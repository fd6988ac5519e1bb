package raydium

import (
	"errors"
	"fmt"
	"math/big"
)

// PoolSnapshot is a pool at its address, as one read of the chain saw it.
type PoolSnapshot struct {
	Address Pubkey
	Snapshot
}

// Hop is one swap of a route: swap_base_input through Pool, ZeroForOne saying its direction, with
// the exact quote on the state the route was computed on.
type Hop struct {
	Pool       Pubkey
	ZeroForOne bool
	InputMint  Pubkey
	OutputMint Pubkey
	Quote      SwapQuote
}

// Route is an exact-input trade through one or two pools: the first hop's Received is the second
// hop's AmountIn (what the payer's account of the middle token receives is what it sends on).
type Route struct {
	Hops []Hop
}

// AmountIn is what the payer sends into the route.
func (r Route) AmountIn() uint64 { return r.Hops[0].Quote.AmountIn }

// Received is what the payer receives at the end of the route, transfer fees withheld.
func (r Route) Received() uint64 { return r.Hops[len(r.Hops)-1].Quote.Received }

// MidPrice is the route's price before it trades: output base units per input base unit, the
// product of its hops' curve prices.
func (r Route) MidPrice() *big.Rat {
	p := new(big.Rat).SetInt64(1)
	for _, h := range r.Hops {
		m := h.Quote.MidPrice()
		if m == nil {
			return nil
		}
		p.Mul(p, m)
	}
	return p
}

// PriceImpact is how much less than the mid price the route delivers, as a fraction, with every
// fee counted: 1 − Received / (MidPrice × AmountIn).
func (r Route) PriceImpact() *big.Rat {
	mid := r.MidPrice()
	if mid == nil || r.AmountIn() == 0 {
		return nil
	}
	quoted := new(big.Rat).Mul(mid, new(big.Rat).SetInt(big64(r.AmountIn())))
	got := new(big.Rat).SetInt(big64(r.Received()))
	return new(big.Rat).Quo(new(big.Rat).Sub(quoted, got), quoted)
}

// ErrNoRoute is returned by BestRoute when no candidate pool, alone or with another through a
// middle token, trades the input for the output (none exists, or every one fails the amount).
var ErrNoRoute = errors.New("raydium: no route")

// BestRoute is the route that delivers the most of output for amountIn of input, among the direct
// pools of the pair and the two-hop routes through each of mids (such as SOL and USDC), each hop
// quoted exactly as CPMM's swap_base_input computes it on the pools' snapshots. A pool appears in
// a route at most once. Ties go to the fewer hops, then to the earlier pool in pools. When no
// route can trade the amount, the error is ErrNoRoute wrapping the first hop failure seen (such
// as ErrZeroTradingTokens for an amount too small, or ErrNotApproved for a pool not open yet).
func BestRoute(pools []PoolSnapshot, input, output Pubkey, amountIn uint64, mids []Pubkey) (Route, error) {
	var best Route
	var firstErr error
	consider := func(r Route, err error) {
		switch {
		case err != nil:
			if firstErr == nil {
				firstErr = err
			}
		case best.Hops == nil || r.Received() > best.Received():
			best = r
		}
	}
	for i := range pools {
		if h, ok, err := hop(&pools[i], input, output, amountIn); ok {
			consider(Route{Hops: []Hop{h}}, err)
		}
	}
	for _, mid := range mids {
		if mid == input || mid == output {
			continue
		}
		for i := range pools {
			for j := range pools {
				if i == j {
					continue
				}
				first, ok, err := hop(&pools[i], input, mid, amountIn)
				if !ok {
					continue
				}
				if err != nil {
					consider(Route{}, err)
					continue
				}
				second, ok, err := hop(&pools[j], mid, output, first.Quote.Received)
				if ok {
					consider(Route{Hops: []Hop{first, second}}, err)
				}
			}
		}
	}
	if best.Hops == nil {
		if firstErr != nil {
			return Route{}, fmt.Errorf("%w: %w", ErrNoRoute, firstErr)
		}
		return Route{}, ErrNoRoute
	}
	return best, nil
}

// hop quotes amountIn of input for output through p; ok is false when p is not a pool of the pair.
func hop(p *PoolSnapshot, input, output Pubkey, amountIn uint64) (h Hop, ok bool, err error) {
	m0, m1 := p.Pool.Token0Mint, p.Pool.Token1Mint
	if !(m0 == input && m1 == output) && !(m1 == input && m0 == output) {
		return Hop{}, false, nil
	}
	zeroForOne := m0 == input
	q, err := p.SwapBaseInput(zeroForOne, amountIn)
	if err != nil {
		return Hop{}, true, fmt.Errorf("pool %s: %w", p.Address, err)
	}
	return Hop{Pool: p.Address, ZeroForOne: zeroForOne, InputMint: input, OutputMint: output, Quote: q}, true, nil
}
