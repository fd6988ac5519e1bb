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
	"strings"
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

// Chain is an EVM chain the service reads.
type Chain struct {
	Name    string
	Source  chain.EVMSource
	Pricing index.Pricing
}

// Service answers market reads. It is safe for concurrent use.
type Service struct {
	index  *index.Store
	chains map[string]*Chain
	solana map[string]*SolanaChain
	now    func() time.Time
	log    *slog.Logger

	refreshing sync.Mutex // one refresh at a time: it owns the day windows
	mu         sync.RWMutex
	snapshots  map[string]*snapshot
	windows    map[string]*dayWindow // nil until loaded, and after a refresh that failed
}

// New returns the service over the index for the given EVM chains and Solana chains.
func New(ix *index.Store, chains []*Chain, log *slog.Logger, solanaChains ...*SolanaChain) *Service {
	s := &Service{index: ix, chains: map[string]*Chain{}, solana: map[string]*SolanaChain{}, now: time.Now, log: log,
		snapshots: map[string]*snapshot{}, windows: map[string]*dayWindow{}}
	for _, c := range chains {
		s.chains[c.Name] = c
	}
	for _, c := range solanaChains {
		s.solana[c.Name] = c
	}
	return s
}

// Serves reports whether the service reads the named chain.
func (s *Service) Serves(chainName string) bool {
	return s.chains[chainName] != nil || s.solana[chainName] != nil
}

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

// canonical is the index's form of an EVM address.
func canonical(addr string) string { return strings.ToLower(addr) }

// checksum is the form of an EVM address in responses (EIP-55).
func checksum(addr string) string { return chain.EVMChecksum(addr) }

// Token describes a token.
type Token struct {
	Chain    string
	Address  string // EIP-55 checksummed
	Symbol   string
	Name     string
	Decimals int
}

func (s *Service) token(chainName string, t index.Token) Token {
	return Token{Chain: chainName, Address: checksum(t.Address), Symbol: t.Symbol, Name: t.Name, Decimals: t.Decimals}
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
	if s.solana[chainName] != nil {
		return map[string]float64{}, nil // no Solana pool is indexed yet: nothing is priced
	}
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
