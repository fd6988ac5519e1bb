package trade

import (
	"context"
	"fmt"
	"math/big"
)

// Chain is a chain the service trades on, of either family: NewEVMChain (its EVM swap venues:
// routes.go; liquidity: lp.go, v3lp.go) or NewSolanaChain (its Solana venues: solana.go). The
// service resolves a request's chain to its Chain once (chainOf) and calls it; nothing else in the
// service knows the family.
type Chain interface {
	operations
}

// operations are a chain's trade operations, one implementation per family. Each takes the
// service for what every chain shares: confirmation tokens, the quote seal, the clock, the log.
type operations interface {
	// name is the chain's name in the API.
	name() string
	// servesSwaps reports whether the chain quotes and builds swaps and liquidity (transfers,
	// statuses and confirms are served on every chain).
	servesSwaps() bool
	quoteSwap(ctx context.Context, s *Service, consumerID int, inputMint, outputMint string, amount *big.Int, slippageBps int) (Quote, error)
	buildSwap(ctx context.Context, s *Service, consumerID int, r SwapRequest) (Build, error)
	lpCreate(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error)
	lpAdd(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error)
	lpRemove(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error)
	lpFarm(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error)
	lpHarvest(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error)
	lpCompound(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error)
	buildTransfer(ctx context.Context, s *Service, consumerID int, r TransferRequest) (Build, error)
	status(ctx context.Context, hash string) (TxStatus, error)
	confirm(ctx context.Context, s *Service, tok issued, hashes []*string) (ConfirmResult, error)
}

// ServesSwaps reports whether the service quotes and builds swaps (and liquidity, where a venue of
// the chain serves it) on the named chain.
func (s *Service) ServesSwaps(chainName string) bool {
	c := s.chains[chainName]
	return c != nil && c.servesSwaps()
}

// ServesTransfers reports whether the service builds transfers, reads transaction statuses and
// confirms builds on the named chain: every chain it has.
func (s *Service) ServesTransfers(chainName string) bool { return s.chains[chainName] != nil }

// chainOf returns the named chain; the API checks ServesTransfers or ServesSwaps first.
func (s *Service) chainOf(name string) (Chain, error) {
	c := s.chains[name]
	if c == nil {
		return nil, fmt.Errorf("%w: trading is not served on %s", ErrNotSupported, name)
	}
	return c, nil
}

// swapChainOf returns the named chain when it serves swaps and liquidity.
func (s *Service) swapChainOf(name string) (Chain, error) {
	c, err := s.chainOf(name)
	if err == nil && !c.servesSwaps() {
		err = fmt.Errorf("%w: swaps and liquidity are not served on %s", ErrNotSupported, name)
	}
	return c, err
}
