package api

import (
	"github.com/danielgtaylor/huma/v2"

	"context"
	"net/http"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/portfolio"
)

// Portfolio reads (scope portfolio:read).

// Holding is one token balance of an owner.
type Holding struct {
	Token    TokenRef `json:"token" doc:"The token held (for the native coin: address native, with the coin's symbol and decimals)."`
	Amount   string   `json:"amount" doc:"Balance in token units." example:"1520.25"`
	PriceUsd string   `json:"priceUsd,omitempty" doc:"The token's USD price, as GET /v1/tokens/{mint}/price gives it; absent when it has none." example:"0.9998"`
	ValueUsd string   `json:"valueUsd,omitempty" doc:"amount times priceUsd; absent when the token has no USD price." example:"1519.95"`
	Native   bool     `json:"native,omitempty" doc:"The chain's gas token." example:"false"`
}

// TransformSchema describes Holding in the OpenAPI document.
func (Holding) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One token balance of an owner: the native coin, or a token account (Solana) or ERC-20 balance (EVM) the owner holds.")
}

// HoldingsResult is one owner's holdings on one chain.
type HoldingsResult struct {
	OK       bool           `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Owner    string         `json:"owner" doc:"The owner read, EIP-55 checksummed on EVM chains." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	Chain    string         `json:"chain" doc:"The chain read." example:"base"`
	Holdings []Holding      `json:"holdings" doc:"The owner's non-zero balances: the native coin first, then its tokens."`
	ValueUsd string         `json:"valueUsd" doc:"The sum of the holdings' valueUsd (the unpriced ones left out)." example:"4368.72"`
	Sources  []SourceHealth `json:"sources" doc:"Discovery per source: <chain>:rpc (balances read from the chain; on Solana every token account of the owner, complete unless part of the scan failed) and, on EVM chains, <chain>:index (the tokens the service follows: never complete, as a wallet may hold tokens it does not follow)."`
}

// TransformSchema describes HoldingsResult in the OpenAPI document.
func (HoldingsResult) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One owner's holdings on one chain (GET /v1/portfolio/{owner}/holdings, or one entry of a batch), with USD values where a price exists and the health of each source. HTTP 200 alone does not prove a zero balance: see sources.")
}

// Position is one entry of an owner's liquidity positions: the LP tokens it holds in its wallet
// (kind wallet), or those it has staked in a farm (kind staked, with farm), which are still its
// own; or one position NFT of a concentrated-liquidity pool (uniswap-v3, with positionId), in its
// wallet or deposited in the venue's staker. A pool has at most one wallet entry and one staked
// entry per farm, plus one entry per NFT; every figure of an entry describes that entry only, so
// summing the entries sums the whole position.
type Position struct {
	Pool PoolRef `json:"pool" doc:"The pool, with its reserves read live at block (for an NFT position: the tokens the pool holds)."`
	Kind string  `json:"kind" enum:"wallet,staked" doc:"Where this entry's LP tokens or position NFT are: wallet, held by the owner; staked, staked by the owner in farm (still the owner's: lp/farm with action unstake withdraws them, lp/harvest claims the rewards). Always wallet on Solana, where no venue served has farms." example:"staked"`
	// Liquidity is in token units of the LP token: 18 decimals on EVM chains, the LP mint's on
	// Solana; for an NFT position, its liquidity L.
	Liquidity string   `json:"liquidity" doc:"This entry's LP tokens, in token units of the LP token (18 decimals on EVM chains; on Solana the LP mint's decimals): held in the wallet, or staked in the farm (the farm's balanceOf the owner). For an NFT position, its liquidity L as the position manager's positions() reports it (an integer)." example:"0.00001873"`
	Amounts   []string `json:"amounts" doc:"This entry's pro-rata share of the base then quote reserve, in token units, rounded down as removing the liquidity pays it. For an NFT position, what removing all its liquidity would pay now (decreaseLiquidity), base then quote, rounded down as the pool pays it; fees are apart, in uncollectedFees." example:"1520.25,0.49866"`
	ValueUsd  string   `json:"valueUsd,omitempty" doc:"USD value of amounts plus, on a staked entry, of the rewards whose token is priced, and on an NFT position of its uncollectedFees; absent when the pool's two tokens are not both priced." example:"3040.12"`
	SharePct  string   `json:"sharePct" doc:"This entry's share of the pool's LP supply, in percent. For an NFT position, its share of the pool's in-range liquidity (0 when out of range)." example:"0.04"`
	// PositionID is set for NFT positions (uniswap-v3) only.
	PositionID      string         `json:"positionId,omitempty" doc:"NFT positions only (uniswap-v3): the position NFT's token id on the chain's NonfungiblePositionManager, as lp builds take it in positionIds." example:"1184502"`
	Range           *PositionRange `json:"range,omitempty" doc:"NFT positions only: the position's price range and whether the pool's price is in it."`
	UncollectedFees []string       `json:"uncollectedFees,omitempty" doc:"NFT positions only: the fees (and liquidity removed but not collected) that collecting would pay now, base then quote, in token units: exactly what the position manager's collect pays, computed from the fee growth inside the range." example:"12.5,0.0041"`
	Farm            *PositionFarm  `json:"farm,omitempty" doc:"Staked entries only: the farm the LP tokens are staked in (for an NFT position, the UniswapV3Staker it is deposited in), and the rewards earned there."`
}

