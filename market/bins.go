package market

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/partner-platform/partnerd/chain"
)

// Bins of concentrated-liquidity pools (GET /v1/pools/{pool}/bins): the pool's state and the
// initialized ticks near its price, read live in one round trip, grouped into ranges by its venue.

// BinsVenue is a venue of a chain whose pools' bins the service reads, with its configuration.
type BinsVenue struct {
	chain.BinsVenue
	Config chain.VenueConfig
}

// Bin kinds: which ranges a bins read lists.
const (
	BinsAll    = "ticks"  // every range between neighbouring initialized ticks in the ticks read (the default)
	BinsActive = "active" // the range holding the current price only
)

// PoolBins is a pool's liquidity by price range, prices in Quote per Base.
type PoolBins struct {
	Pool        string
	Venue       string
	Base, Quote Token
	Price       float64 // the current price, quote per base
	Tick        int
	Liquidity   *big.Int // in range at the current price
	Block       uint64
	Bins        []Bin
}

// Bin is one price range of a pool: its bounds in quote per base (PriceLower < PriceUpper) and in
// base per quote, the liquidity active in it and the token units it holds.
type Bin struct {
	TickLower, TickUpper                 int
	PriceLower, PriceUpper               float64 // quote per base
	InversePriceLower, InversePriceUpper float64 // base per quote
	Liquidity                            *big.Int
	BaseAmount, QuoteAmount              string // token units
	Current                              bool
}

// BinVenuesOf are the venues of a chain's configuration whose pools' bins the configuration lets
// the service read.
func BinVenuesOf(venues chain.VenueSet, cc chain.ChainConfig) []BinsVenue {
	var out []BinsVenue
	vs, configs := venues.Bins(cc)
	for i, v := range vs {
		if _, _, ok := v.BinsRead(configs[i], "", 0); ok {
			out = append(out, BinsVenue{BinsVenue: v, Config: configs[i]})
		}
	}
	return out
}

// BinsVenues are the venues whose pools' bins the service reads on the named chain.
func (s *Service) BinsVenues(chainName string) []string {
	var out []string
	if c := s.chains[chainName]; c != nil {
		for _, v := range c.BinVenues {
			out = append(out, v.Spec().Name)
		}
	}
	return out
}

// Bins reads the bins of pool, a pool of venue on the named chain, with prices in quote (one of its
// tokens; "" is token1, the pool's own quote) and kind BinsAll ("" too) or BinsActive. ErrNotFound
// when pool is not such a pool, ErrInvalid for a quote that is not one of its tokens or another kind.
func (s *Service) Bins(ctx context.Context, chainName, venue, pool, quote, kind string) (PoolBins, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return PoolBins{}, err
	}
	i := slices.IndexFunc(c.BinVenues, func(v BinsVenue) bool { return v.Spec().Name == venue })
	reader, ok := c.Source.(chain.V3Reader)
	if i < 0 || !ok {
		return PoolBins{}, fmt.Errorf("%w: %s bins are not read on %s", ErrNotFound, venue, chainName)
	}
	if kind != "" && kind != BinsAll && kind != BinsActive {
		return PoolBins{}, fmt.Errorf("%w: kind must be %s or %s", ErrInvalid, BinsAll, BinsActive)
	}
	v := c.BinVenues[i]
	pool = canonical(chainName, pool)
	feeBps := 0 // the tier, when indexed, tells the pool's tick spacing: its words are then guessed from its indexed tick
	if p, err := s.index.Pool(ctx, chainName, pool); err == nil {
		feeBps = p.FeeBps
	}
	lens, read, _ := v.BinsRead(v.Config, pool, feeBps)
	states, err := reader.V3Pools(ctx, lens, []chain.V3PoolRead{read})
	if err != nil {
		return PoolBins{}, err
	}
	st := states[0]
	if !st.OK {
		return PoolBins{}, fmt.Errorf("%s is not a %s pool: %w", pool, venue, ErrNotFound)
	}
	invert := false // prices in token0 per token1
	switch canonical(chainName, quote) {
	case "", st.Token1:
	case st.Token0:
		invert = true
	default:
		return PoolBins{}, fmt.Errorf("quote must be one of the pool's tokens, %s or %s: %w", st.Token0, st.Token1, ErrInvalid)
	}
	ranges, err := v.Bins(st)
	if err != nil {
		return PoolBins{}, fmt.Errorf("%w: %v", chain.ErrUpstreamBadResponse, err)
	}
	metas, err := s.tokenMetas(ctx, c, st.Token0, st.Token1)
	if err != nil {
		return PoolBins{}, err
	}
	t0, t1 := metas[0], metas[1]
	// price is token1 per token0 in token units at a sqrt price.
	price := func(sqrtX96 *big.Int) float64 {
		sq := new(big.Int).Mul(sqrtX96, sqrtX96)
		r := new(big.Rat).SetFrac(new(big.Int).Mul(sq, pow10(t0.Decimals)), new(big.Int).Mul(new(big.Int).Lsh(big.NewInt(1), 192), pow10(t1.Decimals)))
		f, _ := r.Float64()
		return f
	}
	out := PoolBins{Pool: display(chainName, pool), Venue: venue, Base: t0, Quote: t1, Price: price(st.SqrtPriceX96), Tick: st.Tick,
		Liquidity: st.Liquidity, Block: st.Block, Bins: []Bin{}}
	if invert {
		out.Base, out.Quote, out.Price = t1, t0, 1/out.Price
	}
	for _, r := range ranges {
		if kind == BinsActive && !r.Current {
			continue
		}
		lo, hi := price(r.SqrtPriceLowerX96), price(r.SqrtPriceUpperX96)
		b := Bin{TickLower: r.TickLower, TickUpper: r.TickUpper, PriceLower: lo, PriceUpper: hi, InversePriceLower: 1 / hi, InversePriceUpper: 1 / lo,
			Liquidity: r.Liquidity, BaseAmount: Units(r.Amount0, t0.Decimals), QuoteAmount: Units(r.Amount1, t1.Decimals), Current: r.Current}
		if invert {
			b.PriceLower, b.PriceUpper, b.InversePriceLower, b.InversePriceUpper = 1/hi, 1/lo, lo, hi
			b.BaseAmount, b.QuoteAmount = b.QuoteAmount, b.BaseAmount
		}
		out.Bins = append(out.Bins, b)
	}
	if invert {
		slices.Reverse(out.Bins) // in price order of the quote asked for
	}
	return out, nil
}

// tokenMetas is the tokens as response tokens: as the index describes them (TokenInfo), else
// from metadata read live.
func (s *Service) tokenMetas(ctx context.Context, c *Chain, tokens ...string) ([]Token, error) {
	known, err := s.TokenInfo(ctx, c.Name, tokens)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, t := range tokens {
		if _, ok := known[t]; !ok {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		metas, err := c.Source.TokenMetadata(ctx, missing)
		if err != nil {
			return nil, err
		}
		for j, m := range metas {
			if !m.OK {
				return nil, fmt.Errorf("%w: %s does not answer as an ERC-20 token", chain.ErrUpstreamBadResponse, missing[j])
			}
			known[missing[j]] = Token{Chain: c.Name, Address: display(c.Name, missing[j]), Symbol: m.Symbol, Name: m.Name, Decimals: m.Decimals}
		}
	}
	out := make([]Token, len(tokens))
	for i, t := range tokens {
		out[i] = known[t]
	}
	return out, nil
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
