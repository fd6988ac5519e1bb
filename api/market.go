package api

import (
	"github.com/danielgtaylor/huma/v2"
	"slices"
	"strings"

	"context"
	"net/http"
	"strconv"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// Market reads (scope market:read).

// TokenSearchResponse lists tokens matching a name, symbol or address.
type TokenSearchResponse struct {
	OK      bool       `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Chains  []string   `json:"chains" doc:"The chains searched." example:"base"`
	Results []TokenRef `json:"results" doc:"The matching tokens, chain by chain in the order of chains; empty when none matches."`
}

// TransformSchema describes TokenSearchResponse in the OpenAPI document.
func (TokenSearchResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "The tokens matching a search (GET /v1/tokens/search): by name or symbol containing q, or by address; at most 20 per chain searched.")
}

// TokenResolution resolves a token address.
type TokenResolution struct {
	OK          bool        `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Token       TokenRef    `json:"token" doc:"The token, with its metadata."`
	TotalSupply string      `json:"totalSupply" doc:"The token's total supply read from the chain, in token units." example:"4185672310.25"`
	Pools       []string    `json:"pools" doc:"Known pools holding the token." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C,0xd0b53D9277642d899DF5C87A3966A349A798F224"`
	Audit       *TokenAudit `json:"audit,omitempty" doc:"Solana: what the mint itself says, without a pool (on EVM, a pool's audit says it)."`
}

// TransformSchema describes TokenResolution in the OpenAPI document.
func (TokenResolution) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A token resolved from its address (GET /v1/tokens/{mint}): its metadata, total supply read from the chain, and the pools the service knows that hold it; on Solana also the mint's own audit.")
}

// TokenAudit is a Solana mint's audit: its mint and freeze authorities, its Token-2022 extensions
// (transfer fee, permanent delegate, transfer hook, non-transferable, default account state ...) and
// the share of the ten largest holders, scored like a pool's audit.
type TokenAudit struct {
	Score    int       `json:"score" doc:"0 (dangerous) to 100." example:"85"`
	Findings []Finding `json:"findings" doc:"What the audit found, in the order checked: each danger takes 40 off the score of 100 and each warning 15 (an info nothing), down to 0."`
}

// TransformSchema describes TokenAudit in the OpenAPI document.
func (TokenAudit) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A Solana mint's own audit: its mint and freeze authorities, its Token-2022 extensions (transfer fee, permanent delegate, transfer hook, non-transferable, default account state ...) and the share of its ten largest holders, scored like a pool's audit.")
}

// TokenPrice is a token's current price: the token's own, one for all its pools (a pool's price of
// it is in the pool's summary).
type TokenPrice struct {
	OK          bool     `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Token       TokenRef `json:"token" doc:"The token priced (the wrapped native token when mint is native)."`
	PriceUsd    string   `json:"priceUsd" doc:"The token's USD price: 1 for a configured USD stablecoin; otherwise its price in the pool named by pool, its deepest pool against a stablecoin or the wrapped native token." example:"0.9998"`
	PriceNative string   `json:"priceNative" doc:"The token's price in the chain's native coin: priceUsd over the native coin's USD price." example:"0.000328"`
	Pool        string   `json:"pool" doc:"The pool the price comes from; empty for a USD stablecoin." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	UpdatedAt   int64    `json:"updatedAt" doc:"When the price was computed, unix seconds: the time of the market snapshot it comes from, refreshed in the background." example:"1763798400"`
}

// TransformSchema describes TokenPrice in the OpenAPI document.
func (TokenPrice) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A token's current price (GET /v1/tokens/{mint}/price): the token's own, one for all its pools, in USD and in the chain's native coin, with the pool it comes from. A pool's own price of it is in the pool's summary.")
}

// PricePoint is a price at a time.
type PricePoint struct {
	Time     int64  `json:"time" doc:"When, unix seconds: the window's start for the first point, else the block time of the pool event that moved the price." example:"1763798400"`
	PriceUsd string `json:"priceUsd" doc:"The token's USD price then." example:"0.9998"`
}

// TransformSchema describes PricePoint in the OpenAPI document.
func (PricePoint) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A token's USD price at one moment.")
}

