package portfolio

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// NFT positions (Uniswap V3's NonfungiblePositionManager): every position NFT an owner holds in
// its wallet, or has deposited in the venue's staker (UniswapV3Staker), read through the chain
// source's chain.V3PositionReader at the block of the LP read, each an entry of its own with the
// figures its venue computes (chain.V3PositionsVenue): the amounts removing it would pay and the
// fees collecting would pay, exactly as the contracts would.

// NFTVenue is a venue of a chain whose positions are NFTs, with where the chain's are.
type NFTVenue struct {
	chain.V3PositionsVenue
	Where chain.V3PositionsRead
}

// NFTVenuesOf are the venues of set, configured in cc, whose positions are NFTs on the chain (a
// uniswap-v3 venue with a position manager).
func NFTVenuesOf(set chain.VenueSet, cc chain.ChainConfig) []NFTVenue {
	var out []NFTVenue
	venues, where := set.V3Positions(cc)
	for i, v := range venues {
		out = append(out, NFTVenue{V3PositionsVenue: v, Where: where[i]})
	}
	return out
}

// NFTPosition is what an entry of an NFT position has beyond an LP entry's.
type NFTPosition struct {
	ID                   string // the NFT's token id, decimal
	TickLower, TickUpper int
	// PriceLower and PriceUpper are the range's bounds in quote per base (PriceLower < PriceUpper),
	// InversePriceLower and InversePriceUpper in base per quote.
	PriceLower, PriceUpper               float64
	InversePriceLower, InversePriceUpper float64
	InRange                              bool   // the pool's tick is in the range: the liquidity earns fees
	BaseFees, QuoteFees                  string // uncollected: what collect would pay now, token units
}

// nftPositions adds to out (one per owner, from the LP read at block, 0 when that read read nothing;
// totals their priced values) every NFT position of the chain's NFT venues, read at that block,
// and a source per venue (<chain>:<venue>) that is incomplete for an owner whose discovery was cut
// short or some of whose positions did not answer. Entries stay ordered by pool address, a pool's
// wallet entries (by position id) before its staked ones.
func (s *Service) nftPositions(ctx context.Context, c *Chain, owners []string, out []Positions, totals []float64, block uint64) error {
	reader, ok := c.Source.(chain.V3PositionReader)
	if !ok || len(c.NFTVenues) == 0 {
		return nil
	}
	for _, v := range c.NFTVenues {
		read, err := reader.V3Positions(ctx, v.Where, owners, block)
		if err != nil {
			return err
		}
		block = read.Block
		d, err := s.describeNFTs(ctx, c, v, read)
		if err != nil {
			return err
		}
		for i := range owners {
			value, err := d.add(&out[i], read.Positions[i])
			if err != nil {
				return err
			}
			totals[i] += value
			out[i].Sources = append(out[i].Sources, Source{Name: c.Name + ":" + v.Spec().Name, OK: true,
				Complete: read.Complete[i] && len(read.Unanswered[i]) == 0})
		}
	}
	for i := range out {
		out[i].Block, out[i].ValueUSD = block, market.Decimal(totals[i])
		slices.SortStableFunc(out[i].Positions, func(a, b Position) int {
			return strings.Compare(strings.ToLower(a.Pool.Address), strings.ToLower(b.Pool.Address))
		})
	}
	return nil
}

// nftInfo describes the pools of NFT positions read: their summaries (the index's when it follows
// the pool, else made from the live read) and prices.
type nftInfo struct {
	chain     string
	venue     NFTVenue
	summaries map[string]market.PoolSummary // by canonical pool address, reserves from the read
	prices    map[string]float64
}

