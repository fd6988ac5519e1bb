package portfolio

import (
	"context"
	"fmt"
	"sync"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// HoldingsBatch reads the holdings of owner refs on any of the chains the service reads holdings
// on (EVM and Solana refs mixed), grouped by chain: one Holdings read per chain for all of its
// owners (on Solana, two JSON-RPC round trips for up to chain.MaxBatchOwners owners), the chains
// read at once. It never fails as a whole: the result has one entry per ref, in the order given,
// with Chain set, and an entry whose owner could not be read has Err set and Owner as given:
//   - its chain is not read by the service: market.ErrNotFound;
//   - its chain's read failed as a whole: that error (chain.ErrUpstreamUnavailable,
//     chain.ErrUpstreamTimeout, chain.ErrUpstreamBadResponse or a store error);
//   - its own read failed (Solana): see Holdings.
//
// Each owner's entry is the same as its answer alone. Refs are expected distinct and parsed
// (chain.ParseOwnerRefs); a duplicate is answered twice and read once on Solana.
func (s *Service) HoldingsBatch(ctx context.Context, refs []chain.OwnerRef) []Holdings {
	out := make([]Holdings, len(refs))
	byChain := map[string][]int{}
	for i, r := range refs {
		out[i] = Holdings{Owner: r.Address, Chain: r.Chain}
		if !s.ServesHoldings(r.Chain) {
			out[i].Err = fmt.Errorf("portfolio: chain %s: %w", r.Chain, market.ErrNotFound)
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
			res, err := s.Holdings(ctx, name, owners)
			if err == nil && len(res) != len(idx) {
				err = fmt.Errorf("portfolio: holdings on %s: %d answers for %d owners", name, len(res), len(idx))
			}
			for j, i := range idx {
				if err != nil {
					out[i].Err = err
					continue
				}
				out[i] = res[j]
			}
		})
	}
	wg.Wait()
	return out
}