// TransformSchema describes Position in the OpenAPI document.
func (Position) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One entry of an owner's liquidity positions: the LP tokens it holds in its wallet (kind wallet), or those it has staked in a farm (kind staked, with farm), still its own; "+
		"or one position NFT of a concentrated-liquidity pool (uniswap-v3: positionId, range, uncollectedFees), in its wallet or deposited in the venue's staker (kind staked). "+
		"A pool has at most one wallet entry and one staked entry per farm, plus one entry per NFT; each figure describes that entry only, so summing the entries sums the whole position.")
}

// PositionRange is an NFT position's price range.
type PositionRange struct {
	TickLower         int64  `json:"tickLower" doc:"The range's lower tick (the pool's own orientation: token1 per token0)." example:"-197400"`
	TickUpper         int64  `json:"tickUpper" doc:"The range's upper tick (exclusive)." example:"-196800"`
	PriceLower        string `json:"priceLower" doc:"The range's lower price bound, quote token per base token." example:"2795.3"`
	PriceUpper        string `json:"priceUpper" doc:"The range's upper price bound, quote token per base token." example:"2966.1"`
	InversePriceLower string `json:"inversePriceLower" doc:"The lower price bound in the other direction: base token per quote token." example:"0.000337143"`
	InversePriceUpper string `json:"inversePriceUpper" doc:"The upper price bound in the other direction: base token per quote token." example:"0.000357743"`
	InRange           bool   `json:"inRange" doc:"The pool's current tick is in [tickLower, tickUpper): the position's liquidity is active and earns fees. Out of range it holds one token only." example:"true"`
}

// TransformSchema describes PositionRange in the OpenAPI document.
func (PositionRange) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "An NFT position's price range: its ticks, its bounds in both price directions, and whether the pool's price is in it, at block.")
}

// PositionFarm is the farm a staked position entry is staked in, with what it earned there.
type PositionFarm struct {
	Address string         `json:"address" doc:"The farm contract (a Uniswap liquidity-staker StakingRewards; for an NFT position, the UniswapV3Staker)." example:"0x5Ce7a3D9B2f8E41c06A9d7E3b15C4F82a6D09e17"`
	Rewards []RewardAmount `json:"rewards" doc:"Rewards earned in the farm and not claimed yet (the farm's earned), at block; empty when nothing is earned. Always empty for an NFT position in the UniswapV3Staker: its rewards are per incentive, which the staker does not list, and are not read."`
}

// TransformSchema describes PositionFarm in the OpenAPI document.
func (PositionFarm) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "The farm a staked entry's LP tokens are staked in, with the rewards they earned there.")
}

