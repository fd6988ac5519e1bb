package api

import (
	"encoding/json"
	"fmt"
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

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/market"
)

// TestHoldingsBatchRoundTrips: holdings of 24 owners on one chain, through the whole pipeline,
// take at most 2 RPC round trips (the head, then every balance in one aggregate3 at it), and each
// owner gets their own balances.
func TestHoldingsBatchRoundTrips(t *testing.T) {
	t.Parallel()
	var d devnetChain
	e := newEnv(t, withDevnet(&d))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(100_000), Burst: ptr(10_000)})
	accounts := d.local.Accounts()
	var refs []string
	for _, a := range accounts {
		refs = append(refs, "base:"+a.Address.Hex())
	}
	for i := len(refs); i < 24; i++ {
		refs = append(refs, fmt.Sprintf("base:0x%040x", 0xfeed0000+i))
	}

	before := d.rpc.RoundTrips()
	r := e.do(request{path: "/v1/portfolio/holdings?owners=" + strings.Join(refs, ","), key: key})
	trips := d.rpc.RoundTrips() - before
	if r.status != http.StatusOK {
		t.Fatalf("batch holdings: %d %s", r.status, r.rawBody)
	}
	if trips < 1 || trips > 2 {
		t.Errorf("batch holdings of %d owners took %d RPC round trips, want at most 2", len(refs), trips)
	}
	var got HoldingsBatchResponse
	if err := json.Unmarshal([]byte(r.rawBody), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != len(refs) {
		t.Fatalf("%d results for %d owners", len(got.Results), len(refs))
	}
	for i, res := range got.Results {
		if !strings.EqualFold(res.Ref, refs[i]) || res.Result == nil || !res.Result.OK || res.Code != "" {
			t.Errorf("entry %d: %+v, want a result for %s", i, res, refs[i])
		}
	}
	// The first user was seeded with 1,200 AUR (18 decimals).
	want := market.Units(new(big.Int).Mul(big.NewInt(1_200), new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)), 18)
	aur := ""
	for _, h := range got.Results[5].Result.Holdings {
		if h.Token.Symbol == "AUR" {
			aur = h.Amount
		}
	}
	if aur != want {
		t.Errorf("holder 5 has %q AUR, want %s", aur, want)
	}
}

// TestLiveReadsOnHungRPC: a live read whose RPC stops answering ends at its class's deadline with
// 504 upstream_timeout in the envelope and a generic message, while reads served from the index and
// the warm snapshot keep answering.
func TestLiveReadsOnHungRPC(t *testing.T) {
	t.Parallel()
	var d devnetChain
	e := newEnv(t, withDevnet(&d))
	core := d.local.Market().Core
	pool := d.local.Market().Pools[0].Address.Hex() // WETH/USD
	if r := e.do(request{path: "/v1/pools/hot?chain=base", key: e.key}); r.status != http.StatusOK {
		t.Fatalf("hot pools: %d %s", r.status, r.rawBody) // warms the snapshot
	}

	d.rpc.Stall()
	r := e.do(request{path: "/v1/pools/" + pool + "/reserves?chain=base&amm=uniswap-v2&base=" + core.WrappedNative.Hex() + "&quote=" + core.USD.Hex(), key: e.key})
	checkEnvelope(t, r)
	if r.status != http.StatusGatewayTimeout || r.code() != "upstream_timeout" {
		t.Errorf("reserves on a hung RPC: %d %s, want 504 upstream_timeout", r.status, r.rawBody)
	}
	for _, leak := range []string{"127.0.0.1", "deadline", "Post"} {
		if strings.Contains(r.rawBody, leak) {
			t.Errorf("the error leaks the RPC's details (%q): %s", leak, r.rawBody)
		}
	}
	for _, path := range []string{"/v1/pools/hot?chain=base", "/v1/tokens/" + core.WrappedNative.Hex() + "/trades?chain=base"} {
		if r := e.do(request{path: path, key: e.key}); r.status != http.StatusOK {
			t.Errorf("GET %s on a hung RPC: %d %s, want 200 from the index", path, r.status, r.rawBody)
		}
	}
}

