package trade_test

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/anvil"
	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/trade"
	"github.com/partner-platform/partnerd/venue"
)

// gasChain is a freshly seeded EVM chain (devnet.Seed: nothing has swapped on its pools, so every
// pair's price accumulators are still zero) with the trade service on it. Blocks are mined by the
// test: each when it says, with the transactions sent since the previous one.
type gasChain struct {
	t      *testing.T
	name   string
	rpc    *rpc.Client
	client *ethclient.Client
	market devnet.Market
	keys   []*ecdsa.PrivateKey
	svc    *trade.Service
	seen   *observed
	sims   map[string][]chain.EVMSimResult // by confirmation token: what each build's simulation answered
	// later makes the next block come secs seconds after the latest one.
	later func(secs uint64)
	// seal mines one block with the transactions sent since the last one.
	seal func(sent []*types.Transaction)
}

// observed is the real chain adapter, passed through, keeping what each simulation answered so
// that the test can compare the gas a transaction used with the gas simulated for it.
type observed struct {
	trade.EVM
	mu   sync.Mutex
	last []chain.EVMSimResult
}

func (o *observed) Simulate(ctx context.Context, next chain.EVMNextBlock, from string, calls []chain.EVMCall) ([]chain.EVMSimResult, error) {
	res, err := o.EVM.Simulate(ctx, next, from, calls)
	o.mu.Lock()
	o.last = res
	o.mu.Unlock()
	return res, err
}

func (o *observed) simulated() []chain.EVMSimResult {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.last
}