// RewardAmount is an amount of a reward token earned.
type RewardAmount struct {
	Token    TokenRef `json:"token" doc:"The reward token."`
	Amount   string   `json:"amount" doc:"Earned, in token units." example:"412.75"`
	ValueUsd string   `json:"valueUsd,omitempty" doc:"USD value of amount; absent when the token is not priced." example:"206.37"`
}

// TransformSchema describes RewardAmount in the OpenAPI document.
func (RewardAmount) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "An amount of a reward token earned in a farm and not claimed yet.")
}

// PositionsResult is one owner's LP positions on one chain.
type PositionsResult struct {
	OK        bool           `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Owner     string         `json:"owner" doc:"The owner read, EIP-55 checksummed on EVM chains." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	Chain     string         `json:"chain" doc:"The chain read." example:"base"`
	Positions []Position     `json:"positions" doc:"By pool address; a pool's wallet entry first, then its staked entries by farm address."`
	ValueUsd  string         `json:"valueUsd" doc:"Sum of every priced amount: the entries' underlying amounts where the pool's tokens are priced, and the rewards whose token is priced." example:"3246.49"`
	Block     uint64         `json:"block,omitempty" doc:"The block every amount (balances, stakes, rewards earned, reserves; position NFTs, their pools' state and fees) was read at. On Solana the slot the pools' reserves and LP supply were read at, all at once; the LP balances come from the owner's token accounts read just before, in the same call. Absent when nothing needed reading." example:"24190311"`
	Sources   []SourceHealth `json:"sources" doc:"Discovery per source: <chain>:rpc (the chain; on Solana every token account of the owner, complete unless part of the scan failed), <chain>:index (the pools the service follows: never complete, as an LP token of a pool it does not follow is not recognised), <chain>:farms (EVM: every farm of the chain's staking rewards factory; incomplete when a farm did not answer), <chain>:uniswap-v3 (EVM chains whose uniswap-v3 venue has a position manager: every position NFT of the owner and every one it deposited in the staker, whatever the pool; incomplete when the owner holds more than 1000 NFTs, the staker more than 1000 deposits, or a position or its pool did not answer, which is then left out)."`
}

// TransformSchema describes PositionsResult in the OpenAPI document.
func (PositionsResult) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One owner's LP positions on one chain (GET /v1/portfolio/{owner}/positions, or one entry of a batch): in its wallet and staked in farms, the pools read at one block, with the health of each source.")
}

// OwnerFailure is set on a batch entry whose owner could not be read; the other owners are unaffected.
type OwnerFailure struct {
	Error string `json:"error,omitempty" doc:"Why this owner could not be read, as an error envelope's error would say; absent when it was read (then result is set)." example:"chain bsc is not enabled on this service (see GET /v1/chains)"`
	Code  Code   `json:"code,omitempty" doc:"The error code of this owner's failure, the one it would have answered alone (the error envelope's code lists each code's status and meaning); absent when it was read." example:"chain_not_enabled"`
}

// HoldingsBatchEntry is one owner's entry of a batch holdings call.
type HoldingsBatchEntry struct {
	Ref string `json:"ref" doc:"The owner ref as given, in canonical form: <chain>:<0x address in lower case>, or a bare Solana address." example:"base:0x7c3a91f4e2b85d06a1c9e3f7b2d4058e6a1c9b3d"`
	OwnerFailure
	Result *HoldingsResult `json:"result,omitempty" doc:"The owner's holdings, the same as GET /v1/portfolio/{owner}/holdings answers; absent when the owner failed."`
}

// TransformSchema describes HoldingsBatchEntry in the OpenAPI document.
func (HoldingsBatchEntry) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One owner's entry of a batch holdings call: its holdings in result, or why it could not be read in error and code (the other owners are unaffected).")
}