// describeNFTs looks up the pools of the positions read: the index's summary of a pool it follows,
// else one made of the read (tokens described by the index or read live, oriented as the index
// would orient them); the reserves are the pool's balances at the read's block.
func (s *Service) describeNFTs(ctx context.Context, c *Chain, v NFTVenue, read chain.V3Positions) (nftInfo, error) {
	info := nftInfo{chain: c.Name, venue: v, summaries: map[string]market.PoolSummary{}}
	pools := map[string]chain.V3Position{}
	var tokens []string
	for _, list := range read.Positions {
		for _, p := range list {
			if _, seen := pools[p.Pool]; !seen {
				pools[p.Pool] = p
				tokens = append(tokens, p.Token0, p.Token1)
			}
		}
	}
	if len(pools) == 0 {
		return info, nil
	}
	described, err := s.tokens(ctx, c, distinct(tokens))
	if err != nil {
		return info, err
	}
	for addr, p := range pools {
		sum, err := s.market.Summary(ctx, c.Name, addr)
		switch {
		case errors.Is(err, market.ErrNotFound):
			sum = market.PoolSummary{Chain: c.Name, Address: chain.DisplayAddress(c.Name, addr), Venue: v.Spec().Name,
				Base: described[p.Token0], Quote: described[p.Token1], FeeBps: p.Fee / 100}
			if !c.Pricing.Orient(p.Token0, p.Token1) {
				sum.Base, sum.Quote = sum.Quote, sum.Base
			}
		case err != nil:
			return info, err
		}
		b, q := p.State.Balance0, p.State.Balance1
		if chain.CanonicalAddress(c.Name, sum.Base.Address) != p.Token0 {
			b, q = q, b
		}
		sum.BaseReserve, sum.QuoteReserve = market.Units(b, sum.Base.Decimals), market.Units(q, sum.Quote.Decimals)
		info.summaries[addr] = sum
	}
	info.prices, err = s.market.PricesUSD(ctx, c.Name, distinct(tokens))
	return info, err
}

// add appends the entries of positions to out and returns their priced value.
func (d nftInfo) add(out *Positions, positions []chain.V3Position) (float64, error) {
	var total float64
	for _, p := range positions {
		fig, err := d.venue.PositionFigures(p)
		if err != nil {
			return 0, err
		}
		sum := d.summaries[p.Pool]
		baseIs0 := chain.CanonicalAddress(d.chain, sum.Base.Address) == p.Token0
		amounts, fees := []*big.Int{fig.Amount0, fig.Amount1}, []*big.Int{fig.Fees0, fig.Fees1} // base then quote
		if !baseIs0 {
			slices.Reverse(amounts)
			slices.Reverse(fees)
		}
		nft := &NFTPosition{ID: p.ID.String(), TickLower: p.TickLower, TickUpper: p.TickUpper, InRange: fig.InRange,
			BaseFees: market.Units(fees[0], sum.Base.Decimals), QuoteFees: market.Units(fees[1], sum.Quote.Decimals)}
		lo, hi := price(fig.SqrtPriceLowerX96, sum, baseIs0), price(fig.SqrtPriceUpperX96, sum, baseIs0)
		if !baseIs0 {
			lo, hi = hi, lo
		}
		nft.PriceLower, nft.PriceUpper, nft.InversePriceLower, nft.InversePriceUpper = lo, hi, 1/hi, 1/lo
		share := "0"
		if fig.InRange && p.State.Liquidity.Sign() > 0 {
			share = market.Decimal(market.Ratio(p.Liquidity, p.State.Liquidity) * 100)
		}
		pos := Position{Pool: sum, Liquidity: p.Liquidity.String(), BaseAmount: market.Units(amounts[0], sum.Base.Decimals),
			QuoteAmount: market.Units(amounts[1], sum.Quote.Decimals), SharePct: share, NFT: nft}
		if p.Staked {
			pos.Farm = &Farm{Address: chain.DisplayAddress(d.chain, d.venue.Where.Staker), Rewards: []Reward{}}
		}
		bp, bok := d.prices[chain.CanonicalAddress(d.chain, sum.Base.Address)]
		qp, qok := d.prices[chain.CanonicalAddress(d.chain, sum.Quote.Address)]
		if bok && qok {
			v := (market.UnitsFloat(amounts[0], sum.Base.Decimals)+market.UnitsFloat(fees[0], sum.Base.Decimals))*bp +
				(market.UnitsFloat(amounts[1], sum.Quote.Decimals)+market.UnitsFloat(fees[1], sum.Quote.Decimals))*qp
			pos.ValueUSD = market.Decimal(v)
			total += v
		}
		out.Positions = append(out.Positions, pos)
	}
	return total, nil
}

// price is a sqrt price (token1 per token0, Q64.96) as quote per base in token units.
func price(sqrtX96 *big.Int, sum market.PoolSummary, baseIs0 bool) float64 {
	t0, t1 := sum.Base, sum.Quote
	if !baseIs0 {
		t0, t1 = t1, t0
	}
	sq := new(big.Int).Mul(sqrtX96, sqrtX96)
	num := new(big.Int).Mul(sq, pow10(t0.Decimals))
	den := new(big.Int).Mul(new(big.Int).Lsh(big.NewInt(1), 192), pow10(t1.Decimals))
	if !baseIs0 {
		num, den = den, num
	}
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
