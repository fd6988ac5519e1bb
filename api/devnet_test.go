package api

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/access"
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