// HoldingsBatchResponse has one entry per distinct owner ref, in the order given.
type HoldingsBatchResponse struct {
	OK      bool                 `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Results []HoldingsBatchEntry `json:"results" doc:"One entry per distinct owner ref, in the order given; an owner that could not be read fails in its own entry."`
}

// TransformSchema describes HoldingsBatchResponse in the OpenAPI document.
func (HoldingsBatchResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "The holdings of up to 24 owners (GET /v1/portfolio/holdings): one entry per distinct owner ref, in the order given.")
}

// PositionsBatchEntry is one owner's entry of a batch positions call.
type PositionsBatchEntry struct {
	Ref string `json:"ref" doc:"The owner ref as given, in canonical form: <chain>:<0x address in lower case>, or a bare Solana address." example:"base:0x7c3a91f4e2b85d06a1c9e3f7b2d4058e6a1c9b3d"`
	OwnerFailure
	Result *PositionsResult `json:"result,omitempty" doc:"The owner's positions, the same as GET /v1/portfolio/{owner}/positions answers; absent when the owner failed."`
}

// TransformSchema describes PositionsBatchEntry in the OpenAPI document.
func (PositionsBatchEntry) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One owner's entry of a batch positions call: its positions in result, or why it could not be read in error and code (the other owners are unaffected).")
}

// PositionsBatchResponse has one entry per distinct owner ref, in the order given.
type PositionsBatchResponse struct {
	OK      bool                  `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Results []PositionsBatchEntry `json:"results" doc:"One entry per distinct owner ref, in the order given; an owner that could not be read fails in its own entry."`
}

// TransformSchema describes PositionsBatchResponse in the OpenAPI document.
func (PositionsBatchResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "The LP positions of up to 24 owners (GET /v1/portfolio/positions): one entry per distinct owner ref, in the order given.")
}

type ownerInput struct {
	Owner string `path:"owner" maxLength:"100" doc:"Wallet address."`
	ChainParam
}

type ownersInput struct {
	Owners string `query:"owners" required:"true" maxLength:"4096" doc:"Comma-separated owner refs, each a Solana base58 address or <chain>:<0x address>; at most 24 distinct. Costs 10 per distinct owner."`
}

func (s *Server) registerPortfolio() {
	get := func(id, path, summary, description, returns string) opSpec {
		return opSpec{ID: id, Method: http.MethodGet, Path: path, Summary: summary, Description: description, Returns: returns, Tag: "Portfolio",
			Scope: ScopePortfolioRead, Class: ClassEnriched, Serves: s.portfolioServes}
	}
	batch := func(spec opSpec) opSpec { spec.Cost = ownersCost; return spec }
	const holdings = "The native coin, the wrapped native token, the stablecoins and every followed token the owner holds, " +
		"with USD prices and values where a price exists. Discovery covers the tokens the service follows on EVM chains, and " +
		"every SPL Token and Token-2022 account on Solana: sources says which source answered and whether it was complete; " +
		"HTTP 200 alone does not prove a zero balance."
	const positions = "Liquidity positions in the followed pools: LP tokens held in the wallet (kind wallet) and LP tokens staked in " +
		"farms (kind staked: the farm, and the rewards earned there), each with its share of the pool and of each reserve and its USD value, " +
		"the pools read at one block. On EVM chains a stake is found in every farm of the chain's staking rewards factory, also when no LP " +
		"is left in the wallet. Where the uniswap-v3 venue has a position manager, every position NFT the owner holds or has deposited in the UniswapV3Staker " +
		"is an entry (positionId), with its range, its amounts and its uncollected fees as collect would pay them, whether the service follows its pool or not. " +
		"On Solana every token account of the owner is read, and those holding the LP mint of a followed pool " +
		"(raydium) are its positions, with the pool's reserves (its vaults less the fees it owes) and LP supply read at one slot. " +
		"sources says how complete discovery was."
	const batched = " One entry per distinct owner ref, in the order given; an owner that cannot be read fails in its own entry only, " +
		"and each owner's answer is the same as alone."
	positionsOp := func(spec opSpec) opSpec { spec.Needs = chain.CapPools; return spec } // LP positions are in indexed pools
	register(s, get("getHoldings", "/v1/portfolio/{owner}/holdings", "An owner's holdings", holdings,
		"The owner's balances on the chain, their USD values and the health of each source."), s.holdings)
	register(s, batch(get("getHoldingsBatch", "/v1/portfolio/holdings", "Holdings of up to 24 owners", holdings+batched,
		"One entry per distinct owner: its holdings, or why it could not be read.")), s.holdingsBatch)
	register(s, positionsOp(get("getPositions", "/v1/portfolio/{owner}/positions", "An owner's LP positions", positions,
		"The owner's positions on the chain, in its wallet and in farms, read at one block.")), s.positions)
	register(s, positionsOp(batch(get("getPositionsBatch", "/v1/portfolio/positions", "LP positions of up to 24 owners", positions+batched,
		"One entry per distinct owner: its positions, or why it could not be read."))), s.positionsBatch)
}

