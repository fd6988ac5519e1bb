package main

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/market"
)

// positionsAnswer is the part of a PositionsResult this file checks.
type positionsAnswer struct {
	Block     uint64
	ValueUsd  string
	Positions []struct {
		Pool struct {
			Address   string
			BaseToken struct {
				Address  string
				Decimals int
			}
			QuoteToken struct {
				Address  string
				Decimals int
			}
		}
		Kind      string
		Liquidity string
		Amounts   []string
		Farm      *struct {
			Address string
			Rewards []struct {
				Token  struct{ Address string }
				Amount string
			}
		}
	}
}

// TestPositionsStakedOnAnvil: on anvil (an EVM independent of go-ethereum, configured through
// PARTNER_CHAINS), a user adds liquidity to AUR/USDD and stakes half of it in the pool's farm
// through the service's own lp/add and lp/farm builds, signed and sent by a test wallet; positions,
// single and batch, then list the pool twice: the LP left in the wallet, and the stake, whose
// liquidity is exactly the farm's balanceOf, whose reward is exactly the farm's earned (HRV) and
// whose amounts are exactly the pro-rata share of the reserves, all at the block the answer names.
func TestPositionsStakedOnAnvil(t *testing.T) {
	t.Parallel()
	a := startAnvilService(t, nil)
	keys := make([]string, len(a.node.Keys))
	for i, k := range a.node.Keys {
		keys[i] = hexutil.Encode(crypto.FromECDSA(k))
	}
	w := newTradeWorld(a.world, a.node.URL, a.seeded, keys, a.seeded.ChainConfig(a.node.URL).Confirmations)
	user := w.wallet(5)
	aur, usd, hrv := w.token("AUR"), w.token("USDD"), w.token("HRV")
	var pool devnet.SeededPool
	var farm devnet.SeededFarm
	for i, p := range w.market.Pools {
		if (p.Token0 == aur && p.Token1 == usd) || (p.Token0 == usd && p.Token1 == aur) {
			pool, farm = p, w.market.Farms[i]
		}
	}
	body := func(fields map[string]any) map[string]any {
		b := map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": user.Address.Hex(), "pool": pool.Address.Hex()}
		for k, v := range fields {
			b[k] = v
		}
		return b
	}
	w.send(user, w.build("/v1/build/lp/add", body(map[string]any{"tokenA": aur.Hex(), "tokenB": usd.Hex(), "amountA": "10", "amountB": "100"})))
	half := new(big.Int).Quo(w.balance(pool.Address, user.Address), big.NewInt(2))
	w.send(user, w.build("/v1/build/lp/farm", body(map[string]any{"amount": market.Units(half, 18)})))
	if err := w.client.Client().CallContext(w.ctx, nil, "anvil_mine", hexutil.Uint64(3), hexutil.Uint64(1)); err != nil {
		t.Fatal(err) // three blocks a second apart: the farm pays
	}

	mw := a.world
	var res positionsAnswer
	mw.eventually("positions list the wallet's LP and its stake", func() string {
		res = positionsAnswer{}
		mw.get("/v1/portfolio/"+user.Address.Hex()+"/positions?chain=base", &res)
		if len(res.Positions) != 2 {
			return fmt.Sprintf("%d positions", len(res.Positions))
		}
		return ""
	})
	at := new(big.Int).SetUint64(res.Block)
	word := func(out []byte, err error) *big.Int {
		t.Helper()
		if err != nil || len(out) < 32 {
			t.Fatalf("read at block %d: %v", res.Block, err)
		}
		return new(big.Int).SetBytes(out[:32])
	}
	farmABI, pairABI := bindings.NewStakingRewards(), bindings.NewUniswapV2Pair()
	held := word(w.read(pool.Address, tokenABI.PackBalanceOf(user.Address), at))
	staked := word(w.read(farm.Address, farmABI.PackBalanceOf(user.Address), at))
	earned := word(w.read(farm.Address, farmABI.PackEarned(user.Address), at))
	supply := word(w.read(pool.Address, tokenABI.PackTotalSupply(), at))
	raw, err := w.read(pool.Address, pairABI.PackGetReserves(), at)
	if err != nil {
		t.Fatal(err)
	}
	reserves, err := pairABI.UnpackGetReserves(raw)
	if err != nil {
		t.Fatal(err)
	}
	if staked.Cmp(half) != 0 || earned.Sign() == 0 {
		t.Fatalf("the farm says %s staked (want %s) and %s earned at block %d", staked, half, earned, res.Block)
	}
	for i, lp := range []*big.Int{held, staked} {
		p := res.Positions[i]
		kind := []string{"wallet", "staked"}[i]
		if p.Kind != kind || !strings.EqualFold(p.Pool.Address, pool.Address.Hex()) || p.Liquidity != market.Units(lp, 18) {
			t.Errorf("entry %d: %s %s with %s LP, want %s %s with %s", i, p.Kind, p.Pool.Address, p.Liquidity, kind, pool.Address, market.Units(lp, 18))
		}
		for j, tok := range []struct {
			Address  string
			Decimals int
		}{p.Pool.BaseToken, p.Pool.QuoteToken} {
			reserve := reserves.Reserve1
			if strings.EqualFold(tok.Address, pool.Token0.Hex()) {
				reserve = reserves.Reserve0
			}
			if want := market.Units(new(big.Int).Quo(new(big.Int).Mul(reserve, lp), supply), tok.Decimals); p.Amounts[j] != want {
				t.Errorf("%s entry: amount %d is %s, want the pro-rata %s", kind, j, p.Amounts[j], want)
			}
		}
	}
	f := res.Positions[1].Farm
	if res.Positions[0].Farm != nil || f == nil || f.Address != farm.Address.Hex() || len(f.Rewards) != 1 ||
		f.Rewards[0].Token.Address != hrv.Hex() || f.Rewards[0].Amount != market.Units(earned, 18) {
		t.Errorf("farms %+v then %+v; want none, then %s with %s HRV earned at block %d", res.Positions[0].Farm, f, farm.Address, market.Units(earned, 18), res.Block)
	}

	var batch struct {
		Results []struct {
			Result *positionsAnswer
		}
	}
	mw.get("/v1/portfolio/positions?owners=base:"+user.Address.Hex(), &batch)
	if len(batch.Results) != 1 || batch.Results[0].Result == nil || !reflect.DeepEqual(*batch.Results[0].Result, res) {
		t.Errorf("batch positions %+v, want the single answer %+v", batch.Results, res)
	}
}
