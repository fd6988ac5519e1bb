package main

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
	"github.com/partner-platform/partnerd/market"
)

// v3PositionsAnswer is the part of a PositionsResult this file checks.
type v3PositionsAnswer struct {
	Block     uint64
	Positions []struct {
		Pool struct {
			Address   string
			Venue     string
			BaseToken struct {
				Address  string
				Decimals int
			}
			QuoteToken struct {
				Address  string
				Decimals int
			}
		}
		Kind            string
		Liquidity       string
		Amounts         []string
		UncollectedFees []string
		PositionID      string
		Range           *struct {
			TickLower, TickUpper   int
			PriceLower, PriceUpper string
			InRange                bool
		}
		Farm *struct{ Address string }
	}
	Sources []struct {
		Source   string
		OK       bool
		Complete bool
	}
}

// TestV3PositionsOnLocalDevnet: in local mode the devnet seeds Uniswap V3 pools with the
// deployer's position NFTs, one of them staked in the UniswapV3Staker; a trader swaps through every
// V3 pool of USD there and back (tradeV3), so they earn fees. GET positions of the deployer lists every seeded NFT (the staked one as kind
// staked, with the staker as farm), and at the block the answer names each NFT's liquidity and
// range are positions()'s, its amounts exactly what decreaseLiquidity of all of it pays and its
// uncollected fees exactly what collect pays (static calls from the NFT's holder: the deployer, or
// the staker), in base then quote order; inRange is the pool's slot0 tick's. The batch read lists
// the same NFTs.
func TestV3PositionsOnLocalDevnet(t *testing.T) {
	t.Parallel()
	w := startMarketWorld(t, chain.Config{})
	local := w.m.chains.devnet
	seeded := local.Market()
	if len(seeded.V3Pools) == 0 {
		t.Fatal("the local devnet seeded no V3 pools")
	}
	npm, staker := seeded.V3.PositionManager, seeded.V3.Staker
	var deployer common.Address
	for _, a := range local.Accounts() {
		if a.Role == devnet.RoleDeployer {
			deployer = a.Address
		}
	}
	want := map[string]bool{} // position id: staked
	for _, p := range seeded.V3Pools {
		for _, pos := range p.Positions {
			want[pos.TokenID.String()] = pos.TokenID.Cmp(seeded.V3Incentive.StakedTokenID) == 0
		}
	}

	w.chain = local
	tradeV3(t, w, local, seeded)

	var res v3PositionsAnswer
	path := "/v1/portfolio/" + deployer.Hex() + "/positions?chain=base"
	w.get(path, &res)
	earning := 0
	for _, p := range res.Positions {
		if len(p.UncollectedFees) == 2 && (p.UncollectedFees[0] != "0" || p.UncollectedFees[1] != "0") {
			earning++
		}
	}
	if earning < 2 {
		t.Fatalf("%d positions with fees at block %d after the trades, want at least 2", earning, res.Block)
	}
	at := new(big.Int).SetUint64(res.Block)
	static := func(from, to common.Address, data []byte) []byte {
		t.Helper()
		out, err := local.Client().CallContract(w.ctx, ethereum.CallMsg{From: from, To: &to, Data: data}, at)
		if err != nil {
			t.Fatalf("static call to %s from %s at block %d: %v", to, from, res.Block, err)
		}
		return out
	}
	npmABI, poolABI := bindings.NewNonfungiblePositionManager(), v3pool.NewUniswapV3Pool()
	parse := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
	max128 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	seen := map[string]bool{}
	for _, p := range res.Positions {
		if p.PositionID == "" {
			continue
		}
		seen[p.PositionID] = true
		id, _ := new(big.Int).SetString(p.PositionID, 10)
		holder := deployer
		if p.Kind == "staked" {
			holder = staker
			if p.Farm == nil || p.Farm.Address != staker.Hex() {
				t.Errorf("position %s: staked with farm %+v, want the staker %s", p.PositionID, p.Farm, staker)
			}
		}
		pos, err := npmABI.UnpackPositions(static(holder, npm, npmABI.PackPositions(id)))
		if err != nil {
			t.Fatal(err)
		}
		// base then quote, as the answer orients the pool
		order := func(a0, a1 *big.Int) []string {
			b, q := a0, a1
			if !strings.EqualFold(p.Pool.BaseToken.Address, pos.Token0.Hex()) {
				b, q = a1, a0
			}
			return []string{market.Units(b, p.Pool.BaseToken.Decimals), market.Units(q, p.Pool.QuoteToken.Decimals)}
		}
		fees, err := npmABI.UnpackCollect(static(holder, npm, npmABI.PackCollect(bindings.INonfungiblePositionManagerCollectParams{
			TokenId: id, Recipient: holder, Amount0Max: max128, Amount1Max: max128})))
		if err != nil {
			t.Fatal(err)
		}
		if wantFees := order(fees.Amount0, fees.Amount1); !slices.Equal(p.UncollectedFees, wantFees) {
			t.Errorf("position %s: uncollected fees %v, collect pays %v at block %d", p.PositionID, p.UncollectedFees, wantFees, res.Block)
		}
		wantAmounts := order(new(big.Int), new(big.Int))
		if pos.Liquidity.Sign() > 0 {
			out, err := npmABI.UnpackDecreaseLiquidity(static(holder, npm, npmABI.PackDecreaseLiquidity(bindings.INonfungiblePositionManagerDecreaseLiquidityParams{
				TokenId: id, Liquidity: pos.Liquidity, Amount0Min: new(big.Int), Amount1Min: new(big.Int), Deadline: new(big.Int).Lsh(big.NewInt(1), 64)})))
			if err != nil {
				t.Fatal(err)
			}
			wantAmounts = order(out.Amount0, out.Amount1)
		}
		if !slices.Equal(p.Amounts, wantAmounts) || p.Liquidity != pos.Liquidity.String() || p.Pool.Venue != "uniswap-v3" {
			t.Errorf("position %s: amounts %v liquidity %s venue %s, decreaseLiquidity pays %v of %s", p.PositionID, p.Amounts, p.Liquidity,
				p.Pool.Venue, wantAmounts, pos.Liquidity)
		}
		slot0, err := poolABI.UnpackSlot0(static(holder, common.HexToAddress(p.Pool.Address), poolABI.PackSlot0()))
		if err != nil {
			t.Fatal(err)
		}
		tick := int(slot0.Tick.Int64())
		r := p.Range
		if r == nil || r.TickLower != int(pos.TickLower.Int64()) || r.TickUpper != int(pos.TickUpper.Int64()) ||
			r.InRange != (r.TickLower <= tick && tick < r.TickUpper) || !(parse(r.PriceLower) < parse(r.PriceUpper)) {
			t.Errorf("position %s: range %+v, positions() says [%d, %d) with the pool at tick %d", p.PositionID, r, pos.TickLower, pos.TickUpper, tick)
		}
		if staked, ok := want[p.PositionID]; ok && staked != (p.Kind == "staked") {
			t.Errorf("position %s: kind %s, staked %v", p.PositionID, p.Kind, staked)
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("the seeded position %s is not listed", id)
		}
	}
	i := slices.IndexFunc(res.Sources, func(s struct {
		Source   string
		OK       bool
		Complete bool
	}) bool {
		return s.Source == "base:uniswap-v3"
	})
	if i < 0 || !res.Sources[i].Complete {
		t.Errorf("sources %+v: want base:uniswap-v3, complete", res.Sources)
	}

	var batch struct {
		Results []struct {
			Ref    string
			Result *v3PositionsAnswer
		}
	}
	w.get("/v1/portfolio/positions?owners=base:"+deployer.Hex()+",base:0x00000000000000000000000000000000000fa4e1", &batch)
	if len(batch.Results) != 2 || batch.Results[0].Result == nil || batch.Results[1].Result == nil {
		t.Fatalf("batch: %+v", batch)
	}
	var ids []string
	for _, p := range batch.Results[0].Result.Positions {
		if p.PositionID != "" {
			ids = append(ids, p.PositionID)
		}
	}
	var single []string
	for _, p := range res.Positions {
		if p.PositionID != "" {
			single = append(single, p.PositionID)
		}
	}
	if !slices.Equal(ids, single) || len(batch.Results[1].Result.Positions) != 0 {
		t.Errorf("batch: NFTs %v and %d positions for nobody, want %v and none", ids, len(batch.Results[1].Result.Positions), single)
	}
	t.Logf("%d NFT positions checked at block %d", len(single), res.Block)
}