// PriceHistoryResponse is a token's recent prices.
type PriceHistoryResponse struct {
	OK     bool         `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Token  TokenRef     `json:"token" doc:"The token whose prices these are."`
	Window int          `json:"window" doc:"Seconds covered." example:"90"`
	Points []PricePoint `json:"points" doc:"The prices, oldest first; the first is the price at the window's start."`
}

// TransformSchema describes PriceHistoryResponse in the OpenAPI document.
func (PriceHistoryResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A token's recent USD prices (GET /v1/tokens/{mint}/history): the price at the window's start, then one point per event of the pool that moved it, oldest first.")
}

// TokenStatsResponse is a token's 24-hour market figures.
type TokenStatsResponse struct {
	OK             bool       `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Token          TokenRef   `json:"token" doc:"The token these figures are of."`
	PriceUsd       string     `json:"priceUsd" doc:"The token's USD price, as /v1/tokens/{mint}/price gives it: the same for all its pools." example:"0.9998"`
	LiquidityUsd   string     `json:"liquidityUsd" doc:"The sum of liquidityUsd over the token's indexed pools: both reserves of each, in USD." example:"7624921.5"`
	VolumeUsd      Windows    `json:"volumeUsd" doc:"USD volume of the token's swaps in all its indexed pools over each window."`
	PriceChangePct Windows    `json:"priceChangePct" doc:"Change of priceUsd over each window, percent." example:"{\"m5\":\"0.02\",\"h1\":\"-0.01\",\"h6\":\"0.03\",\"h24\":\"-0.02\"}"`
	Txns           TxnWindows `json:"txns" doc:"The token's swaps over each window, counted by side: a buy bought the token."`
	Buyers24h      int        `json:"buyers24h" doc:"Distinct addresses that bought the token over the last 24 hours." example:"1843"`
	Sellers24h     int        `json:"sellers24h" doc:"Distinct addresses that sold the token over the last 24 hours." example:"1712"`
	Holders        int        `json:"holders" doc:"Addresses holding a balance of the token (on Solana a lower bound when the RPC refuses to scan every token account)." example:"4821377"`
	FdvUsd         string     `json:"fdvUsd,omitempty" doc:"Fully diluted value: the total supply, in token units, times priceUsd; absent when either is unknown." example:"4184835175.79"`
	MarketCapUsd   string     `json:"marketCapUsd,omitempty" doc:"Market capitalisation: the circulating supply times priceUsd; absent when the circulating supply is not known (this version does not read it)." example:"4184835175.79"`
}

// TransformSchema describes TokenStatsResponse in the OpenAPI document.
func (TokenStatsResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A token's market figures across its indexed pools (GET /v1/tokens/{mint}/stats): price, liquidity, volume, price change and trades over 5 minutes, 1, 6 and 24 hours, distinct traders over 24 hours, holders and fully diluted value.")
}

// Holder is one token holder.
type Holder struct {
	Address  string `json:"address" doc:"The holder: the owner's wallet (on Solana the owner of the token account, not the account)." example:"0x9B2e7D4c1a6F3058E2d7c4B1a9f6e3D0C7b4A215"`
	Amount   string `json:"amount" doc:"Its balance, in token units." example:"125000000.5"`
	SharePct string `json:"sharePct" doc:"Share of total supply, percent." example:"2.99"`
}

// TransformSchema describes Holder in the OpenAPI document.
func (Holder) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One of a token's largest holders, with its balance read live from the chain.")
}

// TopHoldersResponse lists a token's largest holders.
type TopHoldersResponse struct {
	OK      bool     `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Token   TokenRef `json:"token" doc:"The token held."`
	Holders []Holder `json:"holders" doc:"The holders, largest balance first."`
}

// TransformSchema describes TopHoldersResponse in the OpenAPI document.
func (TopHoldersResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A token's largest holders (GET /v1/tokens/{mint}/holders), at most 20, largest first.")
}

// TradesResponse lists a token's trades, newest first.
type TradesResponse struct {
	OK         bool     `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Token      TokenRef `json:"token" doc:"The token the trades are seen from."`
	Trades     []Trade  `json:"trades" doc:"The trades, newest first; at most limit."`
	NextCursor string   `json:"nextCursor,omitempty" doc:"Pass as cursor for the next (older) page; absent on the last page." example:"38512345:17"`
}

// TransformSchema describes TradesResponse in the OpenAPI document.
func (TradesResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A page of a token's trades (GET /v1/tokens/{mint}/trades), newest first, seen from the token.")
}

// Trader is one trader's 24-hour activity in a token.
type Trader struct {
	Address   string `json:"address" doc:"The trader: the sender of its swaps." example:"0x4A8C1E2F6B3D9057ac2e41B8F3D6c09E7B5A1f23"`
	VolumeUsd string `json:"volumeUsd" doc:"USD value of its swaps of the token, buys and sells together." example:"25410.8"`
	Buys      int    `json:"buys" doc:"Swaps in which it bought the token." example:"12"`
	Sells     int    `json:"sells" doc:"Swaps in which it sold the token." example:"9"`
}

// TransformSchema describes Trader in the OpenAPI document.
func (Trader) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One trader's activity in a token over the last 24 hours.")
}

// TopTradersResponse lists a token's most active traders over 24 hours.
type TopTradersResponse struct {
	OK      bool     `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Token   TokenRef `json:"token" doc:"The token traded."`
	Traders []Trader `json:"traders" doc:"The traders, most USD volume first."`
}

// TransformSchema describes TopTradersResponse in the OpenAPI document.
func (TopTradersResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A token's most active traders over the last 24 hours (GET /v1/tokens/{mint}/top-traders): at most 20, by USD volume.")
}

// TrendingResponse lists trending pools.
type TrendingResponse struct {
	OK     bool          `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Chains []string      `json:"chains" doc:"The chains covered." example:"base,ethereum"`
	Pools  []PoolSummary `json:"pools" doc:"The pools, most trending first, across the chains covered."`
}

// TransformSchema describes TrendingResponse in the OpenAPI document.
func (TrendingResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "Trending pools (GET /v1/markets/trending): up to 50 pools that traded in the last 24 hours, by USD volume over the last hour, then over 24 hours.")
}

