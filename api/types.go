package api

import "github.com/danielgtaylor/huma/v2"

// Shared response objects. Amounts are decimal strings; times are unix seconds.

// TokenRef names a token.
type TokenRef struct {
	Chain    string `json:"chain" doc:"The chain the token lives on (a chain parameter value)." example:"base"`
	Address  string `json:"address" doc:"The token's address: an EIP-55 checksummed contract address on EVM chains, the mint on Solana." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	Symbol   string `json:"symbol" doc:"The token's symbol, as its metadata gives it; empty when it has none." example:"USDC"`
	Name     string `json:"name" doc:"The token's name, as its metadata gives it; empty when it has none." example:"USD Coin"`
	Decimals int    `json:"decimals" doc:"How many decimals a token unit has: an amount in token units is the integer base-unit amount divided by 10^decimals." example:"6"`
}

// TransformSchema describes TokenRef in the OpenAPI document.
func (TokenRef) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A token: the chain it lives on, its address, and its symbol, name and decimals as its contract (or mint metadata) gives them.")
}

// Windows holds a figure per window: 5 minutes, 1, 6 and 24 hours.
type Windows struct {
	M5  string `json:"m5" doc:"Over the last 5 minutes." example:"1520.25"`
	H1  string `json:"h1" doc:"Over the last hour." example:"18342.6"`
	H6  string `json:"h6" doc:"Over the last 6 hours." example:"104877.15"`
	H24 string `json:"h24" doc:"Over the last 24 hours." example:"412930.8"`
}

// TransformSchema describes Windows in the OpenAPI document.
func (Windows) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One figure per trailing window, each a decimal string: the last 5 minutes, 1 hour, 6 hours and 24 hours. What the figure is (USD volume, price change in percent) is said by the field that holds it.")
}

// BuysSells counts trades by side.
type BuysSells struct {
	Buys  int `json:"buys" doc:"Trades that bought the token." example:"42"`
	Sells int `json:"sells" doc:"Trades that sold the token." example:"37"`
}

// TransformSchema describes BuysSells in the OpenAPI document.
func (BuysSells) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "The number of trades in one window, by side, seen from the pool's base token (or the requested token).")
}

// TxnWindows counts trades per window.
type TxnWindows struct {
	M5  BuysSells `json:"m5" doc:"Trades over the last 5 minutes."`
	H1  BuysSells `json:"h1" doc:"Trades over the last hour."`
	H6  BuysSells `json:"h6" doc:"Trades over the last 6 hours."`
	H24 BuysSells `json:"h24" doc:"Trades over the last 24 hours."`
}

// TransformSchema describes TxnWindows in the OpenAPI document.
func (TxnWindows) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "Trade counts, buys and sells, over each trailing window: the last 5 minutes, 1 hour, 6 hours and 24 hours.")
}

// PoolRef describes a pool.
type PoolRef struct {
	Chain      string   `json:"chain" doc:"The chain the pool is on." example:"base"`
	Address    string   `json:"address" doc:"The pool's address (the pair contract on EVM chains), EIP-55 checksummed on EVM chains." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Venue      string   `json:"venue" doc:"The venue the pool belongs to, as the amm parameter names it." example:"uniswap-v2"`
	BaseToken  TokenRef `json:"baseToken" doc:"The token the pool's prices are of."`
	QuoteToken TokenRef `json:"quoteToken" doc:"The token the pool's prices are in: the stablecoin or wrapped native token of the pair when it has one."`
	CreatedAt  int64    `json:"createdAt,omitempty" doc:"When the pool was created, unix seconds; absent when the service has not seen its creation." example:"1696456800"`
	FeeBps     int      `json:"feeBps" doc:"The swap fee the pool charges on the input amount, basis points (30 is 0.3 %)." example:"30"`
	Reserves   []string `json:"reserves" doc:"Base then quote reserve, in token units. A uniswap-v3 (concentrated-liquidity) pool's are its virtual reserves at the current price, L/sqrt(P) and L*sqrt(P) of its in-range liquidity L: what a constant-product pool of the same depth would hold, not the tokens it holds; they price it, and liquidityUsd is their value." example:"3812460.75,1250.5"`
}

// TransformSchema describes PoolRef in the OpenAPI document.
func (PoolRef) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A liquidity pool: where it is, its venue, its two tokens oriented as base and quote, its swap fee and its reserves.")
}

// PoolSummary is a pool with its market figures, as trending, hot and new list them. Its prices are
// the pool's own, as on DexScreener and GeckoTerminal: a token's price across its pools is on
// /v1/tokens/{mint}/price.
type PoolSummary struct {
	PoolRef
	PriceUsd       string     `json:"priceUsd" doc:"The base token's USD price in this pool: priceNative times the quote token's USD price. Empty when the quote token has no USD price." example:"0.9998"`
	PriceNative    string     `json:"priceNative" doc:"The base token's price in the quote token (not in the chain's native coin), from this pool's reserves: quote reserve over base reserve." example:"0.000328"`
	LiquidityUsd   string     `json:"liquidityUsd" doc:"Both reserves in USD, each at its price in this pool: twice the quote reserve at the quote token's USD price (twice the base reserve at the base token's when only that one has a USD price); 0 when neither has one." example:"7624921.5"`
	VolumeUsd      Windows    `json:"volumeUsd" doc:"USD volume of the pool's swaps over each window, each swap valued at its USD price then."`
	PriceChangePct Windows    `json:"priceChangePct" doc:"Change of the base token's USD price in this pool over each window, percent." example:"{\"m5\":\"0.02\",\"h1\":\"-0.01\",\"h6\":\"0.03\",\"h24\":\"-0.02\"}"`
	Txns           TxnWindows `json:"txns" doc:"The pool's swaps over each window, counted by side: a buy bought the base token."`
}

