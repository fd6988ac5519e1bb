package main

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// TestV3FarmOnAnvil builds, signs and sends the uniswap-v3 farm, staked harvest and migrate
// operations through the service's HTTP API on anvil and on local mode's devnet, both running the
// official UniswapV3Staker and V3Migrator: see checkV3Farm and checkV3Migrate.
func TestV3FarmOnAnvil(t *testing.T) {
	t.Parallel()
	onTradeWorlds(t, func(t *testing.T, w *tradeWorld) {
		checkV3Farm(t, w)
		checkV3Migrate(t, w)
	})
}

var stakerABI = bindings.NewUniswapV3Staker()

// v3Body is a uniswap-v3 LP body of user with fields.
func v3Body(user common.Address, fields map[string]any) map[string]any {
	b := map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": user.Hex()}
	for k, v := range fields {
		b[k] = v
	}
	return b
}

// v3Position is the position manager's positions(id).
func (w *tradeWorld) v3Position(id *big.Int) bindings.PositionsOutput {
	w.t.Helper()
	p, err := npmABI.UnpackPositions(w.mustRead(w.market.V3.PositionManager, npmABI.PackPositions(id)))
	if err != nil {
		w.t.Fatal(err)
	}
	return p
}

// checkChanged checks user's balance changes of tokens since before against the metadata's key0
// and key1 (paid: the user paid them; else received them), and that nothing of them stays
// approved to spenders.
func (w *tradeWorld) checkChanged(what string, before [2]*big.Int, b builtAnswer, key string, paid bool, user common.Address,
	tokens [2]common.Address, spenders ...common.Address) {
	w.t.Helper()
	for i, tk := range tokens {
		d := new(big.Int).Sub(w.balance(tk, user), before[i])
		if paid {
			d.Neg(d)
		}
		if want := b.md(fmt.Sprintf("%s%d", key, i)); d.String() != want {
			w.t.Errorf("%s: token%d changed by %s, metadata %s%d says %s", what, i, d, key, i, want)
		}
		for _, spender := range spenders {
			if a := w.allowance(tk, user, spender); a.Sign() != 0 {
				w.t.Errorf("%s left an allowance of %s of token%d to %s", what, a, i, spender)
			}
		}
	}
}

// sendBuilt sends a build's transactions, wanting ids, all successful; it returns their receipts.
func (w *tradeWorld) sendBuilt(wl *devnet.Wallet, what string, b builtAnswer, ids ...string) []*types.Receipt {
	w.t.Helper()
	if !slices.Equal(b.ids(), ids) {
		w.t.Fatalf("%s: transactions %v, want %v; metadata %v", what, b.ids(), ids, b.Metadata)
	}
	_, receipts := w.send(wl, b)
	if len(receipts) != len(ids) || receipts[len(receipts)-1].Status != types.ReceiptStatusSuccessful {
		w.t.Fatalf("%s: %d of %d transactions sent, the last reverted", what, len(receipts), len(ids))
	}
	return receipts
}

// refused posts a build that must answer 422 prerequisite_failed with a message containing want.
func (w *tradeWorld) refused(what, path string, body map[string]any, want string) {
	w.t.Helper()
	r := w.do("POST", path, w.key, body)
	if r.status != 422 || !strings.Contains(string(r.raw), "prerequisite_failed") || !strings.Contains(string(r.raw), want) {
		w.t.Errorf("%s: %d %s, want 422 prerequisite_failed saying %q", what, r.status, r.raw, want)
	}
}

// mintedPosition is the position id of the position manager's IncreaseLiquidity event in the
// last of receipts.
func (w *tradeWorld) mintedPosition(what string, receipts []*types.Receipt) *big.Int {
	w.t.Helper()
	for _, l := range receipts[len(receipts)-1].Logs {
		if ev, err := npmABI.UnpackIncreaseLiquidityEvent(l); err == nil && l.Address == w.market.V3.PositionManager {
			return ev.TokenId
		}
	}
	w.t.Fatalf("%s: no IncreaseLiquidity event", what)
	return nil
}

