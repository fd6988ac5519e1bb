package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/anvil"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/market"
)

var (
	tokenABI   = bindings.NewToken()
	wethABI    = bindings.NewWETH9()
	routerABI  = bindings.NewUniswapV2Router02()
	factoryABI = bindings.NewUniswapV2Factory()
	// the official Uniswap V3 contracts the devnet runs
	v3FactoryABI = bindings.NewUniswapV3Factory()
	quoterABI    = bindings.NewQuoterV2()
	noDeadline   = big.NewInt(math.MaxInt64)
)

// marketWorld is the service, a consumer key, and a token ZETA freshly deployed on a seeded EVM
// chain with a ZETA/USD pool traded by several accounts. The chain is the devnet of local mode
// (newMarketWorld) or anvil configured as base through PARTNER_CHAINS (newAnvilWorld).
type marketWorld struct {
	t       *testing.T
	ctx     context.Context
	m       *Main
	chain   devnet.Backend
	market  devnet.Market // what the chain was seeded with
	stopRPC func() error  // takes the chain's JSON-RPC away
	key     string
	owner   *devnet.Account // deployed ZETA, holds the LP tokens
	users   []*devnet.Account
	zeta    common.Address
	usd     common.Address
	pool    common.Address
	trades  []wantTrade // oldest first
}

type wantTrade struct {
	trader      common.Address
	side        string
	zeta, other *big.Int
}

// newMarketWorld runs the service in local mode and trades ZETA on its devnet.
func newMarketWorld(t *testing.T) *marketWorld {
	t.Helper()
	w := startMarketWorld(t, chain.Config{})
	local := w.m.chains.devnet
	w.chain, w.market, w.stopRPC = local, local.Market(), local.Close
	var users []*devnet.Account
	for _, a := range local.Accounts() {
		if a.Role != devnet.RoleUser { // the devnet never signs for users: their nonces are ours
			continue
		}
		k, err := crypto.HexToECDSA(strings.TrimPrefix(a.PrivateKeyHex, "0x"))
		if err != nil {
			t.Fatal(err)
		}
		acct, err := devnet.NewAccount(w.ctx, local.Client(), k)
		if err != nil {
			t.Fatal(err)
		}
		users = append(users, acct)
	}
	w.tradeZeta(users)
	return w
}

// anvilService is the devnet's market seeded on anvil, a second and independent EVM, configured as
// base in a PARTNER_CHAINS file (which turns local mode off), with the service running on it.
type anvilService struct {
	node     *anvil.Node
	backend  *anvil.Backend
	accounts []*devnet.Account
	seeded   devnet.Market
	world    *marketWorld
}

// startAnvilService seeds anvil and runs the service on it; edit may change base's chain entry.
func startAnvilService(t *testing.T, edit func(*chain.ChainConfig)) anvilService {
	t.Helper()
	node := anvil.Start(t)
	b := node.Backend(t)
	accounts := make([]*devnet.Account, len(node.Keys))
	for i, k := range node.Keys {
		var err error
		if accounts[i], err = devnet.NewAccount(t.Context(), b.Client(), k); err != nil {
			t.Fatal(err)
		}
	}
	seeded, err := devnet.Seed(t.Context(), b, accounts)
	if err != nil {
		t.Fatal(err)
	}
	cc := seeded.ChainConfig(node.URL)
	if edit != nil {
		edit(&cc)
	}
	cfg := chainsConfig(t, cc)
	w := startMarketWorld(t, cfg)
	if w.m.chains.devnet != nil {
		t.Fatal("local mode started although PARTNER_CHAINS configures an EVM chain")
	}
	return anvilService{node: node, backend: b, accounts: accounts, seeded: seeded, world: w}
}

// newAnvilWorld runs the service on anvil (startAnvilService) and trades ZETA there.
func newAnvilWorld(t *testing.T) *marketWorld {
	t.Helper()
	a := startAnvilService(t, nil)
	w, b, seeded, accounts := a.world, a.backend, a.seeded, a.accounts
	w.chain, w.market = b, seeded
	w.tradeZeta(accounts[5:]) // the users of the devnet's layout
	return w
}

