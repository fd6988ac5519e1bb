package index_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestPositionChanges applies NFT position changes on SQLite and PostgreSQL: a mint, an increase, a
// transfer and a decrease of a position, and a decrease of one whose history started before the
// index (it stops at zero); the same batch applied again is refused (the cursor moved) and changes
// nothing; a rollback takes the later block back exactly, and a position created above it goes.
func TestPositionChanges(t *testing.T) {
	const npm = "0x00000000000000000000000000000000000000ee"
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ix := newIndex(t, st)
		ctx := t.Context()
		if err := ix.Apply(ctx, genesisBatch()); err != nil {
			t.Fatal(err)
		}
		liq := func(id, kind string, block uint64, index uint, l int64) chain.PositionChange {
			n, _ := new(big.Int).SetString(id, 10)
			return chain.PositionChange{Manager: npm, ID: n, Kind: chain.PositionKind(kind), Block: block, LogIndex: index, Pool: poolA,
				TickLower: -60, TickUpper: 120, Liquidity: big.NewInt(l), Amount0: big.NewInt(1), Amount1: big.NewInt(1)}
		}
		move := func(id string, block uint64, index uint, from, to string) chain.PositionChange {
			n, _ := new(big.Int).SetString(id, 10)
			return chain.PositionChange{Manager: npm, ID: n, Kind: chain.PositionTransfer, Block: block, LogIndex: index, From: from, To: to}
		}
		b2 := chain.Batch{Chain: "base", Genesis: "0xg", From: 2, To: 2, ToHash: "0xh2", Positions: []chain.PositionChange{
			move("1", 2, 0, zero, alice), liq("1", "increase", 2, 1, 1000), liq("1", "increase", 2, 2, 500),
			liq("99", "decrease", 2, 3, 70)}} // minted before the index started
		b3 := chain.Batch{Chain: "base", Genesis: "0xg", From: 3, To: 3, ToHash: "0xh3", Positions: []chain.PositionChange{
			move("1", 3, 0, alice, bob), liq("1", "decrease", 3, 1, 600),
			move("2", 3, 2, zero, alice), liq("2", "increase", 3, 3, 7)}}
		for _, b := range []chain.Batch{b2, b3} {
			if err := ix.Apply(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
		check := func(what string, want map[string][2]string) {
			t.Helper()
			got, err := ix.Positions(ctx, "base", npm)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %+v, want %v", what, got, want)
			}
			for _, p := range got {
				if w := want[p.ID]; p.Owner != w[0] || p.Liquidity.String() != w[1] || p.Pool != poolA || p.TickLower != -60 || p.TickUpper != 120 {
					t.Fatalf("%s: position %+v, want owner %s liquidity %s", what, p, w[0], w[1])
				}
			}
		}
		after := map[string][2]string{"1": {bob, "900"}, "2": {alice, "7"}, "99": {zero, "0"}}
		check("applied", after)
		if err := ix.Apply(ctx, b3); !errors.Is(err, chain.ErrCursorMoved) {
			t.Fatalf("the same batch again: %v, want ErrCursorMoved", err)
		}
		check("applied again", after)
		if held, err := ix.PoolPositions(ctx, "base", poolA); err != nil || len(held) != 2 || held[0].ID != "1" || held[1].ID != "2" {
			t.Fatalf("pool positions %+v (%v), want 1 then 2", held, err)
		}
		if err := ix.Rollback(ctx, "base", 2, "0xh2"); err != nil {
			t.Fatal(err)
		}
		check("rolled back", map[string][2]string{"1": {alice, "1500"}, "99": {zero, "0"}})
		if err := ix.Apply(ctx, b3); err != nil {
			t.Fatal(err)
		}
		check("applied after the rollback", after)
	})
}
