package api

import (
	"context"
	"net/http"

	"github.com/partner-platform/partnerd/chain"
)

// Portfolio reads (scope portfolio:read).

// Holding is one token balance of an owner.
type Holding struct {
	Token    TokenRef `json:"token"`
	Amount   string   `json:"amount" doc:"Balance in token units."`
	PriceUsd string   `json:"priceUsd,omitempty"`
	ValueUsd string   `json:"valueUsd,omitempty"`
	Native   bool     `json:"native,omitempty" doc:"The chain's gas token."`
}

// HoldingsResult is one owner's holdings on one chain.
type HoldingsResult struct {
	OK       bool           `json:"ok"`
	Owner    string         `json:"owner"`
	Chain    string         `json:"chain"`
	Holdings []Holding      `json:"holdings"`
	ValueUsd string         `json:"valueUsd"`
	Sources  []SourceHealth `json:"sources"`
}

// Position is one liquidity position of an owner.
type Position struct {
	Pool       PoolRef  `json:"pool"`
	Liquidity  string   `json:"liquidity" doc:"LP tokens held."`
	Amounts    []string `json:"amounts" doc:"Underlying base and quote amounts, in token units."`
	ValueUsd   string   `json:"valueUsd,omitempty"`
	SharePct   string   `json:"sharePct"`
	PositionID string   `json:"positionId,omitempty" doc:"NFT-style positions only."`
}

// PositionsResult is one owner's LP positions on one chain.
type PositionsResult struct {
	OK        bool           `json:"ok"`
	Owner     string         `json:"owner"`
	Chain     string         `json:"chain"`
	Positions []Position     `json:"positions"`
	ValueUsd  string         `json:"valueUsd"`
	Sources   []SourceHealth `json:"sources"`
}

// OwnerFailure is set on a batch entry whose owner could not be read; the other owners are unaffected.
type OwnerFailure struct {
	Error string `json:"error,omitempty"`
	Code  Code   `json:"code,omitempty"`
}

// HoldingsBatchEntry is one owner's entry of a batch holdings call.
type HoldingsBatchEntry struct {
	Ref string `json:"ref" doc:"The owner ref as given, in canonical form."`
	OwnerFailure
	Result *HoldingsResult `json:"result,omitempty"`
}

// HoldingsBatchResponse has one entry per distinct owner ref, in the order given.
type HoldingsBatchResponse struct {
	OK      bool                 `json:"ok"`
	Results []HoldingsBatchEntry `json:"results"`
}

// PositionsBatchEntry is one owner's entry of a batch positions call.
type PositionsBatchEntry struct {
	Ref string `json:"ref"`
	OwnerFailure
	Result *PositionsResult `json:"result,omitempty"`
}

// PositionsBatchResponse has one entry per distinct owner ref, in the order given.
type PositionsBatchResponse struct {
	OK      bool                  `json:"ok"`
	Results []PositionsBatchEntry `json:"results"`
}

type ownerInput struct {
	Owner string `path:"owner" maxLength:"100" doc:"Wallet address."`
	ChainParam
}

type ownersInput struct {
	Owners string `query:"owners" required:"true" maxLength:"4096" doc:"Comma-separated owner refs, each a Solana base58 address or <chain>:<0x address>; at most 24 distinct. Costs 10 per distinct owner."`
}

func (s *Server) registerPortfolio() {
	get := func(id, path, summary string) opSpec {
		return opSpec{ID: id, Method: http.MethodGet, Path: path, Summary: summary, Tag: "Portfolio", Scope: ScopePortfolioRead, Class: ClassEnriched}
	}
	batch := func(spec opSpec) opSpec { spec.Cost = ownersCost; return spec }
	register(s, get("getHoldings", "/v1/portfolio/{owner}/holdings", "An owner's holdings"), ownerRead[HoldingsResult](s))
	register(s, batch(get("getHoldingsBatch", "/v1/portfolio/holdings", "Holdings of up to 24 owners")), s.holdingsBatch)
	register(s, get("getPositions", "/v1/portfolio/{owner}/positions", "An owner's LP positions"), ownerRead[PositionsResult](s))
	register(s, batch(get("getPositionsBatch", "/v1/portfolio/positions", "LP positions of up to 24 owners")), s.positionsBatch)
}

func ownerRead[T any](s *Server) func(context.Context, *ownerInput) (*output[T], error) {
	return func(ctx context.Context, in *ownerInput) (*output[T], error) {
		c, e := s.resolve(ctx, in.Chain, addr("owner", in.Owner))
		if e != nil {
			return nil, e
		}
		return nil, noSource(c)
	}
}

// ownerFailure reports why one owner of a batch could not be read.
func (s *Server) ownerFailure(ref chain.OwnerRef) OwnerFailure {
	c, e := s.requireChain(ref.Chain)
	if e == nil {
		e = noSource(c)
	}
	return OwnerFailure{Error: e.Message, Code: e.Code}
}

func (s *Server) holdingsBatch(ctx context.Context, in *ownersInput) (*output[HoldingsBatchResponse], error) {
	entries, e := batch(s, in.Owners, func(ref string, f OwnerFailure) HoldingsBatchEntry {
		return HoldingsBatchEntry{Ref: ref, OwnerFailure: f}
	})
	if e != nil {
		return nil, e
	}
	return &output[HoldingsBatchResponse]{Body: HoldingsBatchResponse{OK: true, Results: entries}}, nil
}

func (s *Server) positionsBatch(ctx context.Context, in *ownersInput) (*output[PositionsBatchResponse], error) {
	entries, e := batch(s, in.Owners, func(ref string, f OwnerFailure) PositionsBatchEntry {
		return PositionsBatchEntry{Ref: ref, OwnerFailure: f}
	})
	if e != nil {
		return nil, e
	}
	return &output[PositionsBatchResponse]{Body: PositionsBatchResponse{OK: true, Results: entries}}, nil
}

// batch makes one entry per distinct owner ref, in the order given; an owner that cannot be read
// fails in its own entry only.
func batch[E any](s *Server, owners string, entry func(ref string, f OwnerFailure) E) ([]E, *Error) {
	refs, e := parseOwners(owners)
	if e != nil {
		return nil, e
	}
	out := make([]E, len(refs))
	for i, ref := range refs {
		out[i] = entry(ref.String(), s.ownerFailure(ref))
	}
	return out, nil
}