// HotPoolsResult lists hot or new pools.
type HotPoolsResult struct {
	OK     bool          `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Chains []string      `json:"chains" doc:"The chains covered." example:"base,ethereum"`
	Pools  []PoolSummary `json:"pools" doc:"The pools in the list's order, across the chains covered."`
}

// TransformSchema describes HotPoolsResult in the OpenAPI document.
func (HotPoolsResult) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "Hot pools (GET /v1/pools/hot: by trades over 24 hours, then USD volume) or new pools (GET /v1/pools/new: newest first), up to 50.")
}

// PoolDetailsResponse describes one pool.
type PoolDetailsResponse struct {
	OK   bool        `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Pool PoolSummary `json:"pool" doc:"The pool and its figures."`
}

// TransformSchema describes PoolDetailsResponse in the OpenAPI document.
func (PoolDetailsResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One pool's details (GET /v1/pools/{pool}): its tokens, venue, fee and reserves, with its own market figures.")
}

// PoolReserves are a pool's reserves for a base/quote orientation.
type PoolReserves struct {
	OK          bool   `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Pool        string `json:"pool" doc:"The pool read." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Base        string `json:"base" doc:"The base token's address, as the call named it." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	Quote       string `json:"quote" doc:"The quote token's address, as the call named it." example:"0x4200000000000000000000000000000000000006"`
	BaseAmount  string `json:"baseAmount" doc:"The pool's reserve of the base token, in token units." example:"3812460.75"`
	QuoteAmount string `json:"quoteAmount" doc:"The pool's reserve of the quote token, in token units." example:"1250.5"`
	Block       int64  `json:"block" doc:"The block the reserves were read at: they are the pool's reserves after it." example:"38512345"`
}

// TransformSchema describes PoolReserves in the OpenAPI document.
func (PoolReserves) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A pool's reserves read live from the chain (GET /v1/pools/{pool}/reserves), oriented by the base and quote the call named.")
}

// Bin is one liquidity bin: a price range of a concentrated-liquidity pool.
type Bin struct {
	ID                int64  `json:"id" doc:"The bin's id in the pool: its lower tick." example:"-197220"`
	Price             string `json:"price" doc:"The bin's lower price bound: quote token per base token (priceLower)." example:"2712.1"`
	PriceLower        string `json:"priceLower" doc:"The bin's lower price bound, quote token per base token." example:"2712.1"`
	PriceUpper        string `json:"priceUpper" doc:"The bin's upper price bound, quote token per base token." example:"2739.4"`
	InversePriceLower string `json:"inversePriceLower" doc:"The lower price bound in the other direction: base token per quote token." example:"0.000365043"`
	InversePriceUpper string `json:"inversePriceUpper" doc:"The upper price bound in the other direction: base token per quote token." example:"0.000368718"`
	TickLower         int64  `json:"tickLower" doc:"The pool tick of the bin's lower bound (the pool's own orientation: token1 per token0)." example:"-197220"`
	TickUpper         int64  `json:"tickUpper" doc:"The pool tick of the bin's upper bound." example:"-197160"`
	Liquidity         string `json:"liquidity" doc:"The liquidity active while the price is in the bin (the pool's L, an integer)." example:"1517882343751509868544"`
	BaseAmount        string `json:"baseAmount" doc:"The base token the bin holds at the current price, in token units." example:"15230.5"`
	QuoteAmount       string `json:"quoteAmount" doc:"The quote token the bin holds at the current price, in token units." example:"5.0012"`
	Current           bool   `json:"current" doc:"The pool's current price is in the bin." example:"false"`
}

// TransformSchema describes Bin in the OpenAPI document.
func (Bin) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One liquidity bin of a concentrated-liquidity pool (uniswap-v3): the price range between two neighbouring initialized ticks, "+
		"the liquidity active in it and the tokens it holds. Above the current price a bin holds base token only, below it quote token only.")
}

// PoolBinsResult lists a pool's liquidity bins.
type PoolBinsResult struct {
	OK        bool      `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Pool      string    `json:"pool" doc:"The pool read." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Venue     VenueName `json:"venue" doc:"The pool's venue."`
	Kind      string    `json:"kind" enum:"ticks,active" doc:"Which bins are listed: ticks (every range between neighbouring initialized ticks near the price) or active (the one holding the current price)." example:"ticks"`
	Base      string    `json:"base" doc:"The base token: prices are quote per base." example:"0x4200000000000000000000000000000000000006"`
	Quote     string    `json:"quote" doc:"The quote token, the one asked for (default the pool's token1)." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	Price     string    `json:"price" doc:"The pool's current price, quote per base, from its sqrtPriceX96." example:"2725.3"`
	Tick      int64     `json:"tick" doc:"The pool's current tick." example:"-197190"`
	Liquidity string    `json:"liquidity" doc:"The liquidity in range at the current price." example:"1517882343751509868544"`
	Block     int64     `json:"block" doc:"The block everything was read at." example:"19000000"`
	Bins      []Bin     `json:"bins" doc:"The bins in price order (of the quote asked for), over the initialized ticks of the five tick bitmap words around the price; ranges without liquidity are left out."`
}

// TransformSchema describes PoolBinsResult in the OpenAPI document.
func (PoolBinsResult) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A concentrated-liquidity pool's liquidity by price range around its current price (GET /v1/pools/{pool}/bins), read live at one block.")
}