// tradeV3 has a trader account swap 5 % of each USD V3 pool's USD through it, then all it received
// back, through SwapRouter02.
func tradeV3(t *testing.T, w *marketWorld, local *devnet.Local, seeded devnet.Market) {
	t.Helper()
	var trader *devnet.Account
	for _, a := range local.Accounts() {
		if a.Role == devnet.RoleTrader && trader == nil {
			k, err := crypto.HexToECDSA(strings.TrimPrefix(a.PrivateKeyHex, "0x"))
			if err != nil {
				t.Fatal(err)
			}
			if trader, err = devnet.NewAccount(w.ctx, local.Client(), k); err != nil {
				t.Fatal(err)
			}
		}
	}
	usd, router := seeded.Core.USD, seeded.V3.SwapRouter02
	swap := func(in, out common.Address, fee uint32, amount *big.Int) {
		w.tx(trader, in, nil, tokenABI.PackApprove(router, amount))
		w.tx(trader, router, nil, bindings.NewSwapRouter02().PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{
			TokenIn: in, TokenOut: out, Fee: big.NewInt(int64(fee)), Recipient: trader.Address, AmountIn: amount,
			AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int)}))
	}
	traded := 0
	for _, p := range seeded.V3Pools {
		other := p.Token0
		if other == usd {
			other = p.Token1
		} else if p.Token1 != usd {
			continue
		}
		before := w.balance(other, trader.Address)
		swap(usd, other, p.Fee, new(big.Int).Div(w.balance(usd, p.Address), big.NewInt(20)))
		swap(other, usd, p.Fee, new(big.Int).Sub(w.balance(other, trader.Address), before))
		traded++
	}
	if traded == 0 {
		t.Fatal("no V3 pool of USD to trade")
	}
}
