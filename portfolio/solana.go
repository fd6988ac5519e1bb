package portfolio

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/market"
)

// Solana holdings.
//
// An owner's holdings on Solana are its SOL (lamports, 9 decimals) and its balance of every mint
// it holds a token account of, under SPL Token and under Token-2022, whether or not anything
// indexes the mint: the adapter asks the RPC for every token account the owner has under both
// programs (getTokenAccountsByOwner), so discovery is complete and the source says so (see
// solanaSources). Several accounts of one mint (an associated account and others) are summed into
// one row. Symbol, name and decimals come from the mints themselves (the Token-2022 metadata
// extension or the Metaplex metadata account), read in the same call.
//
// Amounts are the accounts' base-unit balances in token units; a Token-2022 interest-bearing
// mint's accrued interest (a UI-amount figure, not a balance) is not added.

// SolanaSource is what the service reads of a Solana cluster; *solana.Client satisfies it.
type SolanaSource interface {
	// Holdings reads owners' SOL and token accounts and the held mints, with a per-owner Err
	// (solana.Client.Holdings: two JSON-RPC round trips whatever the number of owners).
	Holdings(ctx context.Context, owners []string) (solana.HoldingsResult, error)
}

// Pricer prices tokens in USD by address; tokens it does not price are left out of the map.
// *market.Service is one.
type Pricer interface {
	PricesUSD(ctx context.Context, chainName string, tokens []string) (map[string]float64, error)
}

// SolanaChain is a Solana cluster whose holdings the service reads.
type SolanaChain struct {
	Name   string // the chain's name: "solana"
	Source SolanaSource
	// Prices prices the held mints (by mint address; wrapped SOL's price prices SOL). Nil: the
	// service's market when it serves the chain, else nothing is priced.
	Prices Pricer
}

// Option configures a Service at New.
type Option func(*Service)

// WithSolana makes the service read holdings on a Solana chain (positions are not read there:
// Positions answers it as an unknown chain, market.ErrNotFound).
func WithSolana(c *SolanaChain) Option {
	return func(s *Service) { s.solana[c.Name] = c }
}

// ServesHoldings reports whether the service reads holdings on the named chain: an EVM chain or a
// Solana chain.
func (s *Service) ServesHoldings(chainName string) bool {
	return s.chains[chainName] != nil || s.solana[chainName] != nil
}

// solanaSource is the name of the Solana holdings' one source.
func solanaSource(chainName string) string { return chainName + ":rpc" }

// wrappedSOL describes wrapped SOL's mint when it carries no metadata (a cluster may not have
// Metaplex metadata for it); mainnet's Metaplex metadata says the same.
var wrappedSOL = solana.Metadata{Name: "Wrapped SOL", Symbol: "WSOL"}

// solanaHoldings reads the holdings of owners on a Solana chain, in the order asked: every valid,
// distinct owner in one adapter call (two JSON-RPC round trips whatever their number). An owner
// that is not a Solana address (an EVM address, not base58, base58 of other than 32 bytes, or not
// in canonical form) has Err wrapping chain.ErrInvalidOwner and chain.ErrInvalidAddress and is not
// read; an owner whose own reads failed has the adapter's *solana.Error as Err (matching
// chain.ErrUpstreamUnavailable, chain.ErrUpstreamTimeout or chain.ErrUpstreamBadResponse). The call
// fails as a whole only when a whole round trip does, with the adapter's *solana.Error, or when
// the prices cannot be read. USD prices come from the chain's Prices, else from the market service
// when it serves the chain; a holding nobody prices has PriceUSD and ValueUSD empty (the API omits
// priceUsd and valueUsd) and adds nothing to ValueUSD. Holding rows are SOL first (Address
// "native", priced by wrapped SOL), then one row per mint held, by mint address.
func (s *Service) solanaHoldings(ctx context.Context, c *SolanaChain, owners []string) ([]Holdings, error) {
	out := make([]Holdings, len(owners))
	var asked []string     // the distinct valid owners, in first-seen order
	at := map[string]int{} // owner -> index in asked
	for i, o := range owners {
		out[i] = Holdings{Owner: o, Chain: c.Name}
		if _, err := solana.ParseAddress(o); err != nil {
			out[i].Err = fmt.Errorf("portfolio: %w on %s: %w", chain.ErrInvalidOwner, c.Name, err)
			continue
		}
		if _, ok := at[o]; !ok {
			at[o] = len(asked)
			asked = append(asked, o)
		}
	}
	if len(asked) == 0 {
		return out, nil
	}
	res, err := c.Source.Holdings(ctx, asked)
	if err != nil {
		return nil, fmt.Errorf("portfolio: holdings on %s: %w", c.Name, err)
	}
	if len(res.Owners) != len(asked) {
		return nil, fmt.Errorf("portfolio: holdings on %s: %d answers for %d owners: %w", c.Name, len(res.Owners), len(asked), chain.ErrUpstreamBadResponse)
	}
	prices, err := s.solanaPrices(ctx, c, res.Mints)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Err != nil {
			continue
		}
		h := res.Owners[at[out[i].Owner]]
		if h.Err != nil {
			out[i].Err = fmt.Errorf("portfolio: holdings of %s on %s: %w", h.Owner, c.Name, h.Err)
			continue
		}
		out[i] = solanaOwner(c.Name, h, res.Mints, prices)
	}
	return out, nil
}

