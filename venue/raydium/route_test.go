package raydium

import (
	"errors"
	"testing"
)

// routePool is an open CPMM pool of a and b (token 0 the lower key) with reserves ra and rb, at a
// trade fee rate in millionths, without owed fees.
func routePool(addr byte, a, b Pubkey, ra, rb, tradeFeeRate uint64) PoolSnapshot {
	if b.Less(a) {
		a, b, ra, rb = b, a, rb, ra
	}
	return PoolSnapshot{Address: Pubkey{addr}, Snapshot: Snapshot{
		Pool:   PoolState{Token0Mint: a, Token1Mint: b, LPSupply: 1_000_000},
		Config: AmmConfig{TradeFeeRate: tradeFeeRate, ProtocolFeeRate: 120_000, FundFeeRate: 40_000},
		Vault0: ra, Vault1: rb, Now: 1,
	}}
}

// TestBestRoute: the route that delivers most wins, direct or through a middle token, each hop
// quoted exactly as SwapBaseInput quotes it, the second hop spending what the first delivered.
func TestBestRoute(t *testing.T) {
	x, y, sol, usdc := Pubkey{1}, Pubkey{2}, Pubkey{3}, Pubkey{4}
	shallow := routePool(10, x, y, 1_000_000, 1_000_000, 2500)
	deepViaSOL := []PoolSnapshot{routePool(11, x, sol, 1e12, 1e12, 2500), routePool(12, sol, y, 1e12, 1e12, 2500)}
	other := routePool(13, usdc, sol, 1e12, 1e12, 2500) // not on any x -> y route

	pools := append([]PoolSnapshot{shallow, other}, deepViaSOL...)
	r, err := BestRoute(pools, x, y, 500_000, []Pubkey{sol, usdc})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Hops) != 2 || r.Hops[0].Pool != (Pubkey{11}) || r.Hops[1].Pool != (Pubkey{12}) {
		t.Fatalf("a large trade: route %+v, want the deep two-hop route through SOL", r.Hops)
	}
	first, _ := pools[2].SwapBaseInput(pools[2].Pool.Token0Mint == x, 500_000)
	second, _ := pools[3].SwapBaseInput(pools[3].Pool.Token0Mint == sol, first.Received)
	if r.Received() != second.Received || r.AmountIn() != 500_000 || r.Hops[1].Quote.AmountIn != first.Received {
		t.Errorf("received %d, the chained quotes give %d", r.Received(), second.Received)
	}

	// A small trade pays one fee rather than two: the direct pool wins.
	r, err = BestRoute(pools, x, y, 1_000, []Pubkey{sol, usdc})
	if err != nil || len(r.Hops) != 1 || r.Hops[0].Pool != (Pubkey{10}) {
		t.Fatalf("a small trade: route %+v %v, want the direct pool", r.Hops, err)
	}
	if imp := r.PriceImpact(); imp == nil || imp.Sign() <= 0 {
		t.Errorf("price impact %v, want positive (fees and the curve)", imp)
	}

	// A middle token equal to an end is not a middle; reversed direction works too.
	r, err = BestRoute(pools, y, sol, 1_000, []Pubkey{sol})
	if err != nil || len(r.Hops) != 1 || r.Hops[0].Pool != (Pubkey{12}) || r.Hops[0].ZeroForOne != (pools[3].Pool.Token0Mint == y) {
		t.Fatalf("y -> SOL: %+v %v", r.Hops, err)
	}

	// No pool of the pair: ErrNoRoute; a pool that cannot trade the amount: ErrNoRoute with the cause.
	if _, err := BestRoute(pools, x, Pubkey{9}, 1_000, []Pubkey{sol}); !errors.Is(err, ErrNoRoute) {
		t.Errorf("no pool: %v", err)
	}
	closed := routePool(14, x, Pubkey{9}, 1e9, 1e9, 2500)
	closed.Pool.OpenTime = 5
	if _, err := BestRoute([]PoolSnapshot{closed}, x, Pubkey{9}, 1_000, nil); !errors.Is(err, ErrNoRoute) || !errors.Is(err, ErrNotApproved) {
		t.Errorf("a pool not open yet: %v", err)
	}
}
