// Package portfolio answers the portfolio reads: an owner's holdings (the native coin and its
// tokens, with USD values) and LP positions (LP tokens held, and on EVM chains staked in farms:
// positions.go), for one owner or many at once, on any chain the service is given.
//
// How a chain is read depends on what its source can do, never on its family or name:
//   - a source that lists whole wallets (chain.WalletSource: Solana's) is read for everything an
//     owner holds, so discovery is complete and the chain source says so (wallet.go); its LP
//     positions are the held tokens that are LP tokens of indexed pools (walletpositions.go);
//   - any other source (EVM's) is read for the tokens and pools the index says an owner holds,
//     plus the chain's configured wrapped native token and USD stablecoins, read for every owner:
//     the chain source is complete for the native coin, the index source is never complete. Farm
//     stakes are found in every farm of the chain's staking rewards factories (the farms source),
//     through chain.EVMPositionSource; NFT positions (uniswap-v3) are every NFT of the venue's
//     position manager the owner holds or has deposited in its staker (nftpositions.go).
//
// An owner's result depends on the owner alone, never on who else is in a batch.
package portfolio

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
)

// Chain is a chain the service reads, of either family.
type Chain struct {
	Name   string
	Source chain.Source
	// NativeSymbol is the symbol of the chain's native coin (ETH, SOL ...); its decimals are the
	// chain's (chain.Info.NativeDecimals).
	NativeSymbol string
	// Pricing is the chain's configured wrapped native token (its USD price prices the native coin)
	// and USD stablecoins: an index-read chain's holdings read them for every owner.
	Pricing index.Pricing
	// Prices prices tokens in USD (by canonical address). Nil: the service's market, when it
	// serves the chain; else nothing is priced.
	Prices Pricer
	// NFTVenues are the chain's venues whose positions are NFTs (uniswap-v3), read by positions
	// through the source's chain.V3PositionReader (nftpositions.go).
	NFTVenues []NFTVenue
}

// Pricer prices tokens in USD by canonical address; tokens it does not price are left out of the
// map. *market.Service is one.
type Pricer interface {
	PricesUSD(ctx context.Context, chainName string, tokens []string) (map[string]float64, error)
}

// noPrices prices nothing.
type noPrices struct{}

func (noPrices) PricesUSD(context.Context, string, []string) (map[string]float64, error) {
	return map[string]float64{}, nil
}

// pricer is what prices the chain's tokens: its Prices, else the market when it serves the chain.
func (s *Service) pricer(c *Chain) Pricer {
	switch {
	case c.Prices != nil:
		return c.Prices
	case s.market != nil && s.market.Serves(c.Name):
		return s.market
	}
	return noPrices{}
}

// native is the chain's native coin as a holding's token.
func (c *Chain) native() market.Token {
	decimals := 18
	if info, ok := chain.Lookup(c.Name); ok {
		decimals = info.NativeDecimals
	}
	return market.Token{Chain: c.Name, Address: chain.Native, Symbol: c.NativeSymbol, Name: c.NativeSymbol, Decimals: decimals}
}

