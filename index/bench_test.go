package index_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// BenchmarkIngest measures how fast swap logs go into the index: each batch holds 1,000 swaps (each
// with the Sync the pair emits before it) over 20 pools, spread over 100 blocks. It reports swap logs
// per second, for SQLite and PostgreSQL.
// BenchmarkIngest measures the index's ingest rate of swaps on SQLite and PostgreSQL: batches of
// 1,000 swaps over 100 blocks and 20 pools, as Uniswap V2 logs them (a Sync then a Swap per trade)
// and as Uniswap V3 does (one Swap carrying the pool's state, from which the index derives the
// virtual reserves).
func BenchmarkIngest(b *testing.B) {
	for _, backend := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		for _, v3 := range []bool{false, true} {
			name := backend.name + "/uniswap-v2"
			if v3 {
				name = backend.name + "/uniswap-v3"
			}
			b.Run(name, func(b *testing.B) { benchmarkIngest(b, backend.open(b), v3) })
		}
	}
}

func benchmarkIngest(b *testing.B, s *store.Store, v3 bool) {
	ix := newIndexB(b, s)
	const pools, perBatch, blocksPerBatch = 20, 1000, 100
	setup := genesisBatch()
	sqrtP := new(big.Int).Lsh(big.NewInt(1), 96) // price 1, liquidity 10^24
	for i := range pools {
		addr := fmt.Sprintf("0x%040x", 0xb000+i)
		p := chain.IndexedPool{Address: addr, Venue: "uniswap-v2", Token0: usd, Token1: alpha, FeeBps: 30, Block: 1, Time: 100}
		e := chain.PoolEvent{Pool: addr, Kind: chain.EventSync, Block: 1, LogIndex: uint(10 + i), TxHash: "0xt", Time: 100,
			Reserve0: units(2000, 6), Reserve1: units(1000, 18)}
		if v3 {
			p.Venue, p.FeeBps = "uniswap-v3", 5
			e.Reserve0, e.Reserve1 = nil, nil
			e.Concentrated = &chain.ConcentratedChange{State: &chain.ConcentratedState{SqrtPriceX96: sqrtP, Liquidity: units(1_000_000, 18)}}
		}
		setup.Pools, setup.Events = append(setup.Pools, p), append(setup.Events, e)
	}
	if err := ix.Apply(b.Context(), setup); err != nil {
		b.Fatal(err)
	}
	next := uint64(2)
	batch := func() chain.Batch {
		bt := chain.Batch{Chain: "base", Genesis: "0xg", From: next, To: next + blocksPerBatch - 1, ToHash: "0xh"}
		for i := range perBatch {
			block := next + uint64(i%blocksPerBatch)
			pool := fmt.Sprintf("0x%040x", 0xb000+i%pools)
			tx := fmt.Sprintf("0x%064x", block*10000+uint64(i))
			swap := chain.PoolEvent{Pool: pool, Kind: chain.EventSwap, Block: block, LogIndex: uint(2*i + 1), TxHash: tx, Time: int64(block), Trader: bob,
				Amount0In: big.NewInt(1_000_000), Amount1In: new(big.Int), Amount0Out: new(big.Int), Amount1Out: units(1, 17)}
			if v3 {
				price := new(big.Int).Sub(sqrtP, big.NewInt(int64(i)))
				swap.Concentrated = &chain.ConcentratedChange{State: &chain.ConcentratedState{SqrtPriceX96: price, Liquidity: units(1_000_000, 18), Tick: -1}}
				bt.Events = append(bt.Events, swap)
				continue
			}
			r0 := new(big.Int).Add(units(2000, 6), big.NewInt(int64(i)))
			bt.Events = append(bt.Events,
				chain.PoolEvent{Pool: pool, Kind: chain.EventSync, Block: block, LogIndex: uint(2 * i), TxHash: tx, Time: int64(block), Reserve0: r0, Reserve1: units(999, 18)},
				swap)
		}
		next += blocksPerBatch
		return bt
	}
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		bt := batch()
		b.StartTimer()
		if err := ix.Apply(b.Context(), bt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*perBatch)/b.Elapsed().Seconds(), "swaps/s")
}

func newIndexB(b *testing.B, s *store.Store) *indexStore {
	b.Helper()
	ix := newIndexStore(s)
	if err := ix.Start(b.Context(), "base", chain.Cursor{Genesis: "0xg", Block: -1}); err != nil {
		b.Fatal(err)
	}
	return ix
}
