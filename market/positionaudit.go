package market

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/partner-platform/partnerd/index"
)

// positionFindings are the findings of a pool whose liquidity is held in NFT positions (a Uniswap V3
// pool: no fungible LP token), from the index's positions of the pool (index.PoolPositions), the
// counterpart of a pair's LP holders. A position's share is its liquidity (L) over the summed
// liquidity of the pool's indexed positions, in range or not: L is the depth a position adds where
// its range is active, comparable across positions of one pool, not their value. Liquidity minted
// straight through the pool, not through a position manager, is not among them. None when the index
// holds no position of the pool:
//
//   - lp_positions (info): how many positions hold liquidity, and how many owners hold them.
//   - lp_top10_holders (info): the 10 largest owners' share of the positions' liquidity.
//   - lp_concentrated (warning): one owner holds at least half of it, and so can withdraw most of
//     the pool's position liquidity; otherwise lp_spread (info), naming the largest.
func positionFindings(chainName string, positions []index.Position) []Finding {
	if len(positions) == 0 {
		return nil
	}
	byOwner, total := map[string]*big.Int{}, new(big.Int)
	for _, p := range positions {
		if byOwner[p.Owner] == nil {
			byOwner[p.Owner] = new(big.Int)
		}
		byOwner[p.Owner].Add(byOwner[p.Owner], p.Liquidity)
		total.Add(total, p.Liquidity)
	}
	owners := make([]string, 0, len(byOwner))
	for o := range byOwner {
		owners = append(owners, o)
	}
	slices.SortFunc(owners, func(a, b string) int {
		if c := byOwner[b].Cmp(byOwner[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	share := func(n *big.Int) string { return Decimal(Ratio(n, total)*100) + "%" }
	var f []Finding
	add := func(level, code, format string, args ...any) {
		f = append(f, Finding{Code: code, Level: level, Message: fmt.Sprintf(format, args...)})
	}
	add("info", "lp_positions", "%d NFT positions hold the pool's liquidity (%s in liquidity units), owned by %d owners",
		len(positions), total, len(owners))
	top := new(big.Int)
	for _, o := range owners[:min(10, len(owners))] {
		top.Add(top, byOwner[o])
	}
	add("info", "lp_top10_holders", "the 10 largest position owners hold %s of the positions' liquidity", share(top))
	largest := owners[0]
	if new(big.Int).Lsh(byOwner[largest], 1).Cmp(total) >= 0 {
		add("warning", "lp_concentrated", "one owner, %s, holds %s of the positions' liquidity: it can withdraw most of the pool's liquidity",
			display(chainName, largest), share(byOwner[largest]))
	} else {
		add("info", "lp_spread", "no owner holds half of the positions' liquidity: the largest, %s, holds %s",
			display(chainName, largest), share(byOwner[largest]))
	}
	return f
}
