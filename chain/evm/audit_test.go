package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/partner-platform/partnerd/chain"
	"io"
	"math"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

var (
	taxTokenB = bindings.NewTaxToken()
	routerB   = bindings.NewUniswapV2Router02()
	factoryB  = bindings.NewUniswapV2Factory()
	maxUint   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	noDead    = new(big.Int).SetUint64(math.MaxUint64)
)

// auditPool is one pool of the audit fixture: the pair and the token audited in it.
type auditPool struct{ pair, token common.Address }

// auditWorld is a devnet served over real HTTP JSON-RPC with one pool per audit case, and a Reader
// dialled through a counting transport.
type auditWorld struct {
	t      *testing.T
	ctx    context.Context
	sim    *simulated.Backend
	addrs  devnet.Addresses
	dep    *devnet.Account
	url    string
	rt     *countingTransport
	reader *Reader
	lpDead *big.Int // LP tokens of the plain pool sent to 0xdEaD

	plain, tax, honeypot, drain, usdQuoted, noRoute auditPool
}

func newAuditWorld(t *testing.T) *auditWorld {
	t.Helper()
	ctx := t.Context()
	deployerKey := key(t)
	port := freePort(t)
	sim := devnet.NewBackend(types.GenesisAlloc{crypto.PubkeyToAddress(deployerKey.PublicKey): {Balance: units(10_000_000, 18)}},
		func(nc *node.Config, _ *ethconfig.Config) {
			nc.HTTPHost = "127.0.0.1"
			nc.HTTPPort = port
			nc.HTTPModules = []string{"eth"}
			nc.HTTPVirtualHosts = []string{"*"}
			nc.AuthPort = freePort(t)
		})
	t.Cleanup(func() { _ = sim.Close() })
	addrs, err := devnet.Deploy(ctx, sim, deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	dep, err := devnet.NewAccount(ctx, sim.Client(), deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	w := &auditWorld{t: t, ctx: ctx, sim: sim, addrs: addrs, dep: dep, url: "http://127.0.0.1:" + strconv.Itoa(port)}

	// WETH/USD at 3,000 USD, the route for tokens quoted in USD.
	w.tx(addrs.USD, nil, tokenB.PackMint(dep.Address, units(10_000_000, 6)))
	w.tx(addrs.USD, nil, tokenB.PackApprove(addrs.Router, maxUint))
	w.poolETH(addrs.USD, units(300_000, 6), units(100, 18))

	// A plain token; 40% of the deployer's LP tokens go to 0xdEaD (the pair already locked 1,000 at 0x0).
	w.plain = w.poolETH(w.token(&bindings.TokenMetaData, "Plain", "PLAIN"), units(100_000, 18), units(100, 18))
	lp := callBinding(w.world(), w.plain.pair, tokenB.PackBalanceOf(dep.Address), tokenB.UnpackBalanceOf)
	w.lpDead = new(big.Int).Div(new(big.Int).Mul(lp, big.NewInt(4)), big.NewInt(10))
	w.tx(w.plain.pair, nil, tokenB.PackTransfer(deadAddress, w.lpDead))

	// Tax tokens: 5% buy / 10% sell, a honeypot, and a 100% sell tax (selling returns nothing).
	w.tax = w.taxPool("Taxed", 500, 1000, false)
	w.honeypot = w.taxPool("Honey", 0, 0, true)
	w.drain = w.taxPool("Drain", 0, 10_000, false)

	// A token quoted in USD (routed WETH -> USD -> token), and one quoted in a token with no WETH pair.
	usdq := w.token(&bindings.TokenMetaData, "Quoted", "USDQ")
	w.tx(addrs.Router, nil, routerB.PackAddLiquidity(usdq, addrs.USD, units(100_000, 18), units(50_000, 6), common.Big0, common.Big0, dep.Address, noDead))
	w.usdQuoted = auditPool{pair: w.getPair(usdq, addrs.USD), token: usdq}
	orphan := w.token(&bindings.TokenMetaData, "Orphan", "ORPH")
	island := w.token(&bindings.TokenMetaData, "Island", "ISLE")
	w.tx(addrs.Router, nil, routerB.PackAddLiquidity(orphan, island, units(100_000, 18), units(100_000, 18), common.Big0, common.Big0, dep.Address, noDead))
	w.noRoute = auditPool{pair: w.getPair(orphan, island), token: orphan}

	w.rt = &countingTransport{base: http.DefaultTransport}
	w.reader = w.dial(w.url, w.rt)
	return w
}

// world adapts the fixture to reader_test.go's callBinding.
func (w *auditWorld) world() *world { return &world{t: w.t, ctx: w.ctx, sim: w.sim} }

func (w *auditWorld) dial(url string, rt http.RoundTripper) *Reader {
	w.t.Helper()
	c, err := rpc.DialOptions(w.ctx, url, rpc.WithHTTPClient(&http.Client{Transport: rt}))
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(c.Close)
	r, err := New(c, w.addrs.Multicall3)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

func (w *auditWorld) tx(to common.Address, value *big.Int, data []byte) {
	w.t.Helper()
	if _, err := w.dep.Transact(w.ctx, w.sim, to, value, data); err != nil {
		w.t.Fatal(err)
	}
}

// token deploys a Token or TaxToken (18 decimals), mints 1,000,000 to the deployer and approves the router.
func (w *auditWorld) token(meta *bind.MetaData, name, symbol string) common.Address {
	w.t.Helper()
	addr, err := w.dep.Deploy(w.ctx, w.sim, meta, tokenB.PackConstructor(name, symbol, 18))
	if err != nil {
		w.t.Fatal(err)
	}
	w.tx(addr, nil, tokenB.PackMint(w.dep.Address, units(1_000_000, 18)))
	w.tx(addr, nil, tokenB.PackApprove(w.addrs.Router, maxUint))
	return addr
}

func (w *auditWorld) getPair(a, b common.Address) common.Address {
	w.t.Helper()
	return callBinding(w.world(), w.addrs.Factory, factoryB.PackGetPair(a, b), factoryB.UnpackGetPair)
}

// poolETH adds liquidity for token/WETH through the router (which creates the pair).
func (w *auditWorld) poolETH(token common.Address, amount, eth *big.Int) auditPool {
	w.t.Helper()
	w.tx(w.addrs.Router, eth, routerB.PackAddLiquidityETH(token, amount, common.Big0, common.Big0, w.dep.Address, noDead))
	return auditPool{pair: w.getPair(token, w.addrs.WrappedNative), token: token}
}

// taxPool deploys a TaxToken, pools it with 100 WETH and only then registers the pair and sets the taxes.
func (w *auditWorld) taxPool(name string, buyBps, sellBps int64, honeypot bool) auditPool {
	w.t.Helper()
	p := w.poolETH(w.token(&bindings.TaxTokenMetaData, name, strings.ToUpper(name)), units(100_000, 18), units(100, 18))
	w.tx(p.token, nil, taxTokenB.PackSetPair(p.pair))
	w.tx(p.token, nil, taxTokenB.PackSetTaxes(big.NewInt(buyBps), big.NewInt(sellBps)))
	if honeypot {
		w.tx(p.token, nil, taxTokenB.PackSetHoneypot(true))
	}
	return p
}

// audit audits p through w.reader and checks the figures every audit must get right: exactly one HTTP
// round trip, the head block, the token's code, and the pair's LP figures read independently.
func (w *auditWorld) audit(p auditPool) AuditFacts {
	w.t.Helper()
	before := w.rt.n.Load()
	got, err := w.reader.Audit(w.ctx, p.pair, p.token, w.addrs.WrappedNative, w.addrs.Factory)
	if err != nil {
		w.t.Fatal(err)
	}
	if trips := w.rt.n.Load() - before; trips != 1 {
		w.t.Fatalf("Audit took %d HTTP round trips, want 1", trips)
	}
	head, err := w.sim.Client().BlockNumber(w.ctx)
	if err != nil || got.Block != head {
		w.t.Fatalf("Block = %d, head = %d (%v)", got.Block, head, err)
	}
	if got.Token != p.token || !got.HasCode || !got.MintSelector {
		w.t.Fatalf("token facts = %+v: want code with a mint(address,uint256) entry point", got)
	}
	ww := w.world()
	supply := callBinding(ww, p.pair, tokenB.PackTotalSupply(), tokenB.UnpackTotalSupply)
	burned := new(big.Int).Add(callBinding(ww, p.pair, tokenB.PackBalanceOf(common.Address{}), tokenB.UnpackBalanceOf),
		callBinding(ww, p.pair, tokenB.PackBalanceOf(deadAddress), tokenB.UnpackBalanceOf))
	if got.LPTotalSupply == nil || got.LPTotalSupply.Cmp(supply) != 0 || got.LPBurned == nil || got.LPBurned.Cmp(burned) != 0 {
		w.t.Fatalf("LP = %v burned of %v, want %s of %s", got.LPBurned, got.LPTotalSupply, burned, supply)
	}
	if burned.Cmp(big.NewInt(1000)) < 0 {
		w.t.Fatalf("burned LP %s: the pair should have locked MINIMUM_LIQUIDITY at 0x0", burned)
	}
	return got
}

func checkSim(t *testing.T, name string, got, want chain.Simulation) {
	t.Helper()
	if got != want {
		t.Errorf("%s: Sim = %+v\n  want %+v", name, got, want)
	}
}

func TestAudit(t *testing.T) {
	w := newAuditWorld(t)

	t.Run("plain token, owned then renounced, LP partly at 0xdEaD", func(t *testing.T) {
		got := w.audit(w.plain)
		if got.Owner == nil || *got.Owner != w.dep.Address || got.OwnerRenounced {
			t.Errorf("owner = %v renounced %v, want %s", got.Owner, got.OwnerRenounced, w.dep.Address)
		}
		if want := new(big.Int).Add(w.lpDead, big.NewInt(1000)); got.LPBurned.Cmp(want) != 0 {
			t.Errorf("LPBurned = %s, want %s at 0xdEaD plus 1000 at 0x0", got.LPBurned, want)
		}
		checkSim(t, "plain", got.Sim, chain.Simulation{Ran: true, BuyOK: true, SellOK: true})

		w.tx(w.plain.token, nil, tokenB.PackRenounceOwnership())
		got = w.audit(w.plain)
		if got.Owner == nil || *got.Owner != (common.Address{}) || !got.OwnerRenounced {
			t.Errorf("after renounceOwnership: owner = %v renounced %v", got.Owner, got.OwnerRenounced)
		}
	})

	t.Run("5% buy tax, 10% sell tax", func(t *testing.T) {
		got := w.audit(w.tax)
		t.Logf("measured: buy %d bps, sell %d bps", got.Sim.BuyTaxBps, got.Sim.SellTaxBps)
		checkSim(t, "tax", got.Sim, chain.Simulation{Ran: true, BuyOK: true, SellOK: true, BuyTaxBps: 500, SellTaxBps: 1000})
		if got.Owner == nil || got.OwnerRenounced {
			t.Errorf("owner = %v renounced %v", got.Owner, got.OwnerRenounced)
		}
	})

	t.Run("honeypot: the sell reverts", func(t *testing.T) {
		got := w.audit(w.honeypot)
		checkSim(t, "honeypot", got.Sim, chain.Simulation{Ran: true, BuyOK: true, Honeypot: true,
			Reason: "sell reverted: the transfer to the pair failed"})
	})

	t.Run("honeypot: a 100% sell tax returns nothing", func(t *testing.T) {
		got := w.audit(w.drain)
		checkSim(t, "drain", got.Sim, chain.Simulation{Ran: true, BuyOK: true, SellTaxBps: 10_000, Honeypot: true,
			Reason: "sell reverted: the swap failed"})
	})

	t.Run("quoted in USD, routed through WETH/USD", func(t *testing.T) {
		got := w.audit(w.usdQuoted)
		checkSim(t, "usd", got.Sim, chain.Simulation{Ran: true, BuyOK: true, SellOK: true})
	})

	t.Run("no route from the wrapped native", func(t *testing.T) {
		got := w.audit(w.noRoute)
		if got.Sim.Ran || got.Sim.BuyOK || got.Sim.Honeypot || !strings.HasPrefix(got.Sim.Reason, "no route") {
			t.Errorf("Sim = %+v, want not run for lack of a route", got.Sim)
		}
		if got.Owner == nil || *got.Owner != w.dep.Address {
			t.Errorf("the other facts are still read: owner = %v", got.Owner)
		}
	})

	t.Run("not a pair", func(t *testing.T) {
		got, err := w.reader.Audit(w.ctx, w.addrs.Router, w.plain.token, w.addrs.WrappedNative, w.addrs.Factory)
		if err != nil {
			t.Fatal(err)
		}
		if got.Sim.Ran || got.Sim.Reason != "not a Uniswap V2 pair" || got.LPTotalSupply != nil || got.LPBurned != nil {
			t.Errorf("router as pair: %+v", got)
		}
		got, err = w.reader.Audit(w.ctx, w.plain.pair, w.tax.token, w.addrs.WrappedNative, w.addrs.Factory)
		if err != nil || got.Sim.Ran || got.Sim.Reason != "token is not in the pair" {
			t.Errorf("token of another pool: %+v, %v", got.Sim, err)
		}
	})

	t.Run("token without code or owner", func(t *testing.T) {
		eoa := common.HexToAddress("0x00000000000000000000000000000000000000aa")
		got, err := w.reader.Audit(w.ctx, w.plain.pair, eoa, w.addrs.WrappedNative, w.addrs.Factory)
		if err != nil {
			t.Fatal(err)
		}
		if got.HasCode || got.MintSelector || got.Owner != nil || got.OwnerRenounced || got.Sim.Ran {
			t.Errorf("EOA token: %+v", got)
		}
		// The wrapped native answers no owner() either (and has no mint).
		got, err = w.reader.Audit(w.ctx, w.plain.pair, w.addrs.WrappedNative, w.addrs.WrappedNative, w.addrs.Factory)
		if err != nil || !got.HasCode || got.MintSelector || got.Owner != nil || got.Sim.Reason != "token is the wrapped native" {
			t.Errorf("WETH as token: %+v, %v", got, err)
		}
	})
}

// splitRPC sends the first batch in two halves with a block mined in between, as if a block had landed
// while the node was answering it.
type splitRPC struct {
	*rpc.Client
	mine  func()
	split atomic.Bool
}

func (s *splitRPC) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	if !s.split.CompareAndSwap(false, true) {
		return s.Client.BatchCallContext(ctx, b)
	}
	if err := s.Client.BatchCallContext(ctx, b[:1]); err != nil {
		return err
	}
	s.mine()
	return s.Client.BatchCallContext(ctx, b[1:])
}

// A block landing mid-batch is detected (the probe's block differs from aggregate3's) and the batch is
// sent again pinned to aggregate3's block.
func TestAuditPinsOneBlock(t *testing.T) {
	w := newAuditWorld(t)
	rt := &countingTransport{base: http.DefaultTransport}
	c, err := rpc.DialOptions(w.ctx, w.url, rpc.WithHTTPClient(&http.Client{Transport: rt}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	reader, err := New(&splitRPC{Client: c, mine: func() { w.sim.Commit() }}, w.addrs.Multicall3)
	if err != nil {
		t.Fatal(err)
	}
	head, err := w.sim.Client().BlockNumber(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := reader.Audit(w.ctx, w.tax.pair, w.tax.token, w.addrs.WrappedNative, w.addrs.Factory)
	if err != nil {
		t.Fatal(err)
	}
	if now, _ := w.sim.Client().BlockNumber(w.ctx); now != head+1 {
		t.Fatalf("head moved from %d to %d: the split did not mine a block", head, now)
	}
	if got.Block != head {
		t.Errorf("Block = %d, want %d (aggregate3's block, which the retry pins)", got.Block, head)
	}
	// Two for the split first attempt, one for the pinned retry.
	if trips := rt.n.Load(); trips != 3 {
		t.Errorf("%d round trips, want 3", trips)
	}
	checkSim(t, "pinned", got.Sim, chain.Simulation{Ran: true, BuyOK: true, SellOK: true, BuyTaxBps: 500, SellTaxBps: 1000})
}

// overrideProxy forwards JSON-RPC to upstream, making eth_call with a state override fail as a node
// without override support would: "reject" turns it into an unknown method (a JSON-RPC error),
// "ignore" drops the override (the probe address then has no code and the call returns nothing).
func overrideProxy(t *testing.T, upstream, mode string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msgs []map[string]any
		if err := json.Unmarshal(body, &msgs); err != nil {
			http.Error(rw, "this proxy only forwards batches", http.StatusBadRequest)
			return
		}
		for _, m := range msgs {
			if params, _ := m["params"].([]any); m["method"] == "eth_call" && len(params) == 3 {
				if mode == "reject" {
					m["method"] = "eth_callWithoutOverrides"
				} else {
					m["params"] = params[:2]
				}
			}
		}
		body, _ = json.Marshal(msgs)
		resp, err := http.Post(upstream, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(rw, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(rw, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestAuditWithoutStateOverrides(t *testing.T) {
	w := newAuditWorld(t)
	for _, mode := range []string{"reject", "ignore"} {
		rt := &countingTransport{base: http.DefaultTransport}
		reader := w.dial(overrideProxy(t, w.url, mode), rt)
		got, err := reader.Audit(w.ctx, w.tax.pair, w.tax.token, w.addrs.WrappedNative, w.addrs.Factory)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if trips := rt.n.Load(); trips != 1 {
			t.Errorf("%s: %d round trips, want 1", mode, trips)
		}
		if got.Sim.Ran || got.Sim.BuyOK || got.Sim.Reason == "" || strings.Contains(got.Sim.Reason, "does not exist") {
			t.Errorf("%s: Sim = %+v, want not run, with a reason of ours", mode, got.Sim)
		}
		t.Logf("%s: %s", mode, got.Sim.Reason)
		if !got.HasCode || got.Owner == nil || got.LPTotalSupply == nil || got.Block == 0 {
			t.Errorf("%s: the other facts are still read: %+v", mode, got)
		}
	}
}

func TestAuditErrors(t *testing.T) {
	w := newAuditWorld(t)
	p := w.plain
	weth, factory := w.addrs.WrappedNative, w.addrs.Factory

	if _, err := w.reader.Audit(w.ctx, common.Address{}, p.token, weth, factory); KindOf(err) != KindInvalidInput {
		t.Errorf("zero pair: %v", err)
	}

	// No Multicall3 at the configured address.
	c, err := rpc.DialContext(w.ctx, w.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	wrong, _ := New(c, common.HexToAddress("0x00000000000000000000000000000000000000bb"))
	if _, err := wrong.Audit(w.ctx, p.pair, p.token, weth, factory); KindOf(err) != KindBadResponse {
		t.Errorf("no Multicall3: %v, want %s", err, KindBadResponse)
	}

	ctx, cancel := context.WithCancel(w.ctx)
	cancel()
	if _, err := w.reader.Audit(ctx, p.pair, p.token, weth, factory); KindOf(err) != KindCanceled {
		t.Errorf("canceled: %v", err)
	}

	// Nobody listening; and an RPC whose batch answers are JSON-RPC errors, whose text must not leak.
	down := dialReader(t, "http://127.0.0.1:"+strconv.Itoa(freePort(t)))
	if _, err := down.Audit(w.ctx, p.pair, p.token, weth, factory); KindOf(err) != KindUnavailable {
		t.Errorf("down: %v, want %s", err, KindUnavailable)
	}
	secret := "internal node 10.0.0.7 says no"
	failing := dialReader(t, fakeRPC(t, func(rw http.ResponseWriter, r *http.Request) {
		var msgs []struct {
			ID json.RawMessage `json:"id"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &msgs)
		out := make([]map[string]any, len(msgs))
		for i, m := range msgs {
			out[i] = map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32000, "message": secret}}
		}
		_ = json.NewEncoder(rw).Encode(out)
	}))
	_, err = failing.Audit(w.ctx, p.pair, p.token, weth, factory)
	if KindOf(err) != KindBadResponse || strings.Contains(err.Error(), secret) {
		t.Errorf("JSON-RPC errors: %v", err)
	}
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Detail(), secret) {
		t.Errorf("the cause should stay available for logs: %v", err)
	}
}

func TestHasPush4(t *testing.T) {
	runtime := func(name string) []byte {
		t.Helper()
		raw, err := os.ReadFile("../devnet/artifacts/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var a struct {
			Contracts map[string]struct {
				BinRuntime string `json:"bin-runtime"`
			} `json:"contracts"`
		}
		if err := json.Unmarshal(raw, &a); err != nil || len(a.Contracts[name+".sol:"+name].BinRuntime) == 0 {
			t.Fatalf("%s artifact: %v", name, err)
		}
		return common.FromHex(a.Contracts[name+".sol:"+name].BinRuntime)
	}
	for _, c := range []struct {
		name string
		code []byte
		want bool
	}{
		{"Token", runtime("Token"), true},
		{"TaxToken", runtime("TaxToken"), true},
		{"WETH9", runtime("WETH9"), false},
		{"UniswapV2Pair (mint(address) only)", runtime("UniswapV2Pair"), false},
		{"Multicall3", runtime("Multicall3"), false},
		{"PUSH4 mint", []byte{0x60, 0x00, 0x63, 0x40, 0xc1, 0x0f, 0x19, 0x14}, true},
		{"inside PUSH32 data", append(append([]byte{0x7f}, bytes.Repeat([]byte{0}, 27)...), 0x63, 0x40, 0xc1, 0x0f, 0x19), false},
		{"PUSH5", []byte{0x64, 0x40, 0xc1, 0x0f, 0x19, 0x00}, false},
		{"truncated", []byte{0x63, 0x40, 0xc1, 0x0f}, false},
		{"empty", nil, false},
	} {
		if got := hasPush4(c.code, mintSelector); got != c.want {
			t.Errorf("%s: hasPush4 = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestLossBps(t *testing.T) {
	for _, c := range []struct {
		want, got int64
		bps       int
	}{
		{10_000, 10_000, 0}, {10_000, 9_500, 500}, {10_000, 9_000, 1000}, {3, 2, 3333}, {2, 1, 5000},
		{20_000, 19_999, 1}, {40_000, 39_999, 0}, {10_000, 0, 10_000}, {10_000, 12_000, 0}, {0, 5, 0},
	} {
		if got := lossBps(big.NewInt(c.want), big.NewInt(c.got)); got != c.bps {
			t.Errorf("lossBps(%d, %d) = %d, want %d", c.want, c.got, got, c.bps)
		}
	}
}

// The embedded probe is the committed artifact, byte for byte (make contracts and make check-generated
// keep it so; this catches a copy forgotten by hand).
func TestProbeArtifactIsCurrent(t *testing.T) {
	embedded, err := abiFiles.ReadFile("abi/audit_probe.json")
	if err != nil {
		t.Fatal(err)
	}
	artifact, err := os.ReadFile("../devnet/artifacts/AuditProbe.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(embedded, artifact) {
		t.Fatal("chain/evm/abi/audit_probe.json differs from chain/devnet/artifacts/AuditProbe.json: run go generate ./chain/evm")
	}
	if _, ok := probeABI.Methods["audit"]; !ok || len(probeCode) == 0 {
		t.Fatal("the embedded probe has no audit method or no runtime code")
	}
}

func TestSimulationFigures(t *testing.T) {
	n := func(v int64) *big.Int { return big.NewInt(v) }
	ok := func(quoteOut int64) *probeResult {
		return &probeResult{Ran: true, BuyOk: true, SellOk: true, SellTransferOk: true, QuoteIn: n(1_000_000),
			ExpectedBuy: n(2_000_000), ReceivedBuy: n(1_900_000), SentSell: n(1_900_000), PairReceivedSell: n(95_000), QuoteOut: n(quoteOut)}
	}
	checkSim(t, "95% sell tax, 4.7% back", simulation(ok(47_000)), chain.Simulation{Ran: true, BuyOK: true, SellOK: true, BuyTaxBps: 500,
		SellTaxBps: 9500, Honeypot: true, Reason: "the sell returned almost nothing: under 10% of what the buy paid"})
	checkSim(t, "exactly 10% back", simulation(ok(100_000)), chain.Simulation{Ran: true, BuyOK: true, SellOK: true, BuyTaxBps: 500, SellTaxBps: 9500})
	failed := &probeResult{Ran: true, Reason: "buy reverted", QuoteIn: n(1), ExpectedBuy: n(5), ReceivedBuy: n(0), SentSell: n(0),
		PairReceivedSell: n(0), QuoteOut: n(0)}
	checkSim(t, "buy reverted", simulation(failed), chain.Simulation{Ran: true, Reason: "buy reverted"})
}
