package api

import (
	"context"
	"net/http"

	"github.com/partner-platform/partnerd/chain"
)

// Market reads (scope market:read).

// TokenSearchResponse lists tokens matching a name, symbol or address.
type TokenSearchResponse struct {
	OK      bool       `json:"ok"`
	Chains  []string   `json:"chains" doc:"The chains searched."`
	Results []TokenRef `json:"results"`
}

// TokenResolution resolves a token address.
type TokenResolution struct {
	OK          bool     `json:"ok"`
	Token       TokenRef `json:"token"`
	TotalSupply string   `json:"totalSupply"`
	Pools       []string `json:"pools" doc:"Known pools holding the token."`
}

// TokenPrice is a token's current price.
type TokenPrice struct {
	OK          bool     `json:"ok"`
	Token       TokenRef `json:"token"`
	PriceUsd    string   `json:"priceUsd"`
	PriceNative string   `json:"priceNative"`
	Pool        string   `json:"pool" doc:"The pool the price comes from."`
	UpdatedAt   int64    `json:"updatedAt"`
}

// PricePoint is a price at a time.
type PricePoint struct {
	Time     int64  `json:"time"`
	PriceUsd string `json:"priceUsd"`
}

// PriceHistoryResponse is a token's recent prices.
type PriceHistoryResponse struct {
	OK     bool         `json:"ok"`
	Token  TokenRef     `json:"token"`
	Window int          `json:"window" doc:"Seconds covered."`
	Points []PricePoint `json:"points"`
}

// TokenStatsResponse is a token's 24-hour market figures.
type TokenStatsResponse struct {
	OK             bool       `json:"ok"`
	Token          TokenRef   `json:"token"`
	PriceUsd       string     `json:"priceUsd"`
	LiquidityUsd   string     `json:"liquidityUsd"`
	VolumeUsd      Windows    `json:"volumeUsd"`
	PriceChangePct Windows    `json:"priceChangePct"`
	Txns           TxnWindows `json:"txns"`
	Buyers24h      int        `json:"buyers24h"`
	Sellers24h     int        `json:"sellers24h"`
	Holders        int        `json:"holders"`
	FdvUsd         string     `json:"fdvUsd,omitempty"`
	MarketCapUsd   string     `json:"marketCapUsd,omitempty"`
}

// Holder is one token holder.
type Holder struct {
	Address  string `json:"address"`
	Amount   string `json:"amount"`
	SharePct string `json:"sharePct" doc:"Share of total supply, percent."`
}

// TopHoldersResponse lists a token's largest holders.
type TopHoldersResponse struct {
	OK      bool     `json:"ok"`
	Token   TokenRef `json:"token"`
	Holders []Holder `json:"holders"`
}

// TradesResponse lists a token's trades, newest first.
type TradesResponse struct {
	OK     bool    `json:"ok"`
	Token  string  `json:"token"`
	Trades []Trade `json:"trades"`
}

// Trader is one trader's 24-hour activity in a token.
type Trader struct {
	Address   string `json:"address"`
	VolumeUsd string `json:"volumeUsd"`
	Buys      int    `json:"buys"`
	Sells     int    `json:"sells"`
}

// TopTradersResponse lists a token's most active traders over 24 hours.
type TopTradersResponse struct {
	OK      bool     `json:"ok"`
	Token   string   `json:"token"`
	Traders []Trader `json:"traders"`
}

// TrendingResponse lists trending pools.
type TrendingResponse struct {
	OK     bool          `json:"ok"`
	Chains []string      `json:"chains" doc:"The chains covered."`
	Pools  []PoolSummary `json:"pools"`
}

// HotPoolsResult lists hot or new pools.
type HotPoolsResult struct {
	OK     bool          `json:"ok"`
	Chains []string      `json:"chains" doc:"The chains covered."`
	Pools  []PoolSummary `json:"pools"`
}

// PoolDetailsResponse describes one pool.
type PoolDetailsResponse struct {
	OK   bool        `json:"ok"`
	Pool PoolSummary `json:"pool"`
}