// TestReadsAfterReorg: a swap is indexed and read, then a reorg orphans its block; once the indexer
// has rolled back, the reads no longer show it: no trade, no trader, and the price it moved is back.
func TestReadsAfterReorg(t *testing.T) {
	t.Parallel()
	var d devnetChain
	e := newEnv(t, withDevnet(&d))
	_, apiKey := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(100_000), Burst: ptr(10_000)})
	ctx := t.Context()
	seeded := d.local.Market()
	aur, usd, router := seeded.Tokens[0].Address, seeded.Core.USD, seeded.Core.Router
	key, err := crypto.HexToECDSA(strings.TrimPrefix(d.local.Accounts()[5].PrivateKeyHex, "0x")) // a user, holding 5,000 USD
	if err != nil {
		t.Fatal(err)
	}
	user, err := devnet.NewAccount(ctx, d.local.Client(), key)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string, out any) { t.Helper(); e.getJSON(path, apiKey, out) }
	var trades TradesResponse
	var traders TopTradersResponse
	reads := func() (nTrades, nTraders int) {
		get("/v1/tokens/"+aur.Hex()+"/trades?chain=base", &trades)
		get("/v1/tokens/"+aur.Hex()+"/top-traders?chain=base", &traders)
		return len(trades.Trades), len(traders.Traders)
	}
	price := func() string {
		var p TokenPrice
		get("/v1/tokens/"+aur.Hex()+"/price?chain=base", &p)
		return p.PriceUsd
	}
	waitPrice := func(ok func(string) bool) string {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if p := price(); ok(p) {
				return p
			} else if time.Now().After(deadline) {
				t.Fatalf("price stuck at %s", p)
			}
		}
	}
	if n, m := reads(); n != 0 || m != 0 {
		t.Fatalf("%d trades and %d traders of AUR before any swap", n, m)
	}
	before := price()
	ancestor, err := d.local.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}

	tokenABI, routerABI := bindings.NewToken(), bindings.NewUniswapV2Router02()
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	if _, err := user.Transact(ctx, d.local, usd, nil, tokenABI.PackApprove(router, maxUint)); err != nil {
		t.Fatal(err)
	}
	// Through WETH: AUR's price comes from its deepest pool, AUR/WETH.
	swap := routerABI.PackSwapExactTokensForTokens(big.NewInt(4_000_000_000), big.NewInt(0), []common.Address{usd, seeded.Core.WrappedNative, aur}, user.Address, big.NewInt(math.MaxInt64))
	if _, err := user.Transact(ctx, d.local, router, nil, swap); err != nil {
		t.Fatal(err)
	}
	d.sync(t)
	if n, m := reads(); n != 1 || m != 1 || trades.Trades[0].Trader != user.Address.Hex() || trades.Trades[0].Side != "buy" {
		t.Fatalf("after the swap: %+v, %+v; want the user's buy", trades.Trades, traders.Traders)
	}
	moved := waitPrice(func(p string) bool { return p != before })

	if err := d.local.Reorg(ancestor.Hash(), 3); err != nil {
		t.Fatal(err)
	}
	d.sync(t)
	if n, m := reads(); n != 0 || m != 0 {
		t.Errorf("after the reorg: %+v, %+v; want no trade and no trader", trades.Trades, traders.Traders)
	}
	if p := waitPrice(func(p string) bool { return p != moved }); p != before {
		t.Errorf("price %s after the reorg, want %s as before the orphaned swap", p, before)
	}
}

