package api

import (
	"math/big"
	"net/http"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// TestV3CreateRebalanceCompoundRoundTrips: uniswap-v3's lp/create (of a new pool, the WETH/USDD 1 %
// tier the seeding leaves empty), lp/add (to the position's pool), and lp/increase, lp/remove,
// lp/harvest, lp/compound and lp/rebalance (to the full range) of the deployer's position 1 after a
// swap through its pool earned it fees, each answer 200.
// Each takes at most 3 JSON-RPC round trips. create: the pool (its price alone), the tokens and
// the wallet in one batch, then the simulation (2); add: the pool, then the pool and the wallet,
// then the simulation; the builds on the position: the position (ownerOf and positions(id)), then
// the position with its pool's fee growth (and, for compound and rebalance, the pool with its ticks)
// and the wallet in one batch, then the simulation.
func TestV3CreateRebalanceCompoundRoundTrips(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 0)
	ctx := t.Context()
	weth, usd := te.token("WETH"), te.token("USDD")
	pool := te.market.V3Pools[0]
	id := pool.Positions[0].TokenID.String()
	deployer := devnetUser(t, te.d, 0)
	router := te.market.V3.SwapRouter02
	for _, call := range []struct {
		to    [20]byte
		value *big.Int
		data  []byte
	}{
		{weth, big.NewInt(1e18), hexutil.MustDecode("0xd0e30db0")}, // WETH9.deposit
		{usd, nil, bindings.NewToken().PackApprove(router, big.NewInt(500e6))},
		{router, nil, bindings.NewSwapRouter02().PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{TokenIn: usd, TokenOut: weth,
			Fee: big.NewInt(500), Recipient: deployer.Address, AmountIn: big.NewInt(500e6), AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int)})},
	} {
		if rc, err := deployer.Transact(ctx, te.d.local, call.to, call.value, call.data); err != nil || rc.Status != 1 {
			t.Fatalf("call %x: %v", call.to, err)
		}
	}
	body := func(fields map[string]any) map[string]any {
		b := map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": deployer.Address.Hex()}
		for k, v := range fields {
			b[k] = v
		}
		return b
	}
	price := "3000"
	if pool.Token0 != weth {
		price = "0.0003125"
	}
	for _, c := range []struct {
		op     string
		trips  int64
		fields map[string]any
	}{
		{"create", 3, map[string]any{"tokenA": weth.Hex(), "tokenB": usd.Hex(), "amountA": "0.01", "amountB": "30", "feeTier": 10000, "price": price,
			"tickLower": -887272, "tickUpper": 887272}},
		{"add", 3, map[string]any{"pool": pool.Address.Hex(), "amountA": "0.001", "amountB": "3", "tickLower": -887270, "tickUpper": 887270}},
		{"increase", 3, map[string]any{"positionIds": []string{id}, "amountA": "0.001", "amountB": "3"}},
		{"remove", 3, map[string]any{"positionIds": []string{id}, "bps": 100}},
		{"harvest", 3, map[string]any{"positionIds": []string{id}}},
		{"compound", 3, map[string]any{"positionIds": []string{id}}},
		{"rebalance", 3, map[string]any{"positionIds": []string{id}, "tickLower": -887272, "tickUpper": 887272}},
	} {
		before := te.d.rpc.RoundTrips()
		r := te.build("/v1/build/lp/"+c.op, body(c.fields))
		if trips := te.d.rpc.RoundTrips() - before; r.status != http.StatusOK || trips > c.trips {
			t.Errorf("lp/%s: %d in %d round trips, want 200 in at most %d: %s", c.op, r.status, trips, c.trips, r.rawBody)
		}
	}
}
