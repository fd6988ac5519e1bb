package market

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent"

	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestRefreshIsIncremental: a refresh reads nothing of the pool events when the index has not
// moved, only the new blocks' events when it moved forward, and the whole day again after a
// rollback, even one the index has grown past; after every step, including the day sliding past old swaps, its figures are exactly
// those a new service computes from scratch.
func TestRefreshIsIncremental(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) { testRefreshIsIncremental(t, st) })
}

func testRefreshIsIncremental(t *testing.T, st *store.Store) {
	now := time.Unix(1_790_000_000, 0)
	c := newTestChain(t, st, 12, now.Add(-25*time.Hour).Unix())
	c.swap(300, c.created, now.Unix(), 0, 1, 2, 3, 4, 5, 6, 7) // 25 hours of swaps; pools 8..11 stay idle for now
	s := c.service(&now)

	// step refreshes s and checks its pools (figures, reserves, prices, tokens, order) against a new
	// service's, and that it made wantQueries queries of the pool events (-1: any number).
	step := func(name string, wantQueries int64) {
		t.Helper()
		before := c.eventQueries.Load()
		got := mustRefresh(t, s)
		if n := c.eventQueries.Load() - before; wantQueries >= 0 && n != wantQueries {
			t.Errorf("%s: %d queries of the pool events, want %d", name, n, wantQueries)
		}
		fresh := now
		f := c.service(&fresh)
		want := mustRefresh(t, f)
		if len(got.pools) != len(want.pools) {
			t.Fatalf("%s: %d pools, want %d", name, len(got.pools), len(want.pools))
		}
		indexed, err := c.ix.LoadMarket(t.Context(), "base") // the index writer's own view of prices
		if err != nil {
			t.Fatal(err)
		}
		active := 0
		for i := range want.pools {
			base := got.pools[i].Base()
			gp, _, gl, _ := got.market.PriceUSD(base)
			ip, _, il, _ := indexed.PriceUSD(base)
			if gp != ip || gl != il {
				t.Errorf("%s: pool %d base price %v (liquidity %v), the index's %v (%v)", name, i, gp, gl, ip, il)
			}
			g, w := s.summary("base", got, got.pools[i]), f.summary("base", want, want.pools[i])
			if g != w {
				t.Errorf("%s: pool %d\n got %+v\nwant %+v", name, i, g, w)
			}
			if w.Figures.Buys[3]+w.Figures.Sells[3] > 0 {
				active++
			}
		}
		t.Logf("%s: %d of %d pools traded in the day", name, active, len(want.pools))
	}

	step("first load", -1)
	now = now.Add(time.Second)
	step("idle", 0)
	c.swap(4, now.Unix()-4, now.Unix(), 1, 2)
	now = now.Add(time.Second)
	step("a block in active pools", 1) // the block's events
	c.swap(2, now.Unix()-2, now.Unix(), 9)
	step("a block with a pool's first swap of the day", 2) // and that pool's price before the day
	c.addPool(now.Unix())
	step("a new pool", 2) // its liquidity event is its first of the day
	c.swap(2, now.Unix()-1, now.Unix(), 12)
	now = now.Add(time.Second)
	step("the new pool's first swap", 1)
	now = now.Add(15 * time.Minute)
	step("the day slid past old swaps", 0)
	now = now.Add(20 * time.Hour)
	step("most of the day's swaps are older than a day", 0)

	fork := c.block
	c.swap(6, now.Unix()-6, now.Unix(), 3, 10)
	step("swaps about to be rolled back", -1)
	if err := c.ix.Rollback(t.Context(), "base", fork, fmt.Sprint("0xh", fork)); err != nil {
		t.Fatal(err)
	}
	c.block = fork
	c.swap(2, now.Unix()-2, now.Unix(), 4) // the new chain's blocks take the index past its old head
	c.swap(2, now.Unix()-2, now.Unix(), 4)
	step("after a rollback, the index past its old head", -1)
	if f := figuresOf(mustRefresh(t, s), c.pool(10)); f.Buys[3] != 0 {
		t.Errorf("the rolled back swaps still count: %+v", f)
	}
	c.swap(3, now.Unix()-3, now.Unix(), 10)
	now = now.Add(time.Second)
	step("growing again after the rollback", 2)
}

// figuresOf is a pool's figures in snap (zero when it has none).
func figuresOf(snap *snapshot, pool string) Figures {
	if f := snap.figures[pool]; f != nil {
		return *f
	}
	return Figures{}
}

func mustRefresh(t *testing.T, s *Service) *snapshot {
	t.Helper()
	snap, err := s.refresh(t.Context(), "base")
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestRefreshAcrossACommit: a batch the indexer commits after a refresh has read the index's
// version but before it reads the pools is not half in the snapshot: the pools it moved come with
// its swaps in their figures (the snapshot stands for the later block), exactly as a new service
// computes them.
func TestRefreshAcrossACommit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		now := time.Unix(1_790_000_000, 0)
		c := newTestChain(t, st, 4, now.Add(-2*time.Hour).Unix())
		c.swap(10, c.created, now.Unix()-60, 0, 1)
		s := c.service(&now)
		mustRefresh(t, s)

		// The next query of the pools first commits a block of swaps in pools 2 and 3.
		var armed atomic.Bool
		st.Client.MarketPool.Intercept(ent.InterceptFunc(func(next ent.Querier) ent.Querier {
			return ent.QuerierFunc(func(ctx context.Context, q ent.Query) (ent.Value, error) {
				if armed.CompareAndSwap(true, false) {
					c.swap(5, now.Unix()-5, now.Unix(), 2, 3)
				}
				return next.Query(ctx, q)
			})
		}))
		c.swap(2, now.Unix()-30, now.Unix()-20, 0) // the index moves: the refresh reads the changed pools
		armed.Store(true)
		got := mustRefresh(t, s)
		if armed.Load() {
			t.Fatal("the refresh did not read the pools")
		}
		if got.version.Block != int64(c.block) {
			t.Errorf("snapshot at block %d, want the block committed meanwhile, %d", got.version.Block, c.block)
		}
		fresh := now
		f := c.service(&fresh)
		want := mustRefresh(t, f)
		for i := range want.pools {
			g, w := s.summary("base", got, got.pools[i]), f.summary("base", want, want.pools[i])
			if g != w {
				t.Errorf("pool %d\n got %+v\nwant %+v", i, g, w)
			}
		}
		if w := f.summary("base", want, want.pools[2]); w.Figures.Buys[3]+w.Figures.Sells[3] == 0 {
			t.Fatal("pool 2 has no trades: the block committed meanwhile is missing from the new service too")
		}
	})
}