// devnetUser is a funded devnet account by index (5..9 are users: the devnet never signs for them).
func devnetUser(t *testing.T, d *devnetChain, i int) *devnet.Account {
	t.Helper()
	key, err := crypto.HexToECDSA(strings.TrimPrefix(d.local.Accounts()[i].PrivateKeyHex, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := devnet.NewAccount(t.Context(), d.local.Client(), key)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestHoldingsSameAloneAndInBatch: one owner's holdings and positions are the same whether read
// single-owner, alone in a batch, or in batches with others who hold more: the tokens read for an
// owner are those the index says it holds, plus the wrapped native token and the stablecoins,
// which are read for everyone. Here the owner wrapped ETH with deposit() (no Transfer) and received
// AUR and LP tokens that are not indexed yet, while the others in the batch hold AUR and LP tokens.
func TestHoldingsSameAloneAndInBatch(t *testing.T) {
	t.Parallel()
	var d devnetChain
	e := newEnv(t, withDevnet(&d))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(100_000), Burst: ptr(10_000)})
	ctx := t.Context()
	seeded := d.local.Market()
	owner := devnetUser(t, &d, 8)     // seeded with QRTZ only
	aurHolder := devnetUser(t, &d, 6) // seeded with AUR and USD
	deployer := devnetUser(t, &d, 0)  // holds the LP tokens of every seeded pool
	weth, aur, lp := seeded.Core.WrappedNative, seeded.Tokens[0].Address, seeded.Pools[0].Address
	tokenABI := bindings.NewToken()
	for _, tx := range []struct {
		from  *devnet.Account
		to    common.Address
		value *big.Int
		data  []byte
	}{
		{owner, weth, big.NewInt(2e18), bindings.NewWETH9().PackDeposit()},
		{aurHolder, aur, nil, tokenABI.PackTransfer(owner.Address, new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18)))},
		{deployer, lp, nil, tokenABI.PackTransfer(owner.Address, big.NewInt(1e15))},
	} {
		if _, err := tx.from.Transact(ctx, d.local, tx.to, tx.value, tx.data); err != nil {
			t.Fatal(err)
		}
	}
	get := func(path string, out any) { t.Helper(); e.getJSON(path, key, out) }
	ref := func(a *devnet.Account) string { return "base:" + a.Address.Hex() }
	batches := [][]string{
		{ref(owner)},
		{ref(owner), ref(aurHolder), ref(deployer)},
		{ref(deployer), ref(aurHolder), ref(owner)},
	}
	// answers returns the owner's holdings and positions as each form of the call gives them.
	answers := func() (holdings, positions []string) {
		t.Helper()
		encode := func(v any) string {
			raw, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			return string(raw)
		}
		var h HoldingsResult
		get("/v1/portfolio/"+owner.Address.Hex()+"/holdings?chain=base", &h)
		var p PositionsResult
		get("/v1/portfolio/"+owner.Address.Hex()+"/positions?chain=base", &p)
		holdings, positions = []string{encode(h)}, []string{encode(p)}
		for _, refs := range batches {
			var hb HoldingsBatchResponse
			get("/v1/portfolio/holdings?owners="+strings.Join(refs, ","), &hb)
			var pb PositionsBatchResponse
			get("/v1/portfolio/positions?owners="+strings.Join(refs, ","), &pb)
			for i, r := range refs {
				if r == ref(owner) {
					holdings, positions = append(holdings, encode(hb.Results[i].Result)), append(positions, encode(pb.Results[i].Result))
				}
			}
		}
		return holdings, positions
	}
	check := func(when string, wantAUR, wantLP bool) {
		t.Helper()
		holdings, positions := answers()
		for i := range holdings[1:] {
			if holdings[i+1] != holdings[0] {
				t.Errorf("%s: the owner's holdings in batch %v differ from the single-owner read:\n%s\n%s", when, batches[i], holdings[i+1], holdings[0])
			}
			if positions[i+1] != positions[0] {
				t.Errorf("%s: the owner's positions in batch %v differ from the single-owner read:\n%s\n%s", when, batches[i], positions[i+1], positions[0])
			}
		}
		var h HoldingsResult
		if err := json.Unmarshal([]byte(holdings[0]), &h); err != nil {
			t.Fatal(err)
		}
		amounts := map[string]string{}
		for _, x := range h.Holdings {
			amounts[x.Token.Symbol] = x.Amount
		}
		if amounts["WETH"] != "2" {
			t.Errorf("%s: the owner's WETH is %q, it wrapped 2 (WETH is read for every owner)", when, amounts["WETH"])
		}
		if _, has := amounts["AUR"]; has != wantAUR {
			t.Errorf("%s: AUR in the owner's holdings %v, want %v (discovery is the index's)", when, has, wantAUR)
		}
		var p PositionsResult
		if err := json.Unmarshal([]byte(positions[0]), &p); err != nil {
			t.Fatal(err)
		}
		if has := len(p.Positions) == 1 && p.Positions[0].Pool.Address == lp.Hex(); has != wantLP {
			t.Errorf("%s: positions %+v, want the WETH/USD position %v", when, p.Positions, wantLP)
		}
	}
	check("before the index saw the transfers", false, false)
	d.sync(t)
	check("once indexed", true, true)
}

