package market

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

const testUSD = "0x00000000000000000000000000000000000000aa"

// testChain is an index (SQLite) of pools of distinct tokens against one USD stablecoin, fed
// batches of swaps; it counts the queries made of its pool events.
type testChain struct {
	tb           testing.TB
	ix           *index.Store
	pricing      index.Pricing
	pools        int
	created      int64  // the pools' creation time
	block        uint64 // the last block applied
	swaps        int    // swaps applied so far
	eventQueries atomic.Int64
}

// newTestChain indexes pools pools, created at time created, in block 1.
func newTestChain(tb testing.TB, st *store.Store, pools int, created int64) *testChain {
	tb.Helper()
	c := &testChain{tb: tb, pools: pools, created: created, block: 1,
		pricing: index.Pricing{Stablecoins: map[string]bool{testUSD: true}}}
	st.Client.PoolEvent.Intercept(ent.InterceptFunc(func(next ent.Querier) ent.Querier {
		return ent.QuerierFunc(func(ctx context.Context, q ent.Query) (ent.Value, error) {
			c.eventQueries.Add(1)
			return next.Query(ctx, q)
		})
	}))
	c.ix = index.New(st.Client, st.Dialect, map[string]index.Pricing{"base": c.pricing})
	if err := c.ix.Start(tb.Context(), "base", chain.Cursor{Genesis: "0xg", Block: -1}); err != nil {
		tb.Fatal(err)
	}
	setup := chain.Batch{Chain: "base", Genesis: "0xg", From: 0, To: 1, ToHash: "0xh1",
		Tokens: []chain.IndexedToken{{Address: testUSD, Symbol: "USD", Name: "Dollar", Decimals: 6, Block: 1}}}
	for i := range pools {
		token := fmt.Sprintf("0x%040x", 0x200000+i)
		setup.Tokens = append(setup.Tokens, chain.IndexedToken{Address: token, Symbol: fmt.Sprint("T", i), Name: "Token", Decimals: 18, Block: 1})
		setup.Pools = append(setup.Pools, chain.IndexedPool{Address: c.pool(i), Venue: "uniswap-v2", Token0: testUSD, Token1: token, FeeBps: 30, Block: 1, Time: created})
		setup.Events = append(setup.Events, chain.PoolEvent{Pool: c.pool(i), Kind: chain.EventSync, Block: 1, LogIndex: uint(i), TxHash: "0xt", Time: created,
			Reserve0: units(2000, 6), Reserve1: units(1000, 18)})
	}
	if err := c.ix.Apply(tb.Context(), setup); err != nil {
		tb.Fatal(err)
	}
	return c
}

// addPool creates, in the next block at time t, one more pool of a new token with liquidity.
func (c *testChain) addPool(t int64) {
	c.tb.Helper()
	c.block++
	i := c.pools
	c.pools++
	token := fmt.Sprintf("0x%040x", 0x200000+i)
	bt := chain.Batch{Chain: "base", Genesis: "0xg", From: c.block, To: c.block, ToHash: fmt.Sprint("0xh", c.block),
		Tokens: []chain.IndexedToken{{Address: token, Symbol: fmt.Sprint("T", i), Name: "Token", Decimals: 9, Block: c.block}},
		Pools:  []chain.IndexedPool{{Address: c.pool(i), Venue: "uniswap-v2", Token0: testUSD, Token1: token, FeeBps: 30, Block: c.block, Time: t}},
		Events: []chain.PoolEvent{{Pool: c.pool(i), Kind: chain.EventSync, Block: c.block, LogIndex: 0, TxHash: "0xnew", Time: t,
			Reserve0: units(500, 6), Reserve1: units(100, 9)}}}
	if err := c.ix.Apply(c.tb.Context(), bt); err != nil {
		c.tb.Fatal(err)
	}
}

func (c *testChain) pool(i int) string { return fmt.Sprintf("0x%040x", 0x100000+i) }