// solanaPrices returns the USD prices of the mints and of wrapped SOL (which prices SOL), by mint
// address, from the chain's Prices or else the market: none when neither prices the chain.
func (s *Service) solanaPrices(ctx context.Context, c *SolanaChain, mints map[string]solana.Mint) (map[string]float64, error) {
	var p Pricer = c.Prices
	if p == nil {
		if s.market == nil || !s.market.Serves(c.Name) {
			return map[string]float64{}, nil
		}
		p = s.market
	}
	list := slices.Sorted(maps.Keys(mints))
	if _, ok := mints[solana.NativeMint]; !ok {
		list = append(list, solana.NativeMint)
	}
	prices, err := p.PricesUSD(ctx, c.Name, list)
	if err != nil {
		return nil, fmt.Errorf("portfolio: prices on %s: %w", c.Name, err)
	}
	return prices, nil
}

// solanaOwner is one owner's holdings: SOL first, then one row per mint with a positive balance
// (summed over the owner's accounts of it), by mint address. A held mint the adapter could not
// read (its decimals are unknown) is left out, and the source then says discovery was partial.
func solanaOwner(chainName string, h solana.Holdings, mints map[string]solana.Mint, prices map[string]float64) Holdings {
	out := Holdings{Owner: h.Owner, Chain: chainName, Holdings: []Holding{}}
	complete := true
	var total float64
	add := func(t market.Token, amount *big.Int, native bool) {
		row := Holding{Token: t, Amount: market.Units(amount, t.Decimals), Native: native}
		price, ok := prices[t.Address]
		if native {
			price, ok = prices[solana.NativeMint]
		}
		if ok {
			v := market.UnitsFloat(amount, t.Decimals) * price
			row.PriceUSD, row.ValueUSD = market.Decimal(price), market.Decimal(v)
			total += v
		}
		out.Holdings = append(out.Holdings, row)
	}
	if h.Lamports > 0 {
		symbol := "SOL"
		if info, ok := chain.Lookup(chainName); ok && info.NativeToken != "" {
			symbol = info.NativeToken
		}
		add(market.Token{Chain: chainName, Address: "native", Symbol: symbol, Name: symbol, Decimals: solana.SOLDecimals},
			new(big.Int).SetUint64(h.Lamports), true)
	}
	sums := map[string]*big.Int{}
	for _, t := range h.Tokens {
		if t.Amount == nil || t.Amount.Sign() <= 0 {
			continue
		}
		if t.Decimals < 0 { // the mint could not be read: its units are unknown
			complete = false
			continue
		}
		if sums[t.Mint] == nil {
			sums[t.Mint] = new(big.Int)
		}
		sums[t.Mint].Add(sums[t.Mint], t.Amount)
	}
	for _, mint := range slices.Sorted(maps.Keys(sums)) {
		m := mints[mint]
		meta := m.Metadata
		if meta == nil && mint == solana.NativeMint {
			meta = &wrappedSOL
		}
		t := market.Token{Chain: chainName, Address: mint, Decimals: m.Decimals}
		if meta != nil {
			t.Symbol, t.Name = meta.Symbol, meta.Name
		}
		add(t, sums[mint], false)
	}
	out.ValueUSD = market.Decimal(total)
	out.Sources = solanaSources(chainName, complete)
	return out
}

// solanaSources is the health of a Solana owner's read: one source, the RPC, complete unless a
// held mint could not be read. Complete because discovery asks the RPC for every token account
// the owner has under both token programs (getTokenAccountsByOwner with each programId), not for
// a list of followed tokens, plus its SOL balance; no index is involved.
func solanaSources(chainName string, complete bool) []Source {
	return []Source{{Name: solanaSource(chainName), OK: true, Complete: complete}}
}
