package trade

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/partner-platform/partnerd/chain"
)

// Fee-on-transfer tokens: a token that keeps part of every transfer (a "tax") delivers less to the
// pool than was sent, and less to the buyer than the pool gave. Quotes find such tokens with the
// pool audit's simulated buy and sell (chain/evm's AuditProbe), apply the measured taxes, and flag
// them; builds then use the router's SupportingFeeOnTransferTokens variants, which check minOut
// against what actually arrives.

// taxTTL is how long a token's measured taxes are reused before the simulation runs again.
const taxTTL = 10 * time.Minute

// Tax is a token's transfer tax as the simulation measured it on its pool, in basis points.
type Tax struct {
	Token      string `json:"token"`
	BuyTaxBps  int    `json:"buyTaxBps"`
	SellTaxBps int    `json:"sellTaxBps"`
}

// taxEntry is a cached measurement.
type taxEntry struct {
	tax Tax
	at  time.Time
}

// taxCache keeps measured taxes per chain and token.
type taxCache struct {
	mu      sync.Mutex
	entries map[string]taxEntry
}

// cachedTax returns a token's measured taxes while they are fresh. The chain's wrapped native token
// and stablecoins are never taxed.
func (s *Service) cachedTax(c *EVMChain, token string) (Tax, bool) {
	if !c.mayBeTaxed(token) {
		return Tax{Token: token}, true
	}
	s.taxes.mu.Lock()
	defer s.taxes.mu.Unlock()
	e, ok := s.taxes.entries[c.Info.Name+"/"+token]
	return e.tax, ok && s.now().Sub(e.at) < taxTTL
}

// storeTax remembers a measurement.
func (s *Service) storeTax(c *EVMChain, t Tax) {
	s.taxes.mu.Lock()
	defer s.taxes.mu.Unlock()
	if s.taxes.entries == nil {
		s.taxes.entries = map[string]taxEntry{}
	}
	s.taxes.entries[c.Info.Name+"/"+t.Token] = taxEntry{tax: t, at: s.now()}
}

// taxProbes are the simulations a quote adds to its read for the tokens whose taxes are not known:
// one on each of the token's possible pools with the wrapped native token and the stablecoins on
// the first venue of pairs (probed[i] is the token of probes[i]); the first that trades measures the taxes.
func (s *Service) taxProbes(c *EVMChain, tokens ...string) (probes []chain.EVMTaxProbe, probed []string) {
	if len(c.Pairs) == 0 {
		return nil, nil
	}
	v := c.Pairs[0]
	for _, t := range tokens {
		if _, ok := s.cachedTax(c, t); ok {
			continue
		}
		for _, mid := range c.mids() {
			if pair, err := v.PairAddress(v.cfg, t, mid); err == nil {
				probes = append(probes, chain.EVMTaxProbe{Pair: pair, Token: t, WrappedNative: c.WrappedNative, Factory: v.cfg.Factory})
				probed = append(probed, t)
			}
		}
	}
	return probes, probed
}

// taxOf returns token's taxes: cached (or measured by the quote's own read), else measured now by
// the audit simulation on pair, a pair holding it (one more round trip; it happens when the token
// has no pair with the wrapped native token). A pair the simulation cannot trade counts as
// untaxed, and so does a token without a pair ("": it trades on concentrated pools only, which
// revert on a token that keeps part of a transfer): the build's own simulation still catches a
// token that cannot be sold.
func (s *Service) taxOf(ctx context.Context, c *EVMChain, token, pair string) (Tax, error) {
	if t, ok := s.cachedTax(c, token); ok {
		return t, nil
	}
	if pair == "" {
		return Tax{Token: token}, nil
	}
	facts, err := c.Source.Audit(ctx, pair, token)
	if err != nil {
		return Tax{}, fmt.Errorf("transfer tax of %s: %w", token, err)
	}
	t := Tax{Token: token}
	if facts.Sim.Ran {
		t.BuyTaxBps, t.SellTaxBps = facts.Sim.BuyTaxBps, facts.Sim.SellTaxBps
	}
	s.storeTax(c, t)
	return t, nil
}

// mayBeTaxed reports whether a token may take a transfer tax: anything but the chain's wrapped
// native token and USD stablecoins.
func (c *EVMChain) mayBeTaxed(token string) bool {
	if token == c.WrappedNative {
		return false
	}
	for _, s := range c.Stablecoins {
		if s.Address == token {
			return false
		}
	}
	return true
}

// afterTax is what arrives of amount sent with a tax of bps: amount - floor(amount*bps/10000).
func afterTax(amount *big.Int, bps int) *big.Int {
	if bps <= 0 {
		return new(big.Int).Set(amount)
	}
	tax := new(big.Int).Div(new(big.Int).Mul(amount, big.NewInt(int64(bps))), bigBps)
	return tax.Sub(amount, tax)
}

// pairWith is the first pair of the routes that holds token, "" when none does.
func pairWith(routes [][]leg, token string) string {
	for _, r := range routes {
		for _, l := range r {
			if l.pool.Model == chain.EVMPair && (l.tokenIn == token || l.tokenOut == token) {
				return l.pool.Address
			}
		}
	}
	return ""
}