// PoolReserves are a pool's reserves for a base/quote orientation.
type PoolReserves struct {
	OK          bool   `json:"ok"`
	Pool        string `json:"pool"`
	Base        string `json:"base"`
	Quote       string `json:"quote"`
	BaseAmount  string `json:"baseAmount"`
	QuoteAmount string `json:"quoteAmount"`
	Block       int64  `json:"block"`
}

// Bin is one liquidity bin.
type Bin struct {
	ID          int64  `json:"id"`
	Price       string `json:"price"`
	BaseAmount  string `json:"baseAmount"`
	QuoteAmount string `json:"quoteAmount"`
}

// PoolBinsResult lists a pool's liquidity bins.
type PoolBinsResult struct {
	OK   bool   `json:"ok"`
	Pool string `json:"pool"`
	Bins []Bin  `json:"bins"`
}

// PoolChartResponse is a pool's OHLCV candles.
type PoolChartResponse struct {
	OK         bool     `json:"ok"`
	Pool       string   `json:"pool"`
	Resolution string   `json:"resolution"`
	Candles    []Candle `json:"candles"`
}

// PoolAuditResponse is a pool's risk audit.
type PoolAuditResponse struct {
	OK       bool      `json:"ok"`
	Pool     string    `json:"pool"`
	Token    string    `json:"token"`
	Score    int       `json:"score" doc:"0 (dangerous) to 100."`
	Findings []Finding `json:"findings"`
}

type tokenInput struct {
	Mint string `path:"mint" maxLength:"100" doc:"Token address (mint on Solana)."`
	ChainParam
}

type searchInput struct {
	ChainOrAllParam
	Q string `query:"q" required:"true" minLength:"2" maxLength:"100" doc:"Name, symbol or address."`
}

type historyInput struct {
	Mint string `path:"mint" maxLength:"100" doc:"Token address (mint on Solana)."`
	ChainParam
	Pool   string `query:"pool" maxLength:"100" doc:"Exact pool address or singleton pool id from discovery."`
	Window int    `query:"window" minimum:"1" maximum:"300" default:"90" doc:"Recent price window, seconds."`
}

type tradesInput struct {
	Mint string `path:"mint" maxLength:"100" doc:"Token address (mint on Solana)."`
	ChainParam
	Pool string `query:"pool" maxLength:"100" doc:"Only trades of this pool."`
}

type trendingInput struct {
	ChainOrAllParam
	AMM string `query:"amm" enum:"raydium,orca,meteora,pumpswap,uniswap-v2,uniswap-v3" doc:"Only pools of this venue."`
}

type poolInput struct {
	Pool string `path:"pool" maxLength:"100" doc:"Pool address."`
	ChainParam
}

type reservesInput struct {
	Pool string `path:"pool" maxLength:"100" doc:"Pool address."`
	ChainParam
	AMM   string `query:"amm" required:"true" enum:"raydium,orca,meteora,pumpswap,uniswap-v2,uniswap-v3"`
	Kind  string `query:"kind" maxLength:"32" doc:"Pool kind, where a venue has several."`
	Base  string `query:"base" required:"true" maxLength:"100" doc:"Base token address."`
	Quote string `query:"quote" required:"true" maxLength:"100" doc:"Quote token address."`
}

type binsInput struct {
	Pool string `path:"pool" maxLength:"100" doc:"Pool address."`
	ChainParam
	AMM   string `query:"amm" required:"true" maxLength:"32"`
	Kind  string `query:"kind" maxLength:"32"`
	Quote string `query:"quote" maxLength:"100"`
}

type chartInput struct {
	Pool string `path:"pool" maxLength:"100" doc:"Pool address."`
	ChainParam
	Resolution string `query:"resolution" default:"15" enum:"1,5,15,30,60,240,720,1440" doc:"Candle interval, minutes."`
	Before     int64  `query:"before" minimum:"0" doc:"Only candles before this time, unix seconds."`
	Limit      int    `query:"limit" minimum:"1" maximum:"1000" default:"300" doc:"Most candles returned."`
	Mint       string `query:"mint" maxLength:"100" doc:"Token whose price the candles show."`
}

