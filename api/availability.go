package api

import (
	"context"

	"github.com/partner-platform/partnerd/chain"
)

// Availability: which operations this deployment serves on which enabled chain. An operation's
// opSpec.Serves is the one answer, used both to refuse a call and to list each chain's operations in
// GET /v1/chains. An operation that is not served on a chain yet is a 400 operation_not_supported,
// never a 503 that would tell a partner to retry.

// servedOn reports whether the operation is served on the chain; nil Serves means nowhere.
func (o *opSpec) servedOn(c chain.Info) bool { return o.Serves != nil && o.Serves(c) }

// serving checks that the call's operation is served on c: 400 operation_not_supported otherwise.
func (s *Server) serving(ctx context.Context, c chain.Info) *Error {
	if call := callOf(ctx); call != nil && !call.spec.servedOn(c) {
		return notAvailable(ctx, c)
	}
	return nil
}

// notAvailable is the answer of an operation that is not available on an enabled chain.
func notAvailable(ctx context.Context, c chain.Info) *Error {
	op := "this operation"
	if call := callOf(ctx); call != nil {
		op = call.spec.ID
	}
	return Errorf(CodeOperationNotSupported, "%s is not available on %s yet; GET /v1/chains lists the operations each chain serves", op, c.Name)
}

// operationsOn lists the operations served on the chain, in registration order.
func (s *Server) operationsOn(c chain.Info) []string {
	ops := []string{}
	for _, spec := range s.specs {
		if spec.servedOn(c) {
			ops = append(ops, spec.ID)
		}
	}
	return ops
}

func (s *Server) marketServes(c chain.Info) bool {
	return s.deps.Market != nil && s.deps.Market.Serves(c.Name)
}

func (s *Server) portfolioServes(c chain.Info) bool {
	return s.deps.Portfolio != nil && s.deps.Portfolio.Serves(c.Name)
}

// portfolioServesHoldings: holdings are read on more chains than positions (Solana: no LP yet).
func (s *Server) portfolioServesHoldings(c chain.Info) bool {
	return s.deps.Portfolio != nil && s.deps.Portfolio.ServesHoldings(c.Name)
}

func (s *Server) tradeServes(c chain.Info) bool {
	return s.deps.Trade != nil && s.deps.Trade.Serves(c.Name)
}

// tradeServesTransfers: transfers, their status and confirm are served on more chains than swaps,
// quotes and liquidity (Solana: no venue yet).
func (s *Server) tradeServesTransfers(c chain.Info) bool {
	return s.deps.Trade != nil && s.deps.Trade.ServesTransfers(c.Name)
}