// PoolChartResponse is a pool's OHLCV candles.
type PoolChartResponse struct {
	OK         bool     `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Pool       string   `json:"pool" doc:"The pool charted." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Resolution string   `json:"resolution" doc:"Each candle's interval, minutes (the resolution asked for)." example:"15"`
	Candles    []Candle `json:"candles" doc:"The candles, oldest first and newest last; intervals without a swap are left out."`
}

// TransformSchema describes PoolChartResponse in the OpenAPI document.
func (PoolChartResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A pool's OHLCV candles (GET /v1/pools/{pool}/chart): the USD price of one of its tokens, newest last.")
}

// PoolAuditResponse is a pool's risk audit.
type PoolAuditResponse struct {
	OK       bool      `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Pool     string    `json:"pool" doc:"The pool audited." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Token    string    `json:"token" doc:"The token audited: the pool's base token, or token when the call named it." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	Score    int       `json:"score" doc:"0 (dangerous) to 100." example:"85"`
	Findings []Finding `json:"findings" doc:"What the audit found, in the order checked: each danger takes 40 off the score of 100 and each warning 15 (an info nothing), down to 0."`
}

// TransformSchema describes PoolAuditResponse in the OpenAPI document.
func (PoolAuditResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A pool's risk audit (GET /v1/pools/{pool}/audit), scored from 0 (dangerous) to 100. EVM: checks of its token (a simulated buy and sell, its code, ownership and mint rights, holder concentration) and burned liquidity. Solana: the mint's authorities, Token-2022 extensions and fees and holder concentration, then the pool's LP: its supply, what is locked, and who holds it (one owner holding half or more of the LP supply can withdraw most of the liquidity).")
}

type tokenInput struct {
	Mint string `path:"mint" maxLength:"100" doc:"Token address (mint on Solana)."`
	ChainParam
}

type searchInput struct {
	Chain ChainOrAll `query:"chain" default:"solana" doc:"A chain, or all to search every enabled chain." example:"base"`
	Q     string     `query:"q" required:"true" minLength:"2" maxLength:"100" doc:"Name, symbol or address."`
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
	Pool   string `query:"pool" maxLength:"100" doc:"Only trades of this pool."`
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50" doc:"Most trades returned."`
	Cursor string `query:"cursor" maxLength:"40" doc:"nextCursor of the previous page."`
}

type trendingInput struct {
	ChainOrAllParam
	AMM VenueName `query:"amm" doc:"Only pools of this venue."`
}

type poolInput struct {
	Pool string `path:"pool" maxLength:"100" doc:"Pool address."`
	ChainParam
}

type reservesInput struct {
	Pool string `path:"pool" maxLength:"100" doc:"Pool address."`
	ChainParam
	AMM   VenueName `query:"amm" required:"true" doc:"The pool's venue. Reserves are read for uniswap-v2 pools; another venue answers 400 operation_not_supported."`
	Kind  string    `query:"kind" maxLength:"32" doc:"Pool kind, where a venue has several."`
	Base  string    `query:"base" required:"true" maxLength:"100" doc:"Base token address."`
	Quote string    `query:"quote" required:"true" maxLength:"100" doc:"Quote token address."`
}