// alwaysRead returns the tokens whose balances holdings read for every owner, sorted.
func (c *Chain) alwaysRead() []string {
	out := slices.Collect(maps.Keys(c.Pricing.Stablecoins))
	if c.Pricing.WrappedNative != "" {
		out = append(out, c.Pricing.WrappedNative)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Service answers portfolio reads. It is safe for concurrent use.
type Service struct {
	index  *index.Store
	market *market.Service
	chains map[string]*Chain
}

// New returns the service over the chains, reading the index ix and the market m (which describes
// pools and, unless a chain has its own Prices, prices tokens). Holdings of a chain whose source is
// a chain.WalletSource need neither (without a market nothing is priced); everything else needs
// both.
func New(ix *index.Store, m *market.Service, chains []*Chain) *Service {
	s := &Service{index: ix, market: m, chains: map[string]*Chain{}}
	for _, c := range chains {
		s.chains[c.Name] = c
	}
	return s
}

// Serves reports whether the service answers the portfolio reads (holdings and positions) on the
// named chain.
func (s *Service) Serves(chainName string) bool { return s.chains[chainName] != nil }

// Source is one source's health in a result: OK that it answered, Complete that its discovery was
// complete. The index only knows the tokens and pools it follows, so it is never complete.
type Source struct {
	Name     string
	OK       bool
	Complete bool
}

// sources is the health of an index-read owner: the chain, complete (for the native coin), and the
// index, never complete.
func sources(chainName string) []Source {
	return []Source{rpcSource(chainName, true), indexSource(chainName)}
}

// rpcSource is the chain's source, complete or not.
func rpcSource(chainName string, complete bool) Source {
	return Source{Name: chainName + ":rpc", OK: true, Complete: complete}
}

// indexSource is the index's source: it only knows the tokens and pools it follows.
func indexSource(chainName string) Source {
	return Source{Name: chainName + ":index", OK: true, Complete: false}
}

// Holding is one balance.
type Holding struct {
	Token    market.Token
	Amount   string // token units
	PriceUSD string // empty when unpriced
	ValueUSD string
	Native   bool
}

// holdingRows accumulates an owner's holding rows and their total USD value.
type holdingRows struct {
	rows  []Holding
	total float64
}

// add appends a row of amount (base units) of t, valued at price when priced.
func (h *holdingRows) add(t market.Token, amount *big.Int, price float64, priced, native bool) {
	row := Holding{Token: t, Amount: market.Units(amount, t.Decimals), Native: native}
	if priced {
		v := market.UnitsFloat(amount, t.Decimals) * price
		row.PriceUSD, row.ValueUSD = market.Decimal(price), market.Decimal(v)
		h.total += v
	}
	h.rows = append(h.rows, row)
}

// finish sets out's rows (an empty list when none) and their total value.
func (h *holdingRows) finish(out *Holdings) {
	out.Holdings = append([]Holding{}, h.rows...)
	out.ValueUSD = market.Decimal(h.total)
}

// Holdings is one owner's holdings on one chain.
type Holdings struct {
	Owner    string
	Chain    string
	Holdings []Holding
	ValueUSD string
	Sources  []Source
	// Err is this owner's own failure; the other fields but Owner and Chain are then zero, and the
	// other owners of the call are unaffected. Only wallet reads (chain.WalletSource) and
	// HoldingsBatch set it: an index read fails as a whole, with Holdings' error.
	Err error
}

func (s *Service) chain(name string) (*Chain, error) {
	c := s.chains[name]
	if c == nil {
		return nil, fmt.Errorf("portfolio: chain %s: %w", name, market.ErrNotFound)
	}
	return c, nil
}

func canonical(chainName string, owners []string) []string {
	out := make([]string, len(owners))
	for i, o := range owners {
		out[i] = chain.CanonicalAddress(chainName, o)
	}
	return out
}

// Holdings reads the holdings of owners on one chain with one live read for all of them. An
// owner's result is the same alone as in any batch.
//
// A chain whose source lists wallets (chain.WalletSource) is read for the native coin and every
// token the owner holds (walletHoldings), and an owner that cannot be read (not an address of the
// chain, or the RPC answering the batch but not that owner's reads) has its Err set. Any other
// chain is read for each owner's native balance and its balances of the indexed tokens (not LP
// tokens) the index says it holds, of the wrapped native token and of the stablecoins; its errors
// fail the call.
//
// Errors: market.ErrNotFound (a chain the service does not read), the source's
// (chain.ErrUpstreamUnavailable, chain.ErrUpstreamTimeout, chain.ErrUpstreamBadResponse,
// chain.ErrCanceled), the pricer's and the store's.
func (s *Service) Holdings(ctx context.Context, chainName string, owners []string) ([]Holdings, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return nil, err
	}
	if ws, ok := c.Source.(chain.WalletSource); ok {
		return s.walletHoldings(ctx, c, ws, owners)
	}
	owners = canonical(chainName, owners)
	held, err := s.held(ctx, chainName, owners, false)
	if err != nil {
		return nil, err
	}
	always := c.alwaysRead()
	tokens := make([][]string, len(owners)) // per owner, sorted
	var all []string
	for i, o := range owners {
		list := append(slices.Clone(held[o]), always...)
		slices.Sort(list)
		tokens[i] = slices.Compact(list)
		all = append(all, tokens[i]...)
	}
	all = distinct(all)
	info, err := s.market.TokenInfo(ctx, chainName, all)
	if err != nil {
		return nil, err
	}
	prices, err := s.pricer(c).PricesUSD(ctx, chainName, append(slices.Clone(all), c.Pricing.WrappedNative))
	if err != nil {
		return nil, err
	}
	native, balances, _, err := c.Source.Balances(ctx, owners, tokens)
	if err != nil {
		return nil, err
	}
	if err := s.describeHeld(ctx, c, info, tokens, balances); err != nil {
		return nil, err
	}
	out := make([]Holdings, len(owners))
	for i, o := range owners {
		h := Holdings{Owner: chain.DisplayAddress(chainName, o), Chain: chainName, Sources: sources(chainName)}
		var rows holdingRows
		if native[i] != nil && native[i].Sign() > 0 {
			p, ok := prices[c.Pricing.WrappedNative]
			rows.add(c.native(), native[i], p, ok, true)
		}
		for j, t := range tokens[i] {
			if b := balances[i][j]; b != nil && b.Sign() > 0 {
				p, ok := prices[t]
				rows.add(info[t], b, p, ok, false)
			}
		}
		rows.finish(&h)
		out[i] = h
	}
	return out, nil
}

// describeHeld adds to info the tokens someone holds that the index does not describe (an
// always-read token with no indexed pool yet): their metadata is read live, only then.
func (s *Service) describeHeld(ctx context.Context, c *Chain, info map[string]market.Token, tokens [][]string, balances [][]*big.Int) error {
	var missing []string
	for i := range tokens {
		for j, t := range tokens[i] {
			if _, ok := info[t]; !ok && balances[i][j] != nil && balances[i][j].Sign() > 0 && !slices.Contains(missing, t) {
				missing = append(missing, t)
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	metas, err := c.Source.TokenMetadata(ctx, missing)
	if err != nil {
		return err
	}
	for _, m := range metas {
		info[m.Address] = market.Token{Chain: c.Name, Address: chain.DisplayAddress(c.Name, m.Address), Symbol: m.Symbol, Name: m.Name, Decimals: m.Decimals}
	}
	return nil
}

// held returns, per owner, the indexed tokens it holds: the pools' LP tokens when lp is set, the
// other tokens otherwise.
func (s *Service) held(ctx context.Context, chainName string, owners []string, lp bool) (map[string][]string, error) {
	byOwner, err := s.index.HeldBy(ctx, chainName, owners)
	if err != nil {
		return nil, err
	}
	var candidates []string
	for _, tokens := range byOwner {
		candidates = append(candidates, tokens...)
	}
	slices.Sort(candidates)
	known, err := s.index.Tokens(ctx, chainName, slices.Compact(candidates))
	if err != nil {
		return nil, err
	}
	for o, tokens := range byOwner {
		byOwner[o] = slices.DeleteFunc(tokens, func(t string) bool { return known[t].LP != lp })
	}
	return byOwner, nil
}

// distinct returns the distinct addresses of list, sorted.
func distinct(list []string) []string {
	slices.Sort(list)
	return slices.Compact(list)
}
