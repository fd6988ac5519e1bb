package main

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// TestV3LiquidityOnAnvil builds, signs and sends the uniswap-v3 LP operations through the
// service's HTTP API on anvil and on local mode's devnet, both running the official
// NonfungiblePositionManager: see checkV3Liquidity.
func TestV3LiquidityOnAnvil(t *testing.T) {
	t.Parallel()
	onTradeWorlds(t, checkV3Liquidity)
}

var npmABI = bindings.NewNonfungiblePositionManager()

// checkV3Liquidity: user 5 wraps ETH, then on the seeded WETH/USDD 0.05 % pool
//
//   - lp/add mints a position in a range given in ticks (snapped to the tier's spacing of 10):
//     positions(id) holds exactly the liquidity and range the metadata states, the user spent
//     exactly amount0 and amount1, and no allowance is left;
//   - lp/increase adds exactly the liquidity and amounts it states;
//   - after a swap through the pool, lp/harvest's fees are exactly what its collect pays;
//   - lp/remove of 5000 then 10000 bps removes exactly the liquidity stated (half, rounded down,
//     then the rest) and pays exactly amount plus fees; the NFT stays the user's, empty;
//   - a position the deployer owns is 422 prerequisite_failed for increase, remove and harvest.
func checkV3Liquidity(t *testing.T, w *tradeWorld) {
	user := w.wallet(5)
	npm := w.market.V3.PositionManager
	pool := w.market.V3Pools[0]
	weth, usd := w.token("WETH"), w.token("USDD")
	if !(pool.Token0 == weth && pool.Token1 == usd) && !(pool.Token0 == usd && pool.Token1 == weth) || pool.Fee != 500 {
		t.Fatalf("seeded V3 pool 0 is %s/%s at %d, want WETH/USDD at 500", pool.Token0, pool.Token1, pool.Fee)
	}
	tokens := [2]common.Address{pool.Token0, pool.Token1}
	w.rawCall(user, weth, hexutil.MustDecode("0xd0e30db0"), units(2, 18)) // WETH9.deposit of 2 ETH

	balances := func() [2]*big.Int {
		return [2]*big.Int{w.balance(tokens[0], user.Address), w.balance(tokens[1], user.Address)}
	}
	send := func(what string, b builtAnswer, ids ...string) *types.Receipt {
		t.Helper()
		if !slices.Equal(b.ids(), ids) {
			t.Fatalf("%s: transactions %v, want %v; metadata %v", what, b.ids(), ids, b.Metadata)
		}
		hashes, receipts := w.send(user, b)
		if len(receipts) != len(ids) || receipts[len(receipts)-1].Status != types.ReceiptStatusSuccessful {
			t.Fatalf("%s: %d of %d transactions sent, the last reverted", what, len(receipts), len(ids))
		}
		w.confirmAtDepth(what, b, hashes)
		return receipts[len(receipts)-1]
	}
	amounts := func(wethAmount, usdAmount string) map[string]any {
		return map[string]any{"tokenA": weth.Hex(), "tokenB": usd.Hex(), "amountA": wethAmount, "amountB": usdAmount}
	}

	// lp/add in ticks, snapped outwards to multiples of 10.
	lo, hi := int(pool.Tick)-603, int(pool.Tick)+597
	wantLo, wantHi := floorDiv(lo, 10)*10, -floorDiv(-hi, 10)*10
	f := amounts("0.5", "1500")
	f["pool"], f["tickLower"], f["tickUpper"] = pool.Address.Hex(), lo, hi
	before := balances()
	add := w.build("/v1/build/lp/add", v3Body(user.Address, f))
	if add.md("tickLower") != fmt.Sprint(wantLo) || add.md("tickUpper") != fmt.Sprint(wantHi) || add.md("inRange") != "true" {
		t.Errorf("lp/add: range [%s, %s) in range %s, want [%d, %d) in range", add.md("tickLower"), add.md("tickUpper"), add.md("inRange"), wantLo, wantHi)
	}
	for i, e := range expects(add.raw)[:2] {
		if e == nil || e["amount"] != add.md(fmt.Sprintf("amount%d", i)) || !strings.EqualFold(fmt.Sprint(e["spender"]), npm.Hex()) {
			t.Errorf("lp/add: approve %d expects %v, want exactly amount%d %s for the position manager", i, e, i, add.md(fmt.Sprintf("amount%d", i)))
		}
	}
	rc := send("lp/add", add, "approveToken0", "approveToken1", "mint")
	var id *big.Int
	for _, l := range rc.Logs {
		if ev, err := npmABI.UnpackIncreaseLiquidityEvent(l); err == nil && l.Address == npm {
			id = ev.TokenId
		}
	}
	if id == nil {
		t.Fatal("lp/add: no IncreaseLiquidity event")
	}
	p := w.v3Position(id)
	if p.Liquidity.String() != add.md("liquidity") || p.TickLower.Int64() != int64(wantLo) || p.TickUpper.Int64() != int64(wantHi) {
		t.Errorf("lp/add: position %s holds %s in [%s, %s), metadata says %s in [%d, %d)", id, p.Liquidity, p.TickLower, p.TickUpper, add.md("liquidity"), wantLo, wantHi)
	}
	w.checkChanged("lp/add", before, add, "amount", true, user.Address, tokens, npm)
	if owner := common.BytesToAddress(w.mustRead(npm, npmABI.PackOwnerOf(id))); owner != user.Address {
		t.Errorf("lp/add: position %s is owned by %s, want the user", id, owner)
	}
	ids := []string{id.String()}

	// lp/increase.
	f = amounts("0.2", "500")
	f["positionIds"] = ids
	before, liq := balances(), p.Liquidity
	inc := w.build("/v1/build/lp/increase", v3Body(user.Address, f))
	send("lp/increase", inc, "approveToken0", "approveToken1", "increaseLiquidity")
	if got := new(big.Int).Sub(w.v3Position(id).Liquidity, liq); got.String() != inc.md("liquidity") || inc.md("liquidityBefore") != liq.String() {
		t.Errorf("lp/increase added %s liquidity, metadata says %s (before %s, want %s)", got, inc.md("liquidity"), inc.md("liquidityBefore"), liq)
	}
	w.checkChanged("lp/increase", before, inc, "amount", true, user.Address, tokens, npm)

	// A swap of 500 USDD for WETH through the pool, so that the position earns fees.
	router := w.market.V3.SwapRouter02
	w.rawCall(user, usd, tokenABI.PackApprove(router, units(500, 6)), nil)
	w.rawCall(user, router, bindings.NewSwapRouter02().PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{TokenIn: usd, TokenOut: weth,
		Fee: big.NewInt(500), Recipient: user.Address, AmountIn: units(500, 6), AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int)}), nil)

	// lp/harvest: the fees stated are what collect pays.
	before = balances()
	harvest := w.build("/v1/build/lp/harvest", v3Body(user.Address, map[string]any{"positionIds": ids}))
	if harvest.md("fees0") == "0" && harvest.md("fees1") == "0" {
		t.Errorf("lp/harvest: no fees after a swap through the position's range: %v", harvest.Metadata)
	}
	send("lp/harvest", harvest, "collect")
	w.checkChanged("lp/harvest", before, harvest, "fees", false, user.Address, tokens, npm)

	// lp/remove of half, then of everything left: the NFT stays, empty.
	for _, bps := range []int{5000, 10000} {
		what := fmt.Sprintf("lp/remove %d", bps)
		liq = w.v3Position(id).Liquidity
		want := new(big.Int).Div(new(big.Int).Mul(liq, big.NewInt(int64(bps))), big.NewInt(10_000))
		before = balances()
		rm := w.build("/v1/build/lp/remove", v3Body(user.Address, map[string]any{"positionIds": ids, "bps": bps}))
		if rm.md("liquidity") != want.String() || rm.md("burned") != "false" {
			t.Errorf("%s: removes %s liquidity (burned %s), want %s of %s", what, rm.md("liquidity"), rm.md("burned"), want, liq)
		}
		for i := range 2 {
			sum := new(big.Int).Add(decimal(t, rm.md(fmt.Sprintf("amount%d", i))), decimal(t, rm.md(fmt.Sprintf("fees%d", i))))
			if sum.String() != rm.md(fmt.Sprintf("collect%d", i)) {
				t.Errorf("%s: collect%d %s, want amount%d plus fees%d, %s", what, i, rm.md(fmt.Sprintf("collect%d", i)), i, i, sum)
			}
		}
		send(what, rm, "decreaseLiquidityAndCollect")
		if got := w.v3Position(id).Liquidity; new(big.Int).Sub(liq, got).Cmp(want) != 0 {
			t.Errorf("%s: liquidity %s left of %s, want %s removed", what, got, liq, want)
		}
		w.checkChanged(what, before, rm, "collect", false, user.Address, tokens, npm)
	}
	if p := w.v3Position(id); p.Liquidity.Sign() != 0 || p.TokensOwed0.Sign() != 0 || p.TokensOwed1.Sign() != 0 {
		t.Errorf("lp/remove 10000: position %s keeps liquidity %s, owed %s and %s; want none", id, p.Liquidity, p.TokensOwed0, p.TokensOwed1)
	}
	if owner := common.BytesToAddress(w.mustRead(npm, npmABI.PackOwnerOf(id))); owner != user.Address {
		t.Errorf("lp/remove 10000: position %s is owned by %s, want the user still (not burned)", id, owner)
	}

	// Another owner's position.
	theirs := []string{pool.Positions[0].TokenID.String()}
	for _, c := range []struct {
		op     string
		fields map[string]any
	}{
		{"increase", map[string]any{"positionIds": theirs, "amountA": "1", "amountB": "1"}},
		{"remove", map[string]any{"positionIds": theirs, "bps": 10000}},
		{"harvest", map[string]any{"positionIds": theirs}},
	} {
		r := w.do("POST", "/v1/build/lp/"+c.op, w.key, v3Body(user.Address, c.fields))
		if r.status != 422 || !strings.Contains(string(r.raw), "prerequisite_failed") || !strings.Contains(string(r.raw), "does not hold position") {
			t.Errorf("lp/%s of the deployer's position %s: %d %s, want 422 prerequisite_failed", c.op, theirs[0], r.status, r.raw)
		}
	}
}

