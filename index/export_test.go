package index

import (
	"context"
	"fmt"
	"slices"

	"github.com/partner-platform/partnerd/ent/lpposition"
)

// Positions returns, for the tests, the indexed positions of a position manager, by id (burned ones included).
func (s *Store) Positions(ctx context.Context, chainName, manager string) ([]Position, error) {
	rows, err := s.db.LPPosition.Query().Where(lpposition.Chain(chainName), lpposition.Manager(manager)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("positions of %s on %s: %w", manager, chainName, err)
	}
	out := make([]Position, len(rows))
	for i, r := range rows {
		out[i] = position(r)
	}
	slices.SortFunc(out, func(a, b Position) int { return parseInt(a.ID).Cmp(parseInt(b.ID)) })
	return out, nil
}