type binsInput struct {
	Pool string `path:"pool" maxLength:"100" doc:"Pool address."`
	ChainParam
	AMM   string `query:"amm" required:"true" maxLength:"32" doc:"The pool's venue. Bins are read of uniswap-v3 pools (concentrated liquidity); a constant-product venue answers 400 operation_not_supported."`
	Kind  string `query:"kind" enum:"ticks,active" doc:"Which bins to list: ticks (the default: every range between neighbouring initialized ticks near the price) or active (the range holding the current price)."`
	Quote string `query:"quote" maxLength:"100" doc:"The token the bins' prices are in, one of the pool's two; default the pool's token1."`
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
	// Every market read but a token's own (search, resolve, stats, holders) reads pools: served where
	// a venue's pools are indexed.
	get := func(id, path, class, summary, description, returns string) opSpec {
		return opSpec{ID: id, Method: http.MethodGet, Path: path, Summary: summary, Description: description, Returns: returns, Tag: "Market",
			Scope: ScopeMarketRead, Class: class, Serves: s.marketServes, Needs: chain.CapPools}
	}
	token := func(spec opSpec) opSpec { spec.Needs = ""; return spec }
	bins := get("getPoolBins", "/v1/pools/{pool}/bins", ClassProvider, "A pool's liquidity bins",
		"The liquidity of a concentrated-liquidity pool (uniswap-v3) by price range around its current price, read live in one round trip: "+
			"slot0, the in-range liquidity and the initialized ticks of the five tick bitmap words around the price (through the chain's TickLens). "+
			"Each bin is the range between two neighbouring initialized ticks, with its price bounds in both directions, the liquidity active in it, "+
			"the tokens it holds at the current price and whether the price is in it. Served where a uniswap-v3 venue is configured with a tickLens; "+
			"a constant-product pool's venue answers 400 operation_not_supported.", "The pool's bins around its current price.")
	bins.Serves, bins.Needs = s.marketServesBins, ""
	register(s, token(get("searchTokens", "/v1/tokens/search", ClassProvider, "Search tokens by name, symbol or address",
		"Tokens whose name or symbol contains q, ignoring case, or whose address is q (an address the index does not hold yet is "+
			"looked up on the chain). At most 20 per chain. chain defaults to solana; all searches every enabled chain.",
		"The chains searched and the matching tokens, possibly none.")), s.searchTokens)
	register(s, token(get("getToken", "/v1/tokens/{mint}", ClassEnriched, "Resolve a token",
		"A token's metadata (symbol, name, decimals), its total supply read from the chain, and the known pools that hold it.",
		"The token, its total supply and its known pools; on Solana also the mint's audit.")), s.getToken)
	register(s, get("getTokenPrice", "/v1/tokens/{mint}/price", ClassCached, "A token's price",
		"The token's USD price and its price in the chain's native token, from its deepest pool against the USD stablecoin or, "+
			"failing that, against the wrapped native token. pool names that pool; updatedAt is when the price was last computed. "+
			"mint native is the chain's gas coin, priced as its wrapped token (as quotes take it).",
		"The token's price in USD and in the native coin, the pool it comes from and when it was computed."), s.tokenPrice)
	register(s, get("getTokenHistory", "/v1/tokens/{mint}/history", ClassProvider, "A token's recent prices",
		"The token's USD price over the last window seconds (1 to 300, default 90), oldest first: the price at the window's start, "+
			"then one point per event of one pool (pool, else the pool its price comes from).",
		"The token's prices over the window, oldest first."), s.tokenHistory)
	register(s, token(get("getTokenStats", "/v1/tokens/{mint}/stats", ClassProvider, "A token's 24-hour figures",
		"Price, liquidity, USD volume and price change over 5 minutes, 1, 6 and 24 hours, buys and sells, distinct buyers and "+
			"sellers over 24 hours, holders and fully diluted value, across the token's pools.",
		"The token's figures across its indexed pools.")), s.tokenStats)
	register(s, token(get("getTokenHolders", "/v1/tokens/{mint}/holders", ClassProvider, "A token's top holders",
		"The 20 largest holders, with balances read live from the chain and their share of the total supply.",
		"The largest holders, largest first.")), s.tokenHolders)
	register(s, get("getTokenTrades", "/v1/tokens/{mint}/trades", ClassProvider, "A token's trades, newest first",
		"Swaps of the token, newest first, seen from the token: buy means the trader bought it. pool keeps one pool's trades; "+
			"pass nextCursor as cursor for the next, older page.",
		"A page of trades, newest first, with the cursor of the next page when there is one."), s.tokenTrades)
	register(s, get("getTokenTopTraders", "/v1/tokens/{mint}/top-traders", ClassProvider, "A token's top traders over 24 hours",
		"The 20 traders with the most USD volume in the token over the last 24 hours, with their buys and sells.",
		"The traders, most USD volume first."), s.tokenTopTraders)
	register(s, get("getTrending", "/v1/markets/trending", ClassCached, "Trending pools",
		"Up to 50 pools that traded in the last 24 hours, by USD volume over the last hour, then over 24 hours. "+
			"chain defaults to every enabled chain; amm keeps one venue.",
		"The chains covered and their trending pools, most trending first."), s.trending)
	register(s, get("getHotPools", "/v1/pools/hot", ClassCached, "Hot pools",
		"Up to 50 pools that traded in the last 24 hours, by their number of trades over 24 hours, then USD volume. chain defaults to every enabled chain.",
		"The chains covered and their hot pools, most trades first."), s.hotPools)
	register(s, get("getNewPools", "/v1/pools/new", ClassCached, "New pools",
		"Up to 50 pools, newest first by creation time. chain defaults to every enabled chain.",
		"The chains covered and their newest pools, newest first."), s.newPools)
	register(s, get("getPool", "/v1/pools/{pool}", ClassEnriched, "A pool's details",
		"A pool's tokens, venue, fee, reserves and its own market figures: price, liquidity, volume, price change and trades.",
		"The pool with its market figures."), s.getPool)
	register(s, get("getPoolReserves", "/v1/pools/{pool}/reserves", ClassProvider, "A pool's reserves",
		"A pool's reserves read live from the chain, oriented as base and quote, with the block they were read at.",
		"The pool's base and quote reserves and the block they were read at."), s.poolReserves)
	register(s, bins, s.poolBins)
	register(s, get("getPoolChart", "/v1/pools/{pool}/chart", ClassProvider, "A pool's OHLCV candles",
		"Candles of the pool's price in USD at resolution minutes, newest last, up to limit, before a time if given; mint picks the "+
			"token whose price they show (default the pool's base token).",
		"The pool's candles at the resolution asked for, newest last."), s.poolChart)
	register(s, get("getPoolAudit", "/v1/pools/{pool}/audit", ClassEnriched, "A pool's risk audit",
		"Checks of a pool's token: a simulated buy and sell (taxes, honeypot), code, ownership and mint rights, holder "+
			"concentration and burned liquidity, with a score from 0 (dangerous) to 100. token picks the token in singleton pools.",
		"The audited pool and token, the findings and the score."), s.poolAudit)
}

func tokenRef(t market.Token) TokenRef {
	return TokenRef{Chain: t.Chain, Address: t.Address, Symbol: t.Symbol, Name: t.Name, Decimals: t.Decimals}
}