// serve puts the trade service on the seeded chain behind rc.
func (g *gasChain) serve(rc *rpc.Client) {
	g.t.Helper()
	g.rpc, g.client, g.sims = rc, ethclient.NewClient(rc), map[string][]chain.EVMSimResult{}
	cc := g.market.ChainConfig("")
	reader, err := evm.New(rc, g.market.Core.Multicall3)
	if err != nil {
		g.t.Fatal(err)
	}
	g.seen = &observed{EVM: evm.NewSource(reader, cc.WrappedNative, cc.Venues["uniswap-v2"].Factory)}
	info, _ := chain.Lookup("base")
	g.svc = trade.New(nil, []trade.Chain{trade.NewEVMChain(info, cc, g.seen, venue.All())}, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// newAnvilGasChain seeds the devnet's market on anvil and serves trades on it; then it turns
// anvil's automine off.
func newAnvilGasChain(t *testing.T) *gasChain {
	t.Helper()
	node := anvil.Start(t)
	b := node.Backend(t)
	g := &gasChain{t: t, name: "anvil", keys: node.Keys}
	g.market = seed(t, b, node.Keys)
	g.serve(b.EthClient().Client())
	g.call("evm_setAutomine", false)
	g.later = func(secs uint64) { g.call("evm_setNextBlockTimestamp", hexutil.Uint64(g.head().Time+secs)) }
	g.seal = func([]*types.Transaction) { g.call("evm_mine") }
	return g
}

// call makes a JSON-RPC call whose result does not matter.
func (g *gasChain) call(method string, args ...any) {
	g.t.Helper()
	if err := g.rpc.CallContext(g.t.Context(), nil, method, args...); err != nil {
		g.t.Fatalf("%s: %v", method, err)
	}
}

// newDevnetGasChain seeds the devnet's market on go-ethereum's simulated chain (devnet.NewBackend,
// which local mode runs, here with JSON-RPC over HTTP on a free loopback port) and serves trades on
// it.
func newDevnetGasChain(t *testing.T) *gasChain {
	t.Helper()
	keys := make([]*ecdsa.PrivateKey, 10)
	alloc := types.GenesisAlloc{}
	for i := range keys {
		keys[i] = mustKey(t)
		alloc[crypto.PubkeyToAddress(keys[i].PublicKey)] = types.Account{Balance: new(big.Int).Mul(big.NewInt(10_000), big.NewInt(1e18))}
	}
	port, authPort := freePort(t), freePort(t)
	sim := devnet.NewBackend(alloc, func(nc *node.Config, ec *ethconfig.Config) {
		nc.HTTPHost, nc.HTTPPort, nc.HTTPModules = "127.0.0.1", port, []string{"eth", "net", "web3"}
		nc.AuthAddr, nc.AuthPort = "127.0.0.1", authPort
		ec.Miner.GasPrice = big.NewInt(1) // as local mode: mine any tip
	})
	t.Cleanup(func() { _ = sim.Close() })
	g := &gasChain{t: t, name: "devnet", keys: keys}
	g.market = seed(t, sim, keys)
	rc, err := rpc.DialContext(t.Context(), fmt.Sprintf("http://127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	g.serve(rc)
	g.later = func(secs uint64) {
		if secs < 2 {
			return
		}
		// An empty block secs-1 after the latest; the next one is at least a second later. The pool
		// drops a mined transaction in the background, and until then there is no adjusting time.
		deadline := time.Now().Add(10 * time.Second)
		for {
			err := sim.AdjustTime(time.Duration(secs-1) * time.Second)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("adjust time: %v", err)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	g.seal = func(sent []*types.Transaction) {
		for _, tx := range sent { // the pool has them all before the block is sealed
			from, _ := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
			for {
				n, err := g.client.PendingNonceAt(t.Context(), from)
				if err != nil {
					t.Fatal(err)
				}
				if n > tx.Nonce() {
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
		}
		sim.Commit()
	}
	return g
}

// freePort is a free loopback TCP port.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// seed seeds the devnet's market on b from keys (0 deployer, 1..4 traders, 5..9 users).
func seed(t *testing.T, b devnet.Backend, keys []*ecdsa.PrivateKey) devnet.Market {
	t.Helper()
	accounts := make([]*devnet.Account, len(keys))
	for i, k := range keys {
		var err error
		if accounts[i], err = devnet.NewAccount(t.Context(), b.Client(), k); err != nil {
			t.Fatal(err)
		}
	}
	m, err := devnet.Seed(t.Context(), b, accounts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (g *gasChain) head() *types.Header {
	g.t.Helper()
	h, err := g.client.HeaderByNumber(g.t.Context(), nil)
	if err != nil {
		g.t.Fatal(err)
	}
	return h
}

// token is a seeded token's address by symbol (lower-case hex, as a request names it).
func (g *gasChain) token(symbol string) string {
	switch symbol {
	case "USDD":
		return strings.ToLower(g.market.Core.USD.Hex())
	case "WETH":
		return strings.ToLower(g.market.Core.WrappedNative.Hex())
	case trade.Native:
		return trade.Native
	}
	for _, tk := range g.market.Tokens {
		if tk.Symbol == symbol {
			return strings.ToLower(tk.Address.Hex())
		}
	}
	g.t.Fatalf("no seeded token %s", symbol)
	return ""
}

func (g *gasChain) user(i int) string {
	return strings.ToLower(crypto.PubkeyToAddress(g.keys[i].PublicKey).Hex())
}

// idle mines an empty block secs seconds after the latest one.
func (g *gasChain) idle(secs uint64) {
	g.later(secs)
	g.seal(nil)
}

// execute signs each transaction of b exactly as built with the user's key and mines it alone in a
// block secs seconds after the latest one, one after the other (a wallet waits for each receipt
// before it sends the next); every transaction must succeed. It logs the gas each used against the
// gas simulated for it and returns the largest ratio of the two.
func (g *gasChain) execute(what string, user int, b trade.Build, secs uint64) float64 {
	g.t.Helper()
	return g.executeTogether([]string{what}, []int{user}, []trade.Build{b}, secs)
}

// executeTogether executes builds of several users as execute does, except that their last
// transactions are mined together, in one block: the transactions before each build's last one are
// mined first, one block each, build after build.
func (g *gasChain) executeTogether(whats []string, users []int, builds []trade.Build, secs uint64) float64 {
	g.t.Helper()
	sims := make([][]chain.EVMSimResult, len(builds))
	for i, b := range builds {
		sims[i] = g.sims[b.ConfirmationToken]
		if len(sims[i]) != len(b.Transactions) {
			g.t.Fatalf("%s: %d simulated calls for %d transactions", whats[i], len(sims[i]), len(b.Transactions))
		}
	}
	worst := 0.0
	check := func(i, j int, sent *types.Transaction) {
		g.t.Helper()
		tx, sim := builds[i].Transactions[j], sims[i][j]
		rc := g.receipt(sent)
		ratio := float64(rc.GasUsed) / float64(sim.GasUsed)
		worst = max(worst, ratio)
		g.t.Logf("%s %s/%s: used %d, simulated %d (%.3f), peak %d, limit %d, block %d", g.name, whats[i], tx.ID, rc.GasUsed, sim.GasUsed, ratio,
			sim.PeakGas, tx.Gas, rc.BlockNumber)
		if rc.Status != types.ReceiptStatusSuccessful {
			g.t.Fatalf("%s %s/%s reverted in block %d: used %d of its limit %d (simulated %d)",
				g.name, whats[i], tx.ID, rc.BlockNumber, rc.GasUsed, tx.Gas, sim.GasUsed)
		}
	}
	for i, b := range builds {
		for j := range len(b.Transactions) - 1 {
			g.checkNeed(whats[i], users[i], b.Transactions[j], sims[i][j], secs)
			g.later(secs)
			sent := g.send(g.keys[users[i]], b.Transactions[j])
			g.seal([]*types.Transaction{sent})
			check(i, j, sent)
		}
	}
	for i, b := range builds {
		g.checkNeed(whats[i], users[i], b.Transactions[len(b.Transactions)-1], sims[i][len(sims[i])-1], secs)
	}
	g.later(secs)
	last := make([]*types.Transaction, len(builds))
	for i, b := range builds {
		last[i] = g.send(g.keys[users[i]], b.Transactions[len(b.Transactions)-1])
	}
	g.seal(last)
	for i, b := range builds {
		check(i, len(b.Transactions)-1, last[i])
	}
	return worst
}

// send signs one built transaction as it is and sends it.
func (g *gasChain) send(key *ecdsa.PrivateKey, tx trade.Tx) *types.Transaction {
	g.t.Helper()
	num := func(s string) *big.Int {
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			g.t.Fatalf("%s: %q is not a decimal", tx.ID, s)
		}
		return n
	}
	to := common.HexToAddress(tx.To)
	id := big.NewInt(tx.ChainID)
	signed, err := types.SignNewTx(key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{ChainID: id, Nonce: tx.Nonce,
		GasTipCap: num(tx.MaxPriorityFeePerGas), GasFeeCap: num(tx.MaxFeePerGas), Gas: tx.Gas, To: &to, Value: num(tx.Value),
		Data: hexutil.MustDecode(tx.Data)})
	if err != nil {
		g.t.Fatal(err)
	}
	if err := g.client.SendTransaction(g.t.Context(), signed); err != nil {
		g.t.Fatalf("send %s: %v", tx.ID, err)
	}
	return signed
}

// receipt is a mined transaction's receipt.
func (g *gasChain) receipt(tx *types.Transaction) *types.Receipt {
	g.t.Helper()
	rc, err := g.client.TransactionReceipt(g.t.Context(), tx.Hash())
	if err != nil {
		g.t.Fatalf("receipt of %s: %v", tx.Hash(), err)
	}
	return rc
}

// TestGasOfEveryBuild builds every kind of EVM build through the trade service on anvil and on the
// devnet (go-ethereum's simulated chain), signs each transaction exactly as built and has it mined
// in a block seconds after the latest one, as a real chain would, each after the previous one's
// receipt: every transaction must succeed with the gas limit it was built with. It logs the gas
// each used against the gas simulated for it, and the largest ratio of the two per build kind.
//
// The builds are made right after the blocks that touched their pools, so a simulation in the
// latest block's context (its timestamp) would see those pairs as already updated at that time and
// skip their price accumulators, which the mined transaction writes: two fresh pools are seeded in
// one block and swapped through at once (a pair's first swap after its creation, its accumulators
// still zero: four first writes of about 22,100 gas), and a compound's calls cross pools traded by
// its own earlier calls.
func TestGasOfEveryBuild(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		new  func(*testing.T) *gasChain
	}{
		{"anvil", newAnvilGasChain},
		{"devnet", newDevnetGasChain},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			checkGas(t, c.new(t))
		})
	}
}

// gap is how many seconds after the latest block each transaction is mined.
const gap = 3

// checkGas runs every build kind on g; see TestGasOfEveryBuild.
func checkGas(t *testing.T, g *gasChain) {
	ctx := t.Context()
	worst := map[string]float64{}
	kinds := []string{}
	record := func(kind string, ratio float64) {
		if _, ok := worst[kind]; !ok {
			kinds = append(kinds, kind)
		}
		worst[kind] = max(worst[kind], ratio)
	}
	must := func(what string) func(trade.Build, error) trade.Build {
		return func(b trade.Build, err error) trade.Build {
			t.Helper()
			if err != nil {
				t.Fatalf("%s %s: build: %v", g.name, what, err)
			}
			g.sims[b.ConfirmationToken] = g.seen.simulated()
			return b
		}
	}
	swap := func(kind string, user int, in, out, amount string, hops int) trade.Build {
		t.Helper()
		what := fmt.Sprintf("swap %s>%s", in, out)
		b := must(what)(g.svc.BuildSwap(ctx, 1, trade.SwapRequest{Chain: "base", User: g.user(user), InputMint: g.token(in),
			OutputMint: g.token(out), Amount: amount, SlippageBps: 100}))
		if len(b.Quote.Route) != hops {
			t.Fatalf("%s %s: a route of %d hops, want %d", g.name, what, len(b.Quote.Route), hops)
		}
		record(kind, g.execute(what, user, b, gap))
		return b
	}
	lp := func(kind, what string, user int, build func(context.Context, int, trade.LPRequest) (trade.Build, error), r trade.LPRequest) trade.Build {
		t.Helper()
		r.Chain, r.Venue, r.User = "base", "uniswap-v2", g.user(user)
		b := must(what)(build(ctx, 1, r))
		record(kind, g.execute(what, user, b, gap))
		return b
	}
	const u = 5 // a seeded user: USDD, AUR, QRTZ and ETH

	// Swaps on the seeded pools, whose accumulators are still zero; the second runs right after
	// the first traded its pools.
	swap("swap two-hop", u, "USDD", "QRTZ", "1000000000", 2) // 1,000 USDD through WETH
	swap("swap two-hop", u, "USDD", "QRTZ", "500000000", 2)
	swap("swap direct", u, "USDD", "EMB", "200000000", 1)
	swap("swap direct, native in", u, trade.Native, "USDD", "500000000000000000", 1)
	swap("swap V3, native in", u, trade.Native, "NIM", "200000000000000000", 1) // NIM/WETH's V3 pool, through SwapRouter02
	swap("swap V3, native out", u, "NIM", trade.Native, "1000000000000000000000", 1)
	swap("swap direct, native out", u, "QRTZ", trade.Native, "1000000000000", 1)

	transfer := func(kind, token, amount string) {
		t.Helper()
		to := strings.ToLower(crypto.PubkeyToAddress(mustKey(t).PublicKey).Hex()) // never held anything
		b := must(kind)(g.svc.BuildTransfer(ctx, 1, trade.TransferRequest{Chain: "base", User: g.user(u), To: to, Token: token, Amount: amount}))
		record(kind, g.execute(kind, u, b, gap))
	}
	transfer("transfer native", trade.Native, "0.1")
	transfer("transfer ERC-20", g.token("AUR"), "10")

	// Two fresh pools, NIM/WETH by trader 2 and EMB/WETH by trader 4, created, then seeded in one
	// block, NIM a fifth above its market price so that NIM to EMB routes through them both; then
	// trader 3's swap, the pairs' first, built at once and mined seconds later.
	for _, p := range []struct {
		user int
		a    string
	}{{2, "NIM"}, {4, "EMB"}} {
		lp("lp create", "lp create "+p.a+"/WETH", p.user, g.svc.BuildLPCreate, trade.LPRequest{TokenA: g.token(p.a), TokenB: g.token("WETH")})
	}
	nimPool := g.pool("NIM", "WETH")
	embPool := g.pool("EMB", "WETH")
	adds := []trade.Build{
		must("lp add NIM/WETH")(g.svc.BuildLPAdd(ctx, 1, trade.LPRequest{Chain: "base", Venue: "uniswap-v2", User: g.user(2), Pool: nimPool,
			TokenA: g.token("NIM"), TokenB: trade.Native, AmountA: "40000", AmountB: "4", SlippageBps: 100})),
		must("lp add EMB/WETH")(g.svc.BuildLPAdd(ctx, 1, trade.LPRequest{Chain: "base", Venue: "uniswap-v2", User: g.user(4), Pool: embPool,
			TokenA: g.token("EMB"), TokenB: trade.Native, AmountA: "280", AmountB: "4", SlippageBps: 100})),
	}
	record("lp add, native", g.executeTogether([]string{"lp add NIM/WETH", "lp add EMB/WETH"}, []int{2, 4}, adds, gap))
	b := swap("swap two-hop, fresh pools", 3, "NIM", "EMB", "400000000000000000000", 2)
	if route := []string{b.Quote.Route[0].Pool, b.Quote.Route[1].Pool}; route[0] != nimPool || route[1] != embPool {
		t.Fatalf("%s: NIM to EMB routed through %v, not the fresh pools %s and %s", g.name, route, nimPool, embPool)
	}

	// Liquidity, farming and withdrawal by the user.
	aurUSD, aurWETH := g.pool("AUR", "USDD"), g.pool("AUR", "WETH")
	lp("lp add", "lp add AUR/USDD", u, g.svc.BuildLPAdd, trade.LPRequest{Pool: aurUSD, TokenA: g.token("AUR"), TokenB: g.token("USDD"),
		AmountA: "100", AmountB: "150", SlippageBps: 100})
	lp("lp add, native", "lp add AUR/ETH", u, g.svc.BuildLPAdd, trade.LPRequest{Pool: aurWETH, TokenA: g.token("AUR"), TokenB: trade.Native,
		AmountA: "200", AmountB: "0.2", SlippageBps: 100})
	lp("lp farm stake", "lp farm stake", u, g.svc.BuildLPFarm, trade.LPRequest{Pool: aurWETH})
	g.idle(gap) // a block after the stake's: rewards earned
	lp("lp harvest", "lp harvest", u, g.svc.BuildLPHarvest, trade.LPRequest{Pool: aurWETH})
	g.idle(60)
	lp("lp compound", "lp compound", u, g.svc.BuildLPCompound, trade.LPRequest{Pool: aurWETH, SlippageBps: 100})
	lp("lp farm unstake", "lp farm unstake", u, g.svc.BuildLPFarm, trade.LPRequest{Pool: aurWETH, Unstake: true})
	lp("lp remove, native", "lp remove AUR/ETH", u, g.svc.BuildLPRemove, trade.LPRequest{Pool: aurWETH, Bps: 5_000, Native: true, SlippageBps: 100})
	lp("lp remove", "lp remove AUR/USDD", u, g.svc.BuildLPRemove, trade.LPRequest{Pool: aurUSD, Bps: 10_000, SlippageBps: 100})

	for _, k := range kinds {
		t.Logf("%s: largest used/simulated gas of %s: %.3f", g.name, k, worst[k])
	}
}

// mustKey is a new key.
func mustKey(t *testing.T) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// pool is the address of the uniswap-v2 pair of two seeded tokens (lower-case hex).
func (g *gasChain) pool(a, b string) string {
	g.t.Helper()
	cc := g.market.ChainConfig("")
	v := cc.Venues["uniswap-v2"]
	p, err := chain.UniswapV2PairAddress(v.Factory, v.InitCodeHash, g.token(a), g.token(b))
	if err != nil {
		g.t.Fatal(err)
	}
	return strings.ToLower(p)
}

// checkNeed mines tx with chain.EVMGasNeed of its simulation as its gas limit, without the margin the
// build adds for state that changes, in a block secs after the latest, and requires it to succeed;
// then it reverts the chain to before it. Only on anvil (evm_snapshot, evm_revert). The limit that
// anvil's simulation gives GasNeed is an upper bound on the refunds (anvil does not report the gas
// consumed before them), exact for the builds whose refunds reach London's cap (lp remove, a
// farm's getReward).
func (g *gasChain) checkNeed(what string, user int, tx trade.Tx, sim chain.EVMSimResult, secs uint64) {
	g.t.Helper()
	if g.name != "anvil" {
		return
	}
	var id hexutil.Big
	if err := g.rpc.CallContext(g.t.Context(), &id, "evm_snapshot"); err != nil {
		g.t.Fatalf("evm_snapshot: %v", err)
	}
	defer g.call("evm_revert", &id)
	g.later(secs)
	tx.Gas = chain.EVMGasNeed(sim)
	sent := g.send(g.keys[user], tx)
	g.seal([]*types.Transaction{sent})
	if rc := g.receipt(sent); rc.Status != types.ReceiptStatusSuccessful {
		g.t.Fatalf("%s %s/%s reverted with its GasNeed %d as its limit: used %d (simulated %d, peak %d)", g.name, what, tx.ID,
			tx.Gas, rc.GasUsed, sim.GasUsed, sim.PeakGas)
	}
}
