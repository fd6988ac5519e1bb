package index_test

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// BenchmarkIngest measures the index's ingest rate of swaps on SQLite and PostgreSQL: batches of
// 1,000 swaps over 100 blocks and 20 pools, as Uniswap V2 logs them (a Sync then a Swap per trade)
// and as Uniswap V3 does (one Swap carrying the pool's state, from which the index derives the
// virtual reserves); and Uniswap V3 swaps with the position manager's changes of NFT positions
// beside them (each batch 100 new positions, each a Transfer from zero and an IncreaseLiquidity,
// then 100 transfers and 100 decreases of earlier ones), reported as position changes per second.
func BenchmarkIngest(b *testing.B) {
	for _, backend := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(backend.name+"/uniswap-v2", func(b *testing.B) { benchmarkIngest(b, backend.open(b), false, false) })
		b.Run(backend.name+"/uniswap-v3", func(b *testing.B) { benchmarkIngest(b, backend.open(b), true, false) })
		b.Run(backend.name+"/uniswap-v3-positions", func(b *testing.B) { benchmarkIngest(b, backend.open(b), true, true) })
	}
}

func benchmarkIngest(b *testing.B, s *store.Store, v3, positions bool) {
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
	const npm, perBatchPositions = "0x00000000000000000000000000000000000000ee", 100
	next, nextID := uint64(2), int64(1)
	changes := 0
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
		for i := range perBatchPositions {
			if !positions || nextID <= perBatchPositions {
				break
			}
			// An earlier position: a transfer and a decrease.
			block, id := next+uint64(i%blocksPerBatch), big.NewInt(nextID-1-int64(i))
			bt.Positions = append(bt.Positions,
				chain.PositionChange{Manager: npm, ID: id, Kind: chain.PositionTransfer, Block: block, LogIndex: uint(10_000 + 4*i), From: bob, To: alice},
				chain.PositionChange{Manager: npm, ID: id, Kind: chain.PositionDecrease, Block: block, LogIndex: uint(10_001 + 4*i),
					Pool: fmt.Sprintf("0x%040x", 0xb000+int(id.Int64())%pools), TickLower: -600, TickUpper: 600, Liquidity: units(1, 15), Amount0: new(big.Int), Amount1: new(big.Int)})
		}
		for i := range perBatchPositions {
			if !positions {
				break
			}
			// A new position: its NFT minted, then its liquidity.
			block, id := next+uint64(i%blocksPerBatch), big.NewInt(nextID)
			nextID++
			bt.Positions = append(bt.Positions,
				chain.PositionChange{Manager: npm, ID: id, Kind: chain.PositionTransfer, Block: block, LogIndex: uint(10_002 + 4*i), From: zero, To: bob},
				chain.PositionChange{Manager: npm, ID: id, Kind: chain.PositionIncrease, Block: block, LogIndex: uint(10_003 + 4*i),
					Pool: fmt.Sprintf("0x%040x", 0xb000+int(id.Int64())%pools), TickLower: -600, TickUpper: 600, Liquidity: units(1, 18), Amount0: new(big.Int), Amount1: new(big.Int)})
		}
		slices.SortFunc(bt.Positions, func(a, b chain.PositionChange) int {
			return cmp.Compare(a.Block*1_000_000+uint64(a.LogIndex), b.Block*1_000_000+uint64(b.LogIndex))
		})
		changes += len(bt.Positions)
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
	if positions {
		b.ReportMetric(float64(changes)/b.Elapsed().Seconds(), "position-changes/s")
	}
}

func newIndexB(b *testing.B, s *store.Store) *indexStore {
	b.Helper()
	ix := newIndexStore(s)
	if err := ix.Start(b.Context(), "base", chain.Cursor{Genesis: "0xg", Block: -1}); err != nil {
		b.Fatal(err)
	}
	return ix
}
