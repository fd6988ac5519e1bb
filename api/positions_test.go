package api

import (
	"encoding/json"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/market"
)

// TestPositionsStakedOnDevnet: LP tokens staked in a farm are still the owner's, and positions
// lists them. The test wallet adds liquidity to AUR/USDD and stakes a third of it, and adds to
// QRTZ/WETH and stakes all of it, each through the API's own lp/add and lp/farm builds, signed and
// sent; then, at the block the answer names:
//
//   - AUR/USDD has a wallet entry (the LP left in the wallet) and a staked entry, QRTZ/WETH a staked
//     entry only; a staked entry's liquidity is exactly the farm's balanceOf, its farm the pool's
//     farm, its reward exactly the farm's earned in HRV, and every entry's amounts exactly the
//     pro-rata share of the reserves (rounded down), its sharePct the share of the supply;
//   - valueUsd is the sum of the entries' values, rewards included;
//   - the batch answer for the wallet (among 24 owners) is the single answer, byte for byte, and an
//     owner with nothing has no entries;
//   - the first read enumerates the factory's farms (two more round trips), then a read of any
//     owners (24 here) is one round trip;
//   - a farm the factory deploys later (for a pool created and seeded through the API) is found by
//     the next read, which then costs four round trips (the read, the two of enumerating the new
//     farm, the read again), and the stake in it is listed;
//   - after unstaking all of QRTZ/WETH without claiming, its LP is back in a wallet entry and a
//     staked entry remains with no LP and the rewards still to claim.
func TestPositionsStakedOnDevnet(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	ctx := t.Context()
	user := te.wallet.Address
	aur, usd, qrtz, hrv := te.token("AUR"), te.token("USDD"), te.token("QRTZ"), te.token("HRV")
	pu, fu := te.seededPool("AUR", "USDD")
	pq, fq := te.seededPool("QRTZ", "WETH")

	te.send(te.lp("add", map[string]any{"pool": pu.Address.Hex(), "tokenA": aur.Hex(), "tokenB": usd.Hex(), "amountA": "100", "amountB": "1000"}))
	third := new(big.Int).Quo(te.balance(pu.Address, user), big.NewInt(3))
	te.send(te.lp("farm", map[string]any{"pool": pu.Address.Hex(), "amount": market.Units(third, 18)}))
	te.send(te.lp("add", map[string]any{"pool": pq.Address.Hex(), "tokenA": "native", "tokenB": qrtz.Hex(), "amountA": "0.01", "amountB": "10000"}))
	te.send(te.lp("farm", map[string]any{"pool": pq.Address.Hex()}))
	te.finalize() // time passes: both farms pay HRV
	te.d.sync(t)  // the index learns which LP tokens the wallet holds

	path := "/v1/portfolio/" + user.Hex() + "/positions?chain=base"
	trips := te.d.rpc.RoundTrips()
	res := te.positions(path)
	if n := te.d.rpc.RoundTrips() - trips; n != 3 {
		t.Errorf("the first positions read took %d round trips, want 3 (enumerating the farms: 2; the read: 1)", n)
	}
	te.checkPositions(res, []positionWant{
		{pool: pu, farm: nil}, {pool: pu, farm: &fu}, {pool: pq, farm: &fq},
	}, hrv)
	for _, p := range res.Positions {
		if p.Kind == "staked" && (len(p.Farm.Rewards) != 1 || p.Farm.Rewards[0].Amount == "0") {
			t.Errorf("%s: rewards %+v after blocks staked, want HRV earned", p.Pool.Address, p.Farm.Rewards)
		}
	}

	// The same owner in a batch of 24, with an owner who has nothing and the devnet's accounts (the
	// deployer holds LP of every pool): one round trip.
	nobody := common.HexToAddress("0x00000000000000000000000000000000000Fa4e1")
	refs := []string{"base:" + user.Hex(), "base:" + nobody.Hex()}
	for i, a := range te.d.local.Accounts() {
		if i != 5 {
			refs = append(refs, "base:"+a.Address.Hex())
		}
	}
	for i := len(refs); i < 24; i++ {
		refs = append(refs, "base:"+common.BigToAddress(big.NewInt(int64(0xfeed0000+i))).Hex())
	}
	trips = te.d.rpc.RoundTrips()
	var batch PositionsBatchResponse
	te.decode(te.get("/v1/portfolio/positions?owners="+strings.Join(refs, ",")), &batch)
	if n := te.d.rpc.RoundTrips() - trips; n != 1 {
		t.Errorf("the batch positions read of %d owners took %d round trips, want 1", len(refs), n)
	}
	if len(batch.Results) != 24 || batch.Results[0].Result == nil || batch.Results[1].Result == nil {
		t.Fatalf("batch: %+v", batch)
	}
	if single, batched := encodeJSON(t, res), encodeJSON(t, batch.Results[0].Result); single != batched {
		t.Errorf("the wallet's positions in a batch differ from the single-owner read:\n%s\n%s", batched, single)
	}
	if other := batch.Results[1].Result; len(other.Positions) != 0 || other.ValueUsd != "0" || other.Block != res.Block {
		t.Errorf("an owner with nothing: %+v, want no positions at block %d", other, res.Block)
	}

	// A farm deployed after the first read: AUR/QRTZ, created and seeded by the wallet through the
	// API; the factory's owner (the deployer) deploys its farm, and the wallet stakes all its LP.
	want, err := chain.UniswapV2PairAddress(te.market.Core.Factory.Hex(), chain.UniswapV2InitCodeHash, aur.Hex(), qrtz.Hex())
	if err != nil {
		t.Fatal(err)
	}
	te.send(te.lp("create", map[string]any{"tokenA": aur.Hex(), "tokenB": qrtz.Hex()}))
	add := te.lp("add", map[string]any{"pool": want, "tokenA": qrtz.Hex(), "tokenB": aur.Hex(), "amountA": "2500", "amountB": "100"})
	te.send(add)
	pn := devnet.SeededPool{Address: common.HexToAddress(want), Token0: common.HexToAddress(add.md("token0")), Token1: common.HexToAddress(add.md("token1"))}
	factory := bindings.NewStakingRewardsFactory()
	if _, err := devnetUser(t, te.d, 0).Transact(ctx, te.d.local, te.market.Core.StakingRewardsFactory, nil, factory.PackDeploy(pn.Address, big.NewInt(0))); err != nil {
		t.Fatalf("deploy a farm for %s: %v", want, err)
	}
	stake := te.lp("farm", map[string]any{"pool": want})
	te.send(stake)
	fn := devnet.SeededFarm{Address: common.HexToAddress(stake.md("farm")), StakingToken: pn.Address, RewardToken: hrv}
	te.d.sync(t)
	trips = te.d.rpc.RoundTrips()
	res = te.positions(path)
	if n := te.d.rpc.RoundTrips() - trips; n != 4 {
		t.Errorf("the read that meets a new farm took %d round trips, want 4 (the read, enumerating the new farm: 2, the read again)", n)
	}
	te.checkPositions(res, []positionWant{
		{pool: pu, farm: nil}, {pool: pu, farm: &fu}, {pool: pq, farm: &fq}, {pool: pn, farm: &fn},
	}, hrv)

	// Unstake all of QRTZ/WETH: the LP is back in the wallet, the rewards are still to claim. Then
	// a swap through AUR/USDD that the index has not seen: the pools' reserves in the answer are
	// still the chain's at its block.
	te.send(te.lp("farm", map[string]any{"pool": pq.Address.Hex(), "action": "unstake"}))
	te.d.sync(t)
	swap := te.build("/v1/build/swap", map[string]any{"chain": "base", "user": user.Hex(), "inputMint": aur.Hex(), "outputMint": usd.Hex(),
		"amount": "1000000000000000000", "slippageBps": 100})
	if _, receipts := te.wallet.sendBuild(swap.rawBody); swap.status != http.StatusOK || receipts[len(receipts)-1].Status != 1 {
		t.Fatalf("the swap through AUR/USDD: %d %s", swap.status, swap.rawBody)
	}
	res = te.positions(path)
	te.checkPositions(res, []positionWant{
		{pool: pu, farm: nil}, {pool: pu, farm: &fu}, {pool: pq, farm: nil}, {pool: pq, farm: &fq}, {pool: pn, farm: &fn},
	}, hrv)
	for _, p := range res.Positions {
		if p.Kind == "staked" && strings.EqualFold(p.Pool.Address, pq.Address.Hex()) &&
			(p.Liquidity != "0" || p.Amounts[0] != "0" || len(p.Farm.Rewards) != 1 || p.Farm.Rewards[0].Amount == "0") {
			t.Errorf("QRTZ/WETH after unstaking all: staked entry %+v, want no LP and HRV to claim", p)
		}
	}
}

