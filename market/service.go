// Package market answers the market reads (tokens, prices, trades, holders, pools, charts, audits)
// of the EVM chains from the index, joined with live reads through the chain adapter, and the
// token reads that need no pool on Solana chains, live from the Solana adapter (solana.go).
//
// Prices, trending, hot and new pools (the `cached` operations) come from a per-chain snapshot of
// the index that Run rebuilds in the background every second or so; a token the snapshot does not
// know yet is read through.
package market

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/index"
)

// Errors of the market service besides the chain source's (matching chain.ErrUpstreamUnavailable
// and its siblings: 503, 504, 502) and the index's (the store: 503).
var (
	// ErrNotFound: the token or pool is not known on the chain (404).
	ErrNotFound = errors.New("not found")
	// ErrInvalid wraps a request the chain's data shows is wrong, such as a base token that is not
	// one of the pool's (400 invalid_request).
	ErrInvalid = errors.New("invalid request")
)

// Chain is a chain the service reads: its pools, prices and trades from the index, its tokens and
// pools live through Source. A Source that is also a chain.Auditor (EVM) audits pool tokens;
// otherwise a pool's audit is its token's mint and the pool's LP mint, read through Live.
type Chain struct {
	Name    string
	Source  chain.Source
	Pricing index.Pricing
	// Live reads tokens' mints and largest holders live, for a chain whose holder balances are not
	// indexed (Solana: holders are counted from a scan of the mint's token accounts); nil: holders
	// come from the index.
	Live LiveTokens
	// Tokens are tokens Search matches by name and symbol besides the index's, such as a local
	// validator's seeded mints or an operator's list of well-known ones (chains with Live only).
	Tokens []string
	// BinVenues are the chain's venues whose pools' liquidity bins are read (bins.go).
	BinVenues []BinsVenue

	known knownTokens
}

// Service answers market reads. It is safe for concurrent use.
type Service struct {
	index  *index.Store
	chains map[string]*Chain
	now    func() time.Time
	log    *slog.Logger

	refreshing sync.Mutex // one refresh at a time: it owns the day windows
	mu         sync.RWMutex
	snapshots  map[string]*snapshot
	windows    map[string]*dayWindow // nil until loaded, and after a refresh that failed
}

// New returns the service over the index for the given chains.
func New(ix *index.Store, chains []*Chain, log *slog.Logger) *Service {
	s := &Service{index: ix, chains: map[string]*Chain{}, now: time.Now, log: log,
		snapshots: map[string]*snapshot{}, windows: map[string]*dayWindow{}}
	for _, c := range chains {
		s.chains[c.Name] = c
	}
	return s
}

// Serves reports whether the service reads the named chain.
func (s *Service) Serves(chainName string) bool { return s.chains[chainName] != nil }

// RefreshInterval is how often Run rebuilds the snapshots.
const RefreshInterval = time.Second

// Run keeps every chain's snapshot warm until ctx ends.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(RefreshInterval)
	defer t.Stop()
	for {
		for name := range s.chains {
			if _, err := s.refresh(ctx, name); err != nil && ctx.Err() == nil {
				s.log.Warn("market snapshot refresh failed", "chain", name, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *Service) chain(name string) (*Chain, error) {
	c := s.chains[name]
	if c == nil {
		return nil, fmt.Errorf("market: chain %s: %w", name, ErrNotFound)
	}
	return c, nil
}

// canonical is the index's form of an address of the chain: lower-case on EVM chains, as given on
// Solana (base58 is case-sensitive).
func canonical(chainName, addr string) string { return chain.CanonicalAddress(chainName, addr) }

// display is the form of an address of the chain in responses: EIP-55 on EVM chains, as the chain
// spells it on Solana.
func display(chainName, addr string) string { return chain.DisplayAddress(chainName, addr) }

// Token describes a token.
type Token struct {
	Chain    string
	Address  string // as display writes it
	Symbol   string
	Name     string
	Decimals int
}

func (s *Service) token(chainName string, t index.Token) Token {
	return Token{Chain: chainName, Address: display(chainName, t.Address), Symbol: t.Symbol, Name: t.Name, Decimals: t.Decimals}
}

// tokens returns the index's tokens by canonical address; unknown addresses get a placeholder.
func (s *Service) tokens(ctx context.Context, chainName string, addrs ...string) (map[string]index.Token, error) {
	found, err := s.index.Tokens(ctx, chainName, addrs)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if _, ok := found[a]; !ok {
			found[a] = index.Token{Address: a, Symbol: "", Name: ""}
		}
	}
	return found, nil
}

// PricesUSD returns the USD price of each token the snapshot prices (tokens is canonical addresses).
func (s *Service) PricesUSD(ctx context.Context, chainName string, tokens []string) (map[string]float64, error) {
	snap, err := s.current(ctx, chainName)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, t := range tokens {
		if usd, _, _, ok := snap.market.PriceUSD(t); ok {
			out[t] = usd
		}
	}
	return out, nil
}

// TokenInfo returns what the index holds of tokens (canonical addresses) as response tokens; tokens
// it does not hold are left out.
func (s *Service) TokenInfo(ctx context.Context, chainName string, tokens []string) (map[string]Token, error) {
	found, err := s.index.Tokens(ctx, chainName, tokens)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Token, len(found))
	for a, t := range found {
		out[a] = s.token(chainName, t)
	}
	return out, nil
}