// startMarketWorld runs the service on chains (local mode when it has no EVM chain) with a
// consumer that may read markets and portfolios.
func startMarketWorld(t *testing.T, chains chain.Config) *marketWorld {
	t.Helper()
	c := sqliteCLI(t)
	logs := &lockedBuffer{} // the service's warnings and errors, shown when the test fails
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("--- the service's warnings and errors ---\n%s", logs.String())
		}
	})
	m := &Main{
		Config: Config{Addr: "127.0.0.1:0", DatabaseURL: c.url, SyncInterval: 500 * time.Millisecond, Chains: chains, DevnetChain: "base"},
		Log:    slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Main.Run: %v", err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Main.Close: %v", err)
		}
	})
	cons := c.createConsumer("Partner", "--scopes", "market:read,portfolio:read", "--rpm", "100000", "--burst", "10000", "--enable")
	return &marketWorld{t: t, ctx: t.Context(), m: m, key: c.createKey(cons.ID, "k").Key}
}

// tradeZeta deploys ZETA from users[0], pools it against USD and has users[1..3] trade it. Before
// the trades, users[1..3] wrap 1, 2 and 3 ETH with WETH9's deposit() (a Deposit event, no Transfer)
// and users[2] unwraps 1 of them (a Withdrawal).
func (w *marketWorld) tradeZeta(users []*devnet.Account) {
	t := w.t
	t.Helper()
	w.usd = w.market.Core.USD
	w.owner, w.users = users[0], users[1:4]
	var err error
	if w.zeta, err = w.owner.Deploy(w.ctx, w.chain, &bindings.TokenMetaData, tokenABI.PackConstructor("Zeta", "ZETA", 18)); err != nil {
		t.Fatal(err)
	}
	router := w.market.Core.Router
	w.tx(w.owner, w.zeta, nil, tokenABI.PackMint(w.owner.Address, units(1_000_000, 18)))
	w.tx(w.owner, w.zeta, nil, tokenABI.PackApprove(router, abiMax))
	w.tx(w.owner, w.usd, nil, tokenABI.PackApprove(router, abiMax))
	// The users hold USD from seeding only if they were chosen as holders: buy some with ETH.
	for _, u := range append([]*devnet.Account{w.owner}, w.users...) {
		w.tx(u, router, units(5, 18), routerABI.PackSwapExactETHForTokens(big.NewInt(0), []common.Address{w.market.Core.WrappedNative, w.usd}, u.Address, noDeadline))
		w.tx(u, w.usd, nil, tokenABI.PackApprove(router, abiMax))
		w.tx(u, w.zeta, nil, tokenABI.PackApprove(router, abiMax))
	}
	for i, u := range w.users {
		w.tx(u, w.market.Core.WrappedNative, units(int64(i+1), 18), wethABI.PackDeposit())
	}
	w.tx(w.users[1], w.market.Core.WrappedNative, nil, wethABI.PackWithdraw(units(1, 18)))
	z, d := units(200_000, 18), units(10_000, 6) // 0.05 USD
	w.tx(w.owner, router, nil, routerABI.PackAddLiquidity(w.zeta, w.usd, z, d, big.NewInt(0), big.NewInt(0), w.owner.Address, noDeadline))
	w.pool = w.call(w.market.Core.Factory, factoryABI.PackGetPair(w.zeta, w.usd), factoryABI.UnpackGetPair)
	for i, u := range w.users { // each buys; the second and third also sell part back
		w.swap(u, "buy", units(int64(500*(i+1)), 6))
		if i > 0 {
			w.swap(u, "sell", units(int64(1_000*i), 18))
		}
	}
	w.tx(w.users[0], w.zeta, nil, tokenABI.PackTransfer(w.users[2].Address, units(100, 18)))
}

var abiMax = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

