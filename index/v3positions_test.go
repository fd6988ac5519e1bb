package index_test

import (
	"math/big"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"

	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// checkPositions compares every indexed position of the position manager with the chain: ids 1..n
// exist, and each one's pool, tick range and liquidity equal positions(id) and its owner ownerOf(id)
// (the zero address, with no liquidity, for a burned one, whose ownerOf reverts).
func (w *v3World) checkPositions(what string, n int) []index.Position {
	w.t.Helper()
	got, err := w.ix.Positions(w.ctx, "base", lowerHex(w.v3.PositionManager))
	if err != nil {
		w.t.Fatal(err)
	}
	if len(got) != n {
		w.t.Fatalf("%s: %d positions indexed, want %d: %+v", what, len(got), n, got)
	}
	npm := bind.NewBoundContract(w.v3.PositionManager, v3NPM.GetABI(), w.sim.Client(), w.sim.Client(), w.sim.Client())
	for i, p := range got {
		id := big.NewInt(int64(i + 1))
		if p.ID != id.String() || p.Manager != lowerHex(w.v3.PositionManager) {
			w.t.Fatalf("%s: position %d is %+v", what, i+1, p)
		}
		owner, err := bind.Call(npm, &bind.CallOpts{Context: w.ctx}, v3NPM.PackOwnerOf(id), v3NPM.UnpackOwnerOf)
		if err != nil { // burned
			if p.Owner != zero || p.Liquidity.Sign() != 0 {
				w.t.Fatalf("%s: burned position %s indexed as %+v", what, id, p)
			}
			continue
		}
		on := v3call(w.chainWorld, w.v3.PositionManager, v3NPM.PackPositions(id), v3NPM.UnpackPositions)
		if p.Owner != lowerHex(owner) || p.Pool != lowerHex(w.pool) || int64(p.TickLower) != on.TickLower.Int64() ||
			int64(p.TickUpper) != on.TickUpper.Int64() || p.Liquidity.Cmp(on.Liquidity) != 0 {
			w.t.Fatalf("%s: position %s indexed as %+v; chain: owner %s, ticks %s..%s, liquidity %s", what, id, p,
				lowerHex(owner), on.TickLower, on.TickUpper, on.Liquidity)
		}
	}
	return got
}

// TestFollowV3Positions indexes the position manager's NFT positions of a Uniswap V3 pool on SQLite
// and PostgreSQL, from its IncreaseLiquidity, DecreaseLiquidity and Transfer logs tied to the pool's
// Mint and Burn logs: after mints, an increase, decreases, a transfer, collects and a burn of an
// emptied NFT, each indexed position equals positions(id) and ownerOf(id), the pool's Collects are
// pool events of their own kind (not trades), and PoolPositions lists those with liquidity, largest
// first. Then a reorg takes back a transfer, an increase and a new position, and indexing
// the chain over from a reset gives the same positions.
func TestFollowV3Positions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		w := newV3World(t, st, 3)
		usd, weth := w.addrs.USD, w.addrs.WrappedNative
		w.mint(-5, 5, 5_000)
		w.mint(-60, 60, 50_000)
		w.mint(20, 40, 10_000)
		w.mint(-900, 900, 30_000)
		w.sync()
		w.checkPositions("minted", 4)

		w.swap(1, usd, weth, units(8_000, 6))
		max128 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackIncreaseLiquidity(bindings.INonfungiblePositionManagerIncreaseLiquidityParams{
			TokenId: big.NewInt(2), Amount0Desired: units(1, 17), Amount1Desired: units(1, 17), Amount0Min: new(big.Int), Amount1Min: new(big.Int), Deadline: maxUint}))
		pos2 := v3call(w.chainWorld, w.v3.PositionManager, v3NPM.PackPositions(big.NewInt(2)), v3NPM.UnpackPositions)
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackDecreaseLiquidity(bindings.INonfungiblePositionManagerDecreaseLiquidityParams{
			TokenId: big.NewInt(2), Liquidity: new(big.Int).Div(pos2.Liquidity, big.NewInt(3)), Amount0Min: new(big.Int), Amount1Min: new(big.Int), Deadline: maxUint}))
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackTransferFrom(w.deployer.Address, w.users[0].Address, big.NewInt(3)))
		// Empty position 4, collect what it is owed, burn its NFT.
		pos4 := v3call(w.chainWorld, w.v3.PositionManager, v3NPM.PackPositions(big.NewInt(4)), v3NPM.UnpackPositions)
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackDecreaseLiquidity(bindings.INonfungiblePositionManagerDecreaseLiquidityParams{
			TokenId: big.NewInt(4), Liquidity: pos4.Liquidity, Amount0Min: new(big.Int), Amount1Min: new(big.Int), Deadline: maxUint}))
		for _, id := range []int64{4, 1} {
			w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackCollect(bindings.INonfungiblePositionManagerCollectParams{
				TokenId: big.NewInt(id), Recipient: w.deployer.Address, Amount0Max: max128, Amount1Max: max128}))
		}
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackBurn(big.NewInt(4)))
		w.sync()
		before := w.checkPositions("after an increase, decreases, a transfer, collects and a burn", 4)

		held, err := w.ix.PoolPositions(w.ctx, "base", lowerHex(w.pool))
		if err != nil {
			t.Fatal(err)
		}
		if len(held) != 3 || !slices.IsSortedFunc(held, func(a, b index.Position) int { return b.Liquidity.Cmp(a.Liquidity) }) {
			t.Fatalf("pool positions %+v, want the 3 with liquidity, largest first", held)
		}
		events, err := w.ix.Events(w.ctx, "base", lowerHex(w.pool), 0, 1<<62)
		if err != nil {
			t.Fatal(err)
		}
		collects := 0
		for _, e := range events {
			if e.Kind == "collect" {
				collects++
				if e.VolumeUSD != 0 || e.BaseAmount == "0" && e.QuoteAmount == "0" {
					t.Errorf("collect event %+v: want amounts and no volume", e)
				}
			}
		}
		if collects != 2 || len(w.trades(lowerHex(w.pool))) != 1 {
			t.Fatalf("%d collects, %d trades indexed; want 2 and 1", collects, len(w.trades(lowerHex(w.pool))))
		}

		// A reorg takes back a transfer, an increase and a new position.
		fork, err := w.sim.Client().HeaderByNumber(w.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackTransferFrom(w.deployer.Address, w.users[1].Address, big.NewInt(1)))
		w.tx(w.deployer, w.v3.PositionManager, nil, v3NPM.PackIncreaseLiquidity(bindings.INonfungiblePositionManagerIncreaseLiquidityParams{
			TokenId: big.NewInt(2), Amount0Desired: units(1, 17), Amount1Desired: units(1, 17), Amount0Min: new(big.Int), Amount1Min: new(big.Int), Deadline: maxUint}))
		w.mint(-10, 10, 1_000)
		w.sync()
		w.checkPositions("before the reorg", 5)
		if err := w.sim.Fork(fork.Hash()); err != nil {
			t.Fatal(err)
		}
		w.sim.Rollback()
		for range 5 {
			w.sim.Commit()
		}
		w.sync()
		if after := w.checkPositions("after the reorg", 4); !slices.EqualFunc(after, before, samePosition) {
			t.Fatalf("after the reorg %+v, want %+v", after, before)
		}

		// Indexed over from nothing, the positions are the same.
		if err := w.ix.Reset(w.ctx, "base"); err != nil {
			t.Fatal(err)
		}
		w.sync()
		if again := w.checkPositions("indexed over", 4); !slices.EqualFunc(again, before, samePosition) {
			t.Fatalf("indexed over %+v, want %+v", again, before)
		}
	})
}

func samePosition(a, b index.Position) bool {
	return a.Manager == b.Manager && a.ID == b.ID && a.Pool == b.Pool && a.Owner == b.Owner && a.TickLower == b.TickLower &&
		a.TickUpper == b.TickUpper && a.Liquidity.Cmp(b.Liquidity) == 0
}
