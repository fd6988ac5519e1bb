package main

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

// TestV3RebalanceOnAnvil builds, signs and sends uniswap-v3's lp/create, lp/compound and
// lp/rebalance through the service's HTTP API on anvil and on local mode's devnet, both running
// the official NonfungiblePositionManager and SwapRouter02: see checkV3Rebalance.
func TestV3RebalanceOnAnvil(t *testing.T) {
	t.Parallel()
	onTradeWorlds(t, checkV3Rebalance)
}

// checkV3Rebalance: user 5 wraps ETH, then
//
//   - lp/create makes the WETH/USDD pool at 1 % (a tier the seeding leaves empty) at a price of
//     3200 USDD per WETH and mints its first position: the pool's slot0 is the price asked, the
//     position holds exactly the liquidity and range the metadata states, the user spent exactly
//     amount0 and amount1, nothing stays approved; a create of the same pool at another price is
//     422 prerequisite_failed;
//   - lp/create of the seeded 0.05 % pool without a price mints at the pool's price (created false);
//   - after a swap through that pool, lp/compound collects the position's fees, swaps to its
//     range's ratio and increases it by exactly the liquidity stated; the wallet keeps exactly the
//     leftovers stated; nothing stays approved to the position manager or the router;
//   - lp/rebalance moves it to a new range: the old NFT is burned, the user holds exactly one
//     position, in the new range, with exactly the liquidity stated, the wallet keeps exactly the
//     leftovers stated, and nothing stays approved;
//   - the deployer's position is 422 prerequisite_failed for compound and rebalance.
func checkV3Rebalance(t *testing.T, w *tradeWorld) {
	user := w.wallet(5)
	npm, router := w.market.V3.PositionManager, w.market.V3.SwapRouter02
	seeded := w.market.V3Pools[0]
	weth, usd := w.token("WETH"), w.token("USDD")
	if !(seeded.Token0 == weth && seeded.Token1 == usd) && !(seeded.Token0 == usd && seeded.Token1 == weth) || seeded.Fee != 500 {
		t.Fatalf("seeded V3 pool 0 is %s/%s at %d, want WETH/USDD at 500", seeded.Token0, seeded.Token1, seeded.Fee)
	}
	tokens := [2]common.Address{seeded.Token0, seeded.Token1}
	w.rawCall(user, weth, hexutil.MustDecode("0xd0e30db0"), units(3, 18)) // WETH9.deposit of 3 ETH
	poolABI := v3pool.NewUniswapV3Pool()

	balances := func() [2]*big.Int {
		return [2]*big.Int{w.balance(tokens[0], user.Address), w.balance(tokens[1], user.Address)}
	}
	send := func(what string, b builtAnswer) {
		t.Helper()
		ids := b.ids()
		if len(ids) == 0 {
			t.Fatalf("%s: no transactions; metadata %v", what, b.Metadata)
		}
		hashes, receipts := w.send(user, b)
		if len(receipts) != len(ids) || receipts[len(receipts)-1].Status != 1 {
			t.Fatalf("%s: %d of %d transactions sent, the last reverted", what, len(receipts), len(ids))
		}
		if len(ids) < w.depth { // confirmAtDepth wants every transaction short of the depth at once
			w.confirmAtDepth(what, b, hashes)
			return
		}
		w.mine(w.depth)
		sigs := make([]string, len(hashes))
		for i, h := range hashes {
			sigs[i] = h.Hex()
		}
		var c struct{ Confirmed bool }
		w.ok("POST", "/v1/build/confirm", map[string]any{"confirmationToken": b.ConfirmationToken, "signatures": sigs}, &c)
		if !c.Confirmed {
			t.Errorf("%s: not confirmed at depth %d", what, w.depth)
		}
	}
	held := func() []*big.Int {
		n := new(big.Int).SetBytes(w.mustRead(npm, npmABI.PackBalanceOf(user.Address)))
		var ids []*big.Int
		for i := range n.Int64() {
			ids = append(ids, new(big.Int).SetBytes(w.mustRead(npm, npmABI.PackTokenOfOwnerByIndex(user.Address, big.NewInt(i)))))
		}
		return ids
	}
	checkPosition := func(what string, id *big.Int, b builtAnswer) {
		t.Helper()
		p := w.v3Position(id)
		if p.Liquidity.String() != b.md("liquidity") || p.TickLower.String() != b.md("tickLower") || p.TickUpper.String() != b.md("tickUpper") {
			t.Errorf("%s: position %s holds %s in [%s, %s), metadata says %s in [%s, %s)", what, id, p.Liquidity, p.TickLower, p.TickUpper,
				b.md("liquidity"), b.md("tickLower"), b.md("tickUpper"))
		}
	}

	// lp/create of a new pool: WETH/USDD at 1 %, 3200 USDD per WETH in the pool's own order.
	price, wethDecimals, usdDecimals := "3200", 18, 6
	d0, d1 := wethDecimals, usdDecimals
	if tokens[0] != weth {
		price, d0, d1 = "0.0003125", usdDecimals, wethDecimals
	}
	rat, _ := new(big.Rat).SetString(price)
	tick, err := uniswapv3.PriceTick(rat, d0, d1)
	if err != nil {
		t.Fatal(err)
	}
	sqrtPrice, err := uniswapv3.SqrtPriceAt(rat, d0, d1)
	if err != nil {
		t.Fatal(err)
	}
	create := v3Body(user.Address, map[string]any{"tokenA": weth.Hex(), "tokenB": usd.Hex(), "amountA": "0.3", "amountB": "1000", "feeTier": 10000, "price": price,
		"tickLower": tick - 2000, "tickUpper": tick + 2000})
	before := balances()
	cr := w.build("/v1/build/lp/create", create)
	if cr.md("created") != "true" || cr.md("seeded") != "true" || cr.md("sqrtPriceX96") != sqrtPrice.String() || cr.md("positionIdFrom") == "" {
		t.Errorf("lp/create: metadata %v, want created and seeded at sqrtPriceX96 %s", cr.Metadata, sqrtPrice)
	}
	send("lp/create", cr)
	pool := common.HexToAddress(cr.md("poolId"))
	slot0, err := poolABI.UnpackSlot0(w.mustRead(pool, poolABI.PackSlot0()))
	if err != nil {
		t.Fatalf("lp/create: pool %s: %v", pool, err)
	}
	if slot0.SqrtPriceX96.Cmp(sqrtPrice) != 0 || slot0.Tick.Int64() != int64(tick) {
		t.Errorf("lp/create: pool %s at sqrtPriceX96 %s tick %s, want %s tick %d", pool, slot0.SqrtPriceX96, slot0.Tick, sqrtPrice, tick)
	}
	ids := held()
	if len(ids) != 1 {
		t.Fatalf("lp/create: the user holds %d positions, want 1", len(ids))
	}
	checkPosition("lp/create", ids[0], cr)
	w.checkChanged("lp/create", before, cr, "amount", true, user.Address, tokens, npm, router)

	// The same pool at another price: refused.
	create["price"] = map[bool]string{true: "4000", false: "0.00025"}[tokens[0] == weth]
	if r := w.do("POST", "/v1/build/lp/create", w.key, create); r.status != 422 || !strings.Contains(string(r.raw), "prerequisite_failed") {
		t.Errorf("lp/create of an existing pool at another price: %d %s, want 422 prerequisite_failed", r.status, r.raw)
	}

	// lp/create of the seeded 0.05 % pool, without a price: an add at the pool's price.
	before = balances()
	add := w.build("/v1/build/lp/create", v3Body(user.Address, map[string]any{"tokenA": weth.Hex(), "tokenB": usd.Hex(), "amountA": "0.5", "amountB": "1500",
		"feeTier": 500, "tickLower": int(seeded.Tick) - 600, "tickUpper": int(seeded.Tick) + 600}))
	if add.md("created") != "false" || !strings.EqualFold(add.md("poolId"), seeded.Address.Hex()) {
		t.Errorf("lp/create of the seeded pool: created %s, poolId %s; want false, %s", add.md("created"), add.md("poolId"), seeded.Address)
	}
	send("lp/create (existing pool)", add)
	ids = held()
	if len(ids) != 2 {
		t.Fatalf("the user holds %d positions, want 2", len(ids))
	}
	id := ids[1]
	checkPosition("lp/create (existing pool)", id, add)
	w.checkChanged("lp/create (existing pool)", before, add, "amount", true, user.Address, tokens, npm, router)

	// A swap of 500 USDD for WETH through the pool, so that the position earns fees.
	w.rawCall(user, usd, tokenABI.PackApprove(router, units(500, 6)), nil)
	w.rawCall(user, router, bindings.NewSwapRouter02().PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{TokenIn: usd, TokenOut: weth,
		Fee: big.NewInt(500), Recipient: user.Address, AmountIn: units(500, 6), AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int)}), nil)

	// lp/compound.
	liq := w.v3Position(id).Liquidity
	before = balances()
	cp := w.build("/v1/build/lp/compound", v3Body(user.Address, map[string]any{"positionIds": []string{id.String()}}))
	if cp.md("fees0") == "0" && cp.md("fees1") == "0" {
		t.Errorf("lp/compound: no fees after a swap through the position's range: %v", cp.Metadata)
	}
	send("lp/compound", cp)
	if got := new(big.Int).Sub(w.v3Position(id).Liquidity, liq); got.String() != cp.md("liquidity") || cp.md("liquidityBefore") != liq.String() {
		t.Errorf("lp/compound added %s liquidity, metadata says %s (before %s, want %s)", got, cp.md("liquidity"), cp.md("liquidityBefore"), liq)
	}
	w.checkChanged("lp/compound", before, cp, "leftover", false, user.Address, tokens, npm, router)

	// lp/rebalance to a range above and around the price.
	liq = w.v3Position(id).Liquidity
	lo, hi := int(seeded.Tick)-200, int(seeded.Tick)+1800
	before = balances()
	rb := w.build("/v1/build/lp/rebalance", v3Body(user.Address, map[string]any{"positionIds": []string{id.String()}, "tickLower": lo, "tickUpper": hi}))
	if ids := rb.ids(); ids[0] != "exit" || ids[len(ids)-1] != "mint" || rb.md("burned") != "true" || rb.md("removedLiquidity") != liq.String() {
		t.Errorf("lp/rebalance: transactions %v, metadata %v; want exit first, mint last, burned, all of %s removed", ids, rb.Metadata, liq)
	}
	if rb.Metadata["swap"] == nil {
		t.Errorf("lp/rebalance to a range of another ratio swaps nothing: %v", rb.Metadata)
	}
	send("lp/rebalance", rb)
	if _, err := w.read(npm, npmABI.PackOwnerOf(id), nil); err == nil {
		t.Errorf("lp/rebalance: the old position %s still exists, want it burned", id)
	}
	ids = held()
	if len(ids) != 2 || ids[0].Cmp(id) == 0 || ids[1].Cmp(id) == 0 {
		t.Fatalf("lp/rebalance: the user holds positions %v, want the created one and one new one", ids)
	}
	checkPosition("lp/rebalance", ids[1], rb)
	if p := w.v3Position(ids[1]); p.Liquidity.Sign() == 0 || p.TickLower.Int64() != int64(floorDiv(lo, 10)*10) || p.TickUpper.Int64() != int64(-floorDiv(-hi, 10)*10) {
		t.Errorf("lp/rebalance: position %s holds %s in [%s, %s), want liquidity in [%d, %d) snapped", ids[1], p.Liquidity, p.TickLower, p.TickUpper, lo, hi)
	}
	w.checkChanged("lp/rebalance", before, rb, "leftover", false, user.Address, tokens, npm, router)

	// Another owner's position.
	theirs := []string{seeded.Positions[0].TokenID.String()}
	for _, c := range []struct {
		op     string
		fields map[string]any
	}{
		{"compound", map[string]any{"positionIds": theirs}},
		{"rebalance", map[string]any{"positionIds": theirs, "tickLower": lo, "tickUpper": hi}},
	} {
		r := w.do("POST", "/v1/build/lp/"+c.op, w.key, v3Body(user.Address, c.fields))
		if r.status != 422 || !strings.Contains(string(r.raw), "prerequisite_failed") || !strings.Contains(string(r.raw), "does not hold position") {
			t.Errorf("lp/%s of the deployer's position %s: %d %s, want 422 prerequisite_failed", c.op, theirs[0], r.status, r.raw)
		}
	}
}