func units(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

func (w *marketWorld) tx(from *devnet.Account, to common.Address, value *big.Int, data []byte) {
	w.t.Helper()
	if _, err := from.Transact(w.ctx, w.chain, to, value, data); err != nil {
		w.t.Fatal(err)
	}
}

func (w *marketWorld) swap(u *devnet.Account, side string, in *big.Int) {
	w.t.Helper()
	path := []common.Address{w.usd, w.zeta}
	if side == "sell" {
		path = []common.Address{w.zeta, w.usd}
	}
	zBefore, dBefore := w.balance(w.zeta, u.Address), w.balance(w.usd, u.Address)
	w.tx(u, w.market.Core.Router, nil, routerABI.PackSwapExactTokensForTokens(in, big.NewInt(0), path, u.Address, noDeadline))
	zDelta := new(big.Int).Sub(w.balance(w.zeta, u.Address), zBefore)
	dDelta := new(big.Int).Sub(w.balance(w.usd, u.Address), dBefore)
	w.trades = append(w.trades, wantTrade{u.Address, side, zDelta.Abs(zDelta), dDelta.Abs(dDelta)})
}

func call[T any](w *marketWorld, to common.Address, data []byte, unpack func([]byte) (T, error)) T {
	w.t.Helper()
	client := w.chain.Client()
	c := bind.NewBoundContract(to, tokenABI.GetABI(), client, client, client)
	v, err := bind.Call(c, &bind.CallOpts{Context: w.ctx}, data, unpack)
	if err != nil {
		w.t.Fatalf("call %s: %v", to, err)
	}
	return v
}

func (w *marketWorld) call(to common.Address, data []byte, unpack func([]byte) (common.Address, error)) common.Address {
	return call(w, to, data, unpack)
}

func (w *marketWorld) balance(token, holder common.Address) *big.Int {
	return call(w, token, tokenABI.PackBalanceOf(holder), tokenABI.UnpackBalanceOf)
}

// get calls the API and decodes a 200 answer into out.
func (w *marketWorld) get(path string, out any) {
	w.t.Helper()
	if status, body := w.getRaw(path); status != http.StatusOK {
		w.t.Fatalf("GET %s: %d %s", path, status, body)
	} else if err := json.Unmarshal(body, out); err != nil {
		w.t.Fatalf("GET %s: %v", path, err)
	}
}

func (w *marketWorld) getRaw(path string) (int, []byte) {
	w.t.Helper()
	req, _ := http.NewRequestWithContext(w.ctx, http.MethodGet, "http://"+w.m.Addr()+path, nil)
	req.Header.Set("X-API-Key", w.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// eventually retries check (which reports what is still wrong) until it reports nothing.
func (w *marketWorld) eventually(what string, check func() string) {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		problem := check()
		if problem == "" {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s: %s", what, problem)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func human(n *big.Int, decimals int) string { return market.Units(n, decimals) }

func near(got string, want float64) bool {
	f, err := strconv.ParseFloat(got, 64)
	return err == nil && math.Abs(f-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func ratioOf(a *big.Int, ad int, b *big.Int, bd int) float64 {
	x, _ := strconv.ParseFloat(human(a, ad), 64)
	y, _ := strconv.ParseFloat(human(b, bd), 64)
	return x / y
}

// TestMarketOnDevnet checks the market and portfolio reads through the real HTTP pipeline against
// what the local devnet says: receipts (balance deltas) and balanceOf.
func TestMarketOnDevnet(t *testing.T) {
	t.Parallel()
	checkMarket(t, newMarketWorld(t))
}

// TestMarketOnAnvil is TestMarketOnDevnet on anvil, an independent EVM implementation reached over
// real HTTP JSON-RPC through a PARTNER_CHAINS configuration: the adapter, the indexer and the reads
// depend on standard JSON-RPC only.
func TestMarketOnAnvil(t *testing.T) {
	t.Parallel()
	checkMarket(t, newAnvilWorld(t))
}

// checkMarket compares every market and portfolio read of ZETA with what the chain says.
func checkMarket(t *testing.T, w *marketWorld) {
	zeta, pool := w.zeta.Hex(), w.pool.Hex()

	var trades struct {
		Trades []struct {
			Side, Trader, TokenAmount, OtherAmount, PriceUsd, VolumeUsd string
		}
	}
	w.eventually("trades indexed", func() string {
		status, body := w.getRaw("/v1/tokens/" + zeta + "/trades?chain=base")
		if status != http.StatusOK {
			return fmt.Sprintf("%d %s", status, body)
		}
		if err := json.Unmarshal(body, &trades); err != nil {
			return err.Error()
		}
		if len(trades.Trades) != len(w.trades) {
			return fmt.Sprintf("%d trades, want %d", len(trades.Trades), len(w.trades))
		}
		return ""
	})
	for i, want := range w.trades {
		got := trades.Trades[len(trades.Trades)-1-i]
		if got.Side != want.side || got.Trader != want.trader.Hex() || got.TokenAmount != human(want.zeta, 18) || got.OtherAmount != human(want.other, 6) {
			t.Errorf("trade %d = %+v, want %s %s ZETA for %s USD by %s", i, got, want.side, human(want.zeta, 18), human(want.other, 6), want.trader)
		}
	}

	zetaReserve, usdReserve := w.balance(w.zeta, w.pool), w.balance(w.usd, w.pool)
	price := ratioOf(usdReserve, 6, zetaReserve, 18)
	w.eventually("price from the warm snapshot", func() string {
		var p struct{ PriceUsd, Pool string }
		w.get("/v1/tokens/"+zeta+"/price?chain=base", &p)
		if !near(p.PriceUsd, price) || p.Pool != pool {
			return fmt.Sprintf("price %s from %s, chain says %v from %s", p.PriceUsd, p.Pool, price, pool)
		}
		return ""
	})

	var search struct {
		Results []struct{ Address, Symbol string }
	}
	w.get("/v1/tokens/search?chain=base&q=zet", &search)
	if len(search.Results) != 1 || search.Results[0].Address != zeta || search.Results[0].Symbol != "ZETA" {
		t.Errorf("search zet: %+v, want ZETA", search.Results)
	}
	var resolved struct {
		TotalSupply string
		Pools       []string
	}
	w.get("/v1/tokens/"+zeta+"?chain=base", &resolved)
	if supply := call(w, w.zeta, tokenABI.PackTotalSupply(), tokenABI.UnpackTotalSupply); resolved.TotalSupply != human(supply, 18) ||
		len(resolved.Pools) != 1 || resolved.Pools[0] != pool {
		t.Errorf("resolve: %+v, want supply %s and pool %s", resolved, human(supply, 18), pool)
	}
	var history struct{ Points []struct{ PriceUsd string } }
	w.get("/v1/tokens/"+zeta+"/history?chain=base&window=300", &history)
	if n := len(history.Points); n == 0 || !near(history.Points[n-1].PriceUsd, price) {
		t.Errorf("history %+v: want points ending at %v", history.Points, price)
	}
	var details struct {
		Pool struct {
			Venue    string
			Reserves []string
			Txns     struct{ H24 struct{ Buys, Sells int } }
		}
	}
	w.get("/v1/pools/"+pool+"?chain=base", &details)
	if details.Pool.Venue != "uniswap-v2" || len(details.Pool.Reserves) != 2 || details.Pool.Reserves[0] != human(zetaReserve, 18) ||
		details.Pool.Reserves[1] != human(usdReserve, 6) || details.Pool.Txns.H24.Buys != 3 || details.Pool.Txns.H24.Sells != 2 {
		t.Errorf("pool details %+v", details.Pool)
	}
	type listed struct{ Pools []struct{ Address string } }
	has := func(l listed) bool {
		for _, p := range l.Pools {
			if p.Address == pool {
				return true
			}
		}
		return false
	}
	var newest, trending, hot, raydium listed
	w.eventually("the fresh pool newest, and trending and hot after its trades", func() string {
		w.get("/v1/pools/new?chain=base", &newest)
		w.get("/v1/markets/trending?chain=base&amm=uniswap-v2", &trending)
		w.get("/v1/pools/hot", &hot)
		if len(newest.Pools) == 0 || newest.Pools[0].Address != pool || !has(trending) || !has(hot) {
			return fmt.Sprintf("pool %s: new %v, trending %v, hot %v", pool, newest.Pools, trending.Pools, hot.Pools)
		}
		return ""
	})
	if w.get("/v1/markets/trending?chain=base&amm=raydium", &raydium); len(raydium.Pools) != 0 {
		t.Errorf("trending on base filtered to a Solana venue: %+v, want none", raydium.Pools)
	}

	var reserves struct {
		BaseAmount, QuoteAmount string
		Block                   uint64
	}
	w.get("/v1/pools/"+pool+"/reserves?chain=base&amm=uniswap-v2&base="+zeta+"&quote="+w.usd.Hex(), &reserves)
	head, err := w.chain.Client().BlockNumber(w.ctx) // nothing is sent meanwhile: the head stays
	if err != nil {
		t.Fatal(err)
	}
	if reserves.BaseAmount != human(zetaReserve, 18) || reserves.QuoteAmount != human(usdReserve, 6) || reserves.Block != head {
		t.Errorf("reserves %+v, pool holds %s ZETA and %s USD at the head, block %d", reserves, human(zetaReserve, 18), human(usdReserve, 6), head)
	}

	holderSet := []common.Address{w.owner.Address, w.pool, w.users[0].Address, w.users[1].Address, w.users[2].Address}
	var holders struct {
		Holders []struct{ Address, Amount string }
	}
	w.get("/v1/tokens/"+zeta+"/holders?chain=base", &holders)
	if len(holders.Holders) != len(holderSet) {
		t.Errorf("%d holders, want %d: %+v", len(holders.Holders), len(holderSet), holders.Holders)
	}
	for _, h := range holders.Holders {
		if want := human(w.balance(w.zeta, common.HexToAddress(h.Address)), 18); h.Amount != want {
			t.Errorf("holder %s: %s, balanceOf says %s", h.Address, h.Amount, want)
		}
	}

	buys, sells := 0, 0
	perTrader := map[string][2]int{}
	var volume float64
	for i, tr := range w.trades {
		n := perTrader[tr.trader.Hex()]
		if tr.side == "buy" {
			buys++
			n[0]++
		} else {
			sells++
			n[1]++
		}
		perTrader[tr.trader.Hex()] = n
		v, _ := strconv.ParseFloat(trades.Trades[len(trades.Trades)-1-i].VolumeUsd, 64)
		volume += v
	}
	var stats struct {
		PriceUsd              string
		Txns                  struct{ H24 struct{ Buys, Sells int } }
		Holders               int
		Buyers24h, Sellers24h int
		VolumeUsd             struct{ H24 string }
	}
	w.get("/v1/tokens/"+zeta+"/stats?chain=base", &stats)
	if stats.Txns.H24.Buys != buys || stats.Txns.H24.Sells != sells || stats.Holders != len(holderSet) || stats.Buyers24h != 3 || stats.Sellers24h != 2 ||
		!near(stats.VolumeUsd.H24, volume) || !near(stats.PriceUsd, price) {
		t.Errorf("stats %+v; want %d buys, %d sells, %d holders, 3 buyers, 2 sellers, volume %v, price %v", stats, buys, sells, len(holderSet), volume, price)
	}

	checkWETH(t, w)

	var top struct {
		Traders []struct {
			Address     string
			Buys, Sells int
		}
	}
	w.get("/v1/tokens/"+zeta+"/top-traders?chain=base", &top)
	if len(top.Traders) != len(perTrader) {
		t.Errorf("%d top traders, want %d", len(top.Traders), len(perTrader))
	}
	for _, tr := range top.Traders {
		if n := perTrader[tr.Address]; tr.Buys != n[0] || tr.Sells != n[1] {
			t.Errorf("top trader %+v, want %d buys %d sells", tr, n[0], n[1])
		}
	}

	var chart struct {
		Candles []struct{ Close, Volume string }
	}
	w.get("/v1/pools/"+pool+"/chart?chain=base&resolution=1", &chart)
	var candleVolume float64
	for _, c := range chart.Candles {
		v, _ := strconv.ParseFloat(c.Volume, 64)
		candleVolume += v
	}
	if n := len(chart.Candles); n == 0 || !near(chart.Candles[n-1].Close, price) || math.Abs(candleVolume-volume) > 1e-6 {
		t.Errorf("chart %+v: want last close %v and volume %v", chart.Candles, price, volume)
	}

	u := w.users[1]
	var holdings struct {
		Holdings []struct {
			Token  struct{ Address string }
			Amount string
			Native bool
		}
		Sources []struct {
			Source   string
			OK       bool
			Complete bool
		}
	}
	w.get("/v1/portfolio/"+u.Address.Hex()+"/holdings?chain=base", &holdings)
	native, err := w.chain.Client().BalanceAt(w.ctx, u.Address, nil)
	if err != nil {
		t.Fatal(err)
	}
	weth := w.market.Core.WrappedNative
	want := map[string]string{"native": human(native, 18), zeta: human(w.balance(w.zeta, u.Address), 18), w.usd.Hex(): human(w.balance(w.usd, u.Address), 6),
		weth.Hex(): human(w.balance(weth, u.Address), 18)}
	got := map[string]string{}
	for _, h := range holdings.Holdings {
		got[h.Token.Address] = h.Amount
	}
	for tok, amount := range want {
		if got[tok] != amount {
			t.Errorf("holding %s = %q, chain says %s", tok, got[tok], amount)
		}
	}
	if len(holdings.Sources) != 2 || holdings.Sources[1].Complete {
		t.Errorf("sources %+v: the index's discovery must be reported incomplete", holdings.Sources)
	}

	var batch struct {
		Results []struct {
			Ref    string
			Code   string
			Result *struct{ Owner string }
		}
	}
	// Local mode serves solana from the local validator; a PARTNER_CHAINS with only base does not.
	var chains struct {
		Chains []struct {
			ID      string
			Enabled bool
		}
	}
	w.get("/v1/chains", &chains)
	solanaServed := chains.Chains[0].ID == "solana" && chains.Chains[0].Enabled
	solana := "So11111111111111111111111111111111111111112"
	w.get("/v1/portfolio/holdings?owners=base:"+w.users[0].Address.Hex()+","+solana+",ethereum:"+u.Address.Hex()+",base:"+u.Address.Hex(), &batch)
	solanaOK := batch.Results[1].Result != nil && batch.Results[1].Result.Owner == solana
	if !solanaServed {
		solanaOK = batch.Results[1].Code == "chain_not_enabled" && batch.Results[1].Result == nil
	}
	if len(batch.Results) != 4 || batch.Results[0].Result == nil || batch.Results[3].Result == nil || !solanaOK ||
		batch.Results[2].Code != "chain_not_enabled" || batch.Results[2].Result != nil {
		t.Errorf("batch holdings %+v: want results for the base owners, for the solana owner when solana is served (%v, else "+
			"chain_not_enabled), and a chain_not_enabled entry for ethereum", batch.Results, solanaServed)
	}

	var positions struct {
		Positions []struct {
			Pool    struct{ Address string }
			Amounts []string
		}
	}
	w.get("/v1/portfolio/"+w.owner.Address.Hex()+"/positions?chain=base", &positions)
	lp := w.balance(w.pool, w.owner.Address)
	supply := call(w, w.pool, tokenABI.PackTotalSupply(), tokenABI.UnpackTotalSupply)
	share := func(r *big.Int) *big.Int { return new(big.Int).Div(new(big.Int).Mul(r, lp), supply) }
	if len(positions.Positions) != 1 || positions.Positions[0].Pool.Address != pool ||
		positions.Positions[0].Amounts[0] != human(share(zetaReserve), 18) || positions.Positions[0].Amounts[1] != human(share(usdReserve), 6) {
		t.Errorf("positions %+v; want the ZETA/USD pool with %s ZETA and %s USD", positions.Positions, human(share(zetaReserve), 18), human(share(usdReserve), 6))
	}

	var audit struct {
		Score    int
		Findings []struct{ Code, Level string }
	}
	w.get("/v1/pools/"+pool+"/audit?chain=base", &audit)
	codes := map[string]string{}
	for _, f := range audit.Findings {
		codes[f.Code] = f.Level
	}
	// The owner is active and can mint, holds nearly all of the supply, and burned no LP beyond the
	// pair's minimum liquidity: one danger, three warnings.
	if codes["owner_not_renounced"] != "warning" || codes["mintable"] != "danger" || codes["no_transfer_tax"] != "info" ||
		codes["top10_holders"] != "warning" || codes["lp_burned"] != "warning" || audit.Score != 100-40-3*15 {
		t.Errorf("audit %+v: want owner, mint, concentration and unburned LP found, no tax, score 15", audit)
	}

	// Errors: an unknown token is 404, a pool that does not trade the token 400, bins 400.
	for _, c := range []struct {
		path   string
		status int
		code   string
	}{
		{"/v1/tokens/0x000000000000000000000000000000000000dEaD/stats?chain=base", 404, "not_found"},
		{"/v1/tokens/" + zeta + "/trades?chain=base&pool=" + w.market.Pools[0].Address.Hex(), 400, "invalid_request"},
		{"/v1/pools/" + pool + "/bins?chain=base&amm=uniswap-v2", 400, "operation_not_supported"},
		{"/v1/tokens/" + zeta + "/trades?chain=base&cursor=nonsense", 400, "invalid_request"},
	} {
		status, body := w.getRaw(c.path)
		if status != c.status || !strings.Contains(string(body), `"code":"`+c.code+`"`) {
			t.Errorf("GET %s: %d %s, want %d %s", c.path, status, body, c.status, c.code)
		}
	}
}

// checkWETH compares WETH's holders (list and count) with balanceOf: the users who wrapped ETH
// with deposit() hold WETH although no Transfer ever reached them.
func checkWETH(t *testing.T, w *marketWorld) {
	t.Helper()
	weth := w.market.Core.WrappedNative
	candidates := []common.Address{w.owner.Address, w.market.Core.Router, w.pool}
	for _, u := range w.users {
		candidates = append(candidates, u.Address)
	}
	for _, p := range w.market.Pools {
		candidates = append(candidates, p.Address)
	}
	// The V3 pools, and the deployer (the staker incentive's refundee), who wrapped ETH for them.
	for _, p := range w.market.V3Pools {
		candidates = append(candidates, p.Address)
	}
	candidates = append(candidates, w.market.V3Incentive.Refundee)
	want := map[string]string{}
	for _, c := range candidates {
		if b := w.balance(weth, c); b.Sign() > 0 {
			want[c.Hex()] = human(b, 18)
		}
	}
	for _, u := range w.users {
		if _, ok := want[u.Address.Hex()]; !ok {
			t.Fatalf("user %s holds no WETH after wrapping", u.Address)
		}
	}
	var holders struct {
		Holders []struct{ Address, Amount string }
	}
	w.get("/v1/tokens/"+weth.Hex()+"/holders?chain=base", &holders)
	got := map[string]string{}
	for _, h := range holders.Holders {
		got[h.Address] = h.Amount
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("WETH holders %v, balanceOf says %v", got, want)
	}
	var stats struct{ Holders int }
	w.get("/v1/tokens/"+weth.Hex()+"/stats?chain=base", &stats)
	if stats.Holders != len(want) {
		t.Errorf("WETH stats: %d holders, balanceOf says %d", stats.Holders, len(want))
	}
}

// TestMarketRPCDown: when the chain's RPC goes away, live reads answer 503 upstream_unavailable in
// the envelope with a generic message, while reads served from the index keep working.
func TestMarketRPCDown(t *testing.T) {
	t.Parallel()
	w := newMarketWorld(t)
	zeta, pool := w.zeta.Hex(), w.pool.Hex()
	w.eventually("trades indexed", func() string {
		status, body := w.getRaw("/v1/tokens/" + zeta + "/trades?chain=base")
		if status != http.StatusOK || !strings.Contains(string(body), `"side"`) {
			return fmt.Sprintf("%d %s", status, body)
		}
		return ""
	})
	if err := w.stopRPC(); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		"/v1/pools/" + pool + "/reserves?chain=base&amm=uniswap-v2&base=" + zeta + "&quote=" + w.usd.Hex(),
		"/v1/portfolio/" + w.users[0].Address.Hex() + "/holdings?chain=base",
		"/v1/tokens/" + zeta + "/holders?chain=base",
	} {
		status, body := w.getRaw(path)
		if status != http.StatusServiceUnavailable || !strings.Contains(string(body), `"code":"upstream_unavailable"`) ||
			strings.Contains(string(body), "127.0.0.1") || strings.Contains(string(body), "connect") {
			t.Errorf("GET %s with the RPC down: %d %s; want 503 upstream_unavailable with a generic message", path, status, body)
		}
	}
	if status, body := w.getRaw("/v1/tokens/" + zeta + "/trades?chain=base"); status != http.StatusOK {
		t.Errorf("trades come from the index and must survive the RPC: %d %s", status, body)
	}
}
