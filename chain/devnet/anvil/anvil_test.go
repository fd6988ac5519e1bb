package anvil

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math"
	"math/big"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
	"github.com/partner-platform/partnerd/chain/evm"
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

func units(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

var tokenB = bindings.NewToken()

// world is the reader tests' fixture (chain/evm/reader_test.go) built on anvil instead of
// go-ethereum: the core contracts, two tokens held by distinct sets of 24 owners, half of whom
// also hold ether, and one ALPHA/USD pool with liquidity; plus a Reader through a counting transport.
type world struct {
	t        *testing.T
	ctx      context.Context
	b        *Backend
	addrs    devnet.Addresses
	deployer *devnet.Account
	rt       *countingTransport
	reader   *evm.Reader
	alpha    common.Address // 18 decimals
	beta     common.Address // 8 decimals
	pair     common.Address // ALPHA/USD
	owners   []common.Address
}

func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := t.Context()
	node := Start(t)
	b := node.Backend(t)
	addrs, err := devnet.Deploy(ctx, b, node.Keys[0])
	if err != nil {
		t.Fatal(err)
	}
	dep, err := devnet.NewAccount(ctx, b.Client(), node.Keys[0])
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, ctx: ctx, b: b, addrs: addrs, deployer: dep, owners: make([]common.Address, 24)}
	for i := range w.owners {
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		w.owners[i] = crypto.PubkeyToAddress(k.PublicKey)
		if i%2 == 0 { // every other owner has some ether: plain value transfers
			if _, err := dep.Send(ctx, b, &w.owners[i], units(int64(i+1), 17), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if w.alpha, err = dep.Deploy(ctx, b, &bindings.TokenMetaData, tokenB.PackConstructor("Alpha", "ALPHA", 18)); err != nil {
		t.Fatal(err)
	}
	if w.beta, err = dep.Deploy(ctx, b, &bindings.TokenMetaData, tokenB.PackConstructor("Beta Coin", "BETA", 8)); err != nil {
		t.Fatal(err)
	}
	w.tx(addrs.USD, tokenB.PackMint(dep.Address, units(1_000_000, 6)))
	w.tx(w.alpha, tokenB.PackMint(dep.Address, units(1_000_000, 18)))
	for i, o := range w.owners {
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
	if w.pair == (common.Address{}) {
		t.Fatal("addLiquidity created no pair")
	}

	w.rt = &countingTransport{base: http.DefaultTransport}
	c, err := rpc.DialOptions(ctx, node.URL, rpc.WithHTTPClient(&http.Client{Transport: w.rt}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if w.reader, err = evm.New(c, addrs.Multicall3); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) tx(to common.Address, data []byte) {
	w.t.Helper()
	if _, err := w.deployer.Transact(w.ctx, w.b, to, nil, data); err != nil {
		w.t.Fatal(err)
	}
}

// callBinding reads through the devnet bindings over the backend's own connection (plain eth_call,
// no Multicall3): the source of truth the Reader's results are compared with.
func callBinding[T any](w *world, to common.Address, data []byte, unpack func([]byte) (T, error)) T {
	w.t.Helper()
	client := w.b.Client()
	c := bind.NewBoundContract(to, tokenB.GetABI(), client, client, client)
	v, err := bind.Call(c, &bind.CallOpts{Context: w.ctx}, data, unpack)
	if err != nil {
		w.t.Fatalf("call %s: %v", to, err)
	}
	return v
}

// TestReaderOnAnvil runs the Reader against anvil: the same reads as chain/evm's tests, on a
// different EVM implementation, compared with what the bindings read.
func TestReaderOnAnvil(t *testing.T) {
	w := newWorld(t)

	t.Run("TokenMetadata", func(t *testing.T) {
		tokens := []common.Address{w.addrs.USD, w.alpha, w.beta, w.addrs.WrappedNative, w.pair, w.owners[0], w.addrs.Multicall3}
		before := w.rt.n.Load()
		got, err := w.reader.TokenMetadata(w.ctx, tokens)
		if err != nil {
			t.Fatal(err)
		}
		if trips := w.rt.n.Load() - before; trips != 1 {
			t.Errorf("TokenMetadata took %d round trips, want 1", trips)
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
	})

	t.Run("Balances", func(t *testing.T) {
		tokens := []common.Address{w.addrs.USD, w.alpha, w.beta, w.addrs.WrappedNative, w.pair, w.owners[1]} // last: not a token
		owners := append([]common.Address{w.deployer.Address}, w.owners[:23]...)                             // 24 owners
		before := w.rt.n.Load()
		native, erc20, block, err := w.reader.Balances(w.ctx, owners, slices.Repeat([][]common.Address{tokens}, len(owners)))
		if err != nil {
			t.Fatal(err)
		}
		trips := w.rt.n.Load() - before
		t.Logf("Balances of %d owners x %d tokens: %d HTTP round trips", len(owners), len(tokens), trips)
		if trips > 2 {
			t.Fatalf("Balances took %d HTTP round trips, want at most 2", trips)
		}
		head, err := w.b.Client().BlockNumber(w.ctx)
		if err != nil || block != head {
			t.Fatalf("block = %d, head = %d (%v)", block, head, err)
		}
		nonZero, withEther := 0, 0
		for i, o := range owners {
			want, err := w.b.Client().BalanceAt(w.ctx, o, new(big.Int).SetUint64(block))
			if err != nil {
				t.Fatal(err)
			}
			if native[i].Cmp(want) != 0 {
				t.Errorf("native balance of %s = %s, want %s", o, native[i], want)
			}
			if want.Sign() > 0 {
				withEther++
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
		if nonZero < 20 || withEther < 12 {
			t.Fatalf("only %d non-zero token balances and %d owners with ether: the fixture is too thin", nonZero, withEther)
		}

		// Chunked: several aggregate3 eth_calls in one JSON-RPC batch, still two round trips.
		many := make([]common.Address, 0, 120)
		for len(many) < cap(many) {
			many = append(many, tokens[:5]...)
		}
		before = w.rt.n.Load()
		_, wide, _, err := w.reader.Balances(w.ctx, owners, slices.Repeat([][]common.Address{many}, len(owners)))
		if err != nil {
			t.Fatal(err)
		}
		trips = w.rt.n.Load() - before
		t.Logf("chunked Balances of %d owners x %d tokens: %d HTTP round trips", len(owners), len(many), trips)
		if trips > 2 {
			t.Fatalf("chunked Balances took %d round trips, want at most 2", trips)
		}
		for i := range owners {
			for j := range many {
				if wide[i][j] == nil || wide[i][j].Cmp(erc20[i][j%5]) != 0 {
					t.Fatalf("chunked balance [%d][%d] = %v, want %s", i, j, wide[i][j], erc20[i][j%5])
				}
			}
		}
	})

	t.Run("PairStates", func(t *testing.T) {
		pairB := bindings.NewUniswapV2Pair()
		before := w.rt.n.Load()
		got, err := w.reader.PairStates(w.ctx, []common.Address{w.pair, w.addrs.USD})
		if err != nil {
			t.Fatal(err)
		}
		if trips := w.rt.n.Load() - before; trips != 1 {
			t.Errorf("PairStates took %d round trips, want 1", trips)
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
		// The pool holds exactly what addLiquidity put in, whichever way the tokens sort.
		r := map[common.Address]*big.Int{s.Token0: s.Reserve0, s.Token1: s.Reserve1}
		if r[w.alpha] == nil || r[w.alpha].Cmp(units(100_000, 18)) != 0 || r[w.addrs.USD] == nil || r[w.addrs.USD].Cmp(units(50_000, 6)) != 0 {
			t.Errorf("pair state does not look like the pool: %+v", s)
		}
		// The USD token answers totalSupply but none of the pair getters.
		if bad := got[1]; len(bad.Failed) != 3 || bad.TotalSupply == nil {
			t.Errorf("non-pair entry: Failed = %v, totalSupply %v", bad.Failed, bad.TotalSupply)
		}
	})
}

// TestBackend checks the devnet.Backend adapter: a transaction is mined by the time Send returns,
// Commit reports its block, and go-ethereum's header hashing agrees with anvil's block hash.
func TestBackend(t *testing.T) {
	ctx := t.Context()
	node := Start(t, Accounts(2), Balance(5))
	if len(node.Keys) != 2 {
		t.Fatalf("%d keys, want 2", len(node.Keys))
	}
	b := node.Backend(t)
	from, to := address(node.Keys[0]), address(node.Keys[1])
	if bal, err := b.Client().BalanceAt(ctx, to, nil); err != nil || bal.Cmp(units(5, 18)) != 0 {
		t.Fatalf("funded balance = %v (%v), want 5 ether", bal, err)
	}
	acct, err := devnet.NewAccount(ctx, b.Client(), node.Keys[0])
	if err != nil {
		t.Fatal(err)
	}
	start, err := b.Client().BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		receipt, err := acct.Send(ctx, b, &to, big.NewInt(int64(i+1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := start + uint64(i) + 1; receipt.BlockNumber.Uint64() != want {
			t.Errorf("transaction %d mined in block %d, want %d (a block per transaction)", i, receipt.BlockNumber, want)
		}
		if head := b.Commit(); head != receipt.BlockHash {
			t.Errorf("Commit = %s, want the receipt's block %s", head, receipt.BlockHash)
		}
		header, err := b.Client().HeaderByNumber(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if header.Hash() != receipt.BlockHash {
			t.Errorf("go-ethereum hashes anvil's header to %s, anvil says %s", header.Hash(), receipt.BlockHash)
		}
	}
	if n, err := b.Client().NonceAt(ctx, from, nil); err != nil || n != 3 {
		t.Errorf("nonce = %d (%v), want 3", n, err)
	}

	// A transaction after a nonce gap waits in the queue; the report a seeding timeout gives says so.
	head, err := b.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	gap, err := types.SignNewTx(node.Keys[0], types.LatestSignerForChainID(big.NewInt(ChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(ChainID), Nonce: 5, GasTipCap: big.NewInt(1), GasFeeCap: new(big.Int).Mul(head.BaseFee, big.NewInt(2)),
		Gas: 21_000, To: &to, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Client().SendTransaction(ctx, gap); err != nil {
		t.Fatal(err)
	}
	report := devnet.PoolReport(b.Client(), from)
	for _, want := range []string{"mined nonce 3, pending nonce 3", "queued in the pool: map[5:"} {
		if !strings.Contains(report, want) {
			t.Errorf("PoolReport = %q, want it to say %q", report, want)
		}
	}
}

func address(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

// TestStartCleanup checks that the node is gone once the test that started it is.
func TestStartCleanup(t *testing.T) {
	var pid int
	t.Run("node", func(t *testing.T) {
		pid = Start(t).cmd.Process.Pid
	})
	if pid == 0 {
		t.Fatal("no node started")
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return // gone
	}
	if err := p.Signal(syscall.Signal(0)); !errors.Is(err, os.ErrProcessDone) {
		t.Fatalf("anvil (pid %d) still there after its test ended: signal 0 = %v", pid, err)
	}
}

// TestSeedOnAnvil runs devnet.Seed on anvil: the official Uniswap V2 contracts put every pool at
// its CREATE2 address under mainnet's init code hash, and every farm starts (Seed waits for anvil's
// wall clock to reach the farms' genesis) paying HRV; the V3 pools, positions and incentive are as
// seeded (Seed waits for the incentive's start to stake); the chain entry validates.
func TestSeedOnAnvil(t *testing.T) {
	ctx := t.Context()
	node := Start(t)
	b := node.Backend(t)
	accounts := make([]*devnet.Account, len(node.Keys))
	for i, k := range node.Keys {
		var err error
		if accounts[i], err = devnet.NewAccount(ctx, b.Client(), k); err != nil {
			t.Fatal(err)
		}
	}
	began := time.Now()
	m, err := devnet.Seed(ctx, b, accounts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Seed on anvil took %s", time.Since(began).Round(time.Millisecond))
	if m.InitCodeHash.Hex() != chain.UniswapV2InitCodeHash {
		t.Fatalf("InitCodeHash = %s, want %s", m.InitCodeHash.Hex(), chain.UniswapV2InitCodeHash)
	}
	factory := bindings.NewUniswapV2Factory()
	for _, p := range m.Pools {
		want, err := chain.UniswapV2PairAddress(m.Core.Factory.Hex(), chain.UniswapV2InitCodeHash, p.Token0.Hex(), p.Token1.Hex())
		if err != nil {
			t.Fatal(err)
		}
		if got := callAt(t, b, m.Core.Factory, factory.PackGetPair(p.Token1, p.Token0), factory.UnpackGetPair); got != common.HexToAddress(want) || got != p.Address {
			t.Fatalf("getPair = %s, CREATE2 address %s, seeded %s", got, want, p.Address)
		}
	}
	if len(m.Farms) != len(m.Pools) {
		t.Fatalf("%d farms for %d pools", len(m.Farms), len(m.Pools))
	}
	farm := bindings.NewStakingRewards()
	for i, f := range m.Farms {
		if f.StakingToken != m.Pools[i].Address {
			t.Fatalf("farm %d stakes %s, want pool %s", i, f.StakingToken, m.Pools[i].Address)
		}
		if got := callAt(t, b, f.Address, farm.PackRewardRate(), farm.UnpackRewardRate); got.Sign() == 0 || got.Cmp(f.RewardRate) != 0 {
			t.Fatalf("farm %d rewardRate = %s, want %s", i, got, f.RewardRate)
		}
		if got := callAt(t, b, f.RewardToken, tokenB.PackBalanceOf(f.Address), tokenB.UnpackBalanceOf); got.Sign() == 0 {
			t.Fatalf("farm %d holds no reward", i)
		}
	}

	// Uniswap V3: every pool at its CREATE2 address under the canonical init code hash, at its
	// seeded price with its positions; the incentive holds its reward and one stake.
	v3Factory, v3Pool, npm, staker := bindings.NewUniswapV3Factory(), v3pool.NewUniswapV3Pool(), bindings.NewNonfungiblePositionManager(), bindings.NewUniswapV3Staker()
	if len(m.V3Pools) == 0 {
		t.Fatal("no V3 pools seeded")
	}
	for _, p := range m.V3Pools {
		fee := big.NewInt(int64(p.Fee))
		if got := callAt(t, b, m.V3.Factory, v3Factory.PackGetPool(p.Token1, p.Token0, fee), v3Factory.UnpackGetPool); got != p.Address {
			t.Fatalf("getPool = %s, seeded %s", got, p.Address)
		}
		if got := callAt(t, b, p.Address, v3Pool.PackSlot0(), v3Pool.UnpackSlot0); got.SqrtPriceX96.Cmp(p.SqrtPriceX96) != 0 || got.Tick.Int64() != int64(p.Tick) {
			t.Fatalf("pool %s slot0 = %+v, seeded %s (tick %d)", p.Address, got, p.SqrtPriceX96, p.Tick)
		}
		for _, pos := range p.Positions {
			if got := callAt(t, b, m.V3.PositionManager, npm.PackPositions(pos.TokenID), npm.UnpackPositions); got.Liquidity.Cmp(pos.Liquidity) != 0 {
				t.Fatalf("position %s liquidity = %s, seeded %s", pos.TokenID, got.Liquidity, pos.Liquidity)
			}
		}
	}
	inc := m.V3Incentive
	if got := callAt(t, b, m.V3.Staker, staker.PackIncentives(inc.ID), staker.UnpackIncentives); got.TotalRewardUnclaimed.Cmp(inc.Reward) != 0 || got.NumberOfStakes.Int64() != 1 {
		t.Fatalf("incentive %s = %+v, want %s unclaimed and 1 stake", inc.ID, got, inc.Reward)
	}
	if err := (chain.Config{Chains: map[string]chain.ChainConfig{"base": m.ChainConfig(node.URL)}}).Validate(); err != nil {
		t.Fatal(err)
	}
}

func callAt[T any](t *testing.T, b *Backend, to common.Address, data []byte, unpack func([]byte) (T, error)) T {
	t.Helper()
	c := bind.NewBoundContract(to, tokenB.GetABI(), b.EthClient(), b.EthClient(), b.EthClient())
	v, err := bind.Call(c, &bind.CallOpts{Context: t.Context()}, data, unpack)
	if err != nil {
		t.Fatalf("call %s: %v", to, err)
	}
	return v
}
