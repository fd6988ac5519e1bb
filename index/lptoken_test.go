package index_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent/marketpool"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// Solana addresses of a pool whose LP token is a mint of its own (as a Raydium CPMM pool's).
const (
	solPool  = "6podpzcP9vgfcHWCAZfmKTN6Rpf6GpfDcGJkEruqt3xL"
	solLP    = "Hk3bRBqrDVGrLQmVRqYg9gSYG8E2ovc5ecJqiHcXcD6b"
	solMintA = "3QkfvpabHMF9CzxkvjQvHKR8mMcWTDnB2mnSa8sVZz7J"
	solMintB = "95TkvMZoHP9tNNv4ZsEfrT47ZYEnpWVpMcciPyEa9Yfx"
)

// solanaBatch creates, in slot 10, a pool with its LP mint recorded as its LP token, as the Solana
// follower writes it.
func solanaBatch() chain.Batch {
	return chain.Batch{
		Chain: "solana", Genesis: "g", From: 0, To: 10, ToHash: "h10",
		Tokens: []chain.IndexedToken{
			{Address: solMintA, Symbol: "AUR", Decimals: 9, Block: 10},
			{Address: solMintB, Symbol: "USDC", Decimals: 6, Block: 10},
			{Address: solLP, Symbol: "AUR-USDC-LP", Decimals: 9, LP: true, Block: 10},
		},
		Pools: []chain.IndexedPool{{Address: solPool, Venue: "raydium", Token0: solMintA, Token1: solMintB, FeeBps: 25, Block: 10, Time: 100, LPToken: solLP}},
	}
}

// TestPoolLPToken: a pool's LP token is stored when the indexer records one (a Solana LP mint) and
// is the pool's own address when it records none (a Uniswap V2 pair); PoolsOfLPTokens finds the
// pools of held LP tokens either way, never a pool by its address when its LP token is another, and
// a rollback of the pool's creation forgets it.
func TestPoolLPToken(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := t.Context()
		ix := newIndex(t, s)
		if err := ix.Apply(ctx, genesisBatch()); err != nil {
			t.Fatal(err)
		}
		if err := ix.Start(ctx, "solana", chain.Cursor{Genesis: "g", Block: -1}); err != nil {
			t.Fatal(err)
		}
		if err := ix.Apply(ctx, solanaBatch()); err != nil {
			t.Fatal(err)
		}

		// The column: the LP mint on Solana, NULL for the EVM pair (its own LP token).
		if n, err := s.Client.MarketPool.Query().Where(marketpool.Chain("solana"), marketpool.LpToken(solLP)).Count(ctx); err != nil || n != 1 {
			t.Errorf("solana pools with lp_token %s: %d, %v", solLP, n, err)
		}
		if n, err := s.Client.MarketPool.Query().Where(marketpool.Chain("base"), marketpool.LpTokenIsNil()).Count(ctx); err != nil || n != 1 {
			t.Errorf("base pools without lp_token: %d, %v", n, err)
		}
		if p, err := ix.Pool(ctx, "solana", solPool); err != nil || p.LPToken != solLP {
			t.Errorf("solana pool: %+v, %v", p, err)
		}
		if p, err := ix.Pool(ctx, "base", poolA); err != nil || p.LPToken != poolA {
			t.Errorf("base pool: %+v, %v", p, err)
		}

		// Held tokens to pools: only LP tokens match, by the recorded LP token or the pool's address.
		got, err := ix.PoolsOfLPTokens(ctx, "solana", []string{solMintA, solLP, solPool, solMintB})
		if err != nil {
			t.Fatal(err)
		}
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []string{solLP}) || got[solLP].Address != solPool || got[solLP].Venue != "raydium" {
			t.Errorf("solana: %+v, want %s's pool %s only", got, solLP, solPool)
		}
		got, err = ix.PoolsOfLPTokens(ctx, "base", []string{alpha, poolA, usd, solLP})
		if err != nil {
			t.Fatal(err)
		}
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []string{poolA}) || got[poolA].Address != poolA {
			t.Errorf("base: %+v, want %s alone", got, poolA)
		}
		if got, err := ix.PoolsOfLPTokens(ctx, "solana", nil); err != nil || len(got) != 0 {
			t.Errorf("no tokens: %+v, %v", got, err)
		}

		// A rollback below the pool's creation forgets it, its LP token with it.
		if err := ix.Rollback(ctx, "solana", 5, "h5"); err != nil {
			t.Fatal(err)
		}
		if got, err := ix.PoolsOfLPTokens(ctx, "solana", []string{solLP}); err != nil || len(got) != 0 {
			t.Errorf("after the rollback: %+v, %v", got, err)
		}
	})
}
