package api

import (
	"net/http"
	"testing"
)

// TestV3FarmRoundTrips counts the RPC round trips of the uniswap-v3 farm and migrate builds on the
// devnet (their effects on the chain are cmd/partnerd's TestV3FarmOnAnvil): each takes at most 3
// (the staker read with its incentives' logs, or the pair; the build's state, with a deposited
// position's stakes and rewards; the simulation).
func TestV3FarmRoundTrips(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 0) // the deployer: positions 4 to 7 in the incentive's pool, 5 staked; LP of every pair
	te.finalize()           // a few seconds of rewards
	deployer := te.wallet.Address.Hex()
	body := func(fields map[string]any) map[string]any {
		b := map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": deployer}
		for k, v := range fields {
			b[k] = v
		}
		return b
	}
	weth, aur := te.token("WETH"), te.token("AUR")
	pair := te.market.Pools[1].Address // AUR/WETH
	if p := te.market.Pools[1]; !(p.Token0 == weth && p.Token1 == aur) && !(p.Token0 == aur && p.Token1 == weth) {
		t.Fatalf("seeded pool 1 is %s/%s, want AUR/WETH", p.Token0, p.Token1)
	}
	staked := te.market.V3Incentive.StakedTokenID.String()
	for _, c := range []struct {
		what, path string
		fields     map[string]any
		most       int64
	}{
		{"lp/farm stake", "/v1/build/lp/farm", map[string]any{"positionIds": []string{"4"}}, 3},
		{"lp/migrate", "/v1/build/lp/migrate", map[string]any{"pool": pair.Hex(), "bps": 1000, "feeTier": 3000, "tickLower": -887272, "tickUpper": 887272}, 3},
		{"lp/harvest staked", "/v1/build/lp/harvest", map[string]any{"positionIds": []string{staked}}, 3},
		{"lp/farm unstake", "/v1/build/lp/farm", map[string]any{"positionIds": []string{staked}, "action": "unstake"}, 3},
	} {
		before := te.d.rpc.RoundTrips()
		r := te.build(c.path, body(c.fields))
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d %s", c.what, r.status, r.rawBody)
		}
		if trips := te.d.rpc.RoundTrips() - before; trips > c.most {
			t.Errorf("%s took %d RPC round trips, want at most %d", c.what, trips, c.most)
		}
	}
}