func windowsOf(v [4]float64) Windows {
	return Windows{M5: market.Decimal(v[0]), H1: market.Decimal(v[1]), H6: market.Decimal(v[2]), H24: market.Decimal(v[3])}
}

func txnsOf(f market.Figures) TxnWindows {
	w := func(i int) BuysSells { return BuysSells{Buys: f.Buys[i], Sells: f.Sells[i]} }
	return TxnWindows{M5: w(0), H1: w(1), H6: w(2), H24: w(3)}
}

func poolSummary(p market.PoolSummary) PoolSummary {
	return PoolSummary{
		PoolRef: PoolRef{Chain: p.Chain, Address: p.Address, Venue: p.Venue, BaseToken: tokenRef(p.Base), QuoteToken: tokenRef(p.Quote),
			CreatedAt: p.CreatedAt, FeeBps: p.FeeBps, Reserves: []string{p.BaseReserve, p.QuoteReserve}},
		PriceUsd: p.PriceUSD, PriceNative: p.PriceNative, LiquidityUsd: p.LiquidityUSD,
		VolumeUsd: windowsOf(p.Figures.VolumeUSD), PriceChangePct: windowsOf(p.Figures.PriceChange), Txns: txnsOf(p.Figures),
	}
}

func (s *Server) searchTokens(ctx context.Context, in *searchInput) (*output[TokenSearchResponse], error) {
	chains, e := s.chainsFor(ctx, string(in.Chain))
	if e != nil {
		return nil, e
	}
	out := &output[TokenSearchResponse]{Body: TokenSearchResponse{OK: true, Chains: names(chains), Results: []TokenRef{}}}
	for _, c := range chains {
		found, err := s.deps.Market.Search(ctx, c.Name, in.Q)
		if err != nil {
			return nil, readError(err)
		}
		for _, t := range found {
			out.Body.Results = append(out.Body.Results, tokenRef(t))
		}
	}
	return out, nil
}

// onMarket resolves a read's chain and addresses and returns the market service serving it.
func (s *Server) onMarket(ctx context.Context, chainName string, addrs ...field) (chain.Info, *market.Service, *Error) {
	c, e := s.resolve(ctx, chainName, addrs...)
	if e == nil {
		e = s.serving(ctx, c)
	}
	return c, s.deps.Market, e
}

func (s *Server) getToken(ctx context.Context, in *tokenInput) (*output[TokenResolution], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("mint", in.Mint))
	if e != nil {
		return nil, e
	}
	r, err := m.Resolve(ctx, c.Name, in.Mint)
	if err != nil {
		return nil, readError(err)
	}
	out := TokenResolution{OK: true, Token: tokenRef(r.Token), TotalSupply: r.TotalSupply, Pools: r.Pools}
	if c.Kind == chain.KindSolana {
		a, err := m.TokenAudit(ctx, c.Name, in.Mint)
		if err != nil {
			return nil, readError(err)
		}
		out.Audit = &TokenAudit{Score: a.Score, Findings: make([]Finding, len(a.Findings))}
		for i, f := range a.Findings {
			out.Audit.Findings[i] = Finding{Code: f.Code, Level: f.Level, Message: f.Message}
		}
	}
	return &output[TokenResolution]{Body: out}, nil
}

func (s *Server) tokenPrice(ctx context.Context, in *tokenInput) (*output[TokenPrice], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), mint("mint", in.Mint))
	if e != nil {
		return nil, e
	}
	p, err := m.Price(ctx, c.Name, in.Mint)
	if err != nil {
		return nil, readError(err)
	}
	return &output[TokenPrice]{Body: TokenPrice{OK: true, Token: tokenRef(p.Token), PriceUsd: p.PriceUSD, PriceNative: p.PriceNative,
		Pool: p.Pool, UpdatedAt: p.UpdatedAt}}, nil
}

func (s *Server) tokenHistory(ctx context.Context, in *historyInput) (*output[PriceHistoryResponse], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("mint", in.Mint), opt("pool", in.Pool))
	if e != nil {
		return nil, e
	}
	t, points, err := m.History(ctx, c.Name, in.Mint, in.Pool, in.Window)
	if err != nil {
		return nil, readError(err)
	}
	out := PriceHistoryResponse{OK: true, Token: tokenRef(t), Window: in.Window, Points: make([]PricePoint, len(points))}
	for i, p := range points {
		out.Points[i] = PricePoint{Time: p.Time, PriceUsd: p.PriceUSD}
	}
	return &output[PriceHistoryResponse]{Body: out}, nil
}

func (s *Server) tokenStats(ctx context.Context, in *tokenInput) (*output[TokenStatsResponse], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("mint", in.Mint))
	if e != nil {
		return nil, e
	}
	st, err := m.Stats(ctx, c.Name, in.Mint)
	if err != nil {
		return nil, readError(err)
	}
	return &output[TokenStatsResponse]{Body: TokenStatsResponse{OK: true, Token: tokenRef(st.Token), PriceUsd: st.PriceUSD,
		LiquidityUsd: st.LiquidityUSD, VolumeUsd: windowsOf(st.Figures.VolumeUSD), PriceChangePct: windowsOf(st.Figures.PriceChange),
		Txns: txnsOf(st.Figures), Buyers24h: st.Buyers24h, Sellers24h: st.Sellers24h, Holders: st.Holders, FdvUsd: st.FdvUSD}}, nil
}

