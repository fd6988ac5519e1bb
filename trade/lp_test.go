package trade

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
)

// TestAddAmountsFixedPoint: the amounts addAmounts asks for are what Router02's _addLiquidity
// takes of them, in the call's token order (token0 first for addLiquidity, the token first for
// addLiquidityETH), never more than desired, and into an empty pool the desired amounts unchanged.
func TestAddAmountsFixedPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	num := func() *big.Int {
		n := new(big.Int).Lsh(big.NewInt(rng.Int64N(1<<40)+1), uint(rng.IntN(60)))
		return n.Add(n, big.NewInt(rng.Int64N(1000)))
	}
	for i := range 20_000 {
		p := evm.PoolState{Reserve0: num(), Reserve1: num()}
		desired := [2]*big.Int{num(), num()}
		first := i % 2
		used := addAmounts(desired, p, first)
		if used[0].Cmp(desired[0]) > 0 || used[1].Cmp(desired[1]) > 0 {
			t.Fatalf("used %v of desired %v", used, desired)
		}
		a, b, ra, rb := used[0], used[1], p.Reserve0, p.Reserve1
		if first == 1 {
			a, b, ra, rb = b, a, rb, ra
		}
		ga, gb := routerAdd(a, b, ra, rb)
		if ga.Cmp(a) != 0 || gb.Cmp(b) != 0 {
			t.Fatalf("reserves %s/%s, first %d: the router takes %s/%s of the %s/%s asked", ra, rb, first, ga, gb, a, b)
		}
	}
	empty := evm.PoolState{Reserve0: new(big.Int), Reserve1: new(big.Int)}
	if used := addAmounts([2]*big.Int{big.NewInt(7), big.NewInt(9)}, empty, 0); used[0].Int64() != 7 || used[1].Int64() != 9 {
		t.Fatalf("into an empty pool: %v", used)
	}
}

// TestLPMinted: the pair's mint formula, and nothing minted is ErrInvalidAmount.
func TestLPMinted(t *testing.T) {
	first := evm.PoolState{Reserve0: new(big.Int), Reserve1: new(big.Int), TotalSupply: new(big.Int)}
	if lp, err := lpMinted([2]*big.Int{big.NewInt(4_000_000), big.NewInt(1_000_000)}, first); err != nil || lp.Int64() != 2_000_000-1000 {
		t.Fatalf("first mint: %v %v", lp, err)
	}
	if _, err := lpMinted([2]*big.Int{big.NewInt(1000), big.NewInt(1000)}, first); !errors.Is(err, ErrInvalidAmount) {
		t.Fatalf("a first mint of sqrt 1000: %v", err)
	}
	p := evm.PoolState{Reserve0: big.NewInt(1000), Reserve1: big.NewInt(4000), TotalSupply: big.NewInt(2000)}
	if lp, err := lpMinted([2]*big.Int{big.NewInt(10), big.NewInt(44)}, p); err != nil || lp.Int64() != 20 { // min(10*2000/1000, 44*2000/4000=22)
		t.Fatalf("mint: %v %v", lp, err)
	}
	if _, err := lpMinted([2]*big.Int{big.NewInt(0), big.NewInt(1)}, p); !errors.Is(err, ErrInvalidAmount) {
		t.Fatalf("nothing minted: %v", err)
	}
}

// TestZapSwapAmount: swapping the balancing share of a single-sided amount through the pool leaves
// the rest and the output at the pool's ratio after the swap, to within rounding.
func TestZapSwapAmount(t *testing.T) {
	for _, fee := range []int{30, 25, 0, 100} {
		r, q := new(big.Int).Mul(big.NewInt(1_000_000), pow10(18)), new(big.Int).Mul(big.NewInt(500_000), pow10(6))
		amount := new(big.Int).Mul(big.NewInt(12_345), pow10(18))
		s := zapSwapAmount(amount, r, fee)
		out, err := uniswapv2.AmountOut(s, r, q, fee)
		if err != nil {
			t.Fatal(err)
		}
		kept := new(big.Int).Sub(amount, s)
		r2, q2 := new(big.Int).Add(r, s), new(big.Int).Sub(q, out)
		// kept/out against r2/q2: the kept side's leftover after a router-exact add is under a
		// millionth of the amount.
		used := addAmounts([2]*big.Int{kept, out}, evm.PoolState{Reserve0: r2, Reserve1: q2}, 0)
		left := new(big.Int).Sub(kept, used[0])
		if left.Cmp(new(big.Int).Quo(amount, big.NewInt(1_000_000))) > 0 {
			t.Errorf("fee %d: swap %s of %s leaves %s unused", fee, s, amount, left)
		}
	}
	if s := zapSwapAmount(big.NewInt(10), new(big.Int), 30); s.Int64() != 5 {
		t.Errorf("an empty reserve: %s, want half", s)
	}
}