type auditInput struct {
	Pool string `path:"pool" maxLength:"100" doc:"Pool address."`
	ChainParam
	Token string `query:"token" maxLength:"100" doc:"Token address hint for singleton pools."`
}

type output[T any] struct{ Body T }

func (s *Server) registerMarket() {
	get := func(id, path, summary, class string) opSpec {
		return opSpec{ID: id, Method: http.MethodGet, Path: path, Summary: summary, Tag: "Market", Scope: ScopeMarketRead, Class: class}
	}
	register(s, get("searchTokens", "/v1/tokens/search", "Search tokens by name, symbol or address", ClassProvider), s.searchTokens)
	register(s, get("getToken", "/v1/tokens/{mint}", "Resolve a token", ClassEnriched), tokenRead[TokenResolution](s))
	register(s, get("getTokenPrice", "/v1/tokens/{mint}/price", "A token's price", ClassCached), tokenRead[TokenPrice](s))
	register(s, get("getTokenHistory", "/v1/tokens/{mint}/history", "A token's recent prices", ClassProvider), s.tokenHistory)
	register(s, get("getTokenStats", "/v1/tokens/{mint}/stats", "A token's 24-hour figures", ClassProvider), tokenRead[TokenStatsResponse](s))
	register(s, get("getTokenHolders", "/v1/tokens/{mint}/holders", "A token's top holders", ClassProvider), tokenRead[TopHoldersResponse](s))
	register(s, get("getTokenTrades", "/v1/tokens/{mint}/trades", "A token's trades, newest first", ClassProvider), s.tokenTrades)
	register(s, get("getTokenTopTraders", "/v1/tokens/{mint}/top-traders", "A token's top traders over 24 hours", ClassProvider), tokenRead[TopTradersResponse](s))
	register(s, get("getTrending", "/v1/markets/trending", "Trending pools", ClassCached), s.trending)
	register(s, get("getHotPools", "/v1/pools/hot", "Hot pools", ClassCached), s.poolList)
	register(s, get("getNewPools", "/v1/pools/new", "New pools", ClassCached), s.poolList)
	register(s, get("getPool", "/v1/pools/{pool}", "A pool's details", ClassEnriched), poolRead[PoolDetailsResponse](s))
	register(s, get("getPoolReserves", "/v1/pools/{pool}/reserves", "A pool's reserves", ClassProvider), s.poolReserves)
	register(s, get("getPoolBins", "/v1/pools/{pool}/bins", "A pool's liquidity bins", ClassProvider), s.poolBins)
	register(s, get("getPoolChart", "/v1/pools/{pool}/chart", "A pool's OHLCV candles", ClassProvider), s.poolChart)
	register(s, get("getPoolAudit", "/v1/pools/{pool}/audit", "A pool's risk audit", ClassEnriched), s.poolAudit)
}

// noSource answers a read on an enabled chain that has no data source for it. A chain is enabled
// only with a configured adapter, so this is a configuration gap, reported as such and never papered over.
func noSource(c chain.Info) *Error {
	return Errorf(CodeUpstreamUnavailable, "no data source serves this read on %s", c.Name)
}

func (s *Server) searchTokens(ctx context.Context, in *searchInput) (*output[TokenSearchResponse], error) {
	name := in.Chain
	if name == "" {
		name = "solana"
	}
	chains, e := s.chainsFor(ctx, name)
	if e != nil {
		return nil, e
	}
	out := &output[TokenSearchResponse]{Body: TokenSearchResponse{OK: true, Chains: names(chains), Results: []TokenRef{}}}
	if len(chains) > 0 {
		return nil, noSource(chains[0])
	}
	return out, nil
}

func tokenRead[T any](s *Server) func(context.Context, *tokenInput) (*output[T], error) {
	return func(ctx context.Context, in *tokenInput) (*output[T], error) {
		c, e := s.resolve(ctx, in.Chain, addr("mint", in.Mint))
		if e != nil {
			return nil, e
		}
		return nil, noSource(c)
	}
}

func (s *Server) tokenHistory(ctx context.Context, in *historyInput) (*output[PriceHistoryResponse], error) {
	c, e := s.resolve(ctx, in.Chain, addr("mint", in.Mint), opt("pool", in.Pool))
	if e != nil {
		return nil, e
	}
	return nil, noSource(c)
}

