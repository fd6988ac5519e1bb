package evm

import (
	"context"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// Source is the Reader behind chain.Source: string addresses in and out, for services that
// must not import go-ethereum.
type Source struct {
	reader        *Reader
	wrappedNative common.Address
	factory       common.Address
	farms         []*farmList // the StakingRewardsFactories LPPositions reads (positions.go)
}

// NewSource returns the chain.Source of a Reader; audits buy through wrappedNative on factory's pairs.
func NewSource(r *Reader, wrappedNative, factory string) *Source {
	return &Source{reader: r, wrappedNative: common.HexToAddress(wrappedNative), factory: common.HexToAddress(factory)}
}

var (
	_ chain.Source  = (*Source)(nil)
	_ chain.Auditor = (*Source)(nil)
)

func addresses(in []string) []common.Address {
	out := make([]common.Address, len(in))
	for i, a := range in {
		out[i] = common.HexToAddress(a)
	}
	return out
}

func canonical(a common.Address) string { return strings.ToLower(a.Hex()) }

// TokenMetadata implements chain.Source.
func (s *Source) TokenMetadata(ctx context.Context, tokens []string) ([]chain.TokenMeta, error) {
	metas, err := s.reader.TokenMetadata(ctx, addresses(tokens))
	if err != nil {
		return nil, err
	}
	out := make([]chain.TokenMeta, len(metas))
	for i, m := range metas {
		out[i] = chain.TokenMeta{Address: canonical(m.Address), Name: m.Name, Symbol: m.Symbol, Decimals: int(m.Decimals),
			TotalSupply: m.TotalSupply, OK: m.OK()}
	}
	return out, nil
}

// Balances implements chain.Source.
func (s *Source) Balances(ctx context.Context, owners []string, tokens [][]string) ([]*big.Int, [][]*big.Int, uint64, error) {
	each := make([][]common.Address, len(tokens))
	for i, t := range tokens {
		each[i] = addresses(t)
	}
	return s.reader.Balances(ctx, addresses(owners), each)
}

// PairStates implements chain.Source.
func (s *Source) PairStates(ctx context.Context, pairs []string) ([]chain.PairState, error) {
	states, err := s.reader.PairStates(ctx, addresses(pairs))
	if err != nil {
		return nil, err
	}
	out := make([]chain.PairState, len(states))
	for i, p := range states {
		out[i] = chainPair(p)
	}
	return out, nil
}

// Audit implements chain.Auditor.
func (s *Source) Audit(ctx context.Context, pair, token string) (chain.AuditFacts, error) {
	f, err := s.reader.Audit(ctx, common.HexToAddress(pair), common.HexToAddress(token), s.wrappedNative, s.factory)
	if err != nil {
		return chain.AuditFacts{}, err
	}
	out := chain.AuditFacts{HasCode: f.HasCode, OwnerRenounced: f.OwnerRenounced, MintSelector: f.MintSelector,
		LPTotalSupply: f.LPTotalSupply, LPBurned: f.LPBurned, Block: f.Block,
		Sim: f.Sim}
	if f.Owner != nil {
		out.HasOwner, out.Owner = true, canonical(*f.Owner)
	}
	return out, nil
}
