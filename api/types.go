package api

// Shared response objects. Amounts are decimal strings; times are unix seconds.

// TokenRef names a token.
type TokenRef struct {
	Chain    string `json:"chain" example:"base"`
	Address  string `json:"address" example:"0x833589fcd6ee"`
	Symbol   string `json:"symbol" example:"USDC"`
	Name     string `json:"name" example:"USD Coin"`
	Decimals int    `json:"decimals" example:"6"`
}

// Windows holds a figure per window: 5 minutes, 1, 6 and 24 hours.
type Windows struct {
	M5  string `json:"m5" example:"1520.25"`
	H1  string `json:"h1"`
	H6  string `json:"h6"`
	H24 string `json:"h24"`
}

// BuysSells counts trades by side.
type BuysSells struct {
	Buys  int `json:"buys"`
	Sells int `json:"sells"`
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
	Chain      string   `json:"chain"`
	Address    string   `json:"address"`
	Venue      string   `json:"venue" example:"uniswap-v2"`
	BaseToken  TokenRef `json:"baseToken"`
	QuoteToken TokenRef `json:"quoteToken"`
	CreatedAt  int64    `json:"createdAt,omitempty"`
	FeeBps     int      `json:"feeBps" example:"30"`
	Reserves   []string `json:"reserves" doc:"Base then quote reserve, in token units."`
}

// PoolSummary is a pool with its market figures, as trending, hot and new list them.
type PoolSummary struct {
	PoolRef
	PriceUsd       string     `json:"priceUsd"`
	PriceNative    string     `json:"priceNative"`
	LiquidityUsd   string     `json:"liquidityUsd"`
	VolumeUsd      Windows    `json:"volumeUsd"`
	PriceChangePct Windows    `json:"priceChangePct"`
	Txns           TxnWindows `json:"txns"`
}

// Trade is one swap, seen from the requested token: side buy means the trader bought it.
type Trade struct {
	TxHash      string `json:"txHash"`
	Pool        string `json:"pool"`
	Side        string `json:"side" enum:"buy,sell" doc:"buy: the trader bought the requested token."`
	Trader      string `json:"trader" doc:"The transaction's sender."`
	TokenAmount string `json:"tokenAmount" doc:"Amount of the requested token, in token units." example:"1520.5"`
	OtherAmount string `json:"otherAmount" doc:"Amount of the pool's other token, in token units."`
	PriceUsd    string `json:"priceUsd" doc:"The requested token's USD price after the trade."`
	VolumeUsd   string `json:"volumeUsd"`
	Block       int64  `json:"block"`
	Time        int64  `json:"time"`
}

// Candle is one OHLCV interval.
type Candle struct {
	Time   int64  `json:"time" doc:"Interval start, unix seconds."`
	Open   string `json:"open"`
	High   string `json:"high"`
	Low    string `json:"low"`
	Close  string `json:"close"`
	Volume string `json:"volume" doc:"Volume in USD."`
}

// Finding is one result of a pool audit.
type Finding struct {
	Code    string `json:"code" example:"owner_not_renounced"`
	Level   string `json:"level" enum:"info,warning,danger"`
	Message string `json:"message"`
}

// SourceHealth tells whether one source answered and whether its discovery was complete. A source
// with ok true and complete false is partial; HTTP 200 alone does not prove complete discovery.
type SourceHealth struct {
	Source   string `json:"source" example:"base:index"`
	OK       bool   `json:"ok"`
	Complete bool   `json:"complete"`
	Error    string `json:"error,omitempty"`
}