func sourceHealth(in []portfolio.Source) []SourceHealth {
	out := make([]SourceHealth, len(in))
	for i, h := range in {
		out[i] = SourceHealth{Source: h.Name, OK: h.OK, Complete: h.Complete}
	}
	return out
}

func holdingsResult(h portfolio.Holdings) *HoldingsResult {
	out := &HoldingsResult{OK: true, Owner: h.Owner, Chain: h.Chain, ValueUsd: h.ValueUSD, Sources: sourceHealth(h.Sources), Holdings: make([]Holding, len(h.Holdings))}
	for i, x := range h.Holdings {
		out.Holdings[i] = Holding{Token: tokenRef(x.Token), Amount: x.Amount, PriceUsd: x.PriceUSD, ValueUsd: x.ValueUSD, Native: x.Native}
	}
	return out
}

func positionsResult(p portfolio.Positions) *PositionsResult {
	out := &PositionsResult{OK: true, Owner: p.Owner, Chain: p.Chain, ValueUsd: p.ValueUSD, Block: p.Block, Sources: sourceHealth(p.Sources),
		Positions: make([]Position, len(p.Positions))}
	for i, x := range p.Positions {
		pos := Position{Pool: poolSummary(x.Pool).PoolRef, Kind: "wallet", Liquidity: x.Liquidity, Amounts: []string{x.BaseAmount, x.QuoteAmount},
			ValueUsd: x.ValueUSD, SharePct: x.SharePct}
		if n := x.NFT; n != nil {
			pos.PositionID, pos.UncollectedFees = n.ID, []string{n.BaseFees, n.QuoteFees}
			pos.Range = &PositionRange{TickLower: int64(n.TickLower), TickUpper: int64(n.TickUpper), PriceLower: market.Decimal(n.PriceLower),
				PriceUpper: market.Decimal(n.PriceUpper), InversePriceLower: market.Decimal(n.InversePriceLower),
				InversePriceUpper: market.Decimal(n.InversePriceUpper), InRange: n.InRange}
		}
		if f := x.Farm; f != nil {
			pos.Kind, pos.Farm = "staked", &PositionFarm{Address: f.Address, Rewards: make([]RewardAmount, len(f.Rewards))}
			for j, r := range f.Rewards {
				pos.Farm.Rewards[j] = RewardAmount{Token: tokenRef(r.Token), Amount: r.Amount, ValueUsd: r.ValueUSD}
			}
		}
		out.Positions[i] = pos
	}
	return out
}

// onPortfolio resolves a single-owner read's chain and owner and returns the service serving it.
func (s *Server) onPortfolio(ctx context.Context, in *ownerInput) (chain.Info, *portfolio.Service, *Error) {
	c, e := s.resolve(ctx, string(in.Chain), addr("owner", in.Owner))
	if e == nil {
		e = s.serving(ctx, c)
	}
	return c, s.deps.Portfolio, e
}

func (s *Server) holdings(ctx context.Context, in *ownerInput) (*output[HoldingsResult], error) {
	c, p, e := s.onPortfolio(ctx, in)
	if e != nil {
		return nil, e
	}
	res, err := p.Holdings(ctx, c.Name, []string{in.Owner})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		return nil, readError(err)
	}
	return &output[HoldingsResult]{Body: *holdingsResult(res[0])}, nil
}

