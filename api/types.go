package api

// Shared response objects. Amounts are decimal strings; times are unix seconds.

// TokenRef names a token.
type TokenRef struct {
	Chain    string `json:"chain" example:"base"`
	Address  string `json:"address" example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	Symbol   string `json:"symbol" example:"USDC"`
	Name     string `json:"name" example:"USD Coin"`
	Decimals int    `json:"decimals" example:"6"`
}

// Windows holds a figure per window: 5 minutes, 1, 6 and 24 hours.
type Windows struct {
	M5  string `json:"m5" example:"1520.25"`
	H1  string `json:"h1" example:"18342.6"`
	H6  string `json:"h6" example:"104877.15"`
	H24 string `json:"h24" example:"412930.8"`
}

// BuysSells counts trades by side.
type BuysSells struct {
	Buys  int `json:"buys" example:"42"`
	Sells int `json:"sells" example:"37"`
}

// TxnWindows counts trades per window.
type TxnWindows struct {
	M5  BuysSells `json:"m5"`
	H1  BuysSells `json:"h1"`
	H6  BuysSells `json:"h6"`
	H24 BuysSells `json:"h24"`
}

// PoolRef describes a pool.
type PoolRef struct {
	Chain      string   `json:"chain" example:"base"`
	Address    string   `json:"address" example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Venue      string   `json:"venue" example:"uniswap-v2"`
	BaseToken  TokenRef `json:"baseToken"`
	QuoteToken TokenRef `json:"quoteToken"`
	CreatedAt  int64    `json:"createdAt,omitempty" example:"1696456800"`
	FeeBps     int      `json:"feeBps" example:"30"`
	Reserves   []string `json:"reserves" doc:"Base then quote reserve, in token units." example:"3812460.75,1250.5"`
}

// PoolSummary is a pool with its market figures, as trending, hot and new list them. Its prices are
// the pool's own, as on DexScreener and GeckoTerminal: a token's price across its pools is on
// /v1/tokens/{mint}/price.
type PoolSummary struct {
	PoolRef
	PriceUsd       string     `json:"priceUsd" doc:"The base token's USD price in this pool: priceNative times the quote token's USD price. Empty when the quote token has no USD price." example:"0.9998"`
	PriceNative    string     `json:"priceNative" doc:"The base token's price in the quote token (not in the chain's native coin), from this pool's reserves: quote reserve over base reserve." example:"0.000328"`
	LiquidityUsd   string     `json:"liquidityUsd" doc:"Both reserves in USD, each at its price in this pool: twice the quote reserve at the quote token's USD price (twice the base reserve at the base token's when only that one has a USD price); 0 when neither has one." example:"7624921.5"`
	VolumeUsd      Windows    `json:"volumeUsd"`
	PriceChangePct Windows    `json:"priceChangePct" doc:"Change of the base token's USD price in this pool over each window, percent." example:"{\"m5\":\"0.02\",\"h1\":\"-0.01\",\"h6\":\"0.03\",\"h24\":\"-0.02\"}"`
	Txns           TxnWindows `json:"txns"`
}

// Trade is one swap, seen from the requested token: side buy means the trader bought it.
type Trade struct {
	TxHash      string `json:"txHash" example:"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a"`
	Pool        string `json:"pool" example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Side        string `json:"side" enum:"buy,sell" doc:"buy: the trader bought the requested token." example:"buy"`
	Trader      string `json:"trader" doc:"The transaction's sender." example:"0x4A8C1E2F6B3D9057ac2e41B8F3D6c09E7B5A1f23"`
	TokenAmount string `json:"tokenAmount" doc:"Amount of the requested token, in token units." example:"1520.5"`
	OtherAmount string `json:"otherAmount" doc:"Amount of the pool's other token, in token units." example:"0.49876"`
	PriceUsd    string `json:"priceUsd" doc:"The requested token's USD price in the trade's pool after the trade." example:"0.9998"`
	VolumeUsd   string `json:"volumeUsd" example:"1520.2"`
	Block       int64  `json:"block" example:"38512345"`
	Time        int64  `json:"time" example:"1763798400"`
}

// Candle is one OHLCV interval.
type Candle struct {
	Time   int64  `json:"time" doc:"Interval start, unix seconds." example:"1763798400"`
	Open   string `json:"open" example:"0.9997"`
	High   string `json:"high" example:"1.0003"`
	Low    string `json:"low" example:"0.9994"`
	Close  string `json:"close" example:"0.9998"`
	Volume string `json:"volume" doc:"Volume in USD." example:"48210.35"`
}

// Finding is one result of a pool audit.
type Finding struct {
	Code    string `json:"code" example:"owner_not_renounced"`
	Level   string `json:"level" enum:"info,warning,danger" example:"warning"`
	Message string `json:"message" example:"the token has an owner (0x2F61E8b7A94C03d5e1B6F8A2C7D40E93b5A1c6f8) who may still change it"`
}

// SourceHealth tells whether one source answered and whether its discovery was complete. A source
// with ok true and complete false is partial; HTTP 200 alone does not prove complete discovery.
type SourceHealth struct {
	Source   string `json:"source" example:"base:index"`
	OK       bool   `json:"ok" example:"true"`
	Complete bool   `json:"complete" example:"false"`
	Error    string `json:"error,omitempty" example:"index request timed out"`
}
