package devnet

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"math"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

var (
	tokenABI   = bindings.NewToken()
	factoryABI = bindings.NewUniswapV2Factory()
	pairABI    = bindings.NewUniswapV2Pair()
	routerABI  = bindings.NewUniswapV2Router02()
	multiABI   = bindings.NewMulticall3()
	deadline   = new(big.Int).SetUint64(math.MaxUint64)
)

// units is n whole tokens of the given decimals.
func units(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

// pool is the test's own constant-product model of one pair.
type pool struct {
	addr           common.Address
	token0, token1 common.Address
	r0, r1         *big.Int
}

// newPool orders the tokens the way the factory does.
func newPool(tokenA, tokenB common.Address, amountA, amountB *big.Int) *pool {
	if bytes.Compare(tokenA[:], tokenB[:]) < 0 {
		return &pool{token0: tokenA, token1: tokenB, r0: new(big.Int).Set(amountA), r1: new(big.Int).Set(amountB)}
	}
	return &pool{token0: tokenB, token1: tokenA, r0: new(big.Int).Set(amountB), r1: new(big.Int).Set(amountA)}
}

// reserves returns (reserveIn, reserveOut) for a swap paying tokenIn.
func (p *pool) reserves(tokenIn common.Address) (*big.Int, *big.Int) {
	if tokenIn == p.token0 {
		return p.r0, p.r1
	}
	return p.r1, p.r0
}

// amountOut: out = in*997*rOut / (rIn*1000 + in*997).
func (p *pool) amountOut(tokenIn common.Address, in *big.Int) *big.Int {
	rIn, rOut := p.reserves(tokenIn)
	inFee := new(big.Int).Mul(in, big.NewInt(997))
	num := new(big.Int).Mul(inFee, rOut)
	den := new(big.Int).Add(new(big.Int).Mul(rIn, big.NewInt(1000)), inFee)
	return num.Div(num, den)
}

// amountIn: in = rIn*out*1000 / ((rOut-out)*997) + 1.
func (p *pool) amountIn(tokenIn common.Address, out *big.Int) *big.Int {
	rIn, rOut := p.reserves(tokenIn)
	num := new(big.Int).Mul(new(big.Int).Mul(rIn, out), big.NewInt(1000))
	den := new(big.Int).Mul(new(big.Int).Sub(rOut, out), big.NewInt(997))
	return num.Div(num, den).Add(num, big.NewInt(1))
}

func (p *pool) apply(tokenIn common.Address, in, out *big.Int) {
	rIn, rOut := p.reserves(tokenIn)
	rIn.Add(rIn, in)
	rOut.Sub(rOut, out)
	// the 0.3% fee stays in the pool, so k can only grow: checked by the caller through getReserves
}

type harness struct {
	t      *testing.T
	ctx    context.Context
	sim    Backend
	client bind.ContractBackend
	addrs  Addresses
}

func (h *harness) tx(from *Account, to common.Address, value *big.Int, calldata []byte) *types.Receipt {
	h.t.Helper()
	rc, err := from.Transact(h.ctx, h.sim, to, value, calldata)
	if err != nil {
		h.t.Fatal(err)
	}
	return rc
}

func call[T any](h *harness, to common.Address, calldata []byte, unpack func([]byte) (T, error)) T {
	h.t.Helper()
	c := bind.NewBoundContract(to, tokenABI.GetABI(), h.client, h.client, h.client)
	v, err := bind.Call(c, &bind.CallOpts{Context: h.ctx}, calldata, unpack)
	if err != nil {
		h.t.Fatalf("call %s: %v", to, err)
	}
	return v
}

func (h *harness) balance(token, holder common.Address) *big.Int {
	h.t.Helper()
	return call(h, token, tokenABI.PackBalanceOf(holder), tokenABI.UnpackBalanceOf)
}

func (h *harness) ethBalance(holder common.Address) *big.Int {
	h.t.Helper()
	b, err := h.sim.Client().BalanceAt(h.ctx, holder, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return b
}

// checkReserves compares getReserves with the model.
func (h *harness) checkReserves(p *pool) {
	h.t.Helper()
	got := call(h, p.addr, pairABI.PackGetReserves(), pairABI.UnpackGetReserves)
	if got.Reserve0.Cmp(p.r0) != 0 || got.Reserve1.Cmp(p.r1) != 0 {
		h.t.Fatalf("pool %s reserves = (%s, %s), model says (%s, %s)", p.addr, got.Reserve0, got.Reserve1, p.r0, p.r1)
	}
}

// checkSwapLogs decodes the pair's Swap and Sync logs in rc through the bindings and compares them
// with a swap of in tokenIn for out to recipient, routed by the router; then applies it to the model.
func (h *harness) checkSwapLogs(rc *types.Receipt, p *pool, tokenIn common.Address, in, out *big.Int, recipient common.Address) {
	h.t.Helper()
	var swaps []*bindings.UniswapV2PairSwap
	var syncs []*bindings.UniswapV2PairSync
	for _, l := range rc.Logs {
		if l.Address != p.addr {
			continue
		}
		if ev, err := pairABI.UnpackSwapEvent(l); err == nil {
			swaps = append(swaps, ev)
		} else if ev, err := pairABI.UnpackSyncEvent(l); err == nil {
			syncs = append(syncs, ev)
		}
	}
	if len(swaps) != 1 || len(syncs) != 1 {
		h.t.Fatalf("pool %s: %d Swap and %d Sync logs, want 1 and 1", p.addr, len(swaps), len(syncs))
	}
	zero := new(big.Int)
	want := bindings.UniswapV2PairSwap{Sender: h.addrs.Router, To: recipient,
		Amount0In: zero, Amount1In: in, Amount0Out: out, Amount1Out: zero}
	if tokenIn == p.token0 {
		want.Amount0In, want.Amount1In, want.Amount0Out, want.Amount1Out = in, zero, zero, out
	}
	s := swaps[0]
	if s.Sender != want.Sender || s.To != want.To || s.Amount0In.Cmp(want.Amount0In) != 0 || s.Amount1In.Cmp(want.Amount1In) != 0 ||
		s.Amount0Out.Cmp(want.Amount0Out) != 0 || s.Amount1Out.Cmp(want.Amount1Out) != 0 {
		h.t.Fatalf("Swap log = %+v, want %+v", *s, want)
	}
	p.apply(tokenIn, in, out)
	if syncs[0].Reserve0.Cmp(p.r0) != 0 || syncs[0].Reserve1.Cmp(p.r1) != 0 {
		h.t.Fatalf("Sync log = (%s, %s), model says (%s, %s)", syncs[0].Reserve0, syncs[0].Reserve1, p.r0, p.r1)
	}
	h.checkReserves(p)
}

// checkPairCreated finds the factory's PairCreated log in rc and checks it against the model, the
// factory's getPair and allPairs, and the CREATE2 address chain.UniswapV2PairAddress derives from
// mainnet's init code hash.
func (h *harness) checkPairCreated(rc *types.Receipt, p *pool, index int64) {
	h.t.Helper()
	var created []*bindings.UniswapV2FactoryPairCreated
	for _, l := range rc.Logs {
		if l.Address != h.addrs.Factory {
			continue
		}
		if ev, err := factoryABI.UnpackPairCreatedEvent(l); err == nil {
			created = append(created, ev)
		}
	}
	if len(created) != 1 {
		h.t.Fatalf("%d PairCreated logs, want 1", len(created))
	}
	ev := created[0]
	if ev.Token0 != p.token0 || ev.Token1 != p.token1 || ev.Arg3.Int64() != index {
		h.t.Fatalf("PairCreated = %+v, want tokens %s/%s, index %d", *ev, p.token0, p.token1, index)
	}
	p.addr = ev.Pair
	for _, q := range [][2]common.Address{{p.token0, p.token1}, {p.token1, p.token0}} {
		if got := call(h, h.addrs.Factory, factoryABI.PackGetPair(q[0], q[1]), factoryABI.UnpackGetPair); got != ev.Pair {
			h.t.Fatalf("getPair(%s, %s) = %s, want %s", q[0], q[1], got, ev.Pair)
		}
	}
	if got := call(h, h.addrs.Factory, factoryABI.PackAllPairs(big.NewInt(index-1)), factoryABI.UnpackAllPairs); got != ev.Pair {
		h.t.Fatalf("allPairs(%d) = %s, want %s", index-1, got, ev.Pair)
	}
	want, err := chain.UniswapV2PairAddress(h.addrs.Factory.Hex(), chain.UniswapV2InitCodeHash, p.token1.Hex(), p.token0.Hex())
	if err != nil {
		h.t.Fatal(err)
	}
	if ev.Pair != common.HexToAddress(want) {
		h.t.Fatalf("pair %s is not at its CREATE2 address %s", ev.Pair, want)
	}
	salt := crypto.Keccak256(p.token0[:], p.token1[:]) // go-ethereum's CREATE2 agrees
	if geth := crypto.CreateAddress2(h.addrs.Factory, [32]byte(salt), common.FromHex(chain.UniswapV2InitCodeHash)); geth != ev.Pair {
		h.t.Fatalf("pair %s, go-ethereum's CREATE2 says %s", ev.Pair, geth)
	}
	t0 := call(h, p.addr, pairABI.PackToken0(), pairABI.UnpackToken0)
	t1 := call(h, p.addr, pairABI.PackToken1(), pairABI.UnpackToken1)
	if t0 != p.token0 || t1 != p.token1 {
		h.t.Fatalf("pair tokens = %s/%s, want %s/%s", t0, t1, p.token0, p.token1)
	}
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestMarket(t *testing.T) {
	ctx := t.Context()
	deployerKey, aliceKey, bobKey := mustKey(t), mustKey(t), mustKey(t)
	alloc := types.GenesisAlloc{}
	for _, k := range []*ecdsa.PrivateKey{deployerKey, aliceKey, bobKey} {
		alloc[crypto.PubkeyToAddress(k.PublicKey)] = types.Account{Balance: units(10_000, 18)}
	}
	sim := NewBackend(alloc)
	t.Cleanup(func() { _ = sim.Close() })
	client := sim.Client()

	if id, err := client.ChainID(ctx); err != nil || id.Int64() != ChainID {
		t.Fatalf("chain id = %v, %v; want %d", id, err, ChainID)
	}

	addrs, err := Deploy(ctx, sim, deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, ctx: ctx, sim: sim, client: client, addrs: addrs}
	deployer, err := NewAccount(ctx, client, deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	alice, _ := NewAccount(ctx, client, aliceKey)
	bob, _ := NewAccount(ctx, client, bobKey)

	if got := call(h, addrs.USD, tokenABI.PackDecimals(), tokenABI.UnpackDecimals); got != 6 {
		t.Fatalf("USD decimals = %d, want 6", got)
	}
	if got := call(h, addrs.Router, routerABI.PackWETH(), routerABI.UnpackWETH); got != addrs.WrappedNative {
		t.Fatalf("router WETH = %s, want %s", got, addrs.WrappedNative)
	}
	if got := call(h, addrs.Router, routerABI.PackFactory(), routerABI.UnpackFactory); got != addrs.Factory {
		t.Fatalf("router factory = %s, want %s", got, addrs.Factory)
	}
	// The official factory: the deployer may set the protocol fee's recipient, which is unset.
	if got := call(h, addrs.Factory, factoryABI.PackFeeToSetter(), factoryABI.UnpackFeeToSetter); got != deployer.Address {
		t.Fatalf("feeToSetter = %s, want the deployer", got)
	}
	if got := call(h, addrs.Factory, factoryABI.PackFeeTo(), factoryABI.UnpackFeeTo); got != (common.Address{}) {
		t.Fatalf("feeTo = %s, want none", got)
	}
	if addrs.StakingRewardsFactory != (common.Address{}) {
		t.Fatalf("Deploy deployed a StakingRewardsFactory at %s", addrs.StakingRewardsFactory)
	}

	alpha, err := deployer.Deploy(ctx, sim, &bindings.TokenMetaData, tokenABI.PackConstructor("Alpha", "ALPHA", 18))
	if err != nil {
		t.Fatal(err)
	}
	beta, err := deployer.Deploy(ctx, sim, &bindings.TokenMetaData, tokenABI.PackConstructor("Beta", "BETA", 18))
	if err != nil {
		t.Fatal(err)
	}
	usd, weth := addrs.USD, addrs.WrappedNative

	// Holders and approvals.
	h.tx(deployer, usd, nil, tokenABI.PackMint(deployer.Address, units(1_000_000, 6)))
	h.tx(deployer, usd, nil, tokenABI.PackMint(alice.Address, units(10_000, 6)))
	h.tx(deployer, alpha, nil, tokenABI.PackMint(deployer.Address, units(1_000_000, 18)))
	h.tx(deployer, alpha, nil, tokenABI.PackMint(bob.Address, units(5_000, 18)))
	h.tx(deployer, beta, nil, tokenABI.PackMint(deployer.Address, units(1_000_000, 18)))
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, a := range []*Account{deployer, alice, bob} {
		for _, tok := range []common.Address{usd, alpha, beta} {
			h.tx(a, tok, nil, tokenABI.PackApprove(addrs.Router, maxUint))
		}
	}

	// Pool 1: ALPHA/USD at 0.5 USD, through addLiquidity (which creates the pair).
	alphaIn, usdIn := units(100_000, 18), units(50_000, 6)
	p1 := newPool(alpha, usd, alphaIn, usdIn)
	rc := h.tx(deployer, addrs.Router, nil, routerABI.PackAddLiquidity(alpha, usd, alphaIn, usdIn, alphaIn, usdIn, deployer.Address, deadline))
	h.checkPairCreated(rc, p1, 1)
	h.checkReserves(p1)
	lp := new(big.Int).Sqrt(new(big.Int).Mul(alphaIn, usdIn))
	lp.Sub(lp, big.NewInt(1000))
	if got := h.balance(p1.addr, deployer.Address); got.Cmp(lp) != 0 {
		t.Fatalf("LP balance = %s, want sqrt(a*b)-1000 = %s", got, lp)
	}
	if got := h.balance(p1.addr, common.Address{}); got.Int64() != 1000 {
		t.Fatalf("locked LP = %s, want MINIMUM_LIQUIDITY", got)
	}

	// Pool 2: BETA/WETH at 0.01 ETH, through addLiquidityETH.
	betaIn, ethIn := units(10_000, 18), units(100, 18)
	p2 := newPool(beta, weth, betaIn, ethIn)
	rc = h.tx(deployer, addrs.Router, ethIn, routerABI.PackAddLiquidityETH(beta, betaIn, betaIn, ethIn, deployer.Address, deadline))
	h.checkPairCreated(rc, p2, 2)
	h.checkReserves(p2)
	if n := call(h, addrs.Factory, factoryABI.PackAllPairsLength(), factoryABI.UnpackAllPairsLength); n.Int64() != 2 {
		t.Fatalf("allPairsLength = %s, want 2", n)
	}

	quoteOut := func(in *big.Int, path ...common.Address) *big.Int {
		t.Helper()
		amounts := call(h, addrs.Router, routerABI.PackGetAmountsOut(in, path), routerABI.UnpackGetAmountsOut)
		return amounts[len(amounts)-1]
	}

	// Alice buys ALPHA with 1,000 USD (exact in).
	in := units(1_000, 6)
	want := p1.amountOut(usd, in)
	if q := quoteOut(in, usd, alpha); q.Cmp(want) != 0 {
		t.Fatalf("getAmountsOut = %s, model says %s", q, want)
	}
	before := h.balance(alpha, alice.Address)
	rc = h.tx(alice, addrs.Router, nil, routerABI.PackSwapExactTokensForTokens(in, want, []common.Address{usd, alpha}, alice.Address, deadline))
	if got := new(big.Int).Sub(h.balance(alpha, alice.Address), before); got.Cmp(want) != 0 {
		t.Fatalf("alice received %s ALPHA, getAmountsOut said %s", got, want)
	}
	h.checkSwapLogs(rc, p1, usd, in, want, alice.Address)

	// Bob sells 2,000 ALPHA for USD (exact in).
	in = units(2_000, 18)
	want = p1.amountOut(alpha, in)
	if q := quoteOut(in, alpha, usd); q.Cmp(want) != 0 {
		t.Fatalf("getAmountsOut = %s, model says %s", q, want)
	}
	before = h.balance(usd, bob.Address)
	rc = h.tx(bob, addrs.Router, nil, routerABI.PackSwapExactTokensForTokens(in, want, []common.Address{alpha, usd}, bob.Address, deadline))
	if got := new(big.Int).Sub(h.balance(usd, bob.Address), before); got.Cmp(want) != 0 {
		t.Fatalf("bob received %s USD, getAmountsOut said %s", got, want)
	}
	h.checkSwapLogs(rc, p1, alpha, in, want, bob.Address)

	// Alice buys exactly 500 ALPHA (exact out): getAmountsIn against what she paid.
	out := units(500, 18)
	need := p1.amountIn(usd, out)
	amounts := call(h, addrs.Router, routerABI.PackGetAmountsIn(out, []common.Address{usd, alpha}), routerABI.UnpackGetAmountsIn)
	if amounts[0].Cmp(need) != 0 {
		t.Fatalf("getAmountsIn = %s, model says %s", amounts[0], need)
	}
	before = h.balance(usd, alice.Address)
	rc = h.tx(alice, addrs.Router, nil, routerABI.PackSwapTokensForExactTokens(out, need, []common.Address{usd, alpha}, alice.Address, deadline))
	if paid := new(big.Int).Sub(before, h.balance(usd, alice.Address)); paid.Cmp(need) != 0 {
		t.Fatalf("alice paid %s USD, getAmountsIn said %s", paid, need)
	}
	h.checkSwapLogs(rc, p1, usd, need, out, alice.Address)

	// Bob buys BETA with 1 ETH, then sells half of it back for ETH.
	in = units(1, 18)
	want = p2.amountOut(weth, in)
	if q := quoteOut(in, weth, beta); q.Cmp(want) != 0 {
		t.Fatalf("getAmountsOut = %s, model says %s", q, want)
	}
	rc = h.tx(bob, addrs.Router, in, routerABI.PackSwapExactETHForTokens(want, []common.Address{weth, beta}, bob.Address, deadline))
	if got := h.balance(beta, bob.Address); got.Cmp(want) != 0 {
		t.Fatalf("bob holds %s BETA, getAmountsOut said %s", got, want)
	}
	h.checkSwapLogs(rc, p2, weth, in, want, bob.Address)

	in = new(big.Int).Div(want, big.NewInt(2))
	want = p2.amountOut(beta, in)
	if q := quoteOut(in, beta, weth); q.Cmp(want) != 0 {
		t.Fatalf("getAmountsOut = %s, model says %s", q, want)
	}
	before = h.ethBalance(bob.Address)
	rc = h.tx(bob, addrs.Router, nil, routerABI.PackSwapExactTokensForETH(in, want, []common.Address{beta, weth}, bob.Address, deadline))
	fee := new(big.Int).Mul(new(big.Int).SetUint64(rc.GasUsed), rc.EffectiveGasPrice)
	if got := new(big.Int).Sub(h.ethBalance(bob.Address), before); got.Cmp(new(big.Int).Sub(want, fee)) != 0 {
		t.Fatalf("bob's ETH changed by %s, want %s out minus %s gas", got, want, fee)
	}
	h.checkSwapLogs(rc, p2, beta, in, want, addrs.Router) // the router unwraps, so the pair pays the router

	// One aggregate3 call: USD balances of several holders, an ETH balance, and a call allowed to fail.
	holders := []common.Address{deployer.Address, alice.Address, bob.Address, p1.addr}
	var calls []bindings.Multicall3Call3
	for _, holder := range holders {
		calls = append(calls, bindings.Multicall3Call3{Target: usd, CallData: tokenABI.PackBalanceOf(holder)})
	}
	calls = append(calls,
		bindings.Multicall3Call3{Target: addrs.Multicall3, CallData: multiABI.PackGetEthBalance(bob.Address)},
		bindings.Multicall3Call3{Target: alpha, AllowFailure: true, CallData: tokenABI.PackTransferFrom(alice.Address, bob.Address, big.NewInt(1))},
	)
	results := call(h, addrs.Multicall3, multiABI.PackAggregate3(calls), multiABI.UnpackAggregate3)
	if len(results) != len(calls) {
		t.Fatalf("aggregate3 returned %d results for %d calls", len(results), len(calls))
	}
	for i, holder := range holders {
		if !results[i].Success {
			t.Fatalf("aggregate3 balanceOf(%s) failed", holder)
		}
		got, err := tokenABI.UnpackBalanceOf(results[i].ReturnData)
		if err != nil {
			t.Fatal(err)
		}
		if want := h.balance(usd, holder); got.Cmp(want) != 0 {
			t.Fatalf("aggregate3 balanceOf(%s) = %s, balanceOf says %s", holder, got, want)
		}
	}
	if got, err := multiABI.UnpackGetEthBalance(results[len(holders)].ReturnData); err != nil || got.Cmp(h.ethBalance(bob.Address)) != 0 {
		t.Fatalf("aggregate3 getEthBalance = %v, %v; want %s", got, err, h.ethBalance(bob.Address))
	}
	if results[len(holders)+1].Success {
		t.Fatal("aggregate3: transferFrom without allowance succeeded")
	}
	if n := call(h, addrs.Multicall3, multiABI.PackGetBlockNumber(), multiABI.UnpackGetBlockNumber); n.Sign() == 0 {
		t.Fatal("getBlockNumber = 0")
	}

	// The pools' LP token and the ERC-20 ownership surface.
	if got := call(h, alpha, tokenABI.PackOwner(), tokenABI.UnpackOwner); got != deployer.Address {
		t.Fatalf("owner = %s, want the deployer", got)
	}
	h.tx(deployer, alpha, nil, tokenABI.PackRenounceOwnership())
	if got := call(h, alpha, tokenABI.PackOwner(), tokenABI.UnpackOwner); got != (common.Address{}) {
		t.Fatalf("owner after renounce = %s, want zero", got)
	}
	if _, err := deployer.Transact(ctx, sim, alpha, nil, tokenABI.PackMint(deployer.Address, big.NewInt(1))); err == nil {
		t.Fatal("mint after renounceOwnership succeeded")
	}
}

// TestForkRules checks the backend runs ChainConfig's rules: Prague is active (blocks carry the
// EIP-7685 requests hash, Cancun's MCOPY runs) and Osaka is not (its CLZ opcode is invalid).
func TestForkRules(t *testing.T) {
	ctx := t.Context()
	sim := NewBackend(nil)
	t.Cleanup(func() { _ = sim.Close() })
	sim.Commit()
	head, err := sim.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if head.RequestsHash == nil {
		t.Fatal("Prague is not active: no requests hash in the header")
	}
	run := func(code string) error {
		_, err := sim.Client().CallContract(ctx, ethereum.CallMsg{Data: common.FromHex(code)}, nil)
		return err
	}
	if err := run("0x6001600060005e00"); err != nil { // PUSH1 1, PUSH1 0, PUSH1 0, MCOPY, STOP
		t.Fatalf("MCOPY failed: %v", err)
	}
	if err := run("0x60011e00"); err == nil { // PUSH1 1, CLZ, STOP
		t.Fatal("CLZ ran: Osaka rules are active")
	}
}