// positionWant is an entry TestPositionsStakedOnDevnet expects: the pool's LP in the wallet (farm
// nil) or staked in farm.
type positionWant struct {
	pool devnet.SeededPool
	farm *devnet.SeededFarm
}

// positions reads an owner's positions, validated against the schema, and decodes them.
func (te *tradeEnv) positions(path string) PositionsResult {
	te.t.Helper()
	var res PositionsResult
	te.decode(te.get(path), &res)
	return res
}

// decode wants a 200 answer and decodes its body.
func (te *tradeEnv) decode(r response, out any) {
	te.t.Helper()
	if r.status != 200 {
		te.t.Fatalf("%d %s", r.status, r.rawBody)
	}
	if err := json.Unmarshal([]byte(r.rawBody), out); err != nil {
		te.t.Fatal(err)
	}
}

func encodeJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// checkPositions checks the wallet's positions against the chain at the block they name: the
// entries wanted, in order (by pool address; the wallet's first, then the stakes), each with the
// LP the wallet holds or the farm's balanceOf, the farm's earned in reward, the pro-rata share of
// the reserves and of the supply; valueUsd the sum of the entries'; the farms source complete.
func (te *tradeEnv) checkPositions(res PositionsResult, wants []positionWant, reward common.Address) {
	t := te.t
	t.Helper()
	user := te.wallet.Address
	at := new(big.Int).SetUint64(res.Block)
	read := func(to common.Address, data []byte) *big.Int {
		t.Helper()
		out, err := te.wallet.Client.CallContract(t.Context(), ethereum.CallMsg{To: &to, Data: data}, at)
		if err != nil || len(out) < 32 {
			t.Fatalf("call %s at block %d: %v", to, res.Block, err)
		}
		return new(big.Int).SetBytes(out[:32])
	}
	slices.SortStableFunc(wants, func(a, b positionWant) int {
		return strings.Compare(strings.ToLower(a.pool.Address.Hex()), strings.ToLower(b.pool.Address.Hex()))
	})
	if res.Block == 0 || res.Owner != user.Hex() || !slices.Contains(res.Sources, SourceHealth{Source: "base:farms", OK: true, Complete: true}) {
		t.Errorf("positions at block %d of %s, sources %+v; want a block, the wallet, and the farms source complete", res.Block, res.Owner, res.Sources)
	}
	if len(res.Positions) != len(wants) {
		t.Fatalf("%d positions, want %d: %+v", len(res.Positions), len(wants), res.Positions)
	}
	farmABI, tokenABI, pairABI := bindings.NewStakingRewards(), bindings.NewToken(), bindings.NewUniswapV2Pair()
	var total float64
	for i, w := range wants {
		p := res.Positions[i]
		where := w.pool.Address.Hex()
		lp := read(w.pool.Address, tokenABI.PackBalanceOf(user))
		kind := "wallet"
		if w.farm != nil {
			kind, where, lp = "staked", where+" in "+w.farm.Address.Hex(), read(w.farm.Address, farmABI.PackBalanceOf(user))
		}
		if p.Pool.Address != w.pool.Address.Hex() || p.Kind != kind || p.Liquidity != market.Units(lp, 18) {
			t.Errorf("entry %d: %s %s with %s LP, want %s %s with %s", i, p.Kind, p.Pool.Address, p.Liquidity, kind, where, market.Units(lp, 18))
			continue
		}
		supply := read(w.pool.Address, tokenABI.PackTotalSupply())
		raw, err := te.wallet.Client.CallContract(t.Context(), ethereum.CallMsg{To: &w.pool.Address, Data: pairABI.PackGetReserves()}, at)
		if err != nil {
			t.Fatal(err)
		}
		reserves, err := pairABI.UnpackGetReserves(raw)
		if err != nil {
			t.Fatal(err)
		}
		for j, tok := range []TokenRef{p.Pool.BaseToken, p.Pool.QuoteToken} {
			reserve := reserves.Reserve1
			if common.HexToAddress(tok.Address) == w.pool.Token0 {
				reserve = reserves.Reserve0
			}
			share := new(big.Int).Quo(new(big.Int).Mul(reserve, lp), supply)
			if p.Amounts[j] != market.Units(share, tok.Decimals) {
				t.Errorf("%s: %s amount %s, want the pro-rata %s", where, tok.Symbol, p.Amounts[j], market.Units(share, tok.Decimals))
			}
			if p.Pool.Reserves[j] != market.Units(reserve, tok.Decimals) { // the read's, never a lagging snapshot's
				t.Errorf("%s: pool %s reserve %s, want %s at block %d", where, tok.Symbol, p.Pool.Reserves[j], market.Units(reserve, tok.Decimals), res.Block)
			}
		}
		if pct := market.Decimal(market.Ratio(lp, supply) * 100); p.SharePct != pct {
			t.Errorf("%s: sharePct %s, want %s", where, p.SharePct, pct)
		}
		if w.farm == nil {
			if p.Farm != nil {
				t.Errorf("%s: a wallet entry with farm %+v", where, p.Farm)
			}
		} else {
			earned := read(w.farm.Address, farmABI.PackEarned(user))
			switch {
			case p.Farm == nil || p.Farm.Address != w.farm.Address.Hex():
				t.Errorf("%s: farm %+v", where, p.Farm)
			case earned.Sign() == 0 && len(p.Farm.Rewards) != 0:
				t.Errorf("%s: rewards %+v, nothing earned", where, p.Farm.Rewards)
			case earned.Sign() > 0 && (len(p.Farm.Rewards) != 1 || p.Farm.Rewards[0].Token.Address != reward.Hex() || p.Farm.Rewards[0].Amount != market.Units(earned, 18)):
				t.Errorf("%s: rewards %+v, want %s HRV earned at block %d", where, p.Farm.Rewards, market.Units(earned, 18), res.Block)
			}
		}
		if p.ValueUsd == "" {
			t.Errorf("%s: no valueUsd: every seeded token is priced", where)
		}
		total += parseFloat(t, p.ValueUsd)
	}
	if got := parseFloat(t, res.ValueUsd); got <= 0 || (got-total)/got > 1e-9 || (total-got)/got > 1e-9 {
		t.Errorf("valueUsd %s, the entries sum to %v", res.ValueUsd, total)
	}
}

func parseFloat(t testing.TB, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && s != "" {
		t.Errorf("%q is not a number", s)
	}
	return f
}
