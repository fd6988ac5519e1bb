package devnet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/big"
	"net"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// lockedBuffer is a log sink the loops may write to while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var quietLogger = slog.New(slog.DiscardHandler)

func startLocal(t *testing.T, ctx context.Context, opts LocalOptions) *Local {
	t.Helper()
	began := time.Now()
	l, err := StartLocal(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("StartLocal took %s", time.Since(began).Round(time.Millisecond))
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// callAt reads a contract through the bindings over the given client, at block (nil: latest).
func callAt[T any](t *testing.T, client bind.ContractBackend, to common.Address, block *big.Int, data []byte, unpack func([]byte) (T, error)) T {
	t.Helper()
	c := bind.NewBoundContract(to, bToken.GetABI(), client, client, client)
	v, err := bind.Call(c, &bind.CallOpts{Context: t.Context(), BlockNumber: block}, data, unpack)
	if err != nil {
		t.Fatalf("call %s: %v", to, err)
	}
	return v
}

// expectedBalances is what each account holds of each token (by symbol) right after seeding: the
// mints, less what the deployer put into the pools.
func expectedBalances() map[string][]*big.Int {
	decimals := map[string]uint8{usdSymbol: 6, wethSymbol: 18}
	out := map[string][]*big.Int{}
	set := func(sym string, hs []holding) {
		out[sym] = make([]*big.Int, numLocalAccounts)
		for i := range out[sym] {
			out[sym][i] = new(big.Int)
		}
		for _, h := range hs {
			out[sym][h.acct].Add(out[sym][h.acct], wholeUnits(h.whole, decimals[sym]))
		}
	}
	set(usdSymbol, append([]holding{{0, deployerUSD}}, usdHolders...))
	set(wethSymbol, nil)
	for _, ts := range seedTokens {
		decimals[ts.symbol] = ts.decimals
		set(ts.symbol, ts.holders)
	}
	for _, ps := range seedPools {
		if ps.a != wethSymbol {
			out[ps.a][0].Sub(out[ps.a][0], wholeUnits(ps.wholeA, decimals[ps.a]))
		}
		if ps.b != wethSymbol {
			out[ps.b][0].Sub(out[ps.b][0], wholeUnits(ps.wholeB, decimals[ps.b]))
		}
	}
	return out
}

// sendRaw signs a transfer of wei with a printed key and sends it over HTTP, as a wallet would.
func sendRaw(t *testing.T, client *ethclient.Client, from, to LocalAccount, nonce uint64, wei *big.Int) *types.Transaction {
	t.Helper()
	ctx := t.Context()
	key, err := crypto.HexToECDSA(strings.TrimPrefix(from.PrivateKeyHex, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(ChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(ChainID), Nonce: nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas:       21_000, To: &to.Address, Value: wei,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	return tx
}

// waitReceipt polls over HTTP until the transaction is mined.
func waitReceipt(t *testing.T, client *ethclient.Client, tx *types.Transaction, within time.Duration) *types.Receipt {
	t.Helper()
	for began := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		rc, err := client.TransactionReceipt(t.Context(), tx.Hash())
		if err == nil {
			if rc.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("transaction %s failed", tx.Hash())
			}
			t.Logf("automine: %s mined in block %s after %s", tx.Hash().TerminalString(), rc.BlockNumber, time.Since(began).Round(time.Millisecond))
			return rc
		}
		if !errors.Is(err, ethereum.NotFound) {
			t.Fatal(err)
		}
		if time.Since(began) > within {
			t.Fatalf("transaction %s not mined within %s", tx.Hash(), within)
		}
	}
}

// Seed's rounds, each a block on the local devnet: five for the V2 market, then three for V3
// (empty blocks may come before the last one, see Seed).
const v2SeedBlocks, v3SeedBlocks = 5, 3

// clockless is m without what depends on the chain's clock at seeding: the incentive's times and
// hence its id.
func clockless(m Market) Market {
	m.V3Incentive.StartTime, m.V3Incentive.EndTime, m.V3Incentive.ID = 0, 0, common.Hash{}
	return m
}

func TestLocal(t *testing.T) {
	ctx := t.Context()
	var logs lockedBuffer
	l := startLocal(t, ctx, LocalOptions{Addr: "127.0.0.1:0", TradeInterval: 100 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if !strings.HasPrefix(l.RPCURL(), "http://127.0.0.1:") {
		t.Fatalf("RPCURL = %q", l.RPCURL())
	}
	client, err := ethclient.DialContext(ctx, l.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()

	if id, err := client.ChainID(ctx); err != nil || id.Int64() != ChainID {
		t.Fatalf("chain id = %v, %v; want %d", id, err, ChainID)
	}
	var netVersion string
	if err := client.Client().CallContext(ctx, &netVersion, "net_version"); err != nil || netVersion != "1337" {
		t.Fatalf("net_version = %q, %v", netVersion, err)
	}

	accts := l.Accounts()
	if len(accts) != numLocalAccounts {
		t.Fatalf("%d accounts", len(accts))
	}
	for i, a := range accts {
		key, err := crypto.HexToECDSA(strings.TrimPrefix(a.PrivateKeyHex, "0x"))
		if err != nil || crypto.PubkeyToAddress(key.PublicKey) != a.Address {
			t.Fatalf("account %d: key %s does not match %s (%v)", i, a.PrivateKeyHex, a.Address, err)
		}
		if want := localRole(i); a.Role != want {
			t.Fatalf("account %d role = %q, want %q", i, a.Role, want)
		}
		bal, err := client.BalanceAt(ctx, a.Address, big.NewInt(0))
		if err != nil || bal.Cmp(wholeUnits(10_000, 18)) < 0 {
			t.Fatalf("account %d genesis balance = %v, %v", i, bal, err)
		}
	}

	// Tokens and holders, as seeded (read at the block that ended the V2 seeding: the V3 seeding
	// and the trader move balances afterwards).
	m := l.Market()
	seeded := big.NewInt(v2SeedBlocks)
	if l.seededBlock < v2SeedBlocks+v3SeedBlocks || l.seededBlock > v2SeedBlocks+v3SeedBlocks+v3IncentiveLead+1 {
		t.Errorf("seeding took %d blocks, want %d and at most %d empty ones", l.seededBlock, v2SeedBlocks+v3SeedBlocks, v3IncentiveLead+1)
	}
	if len(m.Tokens) != len(seedTokens) || len(m.Pools) != len(seedPools) || len(m.Farms) != len(seedPools) {
		t.Fatalf("market has %d tokens, %d pools and %d farms", len(m.Tokens), len(m.Pools), len(m.Farms))
	}
	if got := callAt(t, client, m.Core.USD, nil, bToken.PackDecimals(), bToken.UnpackDecimals); got != 6 {
		t.Fatalf("USD decimals = %d", got)
	}
	if got := callAt(t, client, m.Core.Router, nil, bRouter.PackFactory(), bRouter.UnpackFactory); got != m.Core.Factory {
		t.Fatalf("router factory = %s, want %s", got, m.Core.Factory)
	}
	want := expectedBalances()
	tokenAddr := map[string]common.Address{usdSymbol: m.Core.USD, wethSymbol: m.Core.WrappedNative}
	var holderSets []string
	for i, ts := range seedTokens {
		tok := m.Tokens[i]
		tokenAddr[ts.symbol] = tok.Address
		if tok.Symbol != ts.symbol || tok.Name != ts.name || tok.Decimals != ts.decimals {
			t.Fatalf("token %d = %+v, want %+v", i, tok, ts)
		}
		if got := callAt(t, client, tok.Address, nil, bToken.PackDecimals(), bToken.UnpackDecimals); got != ts.decimals {
			t.Fatalf("%s decimals = %d, want %d", ts.symbol, got, ts.decimals)
		}
		if got := callAt(t, client, tok.Address, nil, bToken.PackSymbol(), bToken.UnpackSymbol); got != ts.symbol {
			t.Fatalf("%s symbol = %q", ts.symbol, got)
		}
		var holders []string
		for j, a := range accts {
			if callAt(t, client, tok.Address, seeded, bToken.PackBalanceOf(a.Address), bToken.UnpackBalanceOf).Sign() > 0 {
				holders = append(holders, a.Role+string(rune('0'+j)))
			}
		}
		set := strings.Join(holders, ",")
		if slices.Contains(holderSets, set) {
			t.Fatalf("%s has the same holders as another token: %s", ts.symbol, set)
		}
		holderSets = append(holderSets, set)
	}
	for sym, per := range want {
		for j, a := range accts {
			got := callAt(t, client, tokenAddr[sym], seeded, bToken.PackBalanceOf(a.Address), bToken.UnpackBalanceOf)
			if got.Cmp(per[j]) != 0 {
				t.Fatalf("%s balance of account %d at block %d = %s, want %s", sym, j, l.seededBlock, got, per[j])
			}
		}
	}

	// Pools: reserves as seeded, and still funded now.
	decimals := map[string]uint8{usdSymbol: 6, wethSymbol: 18}
	for _, ts := range seedTokens {
		decimals[ts.symbol] = ts.decimals
	}
	for i, ps := range seedPools {
		p := m.Pools[i]
		a, b := tokenAddr[ps.a], tokenAddr[ps.b]
		ra, rb := wholeUnits(ps.wholeA, decimals[ps.a]), wholeUnits(ps.wholeB, decimals[ps.b])
		if bytes.Compare(a[:], b[:]) > 0 {
			a, b, ra, rb = b, a, rb, ra
		}
		if p.Token0 != a || p.Token1 != b {
			t.Fatalf("pool %s tokens = %s/%s, want %s/%s", m.pairName(p), p.Token0, p.Token1, a, b)
		}
		r := callAt(t, client, p.Address, seeded, bPair.PackGetReserves(), bPair.UnpackGetReserves)
		if r.Reserve0.Cmp(ra) != 0 || r.Reserve1.Cmp(rb) != 0 {
			t.Fatalf("pool %s seeded reserves = %s/%s, want %s/%s", m.pairName(p), r.Reserve0, r.Reserve1, ra, rb)
		}
		if r := callAt(t, client, p.Address, nil, bPair.PackGetReserves(), bPair.UnpackGetReserves); r.Reserve0.Sign() == 0 || r.Reserve1.Sign() == 0 {
			t.Fatalf("pool %s is empty", m.pairName(p))
		}
	}

	// Pair addresses: the official pair's init code hash is mainnet's, and every pool is where
	// CREATE2 puts it, as the factory's getPair says.
	if m.InitCodeHash.Hex() != chain.UniswapV2InitCodeHash {
		t.Fatalf("InitCodeHash = %s, want mainnet's %s", m.InitCodeHash.Hex(), chain.UniswapV2InitCodeHash)
	}
	if h := crypto.Keccak256Hash(common.FromHex(bindings.UniswapV2PairMetaData.Bin)); h != m.InitCodeHash {
		t.Fatalf("keccak256 of the pair's init code = %s, InitCodeHash = %s", h, m.InitCodeHash)
	}
	for _, p := range m.Pools {
		want, err := chain.UniswapV2PairAddress(m.Core.Factory.Hex(), chain.UniswapV2InitCodeHash, p.Token1.Hex(), p.Token0.Hex())
		if err != nil {
			t.Fatal(err)
		}
		got := callAt(t, client, m.Core.Factory, nil, bFactory.PackGetPair(p.Token0, p.Token1), bFactory.UnpackGetPair)
		if got != common.HexToAddress(want) || p.Address != got {
			t.Fatalf("pool %s: getPair = %s, CREATE2 address %s, seeded %s", m.pairName(p), got, want, p.Address)
		}
	}

	// Users 5 and 6 are untouched: they never sent a transaction, and hold no LP token.
	for _, i := range []int{5, 6} {
		if n, err := client.NonceAt(ctx, accts[i].Address, nil); err != nil || n != 0 {
			t.Fatalf("account %d nonce = %d, %v; want 0", i, n, err)
		}
		for _, p := range m.Pools {
			if bal := callAt(t, client, p.Address, nil, bPair.PackBalanceOf(accts[i].Address), bPair.UnpackBalanceOf); bal.Sign() != 0 {
				t.Fatalf("account %d holds %s LP of %s", i, bal, m.pairName(p))
			}
		}
	}

	// The trader swaps on the seeded pools through the router.
	pools := make([]common.Address, len(m.Pools))
	for i, p := range m.Pools {
		pools[i] = p.Address
	}
	swapID := bPair.GetABI().Events["Swap"].ID
	var swaps []types.Log
	for began := time.Now(); len(swaps) < 3; time.Sleep(100 * time.Millisecond) {
		if time.Since(began) > 20*time.Second {
			t.Fatalf("%d Swap logs after 20s", len(swaps))
		}
		if n, err := client.BlockNumber(ctx); err != nil || n <= l.seededBlock {
			continue
		}
		swaps, err = client.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: new(big.Int).SetUint64(l.seededBlock + 1), Addresses: pools, Topics: [][]common.Hash{{swapID}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, lg := range swaps {
		ev, err := bPair.UnpackSwapEvent(&lg)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Sender != m.Core.Router {
			t.Fatalf("Swap by %s, want the router", ev.Sender)
		}
	}
	r := callAt(t, client, m.Pools[0].Address, nil, bPair.PackGetReserves(), bPair.UnpackGetReserves)
	wethRes, usdRes := r.Reserve0, r.Reserve1
	if m.Pools[0].Token0 == m.Core.USD {
		wethRes, usdRes = usdRes, wethRes
	}
	if price := ratio(usdRes, wethRes) * 1e12; price < 2000 || price > 4500 {
		t.Fatalf("ETH price after trading = %.2f USD", price)
	}
	last, _ := client.BlockNumber(ctx)
	empty := 0
	for n := l.seededBlock + 1; n <= last; n++ {
		h, err := client.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			t.Fatal(err)
		}
		if h.GasUsed == 0 {
			empty++
		}
	}
	t.Logf("%d Swap logs; %d blocks after seeding, %d empty", len(swaps), last-l.seededBlock, empty)

	// The chain entry validates, directly and through ParseConfig.
	cfg := l.ChainConfig()
	if err := (chain.Config{Chains: map[string]chain.ChainConfig{"base": cfg}}).Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	doc, err := json.Marshal(chain.Config{Chains: map[string]chain.ChainConfig{"base": cfg}})
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := chain.ParseConfig(doc)
	if err != nil {
		t.Fatalf("ParseConfig: %v\n%s", err, doc)
	}
	if !reflect.DeepEqual(parsed.Chains["base"], cfg) {
		t.Fatalf("ParseConfig changed the entry:\n%+v\n%+v", parsed.Chains["base"], cfg)
	}
	v2 := cfg.Venues["uniswap-v2"]
	if cfg.RPCURLs[0] != l.RPCURL() || cfg.ChainID != ChainID || cfg.Network != chain.Devnet || cfg.Confirmations != Confirmations ||
		cfg.Multicall3 != m.Core.Multicall3.Hex() || cfg.WrappedNative != m.Core.WrappedNative.Hex() ||
		cfg.USDStablecoins[0] != (chain.Stablecoin{Address: m.Core.USD.Hex(), Decimals: 6}) ||
		v2.Factory != m.Core.Factory.Hex() || v2.Router != m.Core.Router.Hex() || v2.FeeBps != 30 ||
		v2.StakingRewardsFactory != m.Core.StakingRewardsFactory.Hex() {
		t.Fatalf("ChainConfig = %+v", cfg)
	}
	if v2.InitCodeHash != chain.UniswapV2InitCodeHash {
		t.Fatalf("initCodeHash = %s, want %s", v2.InitCodeHash, chain.UniswapV2InitCodeHash)
	}

	// The banner names the chain, every key, token and pool.
	banner := logs.String()
	for _, s := range []string{"LOCAL DEVNET", "NOT a real network", l.RPCURL(), "chainId=1337"} {
		if !strings.Contains(banner, s) {
			t.Fatalf("banner lacks %q:\n%s", s, banner)
		}
	}
	for _, a := range accts {
		if !strings.Contains(banner, a.PrivateKeyHex) || !strings.Contains(banner, a.Address.Hex()) {
			t.Fatalf("banner lacks account %s", a.Address)
		}
	}
	for _, tok := range m.Tokens {
		if !strings.Contains(banner, tok.Address.Hex()) {
			t.Fatalf("banner lacks token %s", tok.Symbol)
		}
	}
	for _, p := range m.Pools {
		if !strings.Contains(banner, p.Address.Hex()) {
			t.Fatalf("banner lacks pool %s", m.pairName(p))
		}
	}
	for _, f := range m.Farms {
		if !strings.Contains(banner, f.Address.Hex()) {
			t.Fatalf("banner lacks farm %s", f.Address)
		}
	}
	if !strings.Contains(banner, m.Core.StakingRewardsFactory.Hex()) {
		t.Fatal("banner lacks the StakingRewardsFactory")
	}
	if strings.Contains(banner, "level=ERROR") {
		t.Fatalf("errors logged:\n%s", banner)
	}

	// Close stops the loops and the node, releases the port, and may be called again.
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if h := l.Commit(); h != (common.Hash{}) {
		t.Fatalf("Commit after Close sealed %s", h)
	}
	if _, err := client.ChainID(ctx); err == nil {
		t.Fatal("RPC still answers after Close")
	}
	ln, err := net.Listen("tcp", strings.TrimPrefix(l.RPCURL(), "http://"))
	if err != nil {
		t.Fatalf("port not released: %v", err)
	}
	_ = ln.Close()
	if w := strings.Count(logs.String(), "level=WARN msg=\"devnet: trader\""); w > 0 {
		t.Logf("trader warnings: %d\n%s", w, logs.String())
	}
}

// TestLocalAutomine: without a trader, a wallet's raw transactions over HTTP are mined promptly
// and nothing else is; keys, addresses and market are the same on every start; the port is
// reusable after Close; cancelling the start context stops the loops.
func TestLocalAutomine(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	a := startLocal(t, ctx, LocalOptions{Addr: "127.0.0.1:0", Logger: quietLogger})
	client, err := ethclient.DialContext(ctx, a.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	accounts, market := a.Accounts(), a.Market()
	user, to := accounts[numLocalAccounts-1], accounts[numLocalAccounts-2]

	// Two transfers in a row, then one whose nonce leaves a gap: the gap is not mined (and not
	// answered with empty blocks) until it is filled.
	head := a.seededBlock
	for nonce := range uint64(2) {
		rc := waitReceipt(t, client, sendRaw(t, client, user, to, nonce, wholeUnits(1, 18)), 5*time.Second)
		if rc.BlockNumber.Uint64() != head+1 {
			t.Fatalf("mined in block %s, want the next block %d", rc.BlockNumber, head+1)
		}
		head++
	}
	gapped := sendRaw(t, client, user, to, 3, big.NewInt(1))
	time.Sleep(sweepEvery + 5*automineEvery)
	if n, err := client.BlockNumber(ctx); err != nil || n != head {
		t.Fatalf("head = %d, %v; want %d: automine sealed blocks with nothing executable", n, err, head)
	}
	filler := sendRaw(t, client, user, to, 2, big.NewInt(1))
	waitReceipt(t, client, filler, 5*time.Second)
	waitReceipt(t, client, gapped, 5*time.Second)
	if bal, err := client.BalanceAt(ctx, to.Address, nil); err != nil || bal.Cmp(new(big.Int).Add(accountFunds, wholeUnits(2, 18))) <= 0 {
		t.Fatalf("recipient balance = %v, %v", bal, err)
	}
	if h := a.Commit(); h == (common.Hash{}) {
		t.Fatal("Commit sealed nothing")
	}

	// A transaction the pending filter misses (here: the filter is lost just before it is sent)
	// is still mined, by the pending-block sweep.
	a.mu.Lock()
	a.watch.filter = "0x1234"
	missed := sendRaw(t, client, user, to, 4, big.NewInt(1))
	a.mu.Unlock()
	waitReceipt(t, client, missed, 3*sweepEvery+3*time.Second)

	closing := time.Now()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %s", time.Since(closing).Round(time.Millisecond))
	if want := hexutil.Encode(crypto.Keccak256([]byte("partnerd devnet account 0"))); accounts[0].PrivateKeyHex != want || accounts[0].Role != RoleDeployer {
		t.Fatalf("account 0 = %+v, want key %s", accounts[0], want)
	}
	b := startLocal(t, ctx, LocalOptions{Addr: strings.TrimPrefix(a.RPCURL(), "http://"), TradeInterval: 20 * time.Millisecond, Logger: quietLogger})
	if b.RPCURL() != a.RPCURL() {
		t.Fatalf("second devnet at %s, want the released %s", b.RPCURL(), a.RPCURL())
	}
	if !reflect.DeepEqual(b.Accounts(), accounts) {
		t.Fatalf("accounts differ between starts:\n%+v\n%+v", accounts, b.Accounts())
	}
	if !reflect.DeepEqual(clockless(b.Market()), clockless(market)) {
		t.Fatalf("market differs between starts:\n%+v\n%+v", market, b.Market())
	}
	time.Sleep(100 * time.Millisecond) // let the trader run a little
	cancel()
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("automine and trader still running after the context was cancelled")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestStartLocalAddrInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	l, err := StartLocal(t.Context(), LocalOptions{Addr: addr, Logger: quietLogger})
	if err == nil {
		_ = l.Close()
		t.Fatal("StartLocal on a taken port succeeded")
	}
	if !strings.Contains(err.Error(), addr) || !strings.HasPrefix(err.Error(), "devnet: start:") {
		t.Fatalf("error %q does not name %s", err, addr)
	}
	if _, err := StartLocal(t.Context(), LocalOptions{Addr: "no-port", Logger: quietLogger}); err == nil || !strings.Contains(err.Error(), "no-port") {
		t.Fatalf("bad address: %v", err)
	}
}

// TestLocalReorg: Reorg orphans the blocks above the ancestor with their transactions, which are
// not mined again, and the chain goes on from the new head.
func TestLocalReorg(t *testing.T) {
	l := startLocal(t, t.Context(), LocalOptions{Addr: "127.0.0.1:0", Logger: quietLogger})
	client, err := ethclient.DialContext(t.Context(), l.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	accounts := l.Accounts()
	user, to := accounts[numLocalAccounts-1], accounts[numLocalAccounts-2]
	ancestor, err := client.HeaderByNumber(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	orphan := sendRaw(t, client, user, to, 0, wholeUnits(1, 18))
	waitReceipt(t, client, orphan, 5*time.Second)

	if err := l.Reorg(ancestor.Hash(), 3); err != nil {
		t.Fatal(err)
	}
	head, err := client.HeaderByNumber(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if head.Number.Uint64() != ancestor.Number.Uint64()+3 {
		t.Fatalf("head %d after a reorg of 3 blocks on %d", head.Number, ancestor.Number)
	}
	l.Commit()
	if _, err := client.TransactionReceipt(t.Context(), orphan.Hash()); !errors.Is(err, ethereum.NotFound) {
		t.Fatalf("the orphaned transfer: %v, want it gone", err)
	}
	// The user's nonce 0 is free again.
	waitReceipt(t, client, sendRaw(t, client, user, to, 0, wholeUnits(2, 18)), 5*time.Second)
}

// TestLocalFarms: the seeding's StakingRewardsFactory started one official StakingRewards farm
// per pool, paying HRV; a staker earns farmRewardPerSecond HRV a second and claims it.
func TestLocalFarms(t *testing.T) {
	ctx := t.Context()
	l := startLocal(t, ctx, LocalOptions{Addr: "127.0.0.1:0", Logger: quietLogger})
	client, err := ethclient.DialContext(ctx, l.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	m, accts := l.Market(), l.Accounts()
	hrv := m.Tokens[len(m.Tokens)-1]
	if hrv.Symbol != "HRV" || hrv.Name != "Harvest" || hrv.Decimals != 18 {
		t.Fatalf("reward token = %+v", hrv)
	}
	if got := callAt(t, client, hrv.Address, nil, bToken.PackSymbol(), bToken.UnpackSymbol); got != "HRV" {
		t.Fatalf("HRV symbol = %q", got)
	}
	seeded, err := client.HeaderByNumber(ctx, big.NewInt(v2SeedBlocks)) // the V2 market's last block
	if err != nil {
		t.Fatal(err)
	}
	started, err := client.HeaderByNumber(ctx, big.NewInt(v2SeedBlocks-1)) // the farms start a block before the stake
	if err != nil {
		t.Fatal(err)
	}
	first, err := client.HeaderByNumber(ctx, big.NewInt(1))
	if err != nil {
		t.Fatal(err)
	}

	// The factory: the deployer's, rewards in HRV, its genesis between its own block and the farms' start.
	srf := m.Core.StakingRewardsFactory
	if got := callAt(t, client, srf, nil, bFarms.PackOwner(), bFarms.UnpackOwner); got != accts[0].Address {
		t.Fatalf("StakingRewardsFactory owner = %s, want the deployer", got)
	}
	if got := callAt(t, client, srf, nil, bFarms.PackRewardsToken(), bFarms.UnpackRewardsToken); got != hrv.Address {
		t.Fatalf("StakingRewardsFactory rewardsToken = %s, want HRV", got)
	}
	genesis := callAt(t, client, srf, nil, bFarms.PackStakingRewardsGenesis(), bFarms.UnpackStakingRewardsGenesis).Uint64()
	if genesis < first.Time || genesis > seeded.Time {
		t.Fatalf("genesis %d, want from block 1's time %d to the seeded block's %d", genesis, first.Time, seeded.Time)
	}
	if bal := callAt(t, client, hrv.Address, nil, bToken.PackBalanceOf(srf), bToken.UnpackBalanceOf); bal.Sign() != 0 {
		t.Fatalf("the factory kept %s HRV", bal)
	}

	// The farms: one per pool, started at the seeded block, funded for 60 days, nobody staking.
	reward := wholeUnits(farmRewardPerSecond*farmRewardsDuration, 18)
	rate := wholeUnits(farmRewardPerSecond, 18)
	for i, f := range m.Farms {
		p := m.Pools[i]
		name := m.pairName(p)
		if f.StakingToken != p.Address || f.RewardToken != hrv.Address || f.RewardRate.Cmp(rate) != 0 {
			t.Fatalf("farm %d = %+v, want %s LP, HRV at %s a second", i, f, name, rate)
		}
		info := callAt(t, client, srf, nil, bFarms.PackStakingRewardsInfoByStakingToken(p.Address), bFarms.UnpackStakingRewardsInfoByStakingToken)
		if info.StakingRewards != f.Address || info.RewardAmount.Sign() != 0 {
			t.Fatalf("factory's info for %s = %+v, want farm %s with its reward paid out", name, info, f.Address)
		}
		if got := callAt(t, client, f.Address, nil, bFarm.PackStakingToken(), bFarm.UnpackStakingToken); got != p.Address {
			t.Fatalf("farm of %s stakes %s", name, got)
		}
		if got := callAt(t, client, f.Address, nil, bFarm.PackRewardsToken(), bFarm.UnpackRewardsToken); got != hrv.Address {
			t.Fatalf("farm of %s pays %s", name, got)
		}
		if got := callAt(t, client, f.Address, nil, bFarm.PackRewardRate(), bFarm.UnpackRewardRate); got.Cmp(rate) != 0 {
			t.Fatalf("farm of %s rewardRate = %s, want %s", name, got, rate)
		}
		if got := callAt(t, client, f.Address, nil, bFarm.PackRewardsDuration(), bFarm.UnpackRewardsDuration); got.Uint64() != farmRewardsDuration {
			t.Fatalf("farm of %s rewardsDuration = %s, want %d", name, got, farmRewardsDuration)
		}
		start := callAt(t, client, f.Address, nil, bFarm.PackLastUpdateTime(), bFarm.UnpackLastUpdateTime).Uint64()
		finish := callAt(t, client, f.Address, nil, bFarm.PackPeriodFinish(), bFarm.UnpackPeriodFinish).Uint64()
		if start < started.Time || start > seeded.Time || finish != started.Time+farmRewardsDuration {
			t.Fatalf("farm of %s runs %d to %d, want from its start block's time %d for 60 days", name, start, finish, started.Time)
		}
		if bal := callAt(t, client, hrv.Address, nil, bToken.PackBalanceOf(f.Address), bToken.UnpackBalanceOf); bal.Cmp(reward) != 0 {
			t.Fatalf("farm of %s holds %s HRV, want %s", name, bal, reward)
		}
		want := new(big.Int) // nobody stakes at seeding but the staker, in the AUR/WETH farm
		if f.Address == m.Farms[stakerPool].Address {
			want = m.StakerStaked
		}
		if s := callAt(t, client, f.Address, nil, bFarm.PackTotalSupply(), bFarm.UnpackTotalSupply); s.Cmp(want) != 0 {
			t.Fatalf("farm of %s has %s staked at start, want %s", name, s, want)
		}
		if f.Address == m.Farms[stakerPool].Address {
			staked := callAt(t, client, f.Address, nil, bFarm.PackBalanceOf(m.Staker), bFarm.UnpackBalanceOf)
			held := callAt(t, client, m.Pools[stakerPool].Address, nil, bToken.PackBalanceOf(m.Staker), bToken.UnpackBalanceOf)
			if staked.Cmp(m.StakerStaked) != 0 || held.Cmp(m.StakerLP) != 0 {
				t.Fatalf("the staker stakes %s and holds %s LP, want %s and %s", staked, held, m.StakerStaked, m.StakerLP)
			}
		}
	}

	// The deployer stakes half its WETH/USD LP: it is the only staker, so it earns the whole rate.
	key, err := crypto.HexToECDSA(strings.TrimPrefix(accts[0].PrivateKeyHex, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	deployer, err := NewAccount(ctx, l.Client(), key)
	if err != nil {
		t.Fatal(err)
	}
	pool, farm := m.Pools[0], m.Farms[0]
	lp := callAt(t, client, pool.Address, nil, bPair.PackBalanceOf(deployer.Address), bPair.UnpackBalanceOf)
	stake := new(big.Int).Rsh(lp, 1)
	if _, err := deployer.Transact(ctx, l, pool.Address, nil, bPair.PackApprove(farm.Address, stake)); err != nil {
		t.Fatal(err)
	}
	rc, err := deployer.Transact(ctx, l, farm.Address, nil, bFarm.PackStake(stake))
	if err != nil {
		t.Fatal(err)
	}
	staked, err := client.HeaderByNumber(ctx, rc.BlockNumber)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		l.Commit()
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	secs := int64(head.Time - staked.Time)
	earned := callAt(t, client, farm.Address, nil, bFarm.PackEarned(deployer.Address), bFarm.UnpackEarned)
	want := new(big.Int).Mul(rate, big.NewInt(secs))
	if secs < 3 || earned.Cmp(want) > 0 || new(big.Int).Sub(want, earned).Cmp(big.NewInt(1e9)) > 0 {
		t.Fatalf("earned %s after %d s, want about %s", earned, secs, want)
	}
	before := callAt(t, client, hrv.Address, nil, bToken.PackBalanceOf(deployer.Address), bToken.UnpackBalanceOf)
	rc, err = deployer.Transact(ctx, l, farm.Address, nil, bFarm.PackGetReward())
	if err != nil {
		t.Fatal(err)
	}
	var paid *bindings.StakingRewardsRewardPaid
	for _, lg := range rc.Logs {
		if ev, err := bFarm.UnpackRewardPaidEvent(lg); err == nil && lg.Address == farm.Address {
			paid = ev
		}
	}
	after := callAt(t, client, hrv.Address, nil, bToken.PackBalanceOf(deployer.Address), bToken.UnpackBalanceOf)
	if paid == nil || paid.User != deployer.Address || paid.Reward.Cmp(earned) <= 0 || new(big.Int).Sub(after, before).Cmp(paid.Reward) != 0 {
		t.Fatalf("getReward: RewardPaid %+v, HRV %s -> %s; earned %s before", paid, before, after, earned)
	}
	t.Logf("staked %s LP of %s; claimed %s HRV after %d s", stake, m.pairName(pool), paid.Reward, secs+1)
}
