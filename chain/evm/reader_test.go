package evm

import (
	"context"
	"crypto/ecdsa"
	"math"
	"math/big"
	"net"
	"net/http"
	"slices"
	"strconv"
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

// countingTransport counts HTTP round trips: one JSON-RPC call or one JSON-RPC batch is one.
type countingTransport struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(req)
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

// world is a devnet chain served over real HTTP JSON-RPC (the simulated backend's own node, with
// its HTTP server switched on) plus a Reader dialled through a counting transport.
type world struct {
	t        *testing.T
	ctx      context.Context
	sim      *simulated.Backend
	addrs    devnet.Addresses
	deployer *devnet.Account
	url      string
	rt       *countingTransport
	reader   *Reader
	alpha    common.Address // 18 decimals
	beta     common.Address // 8 decimals
	pair     common.Address // ALPHA/USD
	owners   []common.Address
}

func units(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

func key(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var tokenB = bindings.NewToken()

// newWorld deploys the core contracts, two tokens with distinct holder sets among 24 owners, and
// one ALPHA/USD pool with liquidity.
func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := t.Context()
	deployerKey := key(t)
	owners := make([]common.Address, 24)
	alloc := types.GenesisAlloc{crypto.PubkeyToAddress(deployerKey.PublicKey): {Balance: units(1_000_000, 18)}}
	for i := range owners {
		owners[i] = crypto.PubkeyToAddress(key(t).PublicKey)
		if i%2 == 0 { // every other owner has some native balance
			alloc[owners[i]] = types.Account{Balance: units(int64(i+1), 17)}
		}
	}
	port := freePort(t)
	sim := devnet.NewBackend(alloc, func(nc *node.Config, _ *ethconfig.Config) {
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
	w := &world{t: t, ctx: ctx, sim: sim, addrs: addrs, deployer: dep, owners: owners,
		url: "http://127.0.0.1:" + strconv.Itoa(port)}
	if w.alpha, err = dep.Deploy(ctx, sim, &bindings.TokenMetaData, tokenB.PackConstructor("Alpha", "ALPHA", 18)); err != nil {
		t.Fatal(err)
	}
	if w.beta, err = dep.Deploy(ctx, sim, &bindings.TokenMetaData, tokenB.PackConstructor("Beta Coin", "BETA", 8)); err != nil {
		t.Fatal(err)
	}
	w.tx(addrs.USD, tokenB.PackMint(dep.Address, units(1_000_000, 6)))
	w.tx(w.alpha, tokenB.PackMint(dep.Address, units(1_000_000, 18)))
	for i, o := range owners {
		switch {
		case i%3 == 0:
			w.tx(addrs.USD, tokenB.PackMint(o, units(int64(100+i), 6)))
		case i%3 == 1:
			w.tx(w.alpha, tokenB.PackMint(o, units(int64(10+i), 18)))
		}
		if i%5 == 0 {
			w.tx(w.beta, tokenB.PackMint(o, units(int64(1+i), 8)))
		}
	}
	router := bindings.NewUniswapV2Router02()
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	w.tx(addrs.USD, tokenB.PackApprove(addrs.Router, maxUint))
	w.tx(w.alpha, tokenB.PackApprove(addrs.Router, maxUint))
	a, u := units(100_000, 18), units(50_000, 6)
	w.tx(addrs.Router, router.PackAddLiquidity(w.alpha, addrs.USD, a, u, a, u, dep.Address, new(big.Int).SetUint64(math.MaxUint64)))
	factory := bindings.NewUniswapV2Factory()
	w.pair = callBinding(w, addrs.Factory, factory.PackGetPair(w.alpha, addrs.USD), factory.UnpackGetPair)

	w.rt = &countingTransport{base: http.DefaultTransport}
	c, err := rpc.DialOptions(ctx, w.url, rpc.WithHTTPClient(&http.Client{Transport: w.rt}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if w.reader, err = New(c, addrs.Multicall3); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) tx(to common.Address, data []byte) {
	w.t.Helper()
	if _, err := w.deployer.Transact(w.ctx, w.sim, to, nil, data); err != nil {
		w.t.Fatal(err)
	}
}

// callBinding reads through the devnet bindings over the backend's in-process client: the
// independent source of truth the Reader's results are compared with.
func callBinding[T any](w *world, to common.Address, data []byte, unpack func([]byte) (T, error)) T {
	w.t.Helper()
	client := w.sim.Client()
	c := bind.NewBoundContract(to, tokenB.GetABI(), client, client, client)
	v, err := bind.Call(c, &bind.CallOpts{Context: w.ctx}, data, unpack)
	if err != nil {
		w.t.Fatalf("call %s: %v", to, err)
	}
	return v
}

func TestTokenMetadata(t *testing.T) {
	w := newWorld(t)
	eoa := w.owners[0]
	tokens := []common.Address{w.addrs.USD, w.alpha, w.beta, w.addrs.WrappedNative, w.pair, eoa, w.addrs.Multicall3}
	got, err := w.reader.TokenMetadata(w.ctx, tokens)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(tokens) {
		t.Fatalf("%d entries for %d tokens", len(got), len(tokens))
	}
	for i, tok := range tokens[:5] { // ERC-20s, including the pair's LP token
		m := got[i]
		if !m.OK() || m.Address != tok {
			t.Fatalf("%s: %+v", tok, m)
		}
		if want := callBinding(w, tok, tokenB.PackName(), tokenB.UnpackName); m.Name != want {
			t.Errorf("%s name = %q, want %q", tok, m.Name, want)
		}
		if want := callBinding(w, tok, tokenB.PackSymbol(), tokenB.UnpackSymbol); m.Symbol != want {
			t.Errorf("%s symbol = %q, want %q", tok, m.Symbol, want)
		}
		if want := callBinding(w, tok, tokenB.PackDecimals(), tokenB.UnpackDecimals); m.Decimals != want {
			t.Errorf("%s decimals = %d, want %d", tok, m.Decimals, want)
		}
		if want := callBinding(w, tok, tokenB.PackTotalSupply(), tokenB.UnpackTotalSupply); m.TotalSupply.Cmp(want) != 0 {
			t.Errorf("%s totalSupply = %s, want %s", tok, m.TotalSupply, want)
		}
	}
	if got[0].Symbol != "USDD" || got[0].Decimals != 6 || got[2].Name != "Beta Coin" || got[2].Decimals != 8 {
		t.Errorf("USD/BETA metadata = %+v / %+v", got[0], got[2])
	}
	for _, m := range got[5:] { // an EOA and a contract that is not a token: reported per entry
		if len(m.Failed) != 4 || m.TotalSupply != nil {
			t.Errorf("%s: Failed = %v, want all four getters", m.Address, m.Failed)
		}
	}
}

func TestBalances(t *testing.T) {
	w := newWorld(t)
	tokens := []common.Address{w.addrs.USD, w.alpha, w.beta, w.addrs.WrappedNative, w.pair, w.owners[1]} // last: not a token
	owners := append([]common.Address{w.deployer.Address}, w.owners[:23]...)                             // 24 owners

	before := w.rt.n.Load()
	native, erc20, block, err := w.reader.Balances(w.ctx, owners, slices.Repeat([][]common.Address{tokens}, len(owners)))
	if err != nil {
		t.Fatal(err)
	}
	// Exactly 2 (eth_blockNumber, then one eth_call): more breaks the budget, fewer would mean
	// the counter is not on the path.
	if trips := w.rt.n.Load() - before; trips != 2 {
		t.Fatalf("Balances for %d owners x %d tokens took %d HTTP round trips, want 2", len(owners), len(tokens), trips)
	}
	head, err := w.sim.Client().BlockNumber(w.ctx)
	if err != nil || block != head {
		t.Fatalf("block = %d, head = %d (%v)", block, head, err)
	}
	nonZero := 0
	for i, o := range owners {
		want, err := w.sim.Client().BalanceAt(w.ctx, o, new(big.Int).SetUint64(block))
		if err != nil {
			t.Fatal(err)
		}
		if native[i].Cmp(want) != 0 {
			t.Errorf("native balance of %s = %s, want %s", o, native[i], want)
		}
		for j, tok := range tokens[:len(tokens)-1] {
			want := callBinding(w, tok, tokenB.PackBalanceOf(o), tokenB.UnpackBalanceOf)
			if erc20[i][j] == nil || erc20[i][j].Cmp(want) != 0 {
				t.Errorf("balance of %s in %s = %v, want %s", o, tok, erc20[i][j], want)
			}
			if want.Sign() > 0 {
				nonZero++
			}
		}
		if erc20[i][len(tokens)-1] != nil {
			t.Errorf("balanceOf on an EOA = %s, want nil", erc20[i][len(tokens)-1])
		}
	}
	if nonZero < 20 {
		t.Fatalf("only %d non-zero token balances: the fixture is too thin to prove anything", nonZero)
	}

	// Pinned to the block: a later transfer does not change what that block says.
	w.tx(w.addrs.USD, tokenB.PackTransfer(owners[5], units(7, 6)))
	_, again, block2, err := w.reader.Balances(w.ctx, owners[5:6], [][]common.Address{tokens[:1]})
	if err != nil || block2 <= block {
		t.Fatalf("second read at %d after %d: %v", block2, block, err)
	}
	if d := new(big.Int).Sub(again[0][0], erc20[5][0]); d.Cmp(units(7, 6)) != 0 {
		t.Fatalf("balance moved by %s, want 7 USD", d)
	}

	// Beyond MaxCalldataPerCall the read is chunked, all chunks in one JSON-RPC batch.
	many := make([]common.Address, 0, 120)
	for len(many) < cap(many) {
		many = append(many, tokens[:5]...)
	}
	if n := len(chunk(make([]call, len(owners)*(1+len(many))))); n < 2 {
		t.Fatalf("%d chunks: the chunking case is not exercised", n)
	}
	before = w.rt.n.Load()
	_, wide, _, err := w.reader.Balances(w.ctx, owners, slices.Repeat([][]common.Address{many}, len(owners)))
	if err != nil {
		t.Fatal(err)
	}
	if trips := w.rt.n.Load() - before; trips != 2 {
		t.Fatalf("chunked Balances took %d round trips, want at most 2", trips)
	}
	for i := range owners {
		if i == 0 || i == 5 { // the transfer above moved these
			continue
		}
		for j := range many {
			if wide[i][j].Cmp(erc20[i][j%5]) != 0 {
				t.Fatalf("chunked balance [%d][%d] = %s, want %s", i, j, wide[i][j], erc20[i][j%5])
			}
		}
	}
}

func TestPairStates(t *testing.T) {
	w := newWorld(t)
	pairB := bindings.NewUniswapV2Pair()
	before := w.rt.n.Load()
	got, err := w.reader.PairStates(w.ctx, []common.Address{w.pair, w.addrs.USD})
	if err != nil {
		t.Fatal(err)
	}
	if trips := w.rt.n.Load() - before; trips != 1 {
		t.Fatalf("PairStates took %d round trips, want 1", trips)
	}
	// Every state says the block it was read at, from the same eth_call: the head.
	head, err := w.sim.Client().BlockNumber(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Block != head || got[1].Block != head {
		t.Errorf("states read at blocks %d and %d, the head is %d", got[0].Block, got[1].Block, head)
	}
	s := got[0]
	if !s.OK() {
		t.Fatalf("pair state failed: %v", s.Failed)
	}
	res := callBinding(w, w.pair, pairB.PackGetReserves(), pairB.UnpackGetReserves)
	if s.Reserve0.Cmp(res.Reserve0) != 0 || s.Reserve1.Cmp(res.Reserve1) != 0 || s.BlockTimestampLast != res.BlockTimestampLast {
		t.Errorf("reserves = %s/%s@%d, want %s/%s@%d", s.Reserve0, s.Reserve1, s.BlockTimestampLast, res.Reserve0, res.Reserve1, res.BlockTimestampLast)
	}
	if want := callBinding(w, w.pair, pairB.PackToken0(), pairB.UnpackToken0); s.Token0 != want {
		t.Errorf("token0 = %s, want %s", s.Token0, want)
	}
	if want := callBinding(w, w.pair, pairB.PackToken1(), pairB.UnpackToken1); s.Token1 != want {
		t.Errorf("token1 = %s, want %s", s.Token1, want)
	}
	if want := callBinding(w, w.pair, pairB.PackTotalSupply(), pairB.UnpackTotalSupply); s.TotalSupply.Cmp(want) != 0 {
		t.Errorf("totalSupply = %s, want %s", s.TotalSupply, want)
	}
	if s.Reserve0.Sign() == 0 || (s.Token0 != w.alpha && s.Token0 != w.addrs.USD) {
		t.Errorf("pair state does not look like the pool: %+v", s)
	}
	// The USD token answers totalSupply but none of the pair getters.
	if bad := got[1]; len(bad.Failed) != 3 || bad.TotalSupply == nil {
		t.Errorf("non-pair entry: Failed = %v, totalSupply %v", bad.Failed, bad.TotalSupply)
	}
}

// TestSourcePairStates: the Source's pair states are canonical, and a pair is its own LP token;
// what is not a pair has none.
func TestSourcePairStates(t *testing.T) {
	w := newWorld(t)
	got, err := NewSource(w.reader, "", "").PairStates(w.ctx, []string{w.pair.Hex(), w.addrs.USD.Hex()})
	if err != nil {
		t.Fatal(err)
	}
	pair := canonical(w.pair)
	if s := got[0]; !s.OK || s.Address != pair || s.LPToken != pair || s.TotalSupply == nil || s.TotalSupply.Sign() == 0 {
		t.Errorf("pair state %+v, want the pair as its own LP token", s)
	}
	if s := got[1]; s.OK || s.LPToken != "" {
		t.Errorf("a token's state %+v, want no LP token", s)
	}
}
