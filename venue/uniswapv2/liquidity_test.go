package uniswapv2

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// TestLiquidityCalldata holds the venue's router, factory and farm calls to the encoding of the
// bindings generated from the official compiled contracts.
func TestLiquidityCalldata(t *testing.T) {
	t.Parallel()
	router, factory := bindings.NewUniswapV2Router02(), bindings.NewUniswapV2Factory()
	farmABI := bindings.NewStakingRewards()
	cfg := chain.VenueConfig{Router: "0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24", Factory: "0x8909dc15e40173ff4699343b6eb8132c65e18ec6"}
	t0, t1, to, farm := "0x4200000000000000000000000000000000000006", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "0x00000000000000000000000000000000000000aa", "0x00000000000000000000000000000000000000bb"
	a0, a1, m0, m1, lp, dl := big.NewInt(11), big.NewInt(22), big.NewInt(3), big.NewInt(4), big.NewInt(99), big.NewInt(1763798700)
	addr := common.HexToAddress
	d := chain.PairLiquidity{Token0: t0, Token1: t1, Amounts: [2]*big.Int{a0, a1}, LP: lp, Mins: [2]*big.Int{m0, m1}, Native: -1, Recipient: to, Deadline: dl.Int64()}
	native := d
	native.Native = 0 // token0 is paid in the gas coin
	var v Venue
	for _, c := range []struct {
		name string
		got  chain.EVMCall
		to   string
		want []byte
	}{
		{"addLiquidity", v.AddLiquidityCall(cfg, d), cfg.Router, router.PackAddLiquidity(addr(t0), addr(t1), a0, a1, m0, m1, addr(to), dl)},
		{"addLiquidityETH", v.AddLiquidityCall(cfg, native), cfg.Router, router.PackAddLiquidityETH(addr(t1), a1, m1, m0, addr(to), dl)},
		{"removeLiquidity", v.RemoveLiquidityCall(cfg, d), cfg.Router, router.PackRemoveLiquidity(addr(t0), addr(t1), lp, m0, m1, addr(to), dl)},
		{"removeLiquidityETH", v.RemoveLiquidityCall(cfg, native), cfg.Router, router.PackRemoveLiquidityETH(addr(t1), lp, m1, m0, addr(to), dl)},
		{"createPair", v.CreatePairCall(cfg, t0, t1), cfg.Factory, factory.PackCreatePair(addr(t0), addr(t1))},
		{"stake", v.StakeCall(farm, lp), farm, farmABI.PackStake(lp)},
		{"withdraw", v.UnstakeCall(farm, lp), farm, farmABI.PackWithdraw(lp)},
		{"getReward", v.ClaimCall(farm), farm, farmABI.PackGetReward()},
	} {
		if !bytes.Equal(c.got.Data, c.want) || c.got.To != c.to {
			t.Errorf("%s: to %s data %x, want to %s data %x", c.name, c.got.To, c.got.Data, c.to, c.want)
		}
	}
	if got := v.AddLiquidityCall(cfg, native).Value; got != a0 {
		t.Errorf("addLiquidityETH value %v, want %v", got, a0)
	}
}

// TestRouterAmountsFixedPoint: the amounts routerAmounts asks for are what Router02's _addLiquidity
// takes of them, in the call's token order (token0 first for addLiquidity, the token first for
// addLiquidityETH), never more than desired, and into an empty pool the desired amounts unchanged.
func TestRouterAmountsFixedPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	num := func() *big.Int {
		n := new(big.Int).Lsh(big.NewInt(rng.Int64N(1<<40)+1), uint(rng.IntN(60)))
		return n.Add(n, big.NewInt(rng.Int64N(1000)))
	}
	for i := range 20_000 {
		p := chain.PairState{Reserve0: num(), Reserve1: num()}
		desired := [2]*big.Int{num(), num()}
		first := i % 2
		used := routerAmounts(desired, p, first)
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
	empty := chain.PairState{Reserve0: new(big.Int), Reserve1: new(big.Int)}
	if used := routerAmounts([2]*big.Int{big.NewInt(7), big.NewInt(9)}, empty, 0); used[0].Int64() != 7 || used[1].Int64() != 9 {
		t.Fatalf("into an empty pool: %v", used)
	}
}

// TestMint: the pair's mint formula, and nothing minted is chain.ErrInvalidAmount.
func TestMint(t *testing.T) {
	first := chain.PairState{Reserve0: new(big.Int), Reserve1: new(big.Int), TotalSupply: new(big.Int)}
	if lp, err := Mint([2]*big.Int{big.NewInt(4_000_000), big.NewInt(1_000_000)}, first); err != nil || lp.Int64() != 2_000_000-1000 {
		t.Fatalf("first mint: %v %v", lp, err)
	}
	if _, err := Mint([2]*big.Int{big.NewInt(1000), big.NewInt(1000)}, first); !errors.Is(err, chain.ErrInvalidAmount) {
		t.Fatalf("a first mint of sqrt 1000: %v", err)
	}
	p := chain.PairState{Reserve0: big.NewInt(1000), Reserve1: big.NewInt(4000), TotalSupply: big.NewInt(2000)}
	if lp, err := Mint([2]*big.Int{big.NewInt(10), big.NewInt(44)}, p); err != nil || lp.Int64() != 20 { // min(10*2000/1000, 44*2000/4000=22)
		t.Fatalf("mint: %v %v", lp, err)
	}
	if _, err := Mint([2]*big.Int{big.NewInt(0), big.NewInt(1)}, p); !errors.Is(err, chain.ErrInvalidAmount) {
		t.Fatalf("nothing minted: %v", err)
	}
}

// TestZapSwapAmount: swapping the balancing share of a single-sided amount through the pool leaves
// the rest and the output at the pool's ratio after the swap, to within rounding.
func TestZapSwapAmount(t *testing.T) {
	for _, fee := range []int{30, 25, 0, 100} {
		r, q := new(big.Int).Mul(big.NewInt(1_000_000), pow10(18)), new(big.Int).Mul(big.NewInt(500_000), pow10(6))
		amount := new(big.Int).Mul(big.NewInt(12_345), pow10(18))
		s := (Venue{}).ZapSwapAmount(amount, r, fee)
		out, err := AmountOut(s, r, q, fee)
		if err != nil {
			t.Fatal(err)
		}
		kept := new(big.Int).Sub(amount, s)
		r2, q2 := new(big.Int).Add(r, s), new(big.Int).Sub(q, out)
		// kept/out against r2/q2: the kept side's leftover after a router-exact add is under a
		// millionth of the amount.
		used := routerAmounts([2]*big.Int{kept, out}, chain.PairState{Reserve0: r2, Reserve1: q2}, 0)
		left := new(big.Int).Sub(kept, used[0])
		if left.Cmp(new(big.Int).Quo(amount, big.NewInt(1_000_000))) > 0 {
			t.Errorf("fee %d: swap %s of %s leaves %s unused", fee, s, amount, left)
		}
	}
	if s := (Venue{}).ZapSwapAmount(big.NewInt(10), new(big.Int), 30); s.Int64() != 5 {
		t.Errorf("an empty reserve: %s, want half", s)
	}
}

func pow10(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }
