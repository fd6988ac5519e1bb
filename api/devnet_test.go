package api

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

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
	get := func(path string, out any) {
		t.Helper()
		r := e.do(request{path: path, key: apiKey})
		if r.status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, r.status, r.rawBody)
		}
		if err := json.Unmarshal([]byte(r.rawBody), out); err != nil {
			t.Fatal(err)
		}
	}
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
