package raydium

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// The venue's liquidity interface on synthetic accounts: PoolMints, PlanLiquidity's argument
// errors and plans (the builds themselves run on the local validator in trade's TestSolanaLP).

// TestPoolMints: a CPMM PoolState's mints; anything else is not found, naming the pool and chain.
func TestPoolMints(t *testing.T) {
	pool, m0, m1 := Pubkey{5}.String(), Pubkey{1}, Pubkey{2}
	data := qrPoolData(PoolState{Token0Mint: m0, Token1Mint: m1})
	a, b, err := Venue{}.PoolMints("solana", chain.SVMAccount{Address: pool, Exists: true, Owner: ProgramID.String(), Data: data})
	if err != nil || a != m0.String() || b != m1.String() {
		t.Fatalf("PoolMints = %s, %s, %v; want %s, %s", a, b, err, m0, m1)
	}
	for name, acc := range map[string]chain.SVMAccount{
		"missing":         {Address: pool},
		"another program": {Address: pool, Exists: true, Owner: TokenProgram.String(), Data: data},
		"not a PoolState": {Address: pool, Exists: true, Owner: ProgramID.String(), Data: qrConfigData(AmmConfig{})},
		"too short":       {Address: pool, Exists: true, Owner: ProgramID.String(), Data: data[:100]},
	} {
		_, _, err := Venue{}.PoolMints("solana", acc)
		if !errors.Is(err, chain.ErrNotFound) || err.Error() != "not found: pool "+pool+" is not a Raydium CPMM pool on solana" {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestPlanLiquidityErrors: each argument error of each operation, as the API answers it.
func TestPlanLiquidityErrors(t *testing.T) {
	user, pool, usdc, other := Pubkey{7}.String(), Pubkey{5}.String(), qrUSDC.String(), qrX.String()
	wsol := NativeMint.String()
	add := func(edit func(*chain.SVMLiquidityRequest)) chain.SVMLiquidityRequest {
		r := chain.SVMLiquidityRequest{Op: chain.LiquidityAdd, Chain: "solana", User: user, Pool: pool, TokenA: wsol, TokenB: usdc, AmountA: "1", AmountB: "2"}
		edit(&r)
		return r
	}
	create := func(edit func(*chain.SVMLiquidityRequest)) chain.SVMLiquidityRequest {
		r := chain.SVMLiquidityRequest{Op: chain.LiquidityCreate, Chain: "solana", User: user, TokenA: wsol, TokenB: usdc, AmountA: "1", AmountB: "2"}
		edit(&r)
		return r
	}
	for _, tc := range []struct {
		name string
		r    chain.SVMLiquidityRequest
		want error
		says string
	}{
		{"unknown op", add(func(r *chain.SVMLiquidityRequest) { r.Op = "farm" }), chain.ErrInvalidRequest, `no liquidity operation "farm"`},
		{"slippage", add(func(r *chain.SVMLiquidityRequest) { r.SlippageBps = 10_000 }), chain.ErrInvalidRequest, "slippageBps must be 0 to 9999"},
		{"negative slippage", create(func(r *chain.SVMLiquidityRequest) { r.SlippageBps = -1 }), chain.ErrInvalidRequest, "slippageBps"},
		{"user", add(func(r *chain.SVMLiquidityRequest) { r.User = "0x0000000000000000000000000000000000000000" }), chain.ErrInvalidAddress, "user: "},
		{"no pool", add(func(r *chain.SVMLiquidityRequest) { r.Pool = "" }), chain.ErrInvalidRequest, "take pool"},
		{"pool", add(func(r *chain.SVMLiquidityRequest) { r.Pool = "short" }), chain.ErrInvalidAddress, "pool: "},
		{"one token", add(func(r *chain.SVMLiquidityRequest) { r.TokenB = "" }), chain.ErrInvalidRequest, "give both tokenA and tokenB, or neither"},
		{"tokenA", add(func(r *chain.SVMLiquidityRequest) { r.TokenA = "l" }), chain.ErrInvalidAddress, "tokenA: "},
		{"tokenB", add(func(r *chain.SVMLiquidityRequest) { r.TokenB = "l" }), chain.ErrInvalidAddress, "tokenB: "},
		{"same token", add(func(r *chain.SVMLiquidityRequest) { r.TokenB = wsol }), chain.ErrInvalidRequest, "two different tokens"},
		{"no mints", add(func(r *chain.SVMLiquidityRequest) { r.TokenA, r.TokenB = "", "" }), chain.ErrInvalidRequest, "name the pool's tokens"},
		{"same mints", add(func(r *chain.SVMLiquidityRequest) { r.TokenA, r.TokenB, r.Mint0, r.Mint1 = "", "", usdc, usdc }), ErrSameMint, "plan liquidity"},
		{"no amount", add(func(r *chain.SVMLiquidityRequest) { r.AmountB = "" }), chain.ErrInvalidAmount, "amountA and amountB"},
		{"bps 0", chain.SVMLiquidityRequest{Op: chain.LiquidityRemove, User: user, Pool: pool}, chain.ErrInvalidRequest, "bps must be 1 to 10000"},
		{"bps 10001", chain.SVMLiquidityRequest{Op: chain.LiquidityRemove, User: "bad", Pool: pool, Bps: 10_001}, chain.ErrInvalidRequest, "bps must be 1 to 10000"},
		{"remove user", chain.SVMLiquidityRequest{Op: chain.LiquidityRemove, User: "bad", Pool: pool, Bps: 1}, chain.ErrInvalidAddress, "user: "},
		{"create without tokens", create(func(r *chain.SVMLiquidityRequest) { r.TokenB = "" }), chain.ErrInvalidRequest, "creating a pool takes tokenA and tokenB"},
		{"create same token", create(func(r *chain.SVMLiquidityRequest) { r.TokenA = usdc }), chain.ErrInvalidRequest, "two different tokens"},
		{"create tokenB", create(func(r *chain.SVMLiquidityRequest) { r.TokenB = other + "1" }), chain.ErrInvalidAddress, "tokenB: "},
		{"fee tier", create(func(r *chain.SVMLiquidityRequest) { r.FeeTier = 65_536 }), chain.ErrInvalidRequest, "feeTier is an AmmConfig index, 0 to 65535"},
		{"create amount", create(func(r *chain.SVMLiquidityRequest) { r.AmountA = "" }), chain.ErrInvalidAmount, "funds it"},
	} {
		p, err := Venue{}.PlanLiquidity(tc.r)
		if p != nil || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %v saying %q", tc.name, err, tc.want, tc.says)
		}
		if tc.want != chain.ErrInvalidAmount && !errors.Is(err, chain.ErrInvalidRequest) {
			t.Errorf("%s: %v is not an invalid request", tc.name, err)
		}
	}
}

// TestPlanLiquidityReads: what the plans read, write and observe, and a build's errors on what
// was read.
func TestPlanLiquidityReads(t *testing.T) {
	owner, poolKey := Pubkey{7}, Pubkey{5}
	user, pool, usdc, wsol := owner.String(), poolKey.String(), qrUSDC.String(), NativeMint.String()
	// The pool's mints from the caller (Mint0, Mint1) or the request (either order): the same plan.
	lp, err := PlanLiquidity(poolKey, NativeMint, qrUSDC, owner)
	if err != nil {
		t.Fatal(err)
	}
	// AmountA and AmountB are of the pool's token0 and token1, or of TokenA and TokenB.
	amountOf := map[Pubkey]string{NativeMint: "1", qrUSDC: "2"}
	for _, tc := range []struct {
		r     chain.SVMLiquidityRequest
		human [2]string
	}{
		{chain.SVMLiquidityRequest{Op: chain.LiquidityAdd, Chain: "solana", User: user, Pool: pool, Mint0: lp.Mint0.String(), Mint1: lp.Mint1.String(), AmountA: "1", AmountB: "2"},
			[2]string{"1", "2"}},
		{chain.SVMLiquidityRequest{Op: chain.LiquidityAdd, Chain: "solana", User: user, Pool: pool, TokenA: usdc, TokenB: wsol, AmountA: "2", AmountB: "1"},
			[2]string{amountOf[lp.Mint0], amountOf[lp.Mint1]}},
		{chain.SVMLiquidityRequest{Op: chain.LiquidityRemove, Chain: "solana", User: user, Pool: pool, TokenA: wsol, TokenB: usdc, Bps: 5000}, [2]string{}},
	} {
		r := tc.r
		p, err := Venue{}.PlanLiquidity(r)
		if err != nil {
			t.Fatalf("%s: %v", r.Op, err)
		}
		if !slices.Equal(p.Reads(), append([]string{user}, lp.Addresses...)) || !slices.Equal(p.Writable(), []string{user, pool}) ||
			!slices.Equal(p.Observe(), lp.Addresses[6:]) {
			t.Errorf("%s: reads %v, writable %v, observe %v", r.Op, p.Reads(), p.Writable(), p.Observe())
		}
		if d, ok := p.(depositPlan); ok && d.human != tc.human {
			t.Errorf("amounts %v, want %v", d.human, tc.human)
		}
		// Nothing but the Clock read: no pool there.
		state := map[string]chain.SVMAccount{ClockSysvar.String(): {Exists: true, Data: qrClockData(Clock{})}}
		if _, err := p.Build(state, 1); !errors.Is(err, chain.ErrNotFound) || !strings.Contains(err.Error(), "is not a Raydium CPMM pool on solana") {
			t.Errorf("%s without a pool: %v", r.Op, err)
		}
	}

	p, err := Venue{}.PlanLiquidity(chain.SVMLiquidityRequest{Op: chain.LiquidityCreate, Chain: "solana", User: user, TokenA: usdc, TokenB: wsol, AmountA: "1", AmountB: "2", FeeTier: 3})
	if err != nil {
		t.Fatal(err)
	}
	m0, m1 := NativeMint, qrUSDC
	if m1.Less(m0) {
		m0, m1 = m1, m0
	}
	config := AmmConfigAddress(3)
	k := DerivePoolKeys(config, m0, m1, Pubkey{})
	if r := p.Reads(); len(r) != 10 || r[0] != user || r[2] != config.String() || r[5] != k.Pool.String() {
		t.Errorf("create reads %v", r)
	}
	if w := p.Writable(); !slices.Equal(w, []string{user, CreatePoolFeeReceiver.String()}) {
		t.Errorf("create writable %v", w)
	}
	if o := p.Observe(); len(o) != 6 || o[0] != k.Pool.String() || o[5] != AssociatedTokenAccount(owner, k.LPMint, TokenProgram).String() {
		t.Errorf("create observe %v", o)
	}
	state := map[string]chain.SVMAccount{ClockSysvar.String(): {Exists: true, Data: qrClockData(Clock{})}}
	if _, err := p.Build(state, 1); !errors.Is(err, chain.ErrInvalidRequest) || !strings.Contains(err.Error(), "raydium has no fee tier 3 on solana") {
		t.Errorf("create without the config: %v", err)
	}
	state[config.String()] = chain.SVMAccount{Exists: true, Owner: ProgramID.String(), Data: qrConfigData(AmmConfig{Index: 3})}
	state[k.Pool.String()] = chain.SVMAccount{Exists: true, Owner: ProgramID.String()}
	if _, err := p.Build(state, 1); !errors.Is(err, chain.ErrInvalidRequest) || !strings.Contains(err.Error(), "pool already exists: "+k.Pool.String()) {
		t.Errorf("create of an existing pool: %v", err)
	}
}

// TestSlippageBounds: a deposit's maximum rounds up and caps at u64; a withdraw's minimum rounds down.
func TestSlippageBounds(t *testing.T) {
	if got := withSlippageUp(1000, 50); got != 1005 {
		t.Errorf("up 1000 by 50 bps: %d", got)
	}
	if got := withSlippageUp(1001, 50); got != 1007 { // 1006.005 rounded up
		t.Errorf("up 1001 by 50 bps: %d", got)
	}
	if got := withSlippageUp(^uint64(0), 1); got != ^uint64(0) {
		t.Errorf("up at u64's max: %d", got)
	}
	if got := withSlippageDown(1001, 50); got != 995 { // 995.995 rounded down
		t.Errorf("down 1001 by 50 bps: %d", got)
	}
	if got := units(1_500_000_000, 9); got != "1.5" {
		t.Errorf("units %s", got)
	}
	if got := units(5, 9); got != "0.000000005" {
		t.Errorf("units %s", got)
	}
}
