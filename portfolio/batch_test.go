package portfolio

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/store/storetest"
)

const baseUSD = "0x00000000000000000000000000000000000000aa"

// evmSource is an EVM chain where every owner holds 2 ETH and 1.5 of the USD stablecoin.
type evmSource struct {
	chain.Source
	reads atomic.Int64
}

func (s *evmSource) Balances(_ context.Context, owners []string, tokens [][]string) ([]*big.Int, [][]*big.Int, uint64, error) {
	s.reads.Add(1)
	native := make([]*big.Int, len(owners))
	erc20 := make([][]*big.Int, len(owners))
	for i := range owners {
		native[i] = new(big.Int).Mul(big.NewInt(2), big.NewInt(1e18))
		erc20[i] = make([]*big.Int, len(tokens[i]))
		for j, t := range tokens[i] {
			if t == baseUSD {
				erc20[i][j] = big.NewInt(1_500_000)
			}
		}
	}
	return native, erc20, 7, nil
}

func (s *evmSource) TokenMetadata(_ context.Context, tokens []string) ([]chain.TokenMeta, error) {
	out := make([]chain.TokenMeta, len(tokens))
	for i, t := range tokens {
		out[i] = chain.TokenMeta{Address: t, Name: "Dollar", Symbol: "USD", Decimals: 6}
	}
	return out, nil
}

// mixedService serves base (an EVM chain over an empty SQLite index and evmSource) and solana
// (the local validator).
func mixedService(t *testing.T, e *solanaEnv) (*Service, *evmSource) {
	t.Helper()
	st := storetest.SQLite(t)
	pricing := index.Pricing{Stablecoins: map[string]bool{baseUSD: true}}
	ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{"base": pricing})
	if err := ix.Start(t.Context(), "base", chain.Cursor{Genesis: "0xg", Block: -1}); err != nil {
		t.Fatal(err)
	}
	src := &evmSource{}
	m := market.New(ix, []*market.Chain{{Name: "base", Source: src, Pricing: pricing}}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return New(ix, m, []*Chain{{Name: "base", Source: src, NativeSymbol: "ETH", Pricing: pricing}, e.chain}), src
}

func TestHoldingsBatchMixesChains(t *testing.T) {
	e := newSolanaEnv(t)
	svc, src := mixedService(t, e)
	evmA := "0x7c3a91f4e2b85d06a1c9e3f7b2d4058e6a1c9b3d"
	evmB := "0x00000000000000000000000000000000000000b1"
	fresh := freshKeys(1)[0]
	refs := []chain.OwnerRef{
		{Chain: "base", Address: evmA},
		{Chain: "solana", Address: e.address(t, "holder-0")},
		{Chain: "bsc", Address: evmB}, // a chain the service does not read
		{Chain: "solana", Address: fresh},
		{Chain: "base", Address: evmB},
		{Chain: "solana", Address: e.address(t, "holder-6")},
	}
	e.rt.n.Store(0)
	res := svc.HoldingsBatch(t.Context(), refs)
	if n := e.rt.n.Load(); n > 2 {
		t.Errorf("the Solana owners took %d round trips", n)
	}
	if n := src.reads.Load(); n != 1 {
		t.Errorf("the base owners took %d balance reads, want 1 for both", n)
	}
	if len(res) != len(refs) {
		t.Fatalf("%d results", len(res))
	}
	for i, r := range refs {
		if res[i].Chain != r.Chain || !strings.EqualFold(res[i].Owner, r.Address) {
			t.Errorf("entry %d: %s on %s, want %s on %s", i, res[i].Owner, res[i].Chain, r.Address, r.Chain)
		}
	}
	for _, i := range []int{0, 4} {
		h := res[i]
		if h.Err != nil || h.Owner != chain.EVMChecksum(refs[i].Address) || len(h.Holdings) != 2 {
			t.Fatalf("base owner %d: %+v", i, h)
		}
		if eth := h.Holdings[0]; !eth.Native || eth.Amount != "2" || eth.Token.Symbol != "ETH" {
			t.Errorf("base owner %d: ETH row %+v", i, eth)
		}
		if usd := h.Holdings[1]; usd.Amount != "1.5" || usd.Token.Symbol != "USD" {
			t.Errorf("base owner %d: USD row %+v", i, usd)
		}
	}
	if !errors.Is(res[2].Err, market.ErrNotFound) || res[2].Holdings != nil {
		t.Errorf("an owner on an unserved chain: %+v", res[2])
	}
	checkHoldings(t, "holder-0", res[1], e.want(t, "holder-0"))
	checkHoldings(t, "fresh", res[3], empty(fresh))
	checkHoldings(t, "holder-6", res[5], e.want(t, "holder-6"))
}

// prices is a Pricer with fixed prices.
type prices map[string]float64

func (p prices) PricesUSD(_ context.Context, _ string, tokens []string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, t := range tokens {
		if v, ok := p[t]; ok {
			out[t] = v
		}
	}
	return out, nil
}

type failingPricer struct{}

func (failingPricer) PricesUSD(context.Context, string, []string) (map[string]float64, error) {
	return nil, errors.New("store down")
}

func TestSolanaHoldingsPriced(t *testing.T) {
	e := newSolanaEnv(t)
	usdc, _ := e.n.Mint("USDC")
	sc := *e.chain
	sc.Prices = prices{usdc.Address: 1, solana.NativeMint: 150}
	svc := New(nil, nil, []*Chain{&sc})
	holder0 := e.address(t, "holder-0")
	res, err := svc.Holdings(t.Context(), "solana", []string{holder0})
	if err != nil {
		t.Fatal(err)
	}
	h := res[0]
	want := e.want(t, "holder-0")
	var total float64
	for i, r := range h.Holdings {
		w := want.Holdings[i]
		if r.Token != w.Token || r.Amount != w.Amount {
			t.Fatalf("row %d: %+v, want %+v", i, r, w)
		}
		switch {
		case r.Native || r.Token.Address == solana.NativeMint: // SOL is priced by wrapped SOL
			amount := market.UnitsFloat(mustUnits(t, r.Amount, 9), 9)
			if r.PriceUSD != "150" || r.ValueUSD != market.Decimal(amount*150) {
				t.Errorf("%+v: want priced at 150", r)
			}
			total += amount * 150
		case r.Token.Address == usdc.Address:
			if r.PriceUSD != "1" || r.ValueUSD != "1251000.5" {
				t.Errorf("USDC %+v", r)
			}
			total += 1251000.5
		default:
			if r.PriceUSD != "" || r.ValueUSD != "" {
				t.Errorf("%s is priced: %+v", r.Token.Symbol, r)
			}
		}
	}
	if h.ValueUSD != market.Decimal(total) || h.ValueUSD == "0" {
		t.Errorf("value %s, want %s", h.ValueUSD, market.Decimal(total))
	}

	sc.Prices = failingPricer{}
	if _, err := New(nil, nil, []*Chain{&sc}).Holdings(t.Context(), "solana", []string{holder0}); err == nil {
		t.Error("a pricer that fails: no error")
	}
}

func mustUnits(t *testing.T, units string, decimals int) *big.Int {
	t.Helper()
	n, err := chain.HumanToBaseUnits(units, decimals)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