func units(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

// swap applies, in the next block, n swaps spread evenly over [from, to) in the given pools (round
// robin), each moving its pool's price and liquidity a little, up or down.
func (c *testChain) swap(n int, from, to int64, pools ...int) {
	c.tb.Helper()
	c.block++
	bt := chain.Batch{Chain: "base", Genesis: "0xg", From: c.block, To: c.block, ToHash: fmt.Sprint("0xh", c.block)}
	for i := range n {
		p, t := c.pool(pools[i%len(pools)]), from+int64(i)*(to-from)/int64(n)
		c.swaps++
		tx := fmt.Sprintf("0x%064x", c.swaps)
		r0 := new(big.Int).Add(units(2000, 6), big.NewInt(int64(c.swaps%7)*1_000_000)) // the USD side goes up and down
		bt.Events = append(bt.Events,
			chain.PoolEvent{Pool: p, Kind: chain.EventSync, Block: c.block, LogIndex: uint(2 * i), TxHash: tx, Time: t, Reserve0: r0, Reserve1: units(999, 18)},
			chain.PoolEvent{Pool: p, Kind: chain.EventSwap, Block: c.block, LogIndex: uint(2*i + 1), TxHash: tx, Time: t, Trader: "0x00000000000000000000000000000000000000bb",
				Amount0In: big.NewInt(1_000_000), Amount1In: new(big.Int), Amount0Out: new(big.Int), Amount1Out: units(1, 17)})
	}
	if err := c.ix.Apply(c.tb.Context(), bt); err != nil {
		c.tb.Fatal(err)
	}
}

// service is a market service over the chain whose clock reads *now.
func (c *testChain) service(now *time.Time) *Service {
	s := New(c.ix, []*Chain{{Name: "base", Pricing: c.pricing}}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	s.now = func() time.Time { return *now }
	return s
}

// dayOld is a testChain on SQLite whose pools were created a day and an hour before now.
func dayOld(tb testing.TB, pools int, now time.Time) *testChain {
	return newTestChain(tb, storetest.SQLite(tb), pools, now.Add(-25*time.Hour).Unix())
}

// TestPoolsOfBlockZero: pools created in block 0 (where a Solana validator's genesis creates them)
// are listed, also when the snapshot was first taken before anything was indexed.
func TestPoolsOfBlockZero(t *testing.T) {
	st := storetest.SQLite(t)
	pricing := index.Pricing{Stablecoins: map[string]bool{testUSD: true}}
	ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{"base": pricing})
	now := time.Now()
	s := New(ix, []*Chain{{Name: "base", Pricing: pricing}}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, err := s.refresh(t.Context(), "base"); err != nil { // nothing indexed yet
		t.Fatal(err)
	}
	if err := ix.Start(t.Context(), "base", chain.Cursor{Genesis: "0xg", Block: -1}); err != nil {
		t.Fatal(err)
	}
	token := fmt.Sprintf("0x%040x", 0x200000)
	pool := fmt.Sprintf("0x%040x", 0x100000)
	if err := ix.Apply(t.Context(), chain.Batch{Chain: "base", Genesis: "0xg", From: 0, To: 0, ToHash: "0xh0",
		Tokens: []chain.IndexedToken{{Address: testUSD, Symbol: "USD", Decimals: 6}, {Address: token, Symbol: "T", Decimals: 18}},
		Pools:  []chain.IndexedPool{{Address: pool, Venue: "uniswap-v2", Token0: testUSD, Token1: token, FeeBps: 30, Time: now.Unix()}},
		Events: []chain.PoolEvent{{Pool: pool, Kind: chain.EventSync, TxHash: "0xt", Time: now.Unix(), Reserve0: units(2000, 6), Reserve1: units(1000, 18)}},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.refresh(t.Context(), "base"); err != nil {
		t.Fatal(err)
	}
	pools, err := s.Pools(t.Context(), "base", ListNew, "")
	if err != nil || len(pools) != 1 || pools[0].Address != chain.EVMChecksum(pool) {
		t.Fatalf("new pools = %+v, %v; want the pool of block 0", pools, err)
	}
}