func (s *Server) tokenHolders(ctx context.Context, in *tokenInput) (*output[TopHoldersResponse], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("mint", in.Mint))
	if e != nil {
		return nil, e
	}
	t, holders, err := m.Holders(ctx, c.Name, in.Mint)
	if err != nil {
		return nil, readError(err)
	}
	out := TopHoldersResponse{OK: true, Token: tokenRef(t), Holders: make([]Holder, len(holders))}
	for i, h := range holders {
		out.Holders[i] = Holder{Address: h.Address, Amount: h.Amount, SharePct: h.SharePct}
	}
	return &output[TopHoldersResponse]{Body: out}, nil
}

func (s *Server) tokenTrades(ctx context.Context, in *tradesInput) (*output[TradesResponse], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("mint", in.Mint), opt("pool", in.Pool))
	if e != nil {
		return nil, e
	}
	t, trades, err := m.Trades(ctx, c.Name, in.Mint, in.Pool, in.Cursor, in.Limit)
	if err != nil {
		return nil, readError(err)
	}
	out := TradesResponse{OK: true, Token: tokenRef(t), Trades: make([]Trade, len(trades))}
	for i, tr := range trades {
		out.Trades[i] = Trade{TxHash: tr.TxHash, Pool: tr.Pool, Side: tr.Side, Trader: tr.Trader, TokenAmount: tr.TokenAmount,
			OtherAmount: tr.OtherAmount, PriceUsd: tr.PriceUSD, VolumeUsd: tr.VolumeUSD, Block: tr.Block, Time: tr.Time}
	}
	if len(trades) == in.Limit {
		out.NextCursor = trades[len(trades)-1].Cursor()
	}
	return &output[TradesResponse]{Body: out}, nil
}

func (s *Server) tokenTopTraders(ctx context.Context, in *tokenInput) (*output[TopTradersResponse], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("mint", in.Mint))
	if e != nil {
		return nil, e
	}
	t, traders, err := m.TopTraders(ctx, c.Name, in.Mint)
	if err != nil {
		return nil, readError(err)
	}
	out := TopTradersResponse{OK: true, Token: tokenRef(t), Traders: make([]Trader, len(traders))}
	for i, tr := range traders {
		out.Traders[i] = Trader{Address: tr.Address, VolumeUsd: tr.VolumeUSD, Buys: tr.Buys, Sells: tr.Sells}
	}
	return &output[TopTradersResponse]{Body: out}, nil
}

func (s *Server) trending(ctx context.Context, in *trendingInput) (*output[TrendingResponse], error) {
	chains, pools, e := s.pools(ctx, string(in.Chain), market.ListTrending, string(in.AMM))
	if e != nil {
		return nil, e
	}
	return &output[TrendingResponse]{Body: TrendingResponse{OK: true, Chains: chains, Pools: pools}}, nil
}

func (s *Server) hotPools(ctx context.Context, in *ChainOrAllParam) (*output[HotPoolsResult], error) {
	chains, pools, e := s.pools(ctx, string(in.Chain), market.ListHot, "")
	if e != nil {
		return nil, e
	}
	return &output[HotPoolsResult]{Body: HotPoolsResult{OK: true, Chains: chains, Pools: pools}}, nil
}

func (s *Server) newPools(ctx context.Context, in *ChainOrAllParam) (*output[HotPoolsResult], error) {
	chains, pools, e := s.pools(ctx, string(in.Chain), market.ListNew, "")
	if e != nil {
		return nil, e
	}
	return &output[HotPoolsResult]{Body: HotPoolsResult{OK: true, Chains: chains, Pools: pools}}, nil
}

// pools lists pools across the chains `chain` names (every enabled chain when empty or all).
func (s *Server) pools(ctx context.Context, chainParam string, list market.List, venue string) ([]string, []PoolSummary, *Error) {
	chains, e := s.chainsFor(ctx, chainParam)
	if e != nil {
		return nil, nil, e
	}
	out := []PoolSummary{}
	for _, c := range chains {
		if venue != "" && venueOn(c, venue) != nil {
			continue // a Solana venue has no pools on an EVM chain
		}
		pools, err := s.deps.Market.Pools(ctx, c.Name, list, venue)
		if err != nil {
			return nil, nil, readError(err)
		}
		for _, p := range pools {
			out = append(out, poolSummary(p))
		}
	}
	return names(chains), out, nil
}

func (s *Server) getPool(ctx context.Context, in *poolInput) (*output[PoolDetailsResponse], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("pool", in.Pool))
	if e != nil {
		return nil, e
	}
	p, err := m.Pool(ctx, c.Name, in.Pool)
	if err != nil {
		return nil, readError(err)
	}
	return &output[PoolDetailsResponse]{Body: PoolDetailsResponse{OK: true, Pool: poolSummary(p)}}, nil
}

