package index

import (
	"maps"
	"math"
	"math/big"
	"slices"

	"github.com/partner-platform/partnerd/chain"
)

// Pricing is what a chain's USD prices are anchored to: its USD stablecoins (worth 1 USD each) and
// its wrapped native token. Addresses are canonical.
type Pricing struct {
	Stablecoins   map[string]bool
	WrappedNative string
}

// PricingOf is the pricing of a configured chain.
func PricingOf(chainName string, cc chain.ChainConfig) Pricing {
	p := Pricing{Stablecoins: map[string]bool{}, WrappedNative: chain.CanonicalAddress(chainName, cc.WrappedNative)}
	for _, sc := range cc.USDStablecoins {
		p.Stablecoins[chain.CanonicalAddress(chainName, sc.Address)] = true
	}
	return p
}

// PoolState is a pool's tokens and latest reserves.
type PoolState struct {
	Address        string
	Token0, Token1 string
	BaseIsToken0   bool
	Reserve0       *big.Int
	Reserve1       *big.Int
	// Concentrated is a concentrated-liquidity pool's state, from which its reserves are derived
	// (chain.ConcentratedState.Reserves); nil for a pair, and for a concentrated pool not
	// initialized yet.
	Concentrated *chain.ConcentratedState
}

// Base returns the pool's base token, Quote its quote token.
func (p *PoolState) Base() string {
	if p.BaseIsToken0 {
		return p.Token0
	}
	return p.Token1
}

// Quote returns the pool's quote token.
func (p *PoolState) Quote() string {
	if p.BaseIsToken0 {
		return p.Token1
	}
	return p.Token0
}

// reserveOf returns the pool's reserve of token (one of its two tokens).
func (p *PoolState) reserveOf(token string) *big.Int {
	if token == p.Token0 {
		return p.Reserve0
	}
	return p.Reserve1
}

func (p *PoolState) other(token string) string {
	if token == p.Token0 {
		return p.Token1
	}
	return p.Token0
}

// Market is a snapshot of a chain's pools with what prices need: it prices any token paired with a
// stablecoin, or with the wrapped native token where that is paired with a stablecoin, from the
// pool with the most liquidity. It is not safe for concurrent use.
type Market struct {
	pricing  Pricing
	decimals map[string]int
	pools    map[string]*PoolState
	byToken  map[string][]*PoolState
}

// NewMarket returns an empty market priced by p.
func NewMarket(p Pricing) *Market {
	return &Market{pricing: p, decimals: map[string]int{}, pools: map[string]*PoolState{}, byToken: map[string][]*PoolState{}}
}

// AddToken records a token's decimals.
func (m *Market) AddToken(address string, decimals int) { m.decimals[address] = decimals }

// AddPool adds a pool (its reserves may be zero).
func (m *Market) AddPool(p *PoolState) {
	m.pools[p.Address] = p
	m.byToken[p.Token0] = append(m.byToken[p.Token0], p)
	m.byToken[p.Token1] = append(m.byToken[p.Token1], p)
}

// With returns a copy of the market with the tokens' decimals and the pools added, a pool replacing
// the one at its address. m itself is unchanged, so its readers may go on reading it.
func (m *Market) With(decimals map[string]int, pools []*PoolState) *Market {
	out := &Market{pricing: m.pricing, decimals: maps.Clone(m.decimals), pools: maps.Clone(m.pools), byToken: maps.Clone(m.byToken)}
	maps.Copy(out.decimals, decimals)
	copied := map[string]bool{} // tokens whose pool list out owns already
	for _, p := range pools {
		old := out.pools[p.Address]
		out.pools[p.Address] = p
		for _, token := range []string{p.Token0, p.Token1} {
			if !copied[token] {
				out.byToken[token], copied[token] = slices.Clone(out.byToken[token]), true
			}
			list := out.byToken[token]
			if i := slices.Index(list, old); old != nil && i >= 0 {
				list[i] = p
			} else {
				out.byToken[token] = append(list, p)
			}
		}
	}
	return out
}

