package api

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
)

// TestV3PoolReads: the market reads of a uniswap-v3 pool on the devnet, indexed from its logs,
// against the pool's own state: its price is sqrtPriceX96's, its liquidityUsd the value of its
// in-range liquidity as virtual reserves at that price; a swap through SwapRouter02 is a trade
// with the Swap's amounts and moves the price to the pool's new slot0; trending with
// amm=uniswap-v3 lists it; its chart has the trade. Its bins, read live in one round trip, hold the
// pool's liquidity() in the current bin and mirror each other with quote=token0; kind=active is
// that bin alone.
func TestV3PoolReads(t *testing.T) {
	t.Parallel()
	var d devnetChain
	e := newEnv(t, withDevnet(&d))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(100_000), Burst: ptr(10_000)})
	ctx := t.Context()
	seeded := d.local.Market()
	pool := seeded.V3Pools[0] // WETH/USDD at 0.05 %
	usd, weth := seeded.Core.USD, seeded.Core.WrappedNative
	if pool.Fee != 500 || !((pool.Token0 == usd && pool.Token1 == weth) || (pool.Token0 == weth && pool.Token1 == usd)) {
		t.Fatalf("seeded V3 pool 0 is %+v, want WETH/USDD at 0.05 %%", pool)
	}
	poolABI := v3pool.NewUniswapV3Pool()
	read := func() (sqrtP, liquidity *big.Int) {
		c := bind.NewBoundContract(pool.Address, poolABI.GetABI(), d.local.Client(), d.local.Client(), d.local.Client())
		s0, err := bind.Call(c, &bind.CallOpts{Context: ctx}, poolABI.PackSlot0(), poolABI.UnpackSlot0)
		if err != nil {
			t.Fatal(err)
		}
		l, err := bind.Call(c, &bind.CallOpts{Context: ctx}, poolABI.PackLiquidity(), poolABI.UnpackLiquidity)
		if err != nil {
			t.Fatal(err)
		}
		return s0.SqrtPriceX96, l
	}
	// wethUSD is WETH's price in USDD at sqrtPriceX96, in token units.
	wethUSD := func(sqrtP *big.Int) float64 {
		p, _ := new(big.Rat).SetFrac(new(big.Int).Mul(sqrtP, sqrtP), new(big.Int).Lsh(big.NewInt(1), 192)).Float64() // token1 per token0, base units
		if pool.Token0 == weth {
			return p * 1e12
		}
		return 1 / p * 1e12
	}
	near := func(got string, want, tol float64) bool {
		f, err := strconv.ParseFloat(got, 64)
		return err == nil && math.Abs(f-want) <= tol*math.Abs(want)
	}
	get := func(path string, out any) { t.Helper(); e.getJSON(path, key, out) }

	var details PoolDetailsResponse
	get("/v1/pools/"+pool.Address.Hex()+"?chain=base", &details)
	sqrtP, liq := read()
	p := details.Pool
	// The virtual reserves' value: twice L*sqrt(P) of token1 in USD (or L/sqrt(P) of token0).
	virtualUSD := func(sqrtP, liq *big.Int) float64 {
		q96 := new(big.Float).SetInt(new(big.Int).Lsh(big.NewInt(1), 96))
		s := new(big.Float).Quo(new(big.Float).SetInt(sqrtP), q96)
		l := new(big.Float).SetInt(liq)
		if pool.Token0 == usd { // token0 reserve L/sqrt(P) is USDD
			f, _ := new(big.Float).Quo(l, s).Float64()
			return 2 * f / 1e6
		}
		f, _ := new(big.Float).Mul(l, s).Float64()
		return 2 * f / 1e6
	}
	if p.Venue != "uniswap-v3" || p.FeeBps != 5 || !strings.EqualFold(p.BaseToken.Address, weth.Hex()) ||
		!near(p.PriceNative, wethUSD(sqrtP), 1e-9) || !near(p.LiquidityUsd, virtualUSD(sqrtP, liq), 1e-6) {
		t.Fatalf("pool %+v; the pool's sqrtPriceX96 %s gives %v USDD per WETH, its liquidity %s %v USD", p, sqrtP, wethUSD(sqrtP), liq, virtualUSD(sqrtP, liq))
	}

	// A swap through SwapRouter02: a trade with its amounts, and the price moves to the pool's.
	user := devnetUser(t, &d, 5) // holds 5,000 USDD
	tokenABI, routerABI := bindings.NewToken(), bindings.NewSwapRouter02()
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	if _, err := user.Transact(ctx, d.local, usd, nil, tokenABI.PackApprove(seeded.V3.SwapRouter02, maxUint)); err != nil {
		t.Fatal(err)
	}
	in := big.NewInt(2_000_000_000) // 2,000 USDD
	swap := routerABI.PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{TokenIn: usd, TokenOut: weth, Fee: big.NewInt(500),
		Recipient: user.Address, AmountIn: in, AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int)})
	rc, err := user.Transact(ctx, d.local, seeded.V3.SwapRouter02, nil, swap)
	if err != nil {
		t.Fatal(err)
	}
	var bought *big.Int
	for _, l := range rc.Logs {
		if ev, err := poolABI.UnpackSwapEvent(l); err == nil && l.Address == pool.Address {
			bought = map[bool]*big.Int{true: ev.Amount0, false: ev.Amount1}[pool.Token0 == weth]
			bought = new(big.Int).Neg(bought)
		}
	}
	if bought == nil {
		t.Fatal("no Swap log")
	}
	d.sync(t)
	var trades TradesResponse
	get("/v1/tokens/"+weth.Hex()+"/trades?chain=base&pool="+pool.Address.Hex(), &trades)
	if len(trades.Trades) != 1 || trades.Trades[0].Side != "buy" || trades.Trades[0].TokenAmount != "0."+strings.TrimRight(leftPad(bought.String(), 18), "0") ||
		trades.Trades[0].OtherAmount != "2000" || !strings.EqualFold(trades.Trades[0].Trader, user.Address.Hex()) {
		t.Fatalf("trades %+v, want the buy of %s WETH base units for 2,000 USDD", trades.Trades, bought)
	}
	sqrtP, liq = read()
	// The snapshot is rebuilt in the background: wait for the swap's price.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		get("/v1/pools/"+pool.Address.Hex()+"?chain=base", &details)
		if near(details.Pool.PriceNative, wethUSD(sqrtP), 1e-9) && near(details.Pool.LiquidityUsd, virtualUSD(sqrtP, liq), 1e-6) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the swap: pool %+v; the pool's price %v, virtual liquidity %v USD", details.Pool, wethUSD(sqrtP), virtualUSD(sqrtP, liq))
		}
	}
	var trending TrendingResponse
	get("/v1/markets/trending?chain=base&amm=uniswap-v3", &trending)
	if !slices.ContainsFunc(trending.Pools, func(s PoolSummary) bool { return strings.EqualFold(s.Address, pool.Address.Hex()) }) {
		t.Errorf("trending uniswap-v3 pools %+v lack the pool traded", trending.Pools)
	}
	for _, s := range trending.Pools {
		if s.Venue != "uniswap-v3" {
			t.Errorf("trending with amm=uniswap-v3 lists a %s pool", s.Venue)
		}
	}
	var chart PoolChartResponse
	get("/v1/pools/"+pool.Address.Hex()+"/chart?chain=base&resolution=1&mint="+weth.Hex(), &chart)
	if len(chart.Candles) == 0 {
		t.Error("no candle after the trade")
	}

	// Bins, live, in one round trip.
	before := d.rpc.RoundTrips()
	var bins PoolBinsResult
	get("/v1/pools/"+pool.Address.Hex()+"/bins?chain=base&amm=uniswap-v3", &bins)
	if trips := d.rpc.RoundTrips() - before; trips != 1 {
		t.Errorf("bins took %d round trips, want 1", trips)
	}
	current := slices.IndexFunc(bins.Bins, func(b Bin) bool { return b.Current })
	if current < 0 || bins.Bins[current].Liquidity != liq.String() || bins.Liquidity != liq.String() || len(bins.Bins) < 3 ||
		!strings.EqualFold(bins.Quote, pool.Token1.Hex()) || bins.Kind != "ticks" {
		t.Fatalf("bins %+v, the pool's liquidity %s", bins, liq)
	}
	for i, b := range bins.Bins {
		if b.TickLower >= b.TickUpper || (i > 0 && bins.Bins[i-1].TickUpper > b.TickLower) {
			t.Errorf("bin %d [%d, %d) is out of order", i, b.TickLower, b.TickUpper)
		}
	}
	var inverted, active PoolBinsResult
	get("/v1/pools/"+pool.Address.Hex()+"/bins?chain=base&amm=uniswap-v3&quote="+pool.Token0.Hex(), &inverted)
	get("/v1/pools/"+pool.Address.Hex()+"/bins?chain=base&amm=uniswap-v3&kind=active", &active)
	n := len(bins.Bins)
	if len(inverted.Bins) != n || inverted.Bins[n-1-current].PriceLower != bins.Bins[current].InversePriceLower ||
		inverted.Bins[n-1-current].BaseAmount != bins.Bins[current].QuoteAmount {
		t.Errorf("bins in token0 %+v do not mirror %+v", inverted.Bins, bins.Bins)
	}
	if len(active.Bins) != 1 || active.Bins[0] != bins.Bins[current] {
		t.Errorf("kind=active: %+v, want the current bin %+v", active.Bins, bins.Bins[current])
	}
	var audit PoolAuditResponse
	get("/v1/pools/"+pool.Address.Hex()+"/audit?chain=base", &audit)
	// Who holds the pool's liquidity: its indexed NFT positions, by owner.
	holders := map[string]bool{}
	for _, f := range audit.Findings {
		holders[f.Code] = true
	}
	if !holders["lp_positions"] || !holders["lp_top10_holders"] || holders["lp_concentrated"] == holders["lp_spread"] {
		t.Errorf("audit findings %+v: want the pool's position owners (lp_positions, lp_top10_holders, lp_concentrated or lp_spread)", audit.Findings)
	}
}

func leftPad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat("0", n-len(s)) + s
}
