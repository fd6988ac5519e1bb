package index_test

import (
	"io"
	"log/slog"
	"math/big"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store/storetest"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

// TestDevnetV3Positions indexes the local devnet, seeded with the official V3 contracts (pools at
// three fee tiers, ranged positions, one out of range, one staked in the UniswapV3Staker), and
// checks every indexed position against the position manager: pool (by positions(id)'s token0,
// token1 and fee), tick range and liquidity equal positions(id), and the owner ownerOf(id) (the
// staker for the staked one); every position the seeding minted is among them.
func TestDevnetV3Positions(t *testing.T) {
	ctx := t.Context()
	local, err := devnet.StartLocal(ctx, devnet.LocalOptions{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = local.Close() })
	m := local.Market()
	c, err := rpc.DialContext(ctx, local.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	reader, err := evm.New(c, m.Core.Multicall3)
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.SQLite(t)
	ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{"devnet": {
		Stablecoins: map[string]bool{lowerHex(m.Core.USD): true}, WrappedNative: lowerHex(m.Core.WrappedNative)}})
	follower := evm.NewFollower(evm.FollowerConfig{Chain: "devnet", Reader: reader, Sink: ix, WrappedNative: m.Core.WrappedNative,
		Indexers: []chain.EVMIndexer{uniswapv2.Indexer{Factory: lowerHex(m.Core.Factory), FeeBps: 30},
			uniswapv3.Indexer{Factory: lowerHex(m.V3.Factory), PositionManager: lowerHex(m.V3.PositionManager)}}})
	for done := false; !done; {
		if done, err = follower.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}

	pools := map[[3]string]string{} // token0, token1, fee -> pool
	seeded := map[string]bool{}
	for _, p := range m.V3Pools {
		pools[[3]string{lowerHex(p.Token0), lowerHex(p.Token1), strconv.FormatUint(uint64(p.Fee), 10)}] = lowerHex(p.Address)
		for _, pos := range p.Positions {
			seeded[pos.TokenID.String()] = true
		}
	}
	got, err := ix.Positions(ctx, "devnet", lowerHex(m.V3.PositionManager))
	if err != nil {
		t.Fatal(err)
	}
	npm := bind.NewBoundContract(m.V3.PositionManager, v3NPM.GetABI(), local.Client(), local.Client(), local.Client())
	staked := false
	for _, p := range got {
		id, _ := new(big.Int).SetString(p.ID, 10)
		on, err := bind.Call(npm, &bind.CallOpts{Context: ctx}, v3NPM.PackPositions(id), v3NPM.UnpackPositions)
		if err != nil {
			t.Fatal(err)
		}
		owner, err := bind.Call(npm, &bind.CallOpts{Context: ctx}, v3NPM.PackOwnerOf(id), v3NPM.UnpackOwnerOf)
		if err != nil {
			t.Fatal(err)
		}
		pool := pools[[3]string{lowerHex(on.Token0), lowerHex(on.Token1), on.Fee.String()}]
		if p.Pool != pool || p.Owner != lowerHex(owner) || int64(p.TickLower) != on.TickLower.Int64() ||
			int64(p.TickUpper) != on.TickUpper.Int64() || p.Liquidity.Cmp(on.Liquidity) != 0 {
			t.Errorf("position %s indexed as %+v; chain: pool %s, owner %s, ticks %s..%s, liquidity %s", id, p, pool, lowerHex(owner),
				on.TickLower, on.TickUpper, on.Liquidity)
		}
		staked = staked || owner == m.V3.Staker
		delete(seeded, p.ID)
	}
	if len(seeded) > 0 || !staked {
		t.Fatalf("%d positions indexed; seeded positions missing: %v; the staked one among them: %v", len(got), seeded, staked)
	}
}