func (s *Server) tokenTrades(ctx context.Context, in *tradesInput) (*output[TradesResponse], error) {
	c, e := s.resolve(ctx, in.Chain, addr("mint", in.Mint), opt("pool", in.Pool))
	if e != nil {
		return nil, e
	}
	return nil, noSource(c)
}

func (s *Server) trending(ctx context.Context, in *trendingInput) (*output[TrendingResponse], error) {
	chains, pools, e := s.pools(ctx, in.Chain)
	if e != nil {
		return nil, e
	}
	return &output[TrendingResponse]{Body: TrendingResponse{OK: true, Chains: chains, Pools: pools}}, nil
}

func (s *Server) poolList(ctx context.Context, in *ChainOrAllParam) (*output[HotPoolsResult], error) {
	chains, pools, e := s.pools(ctx, in.Chain)
	if e != nil {
		return nil, e
	}
	return &output[HotPoolsResult]{Body: HotPoolsResult{OK: true, Chains: chains, Pools: pools}}, nil
}

// pools lists pools across the chains `chain` names (every enabled chain when empty or all).
func (s *Server) pools(ctx context.Context, chainParam string) ([]string, []PoolSummary, *Error) {
	chains, e := s.chainsFor(ctx, chainParam)
	if e != nil {
		return nil, nil, e
	}
	if len(chains) > 0 {
		return nil, nil, noSource(chains[0])
	}
	return names(chains), []PoolSummary{}, nil
}

func poolRead[T any](s *Server) func(context.Context, *poolInput) (*output[T], error) {
	return func(ctx context.Context, in *poolInput) (*output[T], error) {
		c, e := s.resolve(ctx, in.Chain, addr("pool", in.Pool))
		if e != nil {
			return nil, e
		}
		return nil, noSource(c)
	}
}

func (s *Server) poolReserves(ctx context.Context, in *reservesInput) (*output[PoolReserves], error) {
	c, e := s.resolve(ctx, in.Chain, addr("pool", in.Pool), addr("base", in.Base), addr("quote", in.Quote))
	if e != nil {
		return nil, e
	}
	if e := venueOn(c, in.AMM); e != nil {
		return nil, e
	}
	return nil, noSource(c)
}

func (s *Server) poolBins(ctx context.Context, in *binsInput) (*output[PoolBinsResult], error) {
	c, e := s.resolve(ctx, in.Chain, addr("pool", in.Pool), opt("quote", in.Quote))
	if e != nil {
		return nil, e
	}
	if e := venueOn(c, in.AMM); e != nil {
		return nil, e
	}
	// Of the contract's venues only Meteora's DLMM pools keep liquidity in bins.
	if in.AMM != "meteora" {
		return nil, Errorf(CodeOperationNotSupported, "venue %s has no liquidity bins", in.AMM)
	}
	return nil, noSource(c)
}

func (s *Server) poolChart(ctx context.Context, in *chartInput) (*output[PoolChartResponse], error) {
	c, e := s.resolve(ctx, in.Chain, addr("pool", in.Pool), opt("mint", in.Mint))
	if e != nil {
		return nil, e
	}
	return nil, noSource(c)
}

func (s *Server) poolAudit(ctx context.Context, in *auditInput) (*output[PoolAuditResponse], error) {
	c, e := s.resolve(ctx, in.Chain, addr("pool", in.Pool), opt("token", in.Token))
	if e != nil {
		return nil, e
	}
	return nil, noSource(c)
}

// venueOn checks that the venue trades on the chain's family: 400 operation_not_supported otherwise.
func venueOn(c chain.Info, venue string) *Error {
	evmVenue := venue == "uniswap-v2" || venue == "uniswap-v3"
	if evmVenue != (c.Kind == chain.KindEVM) {
		return Errorf(CodeOperationNotSupported, "venue %s does not trade on %s", venue, c.Name)
	}
	return nil
}

func names(chains []chain.Info) []string {
	out := make([]string, len(chains))
	for i, c := range chains {
		out[i] = c.Name
	}
	return out
}
