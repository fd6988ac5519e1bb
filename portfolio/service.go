// Package portfolio answers the portfolio reads of the EVM chains: an owner's holdings (native coin
// and indexed ERC-20 tokens, with USD values) and LP positions (LP tokens held, and staked in
// farms: positions.go), for one owner or many at once. It also reads holdings on Solana
// (solana.go): SOL and every SPL Token and Token-2022 account.
//
// Discovery is limited to the tokens and pools the index follows, so every result says so in its
// sources: the chain source is complete for the native coin, the index source is never complete.
// Farm stakes are found in every farm of the chain's staking rewards factories (the farms source).
//
// An owner's result depends on the owner alone, never on who else is in a batch: each owner's
// balances are read for the tokens the index says that owner holds, plus the chain's configured
// wrapped native token and USD stablecoins, which are read for every owner.
package portfolio

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
)

// Chain is an EVM chain the service reads.
type Chain struct {
	Name         string
	Source       chain.Source
	NativeSymbol string
	// Pricing is the chain's configured wrapped native token (its USD price prices the native coin)
	// and USD stablecoins: holdings read them for every owner.
	Pricing index.Pricing
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
	solana map[string]*SolanaChain // holdings only (solana.go)
}

// New returns the service over the EVM chains, plus what opts add (WithSolana).
func New(ix *index.Store, m *market.Service, chains []*Chain, opts ...Option) *Service {
	s := &Service{index: ix, market: m, chains: map[string]*Chain{}, solana: map[string]*SolanaChain{}}
	for _, c := range chains {
		s.chains[c.Name] = c
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Serves reports whether the service answers every portfolio read (holdings and positions) on the
// named chain: the EVM chains. ServesHoldings also counts the Solana chains.
func (s *Service) Serves(chainName string) bool { return s.chains[chainName] != nil }

// Source is one source's health in a result: OK that it answered, Complete that its discovery was
// complete. The index only knows the tokens and pools it follows, so it is never complete.
type Source struct {
	Name     string
	OK       bool
	Complete bool
}

func sources(chainName string) []Source {
	return []Source{{Name: chainName + ":rpc", OK: true, Complete: true}, {Name: chainName + ":index", OK: true, Complete: false}}
}

// Holding is one balance.
type Holding struct {
	Token    market.Token
	Amount   string // token units
	PriceUSD string // empty when unpriced
	ValueUSD string
	Native   bool
}

// Holdings is one owner's holdings on one chain.
type Holdings struct {
	Owner    string
	Chain    string
	Holdings []Holding
	ValueUSD string
	Sources  []Source
	// Err is this owner's own failure; the other fields but Owner and Chain are then zero, and the
	// other owners of the call are unaffected. Only Solana reads and HoldingsBatch set it: an EVM
	// read fails as a whole, with Holdings' error.
	Err error
}

func (s *Service) chain(name string) (*Chain, error) {
	c := s.chains[name]
	if c == nil {
		return nil, fmt.Errorf("portfolio: chain %s: %w", name, market.ErrNotFound)
	}
	return c, nil
}

func canonical(owners []string) []string {
	out := make([]string, len(owners))
	for i, o := range owners {
		out[i] = strings.ToLower(o)
	}
	return out
}

// Holdings reads the holdings of owners on one chain with one live read for all of them: each
// owner's native balance and its balances of the indexed tokens (not LP tokens) the index says it
// holds, of the wrapped native token and of the stablecoins. An owner's result is the same alone
// as in any batch.
//
// On a Solana chain it reads SOL and every token account instead (solanaHoldings), and an owner
// that cannot be read (a malformed address, or the RPC answering the batch but not that owner's
// reads) has its Err set.
func (s *Service) Holdings(ctx context.Context, chainName string, owners []string) ([]Holdings, error) {
	if sc := s.solana[chainName]; sc != nil {
		return s.solanaHoldings(ctx, sc, owners)
	}
	c, err := s.chain(chainName)
	if err != nil {
		return nil, err
	}
	owners = canonical(owners)
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
	prices, err := s.market.PricesUSD(ctx, chainName, append(slices.Clone(all), c.Pricing.WrappedNative))
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
		h := Holdings{Owner: chain.EVMChecksum(o), Chain: chainName, Holdings: []Holding{}, Sources: sources(chainName)}
		var total float64
		add := func(t market.Token, amount *big.Int, price float64, priced, isNative bool) {
			row := Holding{Token: t, Amount: market.Units(amount, t.Decimals), Native: isNative}
			if priced {
				v := market.UnitsFloat(amount, t.Decimals) * price
				row.PriceUSD, row.ValueUSD = market.Decimal(price), market.Decimal(v)
				total += v
			}
			h.Holdings = append(h.Holdings, row)
		}
		if native[i] != nil && native[i].Sign() > 0 {
			p, ok := prices[c.Pricing.WrappedNative]
			add(market.Token{Chain: chainName, Address: "native", Symbol: c.NativeSymbol, Name: c.NativeSymbol, Decimals: 18}, native[i], p, ok, true)
		}
		for j, t := range tokens[i] {
			if b := balances[i][j]; b != nil && b.Sign() > 0 {
				p, ok := prices[t]
				add(info[t], b, p, ok, false)
			}
		}
		h.ValueUSD = market.Decimal(total)
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
		info[m.Address] = market.Token{Chain: c.Name, Address: chain.EVMChecksum(m.Address), Symbol: m.Symbol, Name: m.Name, Decimals: m.Decimals}
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