func (s *Server) poolReserves(ctx context.Context, in *reservesInput) (*output[PoolReserves], error) {
	c, e := s.resolve(ctx, string(in.Chain), addr("pool", in.Pool), addr("base", in.Base), addr("quote", in.Quote))
	if e != nil {
		return nil, e
	}
	if e := venueOn(c, string(in.AMM)); e != nil {
		return nil, e
	}
	if spec, _ := chain.LookupVenue(string(in.AMM)); spec.Kind != chain.ConstantProduct {
		return nil, Errorf(CodeOperationNotSupported, "reserves are read for constant-product pools (%s); %s pools hold liquidity by price range",
			strings.Join(chain.VenuesOf(spec.Family, chain.ConstantProduct), ", "), in.AMM)
	}
	if e := s.serving(ctx, c); e != nil {
		return nil, e
	}
	r, err := s.deps.Market.Reserves(ctx, c.Name, in.Pool, in.Base, in.Quote)
	if err != nil {
		return nil, readError(err)
	}
	return &output[PoolReserves]{Body: PoolReserves{OK: true, Pool: r.Pool, Base: r.Base.Address, Quote: r.Quote.Address,
		BaseAmount: r.BaseAmount, QuoteAmount: r.QuoteAmount, Block: r.Block}}, nil
}

func (s *Server) poolBins(ctx context.Context, in *binsInput) (*output[PoolBinsResult], error) {
	c, e := s.resolve(ctx, string(in.Chain), addr("pool", in.Pool), opt("quote", in.Quote))
	if e != nil {
		return nil, e
	}
	if e := venueOn(c, in.AMM); e != nil {
		return nil, e
	}
	served := s.deps.Market.BinsVenues(c.Name)
	if !slices.Contains(served, in.AMM) {
		if len(served) == 0 {
			return nil, Errorf(CodeOperationNotSupported, "venue %s has no liquidity bins on %s, and no venue with bins is configured there", in.AMM, c.Name)
		}
		return nil, Errorf(CodeOperationNotSupported, "venue %s has no liquidity bins; on %s, %s pools do", in.AMM, c.Name, strings.Join(served, " and "))
	}
	b, err := s.deps.Market.Bins(ctx, c.Name, in.AMM, in.Pool, in.Quote, in.Kind)
	if err != nil {
		return nil, readError(err)
	}
	kind := in.Kind
	if kind == "" {
		kind = market.BinsAll
	}
	out := PoolBinsResult{OK: true, Pool: b.Pool, Venue: VenueName(b.Venue), Kind: kind, Base: b.Base.Address, Quote: b.Quote.Address,
		Price: market.Decimal(b.Price), Tick: int64(b.Tick), Liquidity: b.Liquidity.String(), Block: int64(b.Block), Bins: make([]Bin, len(b.Bins))}
	for i, x := range b.Bins {
		out.Bins[i] = Bin{ID: int64(x.TickLower), Price: market.Decimal(x.PriceLower), PriceLower: market.Decimal(x.PriceLower),
			PriceUpper: market.Decimal(x.PriceUpper), InversePriceLower: market.Decimal(x.InversePriceLower),
			InversePriceUpper: market.Decimal(x.InversePriceUpper), TickLower: int64(x.TickLower), TickUpper: int64(x.TickUpper),
			Liquidity: x.Liquidity.String(), BaseAmount: x.BaseAmount, QuoteAmount: x.QuoteAmount, Current: x.Current}
	}
	return &output[PoolBinsResult]{Body: out}, nil
}

func (s *Server) poolChart(ctx context.Context, in *chartInput) (*output[PoolChartResponse], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("pool", in.Pool), opt("mint", in.Mint))
	if e != nil {
		return nil, e
	}
	resolution, _ := strconv.Atoi(in.Resolution) // the enum admits only integers
	candles, err := m.Chart(ctx, c.Name, in.Pool, resolution, in.Before, in.Limit, in.Mint)
	if err != nil {
		return nil, readError(err)
	}
	out := PoolChartResponse{OK: true, Pool: chain.EVMChecksum(in.Pool), Resolution: in.Resolution, Candles: make([]Candle, len(candles))}
	for i, k := range candles {
		out.Candles[i] = Candle{Time: k.Time, Open: market.Decimal(k.Open), High: market.Decimal(k.High), Low: market.Decimal(k.Low),
			Close: market.Decimal(k.Close), Volume: market.Decimal(k.VolumeUSD)}
	}
	return &output[PoolChartResponse]{Body: out}, nil
}

func (s *Server) poolAudit(ctx context.Context, in *auditInput) (*output[PoolAuditResponse], error) {
	c, m, e := s.onMarket(ctx, string(in.Chain), addr("pool", in.Pool), opt("token", in.Token))
	if e != nil {
		return nil, e
	}
	a, err := m.Audit(ctx, c.Name, in.Pool, in.Token)
	if err != nil {
		return nil, readError(err)
	}
	out := PoolAuditResponse{OK: true, Pool: a.Pool, Token: a.Token, Score: a.Score, Findings: make([]Finding, len(a.Findings))}
	for i, f := range a.Findings {
		out.Findings[i] = Finding{Code: f.Code, Level: f.Level, Message: f.Message}
	}
	return &output[PoolAuditResponse]{Body: out}, nil
}

// venueOn checks that the venue trades on the chain's family: 400 operation_not_supported otherwise.
func venueOn(c chain.Info, venue string) *Error {
	if spec, _ := chain.LookupVenue(venue); spec.Family != c.Kind {
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