// TestPoolPricesAreThePoolsOwn: a pool's priceUsd, priceNative and liquidityUsd are the pool's own
// (as DexScreener and GeckoTerminal give them), while a token's price is its deepest pool's. AUR
// trades against WETH (the deeper pool, where its price comes from) and against USD; a buy on
// AUR/USD moves that pool's price away from AUR/WETH's.
func TestPoolPricesAreThePoolsOwn(t *testing.T) {
	t.Parallel()
	var d devnetChain
	e := newEnv(t, withDevnet(&d))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(100_000), Burst: ptr(10_000)})
	ctx := t.Context()
	seeded := d.local.Market()
	aur, usd, weth := seeded.Tokens[0].Address, seeded.Core.USD, seeded.Core.WrappedNative
	poolOf := func(a, b common.Address) devnet.SeededPool {
		for _, p := range seeded.Pools {
			if (p.Token0 == a && p.Token1 == b) || (p.Token0 == b && p.Token1 == a) {
				return p
			}
		}
		t.Fatalf("no seeded pool of %s and %s", a, b)
		return devnet.SeededPool{}
	}
	aurUSD, aurWETH, wethUSD := poolOf(aur, usd), poolOf(aur, weth), poolOf(weth, usd)

	user := devnetUser(t, &d, 5) // holds 5,000 USD
	tokenABI, routerABI := bindings.NewToken(), bindings.NewUniswapV2Router02()
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	if _, err := user.Transact(ctx, d.local, usd, nil, tokenABI.PackApprove(seeded.Core.Router, maxUint)); err != nil {
		t.Fatal(err)
	}
	buy := routerABI.PackSwapExactTokensForTokens(big.NewInt(3_000_000_000), big.NewInt(0), []common.Address{usd, aur}, user.Address, big.NewInt(math.MaxInt64))
	if _, err := user.Transact(ctx, d.local, seeded.Core.Router, nil, buy); err != nil {
		t.Fatal(err)
	}
	d.sync(t)

	// The chain's reserves, in token units, by token.
	pairABI := bindings.NewUniswapV2Pair()
	decimals := map[common.Address]int{aur: 18, usd: 6, weth: 18}
	reserves := func(p devnet.SeededPool) map[common.Address]float64 {
		c := bind.NewBoundContract(p.Address, pairABI.GetABI(), d.local.Client(), d.local.Client(), d.local.Client())
		r, err := bind.Call(c, &bind.CallOpts{Context: ctx}, pairABI.PackGetReserves(), pairABI.UnpackGetReserves)
		if err != nil {
			t.Fatal(err)
		}
		return map[common.Address]float64{p.Token0: market.UnitsFloat(r.Reserve0, decimals[p.Token0]), p.Token1: market.UnitsFloat(r.Reserve1, decimals[p.Token1])}
	}
	ru, rw, rx := reserves(aurUSD), reserves(aurWETH), reserves(wethUSD)
	ethUSD := rx[usd] / rx[weth]
	want := map[common.Address]struct{ usd, native, liquidity float64 }{
		aurUSD.Address:  {ru[usd] / ru[aur], ru[usd] / ru[aur], 2 * ru[usd]},
		aurWETH.Address: {rw[weth] / rw[aur] * ethUSD, rw[weth] / rw[aur], 2 * rw[weth] * ethUSD},
	}
	if math.Abs(want[aurUSD.Address].usd/want[aurWETH.Address].usd-1) < 0.01 {
		t.Fatalf("the buy did not move AUR/USD's price away from AUR/WETH's: %+v", want)
	}
	near := func(got string, want float64) bool {
		f, err := strconv.ParseFloat(got, 64)
		return err == nil && math.Abs(f-want) <= 1e-9*math.Abs(want)
	}
	get := func(path string, out any) { t.Helper(); e.getJSON(path, key, out) }
	checkPool := func(where string, p PoolSummary) {
		t.Helper()
		w := want[common.HexToAddress(p.Address)]
		if !near(p.PriceUsd, w.usd) || !near(p.PriceNative, w.native) || !near(p.LiquidityUsd, w.liquidity) {
			t.Errorf("%s: pool %s/%s priceUsd %s, priceNative %s, liquidityUsd %s; the pool's own are %v, %v, %v",
				where, p.BaseToken.Symbol, p.QuoteToken.Symbol, p.PriceUsd, p.PriceNative, p.LiquidityUsd, w.usd, w.native, w.liquidity)
		}
	}
	// The snapshot is rebuilt in the background: wait for the buy to show among the hot pools.
	var hot HotPoolsResult
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		get("/v1/pools/hot?chain=base", &hot)
		if len(hot.Pools) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the buy never showed among the hot pools")
		}
	}
	if len(hot.Pools) != 1 || common.HexToAddress(hot.Pools[0].Address) != aurUSD.Address {
		t.Fatalf("hot pools %+v, want AUR/USD alone", hot.Pools)
	}
	checkPool("hot", hot.Pools[0])
	for _, p := range []devnet.SeededPool{aurUSD, aurWETH} {
		var details PoolDetailsResponse
		get("/v1/pools/"+p.Address.Hex()+"?chain=base", &details)
		checkPool("details", details.Pool)
	}

	// The token's price and stats are the token's, from its deepest pool (AUR/WETH).
	var price TokenPrice
	get("/v1/tokens/"+aur.Hex()+"/price?chain=base", &price)
	if !near(price.PriceUsd, want[aurWETH.Address].usd) || price.Pool != aurWETH.Address.Hex() || !near(price.PriceNative, want[aurWETH.Address].usd/ethUSD) {
		t.Errorf("AUR price %+v, want %v USD (%v ETH) from AUR/WETH %s", price, want[aurWETH.Address].usd, want[aurWETH.Address].usd/ethUSD, aurWETH.Address)
	}
	var stats TokenStatsResponse
	get("/v1/tokens/"+aur.Hex()+"/stats?chain=base", &stats)
	if liquidity := want[aurUSD.Address].liquidity + want[aurWETH.Address].liquidity; !near(stats.PriceUsd, want[aurWETH.Address].usd) || !near(stats.LiquidityUsd, liquidity) {
		t.Errorf("AUR stats priceUsd %s, liquidityUsd %s; want %v and %v", stats.PriceUsd, stats.LiquidityUsd, want[aurWETH.Address].usd, liquidity)
	}

	// The buy's trade and candle carry AUR's price in the pool it traded in.
	var trades TradesResponse
	get("/v1/tokens/"+aur.Hex()+"/trades?chain=base&pool="+aurUSD.Address.Hex(), &trades)
	if len(trades.Trades) != 1 || !near(trades.Trades[0].PriceUsd, want[aurUSD.Address].usd) {
		t.Errorf("AUR/USD trades %+v, want one at %v", trades.Trades, want[aurUSD.Address].usd)
	}
	var chart PoolChartResponse
	get("/v1/pools/"+aurUSD.Address.Hex()+"/chart?chain=base&resolution=1", &chart)
	if n := len(chart.Candles); n == 0 || !near(chart.Candles[n-1].Close, want[aurUSD.Address].usd) {
		t.Errorf("AUR/USD candles %+v, want the last closing at %v", chart.Candles, want[aurUSD.Address].usd)
	}
}