// TransformSchema describes PoolSummary in the OpenAPI document.
func (PoolSummary) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A pool with its own market figures, as trending, hot, new and a pool's details give it. Its prices are the pool's own (as on DexScreener and GeckoTerminal); a token's one price across its pools is GET /v1/tokens/{mint}/price.")
}

// Trade is one swap, seen from the requested token: side buy means the trader bought it.
type Trade struct {
	TxHash      string `json:"txHash" doc:"The transaction's hash (EVM) or signature (Solana)." example:"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a"`
	Pool        string `json:"pool" doc:"The pool the swap went through." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Side        string `json:"side" enum:"buy,sell" doc:"buy: the trader bought the requested token." example:"buy"`
	Trader      string `json:"trader" doc:"The transaction's sender." example:"0x4A8C1E2F6B3D9057ac2e41B8F3D6c09E7B5A1f23"`
	TokenAmount string `json:"tokenAmount" doc:"Amount of the requested token, in token units." example:"1520.5"`
	OtherAmount string `json:"otherAmount" doc:"Amount of the pool's other token, in token units." example:"0.49876"`
	PriceUsd    string `json:"priceUsd" doc:"The requested token's USD price in the trade's pool after the trade." example:"0.9998"`
	VolumeUsd   string `json:"volumeUsd" doc:"The swap's value in USD." example:"1520.2"`
	Block       int64  `json:"block" doc:"The block (EVM) or slot (Solana) the swap was mined in." example:"38512345"`
	Time        int64  `json:"time" doc:"When the swap was mined: its block's time, unix seconds." example:"1763798400"`
}

// TransformSchema describes Trade in the OpenAPI document.
func (Trade) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One swap of the requested token, seen from that token: side buy means the trader bought it.")
}

// Candle is one OHLCV interval.
type Candle struct {
	Time   int64  `json:"time" doc:"Interval start, unix seconds." example:"1763798400"`
	Open   string `json:"open" doc:"USD price at the interval's start: the previous interval's close (the first swap's price for the first interval)." example:"0.9997"`
	High   string `json:"high" doc:"Highest USD price in the interval." example:"1.0003"`
	Low    string `json:"low" doc:"Lowest USD price in the interval." example:"0.9994"`
	Close  string `json:"close" doc:"USD price after the interval's last swap." example:"0.9998"`
	Volume string `json:"volume" doc:"Volume in USD." example:"48210.35"`
}

// TransformSchema describes Candle in the OpenAPI document.
func (Candle) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One OHLCV interval of a pool's chart: the token's USD price at its open, high, low and close, and the USD volume swapped in it. Intervals without a swap are left out.")
}

// Finding is one result of a pool audit.
type Finding struct {
	Code    string `json:"code" doc:"What was found, machine-readable (owner_not_renounced, mintable, honeypot, buy_tax, sell_tax, mint_authority, freeze_authority ...); new codes may be added." example:"owner_not_renounced"`
	Level   string `json:"level" enum:"info,warning,danger" doc:"How much it matters: info, worth knowing (no effect on the score); warning, a risk to weigh (15 off the score); danger, likely to cost a buyer its funds (40 off)." example:"warning"`
	Message string `json:"message" doc:"What was found, in words, with the addresses and figures involved." example:"the token has an owner (0x2F61E8b7A94C03d5e1B6F8A2C7D40E93b5A1c6f8) who may still change it"`
}

// TransformSchema describes Finding in the OpenAPI document.
func (Finding) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One result of an audit: a machine-readable code, how much it matters, and a sentence for a person.")
}

// SourceHealth tells whether one source answered and whether its discovery was complete. A source
// with ok true and complete false is partial; HTTP 200 alone does not prove complete discovery.
type SourceHealth struct {
	Source   string `json:"source" doc:"The source: <chain>:rpc (balances read from the chain), <chain>:index (the pools and tokens the service follows) or <chain>:farms (the chain's farms)." example:"base:index"`
	OK       bool   `json:"ok" doc:"Whether the source answered." example:"true"`
	Complete bool   `json:"complete" doc:"Whether the source's discovery is complete: false when it can only cover what the service follows, or a part did not answer." example:"false"`
	Error    string `json:"error,omitempty" doc:"Why the source did not answer; absent when it did." example:"index request timed out"`
}

// TransformSchema describes SourceHealth in the OpenAPI document.
func (SourceHealth) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "Whether one source of a portfolio read answered, and whether what it discovered is complete. ok true with complete false is partial: HTTP 200 alone does not prove complete discovery or a zero balance.")
}
