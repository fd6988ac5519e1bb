package portfolio

import (
	"context"
	"fmt"
	"sync"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// HoldingsBatch reads the holdings of owner refs on any of the chains the service reads (refs of
// several chains mixed), grouped by chain: one Holdings read per chain for all of its owners (on
// Solana, two JSON-RPC round trips for up to chain.MaxBatchOwners owners), the chains read at once.
// It never fails as a whole: the result has one entry per ref, in the order given, with Chain set,
// and an entry whose owner could not be read has Err set and Owner as given:
//   - its chain is not read by the service: market.ErrNotFound;
//   - its chain's read failed as a whole: that error (chain.ErrUpstreamUnavailable,
//     chain.ErrUpstreamTimeout, chain.ErrUpstreamBadResponse or a store error);
//   - its own read failed (a wallet read): see Holdings.
//
// Each owner's entry is the same as its answer alone. Refs are expected distinct and parsed
// (chain.ParseOwnerRefs); a duplicate is answered twice and read once on a wallet-read chain.
func (s *Service) HoldingsBatch(ctx context.Context, refs []chain.OwnerRef) []Holdings {
	return perChain(ctx, s, refs, "holdings", s.Holdings, func(r chain.OwnerRef, err error) Holdings {
		return Holdings{Owner: r.Address, Chain: r.Chain, Err: err}
	})
}

// PositionsBatch reads the LP positions of owner refs on any of the chains the service reads, as
// HoldingsBatch reads holdings: one Positions read per chain, the chains at once, one entry per ref
// in the order given, an owner that could not be read failing in its own entry only (with Err set
// and Owner as given), and each owner's entry the same as its answer alone.
func (s *Service) PositionsBatch(ctx context.Context, refs []chain.OwnerRef) []Positions {
	return perChain(ctx, s, refs, "positions", s.Positions, func(r chain.OwnerRef, err error) Positions {
		return Positions{Owner: r.Address, Chain: r.Chain, Err: err}
	})
}

// perChain reads refs with read, one call per chain for all of its owners, the chains at once. An
// entry of a chain the service does not read, or whose read failed as a whole, is failed(ref, err).
func perChain[R any](ctx context.Context, s *Service, refs []chain.OwnerRef, what string,
	read func(ctx context.Context, chainName string, owners []string) ([]R, error), failed func(chain.OwnerRef, error) R) []R {
	out := make([]R, len(refs))
	byChain := map[string][]int{}
	for i, r := range refs {
		if !s.Serves(r.Chain) {
			out[i] = failed(r, fmt.Errorf("portfolio: chain %s: %w", r.Chain, market.ErrNotFound))
			continue
		}
		byChain[r.Chain] = append(byChain[r.Chain], i)
	}
	var wg sync.WaitGroup
	for name, idx := range byChain {
		wg.Go(func() {
			owners := make([]string, len(idx))
			for j, i := range idx {
				owners[j] = refs[i].Address
			}
			res, err := read(ctx, name, owners)
			if err == nil && len(res) != len(idx) {
				err = fmt.Errorf("portfolio: %s on %s: %d answers for %d owners", what, name, len(res), len(idx))
			}
			for j, i := range idx {
				if err != nil {
					out[i] = failed(refs[i], err)
					continue
				}
				out[i] = res[j]
			}
		})
	}
	wg.Wait()
	return out
}