// checkV3Farm: user 5 mints a position in the incentive's pool (WETH/USDD 0.3 %) with lp/add, then
//
//   - lp/farm stakes it in the seeded incentive, named by its id: the staker holds the NFT,
//     deposits(id) is the user's with one stake, stakes(id, incentive) holds its liquidity;
//   - after some blocks, lp/harvest claims its rewards: earned is getRewardInfo at the read block
//     exactly, the user receives at least metadata's claim (rewards accrue by the second while in
//     range), exactly what RewardClaimed says, and the position is staked again;
//   - lp/farm action unstake claims again and returns the NFT, no deposit left;
//   - the deployer's position (in its wallet, or its staked one) is 422 prerequisite_failed for
//     user 5's farm and harvest, as are an incentive id not of the pool, unstaking a position in the
//     wallet and staking a deposited one.
func checkV3Farm(t *testing.T, w *tradeWorld) {
	user := w.wallet(5)
	inc := w.market.V3Incentive
	staker, npm := w.market.V3.Staker, w.market.V3.PositionManager
	pool := w.market.V3Pools[1]
	if pool.Address != inc.Pool {
		t.Fatalf("the incentive is on %s, want V3 pool 1 %s", inc.Pool, pool.Address)
	}
	weth, usd := w.token("WETH"), w.token("USDD")
	w.rawCall(user, weth, hexutil.MustDecode("0xd0e30db0"), units(1, 18)) // WETH9.deposit of 1 ETH
	add := w.build("/v1/build/lp/add", v3Body(user.Address, map[string]any{"pool": pool.Address.Hex(), "tickLower": int(pool.Tick) - 1200,
		"tickUpper": int(pool.Tick) + 1200, "tokenA": weth.Hex(), "tokenB": usd.Hex(), "amountA": "0.5", "amountB": "1500"}))
	id := w.mintedPosition("lp/add", w.sendBuilt(user, "lp/add", add, "approveToken0", "approveToken1", "mint"))
	ids := []string{id.String()}
	liquidity := add.md("liquidity")
	owner := func() common.Address { return common.BytesToAddress(w.mustRead(npm, npmABI.PackOwnerOf(id))) }
	deposit := func() bindings.DepositsOutput {
		d, err := stakerABI.UnpackDeposits(w.mustRead(staker, stakerABI.PackDeposits(id)))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	staked := func() *big.Int {
		s, err := stakerABI.UnpackStakes(w.mustRead(staker, stakerABI.PackStakes(id, inc.ID)))
		if err != nil {
			t.Fatal(err)
		}
		return s.Liquidity
	}

	// Refusals: the deployer's positions, in its wallet and in the staker.
	theirs, theirStake := pool.Positions[0].TokenID.String(), inc.StakedTokenID.String()
	w.refused("lp/farm of the deployer's position", "/v1/build/lp/farm", v3Body(user.Address, map[string]any{"positionIds": []string{theirs}}), "does not hold position")
	w.refused("lp/farm unstake of the deployer's stake", "/v1/build/lp/farm",
		v3Body(user.Address, map[string]any{"positionIds": []string{theirStake}, "action": "unstake"}), "by another address")
	w.refused("lp/harvest of the deployer's stake", "/v1/build/lp/harvest", v3Body(user.Address, map[string]any{"positionIds": []string{theirStake}}),
		"by another address")
	w.refused("lp/farm unstake of a position in the wallet", "/v1/build/lp/farm",
		v3Body(user.Address, map[string]any{"positionIds": ids, "action": "unstake"}), "not deposited in the staker")

	w.refused("lp/farm in an incentive of another pool", "/v1/build/lp/farm",
		v3Body(user.Address, map[string]any{"positionIds": ids, "incentiveId": common.Hash{1}.Hex()}), "is not an incentive of the position's pool")

	// lp/farm: stake, naming the incentive.
	farm := w.build("/v1/build/lp/farm", v3Body(user.Address, map[string]any{"positionIds": ids, "incentiveId": inc.ID.Hex()}))
	if farm.md("incentiveId") != inc.ID.Hex() || farm.md("action") != "stake" || farm.md("liquidity") != liquidity {
		t.Errorf("lp/farm: incentive %s action %s liquidity %s, want %s, stake, %s", farm.md("incentiveId"), farm.md("action"), farm.md("liquidity"),
			inc.ID.Hex(), liquidity)
	}
	w.sendBuilt(user, "lp/farm", farm, "stake")
	if d := deposit(); owner() != staker || d.Owner != user.Address || d.NumberOfStakes.Int64() != 1 || staked().String() != liquidity {
		t.Errorf("lp/farm: NFT held by %s, deposit of %s with %s stakes, staked liquidity %s; want the staker, the user, 1, %s",
			owner(), d.Owner, d.NumberOfStakes, staked(), liquidity)
	}
	w.refused("lp/farm of a deposited position", "/v1/build/lp/farm", v3Body(user.Address, map[string]any{"positionIds": ids}), "already deposited")

	// lp/harvest of the staked position, after some blocks (a second each).
	w.mine(5)
	claimRewards := func(what, path string, fields map[string]any, ids ...string) {
		t.Helper()
		b := w.build(path, v3Body(user.Address, fields))
		rewards, _ := b.Metadata["rewards"].([]any)
		incentives, _ := b.Metadata["incentives"].([]any)
		if len(rewards) != 1 || len(incentives) != 1 {
			t.Fatalf("%s: rewards %v, incentives %v; want one of each", what, b.Metadata["rewards"], b.Metadata["incentives"])
		}
		rw, in := rewards[0].(map[string]any), incentives[0].(map[string]any)
		at := new(big.Int).SetUint64(uint64(decimal(t, b.md("simulatedAtBlock")).Int64()))
		info, err := w.read(staker, stakerABI.PackGetRewardInfo(inc.Key(), id), at)
		if err != nil {
			t.Fatal(err)
		}
		if ri, err := stakerABI.UnpackGetRewardInfo(info); err != nil || ri.Reward.String() != in["earned"] || ri.Reward.Sign() == 0 {
			t.Errorf("%s: earned %v, getRewardInfo at block %s says %v (%v); want equal, not zero", what, in["earned"], at, ri.Reward, err)
		}
		before := w.balance(inc.RewardToken, user.Address)
		rc := w.sendBuilt(user, what, b, ids...)
		got := new(big.Int).Sub(w.balance(inc.RewardToken, user.Address), before)
		var event *big.Int
		for _, l := range rc[len(rc)-1].Logs {
			if ev, err := stakerABI.UnpackRewardClaimedEvent(l); err == nil && l.Address == staker {
				event = ev.Reward
			}
		}
		claim := decimal(t, fmt.Sprint(rw["claim"]))
		if event == nil || got.Cmp(event) != 0 || got.Cmp(claim) < 0 || !strings.EqualFold(fmt.Sprint(rw["token"]), inc.RewardToken.Hex()) {
			t.Errorf("%s: the user received %s of %s (RewardClaimed %v), metadata's claim is %s of %v: want at least that", what, got, inc.RewardToken,
				event, claim, rw["token"])
		}
		if owed, err := stakerABI.UnpackRewards(w.mustRead(staker, stakerABI.PackRewards(inc.RewardToken, user.Address))); err != nil || owed.Sign() != 0 {
			t.Errorf("%s: the staker still owes %v (%v), want nothing", what, owed, err)
		}
	}
	claimRewards("lp/harvest", "/v1/build/lp/harvest", map[string]any{"positionIds": ids}, "harvestRewards")
	if d := deposit(); owner() != staker || d.NumberOfStakes.Int64() != 1 || staked().String() != liquidity {
		t.Errorf("lp/harvest: NFT held by %s, %s stakes, staked liquidity %s; want it staked again", owner(), d.NumberOfStakes, staked())
	}

	// lp/farm: unstake, claim and withdraw.
	w.mine(3)
	claimRewards("lp/farm unstake", "/v1/build/lp/farm", map[string]any{"positionIds": ids, "action": "unstake"}, "unstakeAndWithdraw")
	if d := deposit(); owner() != user.Address || d.Owner != (common.Address{}) || staked().Sign() != 0 {
		t.Errorf("lp/farm unstake: NFT held by %s, deposit of %s, staked %s; want the user's wallet, none, none", owner(), d.Owner, staked())
	}
}

// checkV3Migrate: through the V3Migrator,
//
//   - the deployer migrates 10 % of its WETH/USDD uniswap-v2 LP into the existing 0.3 % pool in a
//     range above and around the price (so that part of one side is refunded): its LP balance
//     drops by exactly lpAmount, the new position holds exactly metadata's liquidity and range,
//     the deployer gets exactly refund0 and refund1 back, and no LP allowance is left;
//   - user 7 migrates half its AUR/WETH LP into a 0.3 % pool that does not exist yet: the same
//     multicall creates it at the pair's price;
//   - the deployer migrates 5 % more into a range below and around the price with native: the
//     WETH refund arrives as exactly refund's ETH (gas counted), its WETH balance unchanged;
//   - user 5, who holds no WETH/USDD LP, is 422 prerequisite_failed.
func checkV3Migrate(t *testing.T, w *tradeWorld) {
	migrator := w.market.V3.V3Migrator
	weth, usd, aur := w.token("WETH"), w.token("USDD"), w.token("AUR")
	target := w.market.V3Pools[1]
	cases := []struct {
		what    string
		account int
		a, b    common.Address
		bps     int
		ticks   [2]int
		created bool
		native  bool // the WETH refund comes as ETH
	}{
		{"migrate WETH/USDD", 0, weth, usd, 1000, [2]int{int(target.Tick) - 600, int(target.Tick) + 3000}, false, false},
		{"migrate AUR/WETH", 7, aur, weth, 5000, [2]int{-887272, 887272}, true, false},
		{"migrate WETH/USDD, refund as ETH", 0, weth, usd, 500, [2]int{int(target.Tick) - 3000, int(target.Tick) + 600}, false, true},
	}
	for _, c := range cases {
		user := w.wallet(c.account)
		pair := w.pool("uniswap-v2", c.a, c.b, 0)
		t0, t1 := c.a, c.b
		if t1.Cmp(t0) < 0 {
			t0, t1 = t1, t0
		}
		lpBefore := w.balance(pair, user.Address)
		before := [2]*big.Int{w.balance(t0, user.Address), w.balance(t1, user.Address)}
		ethBefore := w.balance(common.Address{}, user.Address)
		b := w.build("/v1/build/lp/migrate", v3Body(user.Address, map[string]any{"pool": pair.Hex(), "bps": c.bps, "feeTier": 3000,
			"tickLower": c.ticks[0], "tickUpper": c.ticks[1], "slippageBps": 100, "native": c.native}))
		if b.md("created") != fmt.Sprint(c.created) {
			t.Errorf("%s: created %s, want %v", c.what, b.md("created"), c.created)
		}
		want := new(big.Int).Div(new(big.Int).Mul(lpBefore, big.NewInt(int64(c.bps))), big.NewInt(10_000))
		if b.md("lpAmount") != want.String() {
			t.Errorf("%s: lpAmount %s, want %d bps of %s: %s", c.what, b.md("lpAmount"), c.bps, lpBefore, want)
		}
		receipts := w.sendBuilt(user, c.what, b, "approveLP", "migrate")
		id := w.mintedPosition(c.what, receipts)
		ethGot := new(big.Int).Sub(w.balance(common.Address{}, user.Address), ethBefore)
		ethGot.Add(ethGot, gasPaid(receipts))
		if got := new(big.Int).Sub(lpBefore, w.balance(pair, user.Address)); got.String() != b.md("lpAmount") {
			t.Errorf("%s: LP balance dropped by %s, metadata's lpAmount is %s", c.what, got, b.md("lpAmount"))
		}
		p := w.v3Position(id)
		if p.Liquidity.String() != b.md("liquidity") || p.TickLower.String() != b.md("tickLower") || p.TickUpper.String() != b.md("tickUpper") ||
			p.Fee.Int64() != 3000 {
			t.Errorf("%s: position %s holds %s in [%s, %s) at %s, metadata says %s in [%s, %s)", c.what, id, p.Liquidity, p.TickLower, p.TickUpper,
				p.Fee, b.md("liquidity"), b.md("tickLower"), b.md("tickUpper"))
		}
		for i, tk := range []common.Address{t0, t1} {
			refund := new(big.Int).Sub(w.balance(tk, user.Address), before[i])
			if c.native && tk == weth {
				if refund.Sign() != 0 {
					t.Errorf("%s: WETH moved by %s, want the refund in ETH", c.what, refund)
				}
				if refund = ethGot; refund.Sign() <= 0 { // the ETH received, gas added back
					t.Errorf("%s: no ETH refunded (%s): the range should leave WETH over", c.what, refund)
				}
			}
			if refund.String() != b.md(fmt.Sprintf("refund%d", i)) {
				t.Errorf("%s: token%d refunded %s, metadata says %s", c.what, i, refund, b.md(fmt.Sprintf("refund%d", i)))
			}
		}
		if c.ticks[0] > -887272 && b.md("refund0") == "0" && b.md("refund1") == "0" {
			t.Errorf("%s: nothing refunded from a range off the pair's ratio: %v", c.what, b.Metadata)
		}
		if a := w.allowance(pair, user.Address, migrator); a.Sign() != 0 {
			t.Errorf("%s left an LP allowance of %s to the migrator", c.what, a)
		}
		if got := w.pool("uniswap-v3", t0, t1, 3000); !strings.EqualFold(got.Hex(), b.md("poolId")) {
			t.Errorf("%s: the factory's pool is %s, metadata's poolId %s", c.what, got, b.md("poolId"))
		}
	}
	w.refused("migrate without LP", "/v1/build/lp/migrate", v3Body(w.wallet(5).Address, map[string]any{"pool": w.pool("uniswap-v2", weth, usd, 0).Hex(),
		"bps": 5000, "feeTier": 3000, "tickLower": -887272, "tickUpper": 887272}), "holds no LP")
}
