package index_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math"
	"math/big"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/rpcproxy"
	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
)

var (
	tokenABI  = bindings.NewToken()
	routerABI = bindings.NewUniswapV2Router02()
	maxUint   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
)

// chainWorld is a devnet served over HTTP JSON-RPC, a market on it and an index following it.
type chainWorld struct {
	t        *testing.T
	ctx      context.Context
	sim      *simulated.Backend
	addrs    devnet.Addresses
	deployer *devnet.Account
	users    []*devnet.Account
	keys     []*ecdsa.PrivateKey
	alpha    common.Address
	st       *store.Store
	ix       *index.Store
	follower *evm.Follower
	reader   *evm.Reader     // the follower's
	rpc      *rpcproxy.Proxy // between the follower and the chain
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// newChainWorld deploys the core contracts and ALPHA, runs early (if any) before anything else
// happens on the chain, then mints, approves and pools ALPHA/USD and WETH/USD.
func newChainWorld(t *testing.T, st *store.Store, confirmations uint64, early ...func(w *chainWorld)) *chainWorld {
	t.Helper()
	ctx := t.Context()
	w := &chainWorld{t: t, ctx: ctx, st: st}
	alloc := types.GenesisAlloc{}
	for range 4 {
		k, _ := crypto.GenerateKey()
		w.keys = append(w.keys, k)
		alloc[crypto.PubkeyToAddress(k.PublicKey)] = types.Account{Balance: units(1_000_000, 18)}
	}
	port := freePort(t)
	w.sim = devnet.NewBackend(alloc, func(nc *node.Config, _ *ethconfig.Config) {
		nc.HTTPHost, nc.HTTPPort, nc.HTTPModules, nc.HTTPVirtualHosts = "127.0.0.1", port, []string{"eth"}, []string{"*"}
		nc.AuthPort = freePort(t)
	})
	t.Cleanup(func() { _ = w.sim.Close() })
	var err error
	if w.addrs, err = devnet.Deploy(ctx, w.sim, w.keys[0]); err != nil {
		t.Fatal(err)
	}
	w.accounts()
	for _, f := range early {
		f(w)
	}
	if w.alpha, err = w.deployer.Deploy(ctx, w.sim, &bindings.TokenMetaData, tokenABI.PackConstructor("Alpha", "ALPHA", 18)); err != nil {
		t.Fatal(err)
	}
	w.tx(w.deployer, w.addrs.USD, nil, tokenABI.PackMint(w.deployer.Address, units(1_000_000, 6)))
	w.tx(w.deployer, w.alpha, nil, tokenABI.PackMint(w.deployer.Address, units(1_000_000, 18)))
	for i, u := range w.users {
		w.tx(w.deployer, w.addrs.USD, nil, tokenABI.PackMint(u.Address, units(int64(10_000*(i+1)), 6)))
		w.tx(w.deployer, w.alpha, nil, tokenABI.PackMint(u.Address, units(int64(500*(i+1)), 18)))
	}
	for _, a := range append([]*devnet.Account{w.deployer}, w.users...) {
		w.tx(a, w.addrs.USD, nil, tokenABI.PackApprove(w.addrs.Router, maxUint))
		w.tx(a, w.alpha, nil, tokenABI.PackApprove(w.addrs.Router, maxUint))
	}
	a, u := units(100_000, 18), units(50_000, 6)
	w.tx(w.deployer, w.addrs.Router, nil, routerABI.PackAddLiquidity(w.alpha, w.addrs.USD, a, u, a, u, w.deployer.Address, big.NewInt(math.MaxInt64)))
	// WETH/USD at 3,000 USD.
	w.tx(w.deployer, w.addrs.Router, units(10, 18), routerABI.PackAddLiquidityETH(w.addrs.USD, units(30_000, 6), big.NewInt(0), big.NewInt(0), w.deployer.Address, big.NewInt(math.MaxInt64)))

	w.rpc = rpcproxy.Start(t, "http://127.0.0.1:"+strconv.Itoa(port))
	c, err := rpc.DialContext(ctx, w.rpc.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	reader, err := evm.New(c, w.addrs.Multicall3)
	if err != nil {
		t.Fatal(err)
	}
	w.reader = reader
	w.ix = index.New(st.Client, st.Dialect, map[string]index.Pricing{"base": {
		Stablecoins: map[string]bool{lowerHex(w.addrs.USD): true}, WrappedNative: lowerHex(w.addrs.WrappedNative)}})
	w.follower = evm.NewFollower(evm.FollowerConfig{Chain: "base", Reader: reader, Sink: w.ix, Confirmations: confirmations,
		WrappedNative: w.addrs.WrappedNative,
		MaxRange:      7, // small ranges: the test crosses many batches
		Interval:      50 * time.Millisecond,
		StepTimeout:   300 * time.Millisecond, // so that Run gets over a hung RPC quickly
		Indexers:      []chain.EVMIndexer{uniswapv2.Indexer{Factory: lowerHex(w.addrs.Factory), FeeBps: 30}}})
	return w
}

// accounts (re)reads every account's nonce: after a reorg the chain's nonces are the truth.
func (w *chainWorld) accounts() {
	w.t.Helper()
	var err error
	if w.deployer, err = devnet.NewAccount(w.ctx, w.sim.Client(), w.keys[0]); err != nil {
		w.t.Fatal(err)
	}
	w.users = w.users[:0]
	for _, k := range w.keys[1:] {
		u, err := devnet.NewAccount(w.ctx, w.sim.Client(), k)
		if err != nil {
			w.t.Fatal(err)
		}
		w.users = append(w.users, u)
	}
}

func lowerHex(a common.Address) string { return strings.ToLower(a.Hex()) }

func (w *chainWorld) tx(from *devnet.Account, to common.Address, value *big.Int, data []byte) *types.Receipt {
	w.t.Helper()
	rc, err := from.Transact(w.ctx, w.sim, to, value, data)
	if err != nil {
		w.t.Fatal(err)
	}
	return rc
}

// sync steps the follower until it has caught up with the head.
func (w *chainWorld) sync() {
	w.t.Helper()
	for range 1000 {
		done, err := w.follower.Step(w.ctx)
		if err != nil {
			w.t.Fatal(err)
		}
		if done {
			return
		}
	}
	w.t.Fatal("follower never caught up")
}

func (w *chainWorld) balanceOf(token, holder common.Address) *big.Int {
	w.t.Helper()
	c := bind.NewBoundContract(token, tokenABI.GetABI(), w.sim.Client(), w.sim.Client(), w.sim.Client())
	v, err := bind.Call(c, &bind.CallOpts{Context: w.ctx}, tokenABI.PackBalanceOf(holder), tokenABI.UnpackBalanceOf)
	if err != nil {
		w.t.Fatal(err)
	}
	return v
}

func (w *chainWorld) pair(a, b common.Address) common.Address {
	w.t.Helper()
	f := bindings.NewUniswapV2Factory()
	c := bind.NewBoundContract(w.addrs.Factory, f.GetABI(), w.sim.Client(), w.sim.Client(), w.sim.Client())
	p, err := bind.Call(c, &bind.CallOpts{Context: w.ctx}, f.PackGetPair(a, b), f.UnpackGetPair)
	if err != nil {
		w.t.Fatal(err)
	}
	return p
}

// checkBalances compares every indexed balance of the token with balanceOf, and the holder count
// with the number of non-zero balances among the accounts and the pool.
func (w *chainWorld) checkBalances(token common.Address, holders ...common.Address) {
	w.t.Helper()
	indexed, err := w.ix.TopHolders(w.ctx, "base", lowerHex(token), 100)
	if err != nil {
		w.t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range indexed {
		got[b.Holder] = b.Balance
	}
	for _, h := range holders {
		want := w.balanceOf(token, h)
		if want.Sign() == 0 {
			if _, ok := got[lowerHex(h)]; ok {
				w.t.Errorf("%s: indexed balance %s for a holder with none", h, got[lowerHex(h)])
			}
			continue
		}
		if got[lowerHex(h)] != want.String() {
			w.t.Errorf("%s balance of %s: index %s, chain %s", token, h, got[lowerHex(h)], want)
		}
	}
}

func TestFollowDevnet(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		w := newChainWorld(t, st, 0)
		w.sync()
		pool := w.pair(w.alpha, w.addrs.USD)
		// Trades from several accounts, each checked against the Swap the receipt holds.
		type want struct {
			trader common.Address
			side   string
			base   *big.Int // ALPHA
			quote  *big.Int // USD
		}
		var wants []want
		for i, u := range w.users {
			before := w.balanceOf(w.alpha, u.Address)
			if i%2 == 0 {
				in := units(int64(100*(i+1)), 6)
				w.tx(u, w.addrs.Router, nil, routerABI.PackSwapExactTokensForTokens(in, big.NewInt(0), []common.Address{w.addrs.USD, w.alpha}, u.Address, big.NewInt(math.MaxInt64)))
				wants = append(wants, want{u.Address, "buy", new(big.Int).Sub(w.balanceOf(w.alpha, u.Address), before), in})
			} else {
				in := units(int64(50*(i+1)), 18)
				usdBefore := w.balanceOf(w.addrs.USD, u.Address)
				w.tx(u, w.addrs.Router, nil, routerABI.PackSwapExactTokensForTokens(in, big.NewInt(0), []common.Address{w.alpha, w.addrs.USD}, u.Address, big.NewInt(math.MaxInt64)))
				wants = append(wants, want{u.Address, "sell", in, new(big.Int).Sub(w.balanceOf(w.addrs.USD, u.Address), usdBefore)})
			}
		}
		w.tx(w.users[0], w.alpha, nil, tokenABI.PackTransfer(w.users[1].Address, units(7, 18)))
		w.sync()

		trades, err := w.ix.Trades(w.ctx, "base", []string{lowerHex(pool)}, index.Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(trades) != len(wants) {
			t.Fatalf("%d trades indexed, %d made", len(trades), len(wants))
		}
		for i, wt := range wants {
			got := trades[len(trades)-1-i] // newest first
			if got.Trader != lowerHex(wt.trader) || got.Side != wt.side || got.BaseAmount != wt.base.String() || got.QuoteAmount != wt.quote.String() {
				t.Errorf("trade %d = %+v, want %+v", i, got, wt)
			}
		}
		// Reserves and the price after the last trade equal the pair's.
		p, err := w.ix.Pool(w.ctx, "base", lowerHex(pool))
		if err != nil {
			t.Fatal(err)
		}
		alphaOnChain, usdOnChain := w.balanceOf(w.alpha, pool), w.balanceOf(w.addrs.USD, pool)
		if r := map[bool][2]string{true: {p.Reserve0, p.Reserve1}, false: {p.Reserve1, p.Reserve0}}[p.Token0 == lowerHex(w.alpha)]; r[0] != alphaOnChain.String() || r[1] != usdOnChain.String() {
			t.Errorf("reserves %v, pair holds ALPHA %s USD %s", r, alphaOnChain, usdOnChain)
		}
		holders := []common.Address{w.deployer.Address, pool}
		for _, u := range w.users {
			holders = append(holders, u.Address)
		}
		w.checkBalances(w.alpha, holders...)
		w.checkBalances(w.addrs.USD, holders...)
		w.checkBalances(pool, w.deployer.Address) // LP token
	})
}

func TestFollowReorg(t *testing.T) {
	w := newChainWorld(t, storetest.SQLite(t), 3)
	w.sync()
	pool := lowerHex(w.pair(w.alpha, w.addrs.USD))
	fork, err := w.sim.Client().HeaderByNumber(w.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Two trades land, are indexed, then a reorg replaces their blocks with empty ones.
	for _, u := range w.users[:2] {
		w.tx(u, w.addrs.Router, nil, routerABI.PackSwapExactTokensForTokens(units(100, 6), big.NewInt(0), []common.Address{w.addrs.USD, w.alpha}, u.Address, big.NewInt(math.MaxInt64)))
	}
	w.sync()
	if trades := w.trades(pool); len(trades) != 2 {
		t.Fatalf("%d trades before the reorg, want 2", len(trades))
	}
	if err := w.sim.Fork(fork.Hash()); err != nil {
		t.Fatal(err)
	}
	w.sim.Rollback() // drop the orphaned transactions instead of mining them again
	for range 4 {
		w.sim.Commit()
	}
	w.sync()
	if trades := w.trades(pool); len(trades) != 0 {
		t.Fatalf("trades after the reorg = %+v, want none", trades)
	}
	w.accounts()
	w.checkBalances(w.alpha, w.users[0].Address, w.users[1].Address, common.HexToAddress(pool))
	// The new chain's trades are indexed as usual.
	w.tx(w.users[2], w.addrs.Router, nil, routerABI.PackSwapExactTokensForTokens(units(100, 6), big.NewInt(0), []common.Address{w.addrs.USD, w.alpha}, w.users[2].Address, big.NewInt(math.MaxInt64)))
	w.sync()
	if trades := w.trades(pool); len(trades) != 1 || trades[0].Trader != lowerHex(w.users[2].Address) {
		t.Fatalf("trades on the new chain = %+v", trades)
	}
	w.checkBalances(w.alpha, w.users[2].Address, common.HexToAddress(pool))
}

// TestFollowRPCDown: with the RPC gone, a step fails with an upstream error and the index is left
// exactly as it was: nothing half-written.
func TestFollowRPCDown(t *testing.T) {
	w := newChainWorld(t, storetest.SQLite(t), 0)
	before, pool := w.unindexedSwap()
	if err := w.sim.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.follower.Step(w.ctx); !errors.Is(err, chain.ErrUpstreamUnavailable) {
		t.Fatalf("step with the RPC down: %v, want an upstream-unavailable error", err)
	}
	w.checkUntouched(before, pool)
}

// TestFollowRPCHung: a step against an RPC that stops answering fails with an upstream timeout at
// its deadline and leaves the index as it was; Run, whose steps have a deadline, carries on by
// itself once the RPC answers again.
func TestFollowRPCHung(t *testing.T) {
	w := newChainWorld(t, storetest.SQLite(t), 0)
	before, pool := w.unindexedSwap()
	w.rpc.Stall("eth_getLogs") // the head and the headers still answer: the step is midway when it hangs

	ctx, cancel := context.WithTimeout(w.ctx, 300*time.Millisecond)
	_, err := w.follower.Step(ctx)
	cancel()
	if !errors.Is(err, chain.ErrUpstreamTimeout) {
		t.Fatalf("step with the RPC hung: %v, want an upstream-timeout error", err)
	}
	w.checkUntouched(before, pool)

	runCtx, stop := context.WithCancel(w.ctx)
	done := make(chan struct{})
	go func() { defer close(done); w.follower.Run(runCtx) }()
	defer func() { stop(); <-done }()
	time.Sleep(time.Second) // a few steps time out meanwhile
	w.rpc.Release()
	for deadline := time.Now().Add(20 * time.Second); len(w.trades(pool)) != 1; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Run did not index the swap after the RPC came back")
		}
	}
}

// unindexedSwap indexes everything so far, then swaps USD for alpha without indexing it: it
// returns the cursor before the swap and the pool it trades in.
func (w *chainWorld) unindexedSwap() (before chain.Cursor, pool string) {
	w.t.Helper()
	w.sync()
	before, _, err := w.ix.Cursor(w.ctx, "base")
	if err != nil {
		w.t.Fatal(err)
	}
	pool = lowerHex(w.pair(w.alpha, w.addrs.USD))
	w.tx(w.users[0], w.addrs.Router, nil, routerABI.PackSwapExactTokensForTokens(units(100, 6), big.NewInt(0), []common.Address{w.addrs.USD, w.alpha}, w.users[0].Address, big.NewInt(math.MaxInt64)))
	return before, pool
}

// checkUntouched fails unless the cursor is still before and the pool has no trades: a failed
// step wrote nothing.
func (w *chainWorld) checkUntouched(before chain.Cursor, pool string) {
	w.t.Helper()
	if after, _, err := w.ix.Cursor(w.ctx, "base"); err != nil || after != before {
		w.t.Fatalf("cursor moved from %+v to %+v (%v)", before, after, err)
	}
	if got := w.trades(pool); len(got) != 0 {
		w.t.Fatalf("trades = %+v", got)
	}
}

// trades is the pool's indexed trades, newest first.
func (w *chainWorld) trades(pool string) []index.Event {
	w.t.Helper()
	got, err := w.ix.Trades(w.ctx, "base", []string{pool}, index.Page{Limit: 10})
	if err != nil {
		w.t.Fatal(err)
	}
	return got
}