// rawCall signs and sends a call from wl outside any build and wants it to succeed.
func (w *tradeWorld) rawCall(wl *devnet.Wallet, to common.Address, data []byte, value *big.Int) {
	w.t.Helper()
	if value == nil {
		value = new(big.Int)
	}
	ctx := w.ctx
	chainID, err1 := w.client.ChainID(ctx)
	nonce, err2 := w.client.PendingNonceAt(ctx, wl.Address)
	tip, err3 := w.client.SuggestGasTipCap(ctx)
	head, err4 := w.client.HeaderByNumber(ctx, nil)
	gas, err5 := w.client.EstimateGas(ctx, ethereum.CallMsg{From: wl.Address, To: &to, Data: data, Value: value})
	for _, err := range []error{err1, err2, err3, err4, err5} {
		if err != nil {
			w.t.Fatalf("call %s: %v", to, err)
		}
	}
	maxFee := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	_, rc, err := wl.Send(ctx, devnet.BuiltTx{ID: "call", ChainID: chainID.Int64(), From: wl.Address.Hex(), To: to.Hex(), Data: hexutil.Encode(data),
		Value: value.String(), Gas: gas * 2, MaxFeePerGas: maxFee.String(), MaxPriorityFeePerGas: tip.String(), Nonce: nonce})
	if err != nil || rc.Status != types.ReceiptStatusSuccessful {
		w.t.Fatalf("call %s: %v (receipt %v)", to, err, rc)
	}
}

// floorDiv is a/b rounded towards negative infinity, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
