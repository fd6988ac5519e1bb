package index_test

import (
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent/tokenbalance"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

const (
	usd   = "0x00000000000000000000000000000000000000aa"
	weth  = "0x00000000000000000000000000000000000000bb"
	alpha = "0x00000000000000000000000000000000000000cc"
	poolA = "0x000000000000000000000000000000000000a001" // ALPHA/USD, alpha is token0... by address order usd < alpha? see tokens
	poolW = "0x000000000000000000000000000000000000a002" // WETH/USD
	alice = "0x0000000000000000000000000000000000001111"
	bob   = "0x0000000000000000000000000000000000002222"
	zero  = "0x0000000000000000000000000000000000000000"
)

var pricing = map[string]index.Pricing{"base": {Stablecoins: map[string]bool{usd: true}, WrappedNative: weth}}

func e(decimals int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
}

func units(n int64, decimals int) *big.Int { return new(big.Int).Mul(big.NewInt(n), e(decimals)) }

type indexStore = index.Store

func newIndexStore(s *store.Store) *index.Store { return index.New(s.Client, s.Dialect, pricing) }

func newIndex(t *testing.T, s *store.Store) *index.Store {
	t.Helper()
	ix := newIndexStore(s)
	if err := ix.Start(t.Context(), "base", chain.Cursor{Genesis: "0xg", Block: -1}); err != nil {
		t.Fatal(err)
	}
	return ix
}

// genesisBatch creates USD, ALPHA (18 decimals) and the ALPHA/USD pool in block 1, mints ALPHA to
// alice and adds liquidity 1000 ALPHA : 2000 USD (price 2 USD).
func genesisBatch() chain.Batch {
	return chain.Batch{
		Chain: "base", Genesis: "0xg", From: 0, To: 1, ToHash: "0xh1",
		Tokens: []chain.IndexedToken{
			{Address: usd, Symbol: "USD", Name: "Dollar", Decimals: 6, Block: 1},
			{Address: alpha, Symbol: "ALPHA", Name: "Alpha", Decimals: 18, Block: 1},
			{Address: poolA, Symbol: "LP", Name: "LP", Decimals: 18, LP: true, Block: 1},
		},
		Pools: []chain.IndexedPool{{Address: poolA, Venue: "uniswap-v2", Token0: usd, Token1: alpha, FeeBps: 30, Block: 1, Time: 100}},
		Events: []chain.PoolEvent{
			{Pool: poolA, Kind: chain.EventSync, Block: 1, LogIndex: 3, TxHash: "0xt1", Time: 100, Reserve0: units(2000, 6), Reserve1: units(1000, 18)},
			{Pool: poolA, Kind: chain.EventMint, Block: 1, LogIndex: 4, TxHash: "0xt1", Time: 100, Trader: alice, Amount0In: units(2000, 6), Amount1In: units(1000, 18)},
		},
		Transfers: []chain.Transfer{
			{Token: alpha, From: zero, To: alice, Value: units(5000, 18), Block: 1, LogIndex: 0},
			{Token: alpha, From: alice, To: poolA, Value: units(1000, 18), Block: 1, LogIndex: 1},
		},
	}
}

// swapBatch: bob buys 10 ALPHA for 20.06 USD in block `block`.
func swapBatch(from, block uint64) chain.Batch {
	r0 := new(big.Int).Add(units(2000, 6), big.NewInt(20_060_000))
	r1 := new(big.Int).Sub(units(1000, 18), units(10, 18))
	tx := fmt.Sprintf("0xs%d", block)
	return chain.Batch{
		Chain: "base", Genesis: "0xg", From: from, To: block, ToHash: fmt.Sprintf("0xh%d", block),
		Events: []chain.PoolEvent{
			{Pool: poolA, Kind: chain.EventSync, Block: block, LogIndex: 1, TxHash: tx, Time: int64(100 + block), Reserve0: r0, Reserve1: r1},
			{Pool: poolA, Kind: chain.EventSwap, Block: block, LogIndex: 2, TxHash: tx, Time: int64(100 + block), Trader: bob,
				Amount0In: big.NewInt(20_060_000), Amount1In: new(big.Int), Amount0Out: new(big.Int), Amount1Out: units(10, 18)},
		},
		Transfers: []chain.Transfer{
			{Token: alpha, From: poolA, To: bob, Value: units(10, 18), Block: block, LogIndex: 0},
		},
	}
}

func balance(t *testing.T, s *store.Store, token, holder string) string {
	t.Helper()
	b, err := s.Client.TokenBalance.Query().Where(tokenbalance.Token(token), tokenbalance.Holder(holder)).Only(t.Context())
	if err != nil {
		return "0"
	}
	return new(big.Int).SetBytes(nil).Add(new(big.Int), mustInt(b.Balance)).String()
}

func mustInt(s string) *big.Int { n, _ := new(big.Int).SetString(s, 10); return n }

func TestApplyAndRollback(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := t.Context()
		ix := newIndex(t, s)
		if err := ix.Apply(ctx, genesisBatch()); err != nil {
			t.Fatal(err)
		}
		// The same batch again is refused and changes nothing: re-ingestion is idempotent.
		if err := ix.Apply(ctx, genesisBatch()); !errors.Is(err, chain.ErrCursorMoved) {
			t.Fatalf("second apply: %v, want ErrCursorMoved", err)
		}
		if got := balance(t, s, alpha, alice); got != units(4000, 18).String() {
			t.Fatalf("alice ALPHA = %s", got)
		}
		if err := ix.Apply(ctx, swapBatch(2, 5)); err != nil {
			t.Fatal(err)
		}
		if got := balance(t, s, alpha, bob); got != units(10, 18).String() {
			t.Fatalf("bob ALPHA = %s", got)
		}
		trades, err := ix.Trades(ctx, "base", []string{poolA}, index.Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(trades) != 1 || trades[0].Side != "buy" || trades[0].Trader != bob || trades[0].BaseAmount != units(10, 18).String() ||
			trades[0].QuoteAmount != "20060000" {
			t.Fatalf("trades = %+v", trades)
		}
		// Price after: 2020.06 USD / 990 ALPHA.
		if want := 2020.06 / 990; abs(trades[0].PriceUSD-want) > 1e-9 {
			t.Fatalf("price = %v, want %v", trades[0].PriceUSD, want)
		}
		if abs(trades[0].VolumeUSD-20.06) > 1e-9 {
			t.Fatalf("volume = %v", trades[0].VolumeUSD)
		}
		events, err := ix.Events(ctx, "base", poolA, 0, 1<<40)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 2 || events[0].Kind != "mint" {
			t.Fatalf("events = %+v", events)
		}

		// A reorg takes block 5 back: bob's balance, the trade and the reserves go with it.
		if err := ix.Rollback(ctx, "base", 1, "0xh1"); err != nil {
			t.Fatal(err)
		}
		if got := balance(t, s, alpha, bob); got != "0" {
			t.Fatalf("bob ALPHA after rollback = %s", got)
		}
		if trades, _ := ix.Trades(ctx, "base", []string{poolA}, index.Page{Limit: 10}); len(trades) != 0 {
			t.Fatalf("trades after rollback = %+v", trades)
		}
		m, err := ix.LoadMarket(ctx, "base")
		if err != nil {
			t.Fatal(err)
		}
		p, _ := m.Pool(poolA)
		if p.Reserve0.Cmp(units(2000, 6)) != 0 || p.Reserve1.Cmp(units(1000, 18)) != 0 {
			t.Fatalf("reserves after rollback = %s/%s", p.Reserve0, p.Reserve1)
		}
		c, _, _ := ix.Cursor(ctx, "base")
		if c.Block != 1 || c.Hash != "0xh1" {
			t.Fatalf("cursor = %+v", c)
		}
		if v, _, err := ix.Version(ctx, "base"); err != nil || v != (index.Version{Block: 1, Hash: "0xh1", Rollbacks: 1}) {
			t.Fatalf("version after a rollback = %+v (%v)", v, err)
		}
		// The replacement chain's block 3 applies on top.
		if err := ix.Apply(ctx, swapBatch(2, 3)); err != nil {
			t.Fatal(err)
		}
		// Rolling back past the pool's creation forgets pool and tokens.
		if err := ix.Rollback(ctx, "base", 0, "0xh0"); err != nil {
			t.Fatal(err)
		}
		if v, _, err := ix.Version(ctx, "base"); err != nil || v.Rollbacks != 2 {
			t.Fatalf("version after two rollbacks = %+v (%v)", v, err)
		}
		pools, tokens, err := ix.Watched(ctx, "base")
		if err != nil || len(pools)+len(tokens) != 0 {
			t.Fatalf("watched after full rollback: %v %v %v", pools, tokens, err)
		}
		if got := balance(t, s, alpha, alice); got != "0" {
			t.Fatalf("alice after full rollback = %s", got)
		}

		// A reset (a new chain) empties the index and counts as a rollback, so readers reload.
		if err := ix.Reset(ctx, "base"); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := ix.Cursor(ctx, "base"); err != nil || ok {
			t.Fatalf("cursor after a reset: ok %v (%v), want nothing indexed", ok, err)
		}
		if v, ok, err := ix.Version(ctx, "base"); err != nil || ok || v.Rollbacks != 3 {
			t.Fatalf("version after a reset = %+v, ok %v (%v); want 3 rollbacks and nothing indexed", v, ok, err)
		}
		if blocks, err := ix.RecentBlocks(ctx, "base", 1<<40, 10); err != nil || len(blocks) != 0 {
			t.Fatalf("kept blocks after a reset: %v (%v)", blocks, err)
		}
		if err := ix.Start(ctx, "base", chain.Cursor{Genesis: "0xg2", Block: -1}); err != nil {
			t.Fatal(err)
		}
		if err := ix.Apply(ctx, chain.Batch{Chain: "base", Genesis: "0xg2", From: 0, To: 1, ToHash: "0xn1"}); err != nil {
			t.Fatal(err)
		}
		if c, ok, err := ix.Cursor(ctx, "base"); err != nil || !ok || c != (chain.Cursor{Genesis: "0xg2", Block: 1, Hash: "0xn1"}) {
			t.Fatalf("cursor on the new chain = %+v, ok %v (%v)", c, ok, err)
		}
		if v, _, _ := ix.Version(ctx, "base"); v.Rollbacks != 3 {
			t.Fatalf("rollbacks on the new chain = %d, want 3", v.Rollbacks)
		}
	})
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