func (s *Server) positions(ctx context.Context, in *ownerInput) (*output[PositionsResult], error) {
	c, p, e := s.onPortfolio(ctx, in)
	if e != nil {
		return nil, e
	}
	res, err := p.Positions(ctx, c.Name, []string{in.Owner})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		return nil, readError(err)
	}
	return &output[PositionsResult]{Body: *positionsResult(res[0])}, nil
}

func (s *Server) holdingsBatch(ctx context.Context, in *ownersInput) (*output[HoldingsBatchResponse], error) {
	entries, e := batch(ctx, s, in.Owners, func(ctx context.Context, p *portfolio.Service, chainName string, owners []string) ([]*HoldingsResult, []error, error) {
		res, err := p.Holdings(ctx, chainName, owners)
		out := make([]*HoldingsResult, len(res))
		errs := make([]error, len(res))
		for i, r := range res {
			out[i], errs[i] = holdingsResult(r), r.Err
		}
		return out, errs, err
	}, func(ref string, f OwnerFailure, r *HoldingsResult) HoldingsBatchEntry {
		return HoldingsBatchEntry{Ref: ref, OwnerFailure: f, Result: r}
	})
	if e != nil {
		return nil, e
	}
	return &output[HoldingsBatchResponse]{Body: HoldingsBatchResponse{OK: true, Results: entries}}, nil
}

func (s *Server) positionsBatch(ctx context.Context, in *ownersInput) (*output[PositionsBatchResponse], error) {
	entries, e := batch(ctx, s, in.Owners, func(ctx context.Context, p *portfolio.Service, chainName string, owners []string) ([]*PositionsResult, []error, error) {
		res, err := p.Positions(ctx, chainName, owners)
		out := make([]*PositionsResult, len(res))
		errs := make([]error, len(res))
		for i, r := range res {
			out[i], errs[i] = positionsResult(r), r.Err
		}
		return out, errs, err
	}, func(ref string, f OwnerFailure, r *PositionsResult) PositionsBatchEntry {
		return PositionsBatchEntry{Ref: ref, OwnerFailure: f, Result: r}
	})
	if e != nil {
		return nil, e
	}
	return &output[PositionsBatchResponse]{Body: PositionsBatchResponse{OK: true, Results: entries}}, nil
}

// batch makes one entry per distinct owner ref, in the order given. Owners are read chain by chain,
// all of a chain's owners at once; an owner that cannot be read (its chain is not enabled or not
// served, its chain's read failed, or read reports an error of its own in errs) fails in its own
// entry only.
func batch[R any, E any](ctx context.Context, s *Server, owners string,
	read func(ctx context.Context, p *portfolio.Service, chainName string, owners []string) (res []R, errs []error, err error),
	entry func(ref string, f OwnerFailure, r R) E) ([]E, *Error) {
	refs, e := parseOwners(owners)
	if e != nil {
		return nil, e
	}
	failures := make([]OwnerFailure, len(refs))
	results := make([]R, len(refs))
	byChain := map[string][]int{}
	for i, ref := range refs {
		c, e := s.requireChain(ref.Chain)
		if e == nil {
			e = s.serving(ctx, c)
		}
		if e != nil {
			failures[i] = OwnerFailure{Error: e.Message, Code: e.Code}
			continue
		}
		byChain[ref.Chain] = append(byChain[ref.Chain], i)
	}
	for chainName, idx := range byChain {
		addrs := make([]string, len(idx))
		for j, i := range idx {
			addrs[j] = refs[i].Address
		}
		res, errs, err := read(ctx, s.deps.Portfolio, chainName, addrs)
		if err != nil {
			s.log.Warn("batch portfolio read failed", "chain", chainName, "err", err)
		}
		for j, i := range idx {
			ownErr := err
			if ownErr == nil && errs != nil {
				ownErr = errs[j]
			}
			if ownErr != nil {
				e := readError(ownErr)
				failures[i] = OwnerFailure{Error: e.Message, Code: e.Code}
				continue
			}
			results[i] = res[j]
		}
	}
	out := make([]E, len(refs))
	for i, ref := range refs {
		out[i] = entry(ref.String(), failures[i], results[i])
	}
	return out, nil
}