// Pool returns the pool at address.
func (m *Market) Pool(address string) (*PoolState, bool) {
	p, ok := m.pools[address]
	return p, ok
}

// human converts base units to token units as a float.
func (m *Market) human(token string, amount *big.Int) float64 {
	if amount == nil {
		return 0
	}
	f, _ := new(big.Float).SetInt(amount).Float64()
	return f / math.Pow10(m.decimals[token])
}

// PriceUSD returns a token's USD price, the pool it came from (nil for a stablecoin) and that pool's
// liquidity in USD; ok is false when no pool prices it.
func (m *Market) PriceUSD(token string) (price float64, via *PoolState, liquidityUSD float64, ok bool) {
	return m.price(token, 1)
}

func (m *Market) price(token string, hops int) (float64, *PoolState, float64, bool) {
	if m.pricing.Stablecoins[token] {
		return 1, nil, 0, true
	}
	var best struct {
		price, liquidity float64
		pool             *PoolState
	}
	for _, p := range m.byToken[token] {
		other := p.other(token)
		var otherUSD float64
		switch {
		case m.pricing.Stablecoins[other]:
			otherUSD = 1
		case other == m.pricing.WrappedNative && hops > 0:
			usd, _, _, ok := m.price(other, hops-1)
			if !ok {
				continue
			}
			otherUSD = usd
		default:
			continue
		}
		mine, theirs := m.human(token, p.reserveOf(token)), m.human(other, p.reserveOf(other))
		if mine <= 0 || theirs <= 0 {
			continue
		}
		liquidity := 2 * theirs * otherUSD
		if best.pool == nil || liquidity > best.liquidity {
			best.price, best.liquidity, best.pool = theirs/mine*otherUSD, liquidity, p
		}
	}
	return best.price, best.pool, best.liquidity, best.pool != nil
}

// PoolPrice returns the base token's price in the quote token, from the pool's reserves.
func (m *Market) PoolPrice(p *PoolState) float64 {
	base, quote := m.human(p.Base(), p.reserveOf(p.Base())), m.human(p.Quote(), p.reserveOf(p.Quote()))
	if base <= 0 {
		return 0
	}
	return quote / base
}

// PoolPriceUSD returns the base token's USD price in this pool: its price in the quote token
// (PoolPrice) times the quote token's USD price. It is the pool's own price, not the token's
// (PriceUSD), which comes from the token's deepest priced pool. ok is false when the quote token has
// no USD price or the pool no reserves.
func (m *Market) PoolPriceUSD(p *PoolState) (float64, bool) {
	quoteUSD, _, _, ok := m.PriceUSD(p.Quote())
	price := m.PoolPrice(p)
	if !ok || price <= 0 {
		return 0, false
	}
	return price * quoteUSD, true
}

// LiquidityUSD is the USD value of both sides of a pool, each valued at its price in this pool:
// twice the quote reserve at the quote token's USD price, or, when the quote has none, twice the
// base reserve at the base token's; 0 when neither side has a price.
func (m *Market) LiquidityUSD(p *PoolState) float64 {
	for _, t := range []string{p.Quote(), p.Base()} {
		if usd, _, _, ok := m.PriceUSD(t); ok {
			return 2 * m.human(t, p.reserveOf(t)) * usd
		}
	}
	return 0
}

// Human converts base units of a token the market knows to token units.
func (m *Market) Human(token string, amount *big.Int) float64 { return m.human(token, amount) }

// Orient decides which of a new pool's tokens is the base: the quote is a stablecoin, else the
// wrapped native token, else token1.
func (p Pricing) Orient(token0, token1 string) (baseIsToken0 bool) {
	switch {
	case p.Stablecoins[token1]:
		return true
	case p.Stablecoins[token0]:
		return false
	case token1 == p.WrappedNative:
		return true
	case token0 == p.WrappedNative:
		return false
	}
	return true
}
