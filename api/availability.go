package api

import (
	"context"

	"github.com/partner-platform/partnerd/chain"
)

// Availability: which operations this deployment serves on which enabled chain. An operation's
// opSpec.Serves is the one answer, used both to refuse a call and to list each chain's operations in
// GET /v1/chains. An operation that is not served on a chain yet is a 400 operation_not_supported,
// never a 503 that would tell a partner to retry.

// servedOn reports whether the operation is served on c: its service serves the chain (Serves; nil
// means nowhere) and, when it needs a capability (Needs), one of the chain's venues serves it.
func (s *Server) servedOn(o *opSpec, c chain.Info) bool {
	if o.Serves == nil || !o.Serves(c) {
		return false
	}
	if o.Needs == "" {
		return true
	}
	ok, _ := s.deps.Chains.Capable(c.Name, o.Needs)
	return ok
}

// serving checks that the call's operation is served on c: 400 operation_not_supported otherwise.
func (s *Server) serving(ctx context.Context, c chain.Info) *Error {
	if call := callOf(ctx); call != nil && !s.servedOn(call.spec, c) {
		return s.notAvailable(ctx, c)
	}
	return nil
}

// notAvailable is the answer of an operation that is not available on an enabled chain, saying why
// when a venue's configuration lacks a setting it needs.
func (s *Server) notAvailable(ctx context.Context, c chain.Info) *Error {
	call := callOf(ctx)
	if call == nil {
		return Errorf(CodeOperationNotSupported, "this operation is not available on %s yet; GET /v1/chains lists the operations each chain serves", c.Name)
	}
	if call.spec.Needs != "" {
		if _, why := s.deps.Chains.Capable(c.Name, call.spec.Needs); why != "" && call.spec.Serves != nil && call.spec.Serves(c) {
			return Errorf(CodeOperationNotSupported, "%s is not available on %s: %s; GET /v1/chains lists the operations each chain serves",
				call.spec.ID, c.Name, why)
		}
	}
	return Errorf(CodeOperationNotSupported, "%s is not available on %s yet; GET /v1/chains lists the operations each chain serves", call.spec.ID, c.Name)
}

// operationsOn lists the operations served on the chain, in registration order.
func (s *Server) operationsOn(c chain.Info) []string {
	ops := []string{}
	for _, spec := range s.specs {
		if s.servedOn(spec, c) {
			ops = append(ops, spec.ID)
		}
	}
	return ops
}

func (s *Server) marketServes(c chain.Info) bool {
	return s.deps.Market != nil && s.deps.Market.Serves(c.Name)
}

// marketServesBins: pool bins, on every chain where a venue with bins is configured to be read.
func (s *Server) marketServesBins(c chain.Info) bool {
	return s.deps.Market != nil && len(s.deps.Market.BinsVenues(c.Name)) > 0
}

// portfolioServes: holdings and positions, on every chain the portfolio service reads (positions
// also need a venue with pools: opSpec.Needs).
func (s *Server) portfolioServes(c chain.Info) bool {
	return s.deps.Portfolio != nil && s.deps.Portfolio.Serves(c.Name)
}

// tradeServesSwaps: swap quotes and builds, and liquidity where a venue of the chain serves it: the
// EVM chains the trade service trades on and the Solana chains with a pool reader.
func (s *Server) tradeServesSwaps(c chain.Info) bool {
	return s.deps.Trade != nil && s.deps.Trade.ServesSwaps(c.Name)
}

// tradeServesTransfers: transfers, their status and confirm are served on more chains than swaps,
// quotes and liquidity (Solana: no venue yet).
func (s *Server) tradeServesTransfers(c chain.Info) bool {
	return s.deps.Trade != nil && s.deps.Trade.ServesTransfers(c.Name)
}
