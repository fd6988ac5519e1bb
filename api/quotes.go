package api

import (
	"context"
	"errors"
	"net/http"
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/trade"
)

// Quotes and status (scope quote:read).

// SwapQuoteResponse is an exact-input swap quote, by chain family: EVMSwapQuoteResponse or
// SolanaSwapQuoteResponse, told apart by kind.
type SwapQuoteResponse struct {
	EVM    *EVMSwapQuoteResponse
	Solana *SolanaSwapQuoteResponse
}

// MarshalJSON writes the quote of its family.
func (q SwapQuoteResponse) MarshalJSON() ([]byte, error) { return marshalOne(q.EVM, q.Solana) }

// UnmarshalJSON reads the quote of the family its kind names.
func (q *SwapQuoteResponse) UnmarshalJSON(data []byte) error {
	return unmarshalOne(data, &q.EVM, &q.Solana)
}

// Schema documents the two quotes as a union on kind.
func (SwapQuoteResponse) Schema(r huma.Registry) *huma.Schema {
	return kindOneOf(r, "SwapQuoteResponse", "A swap quote, by chain family (kind). raw is the complete quote: a Solana swap build takes it back unchanged as quoteResponse.",
		reflect.TypeFor[EVMSwapQuoteResponse](), "EVMSwapQuoteResponse", reflect.TypeFor[SolanaSwapQuoteResponse](), "SolanaSwapQuoteResponse")
}

// EVMSwapQuoteResponse is an EVM swap quote: the quote's fields, and all of them again as raw.
type EVMSwapQuoteResponse struct {
	OK bool `json:"ok" doc:"Always true." example:"true"`
	EVMQuote
	Raw EVMQuote `json:"raw" doc:"The complete quote, for the record (an EVM swap build quotes again from inputMint, outputMint, amount and slippageBps)."`
}

// SolanaSwapQuoteResponse is a Solana swap quote: the quote's fields, and all of them again as raw,
// which a Solana swap build takes back unchanged as quoteResponse.
type SolanaSwapQuoteResponse struct {
	OK bool `json:"ok" doc:"Always true." example:"true"`
	SolanaQuote
	Raw SolanaQuote `json:"raw" doc:"The complete quote: a Solana swap build takes it back unchanged as quoteResponse."`
}

// Quote is the fresh quote a build used, by chain family: EVMQuote or SolanaQuote, told apart by kind.
type Quote struct {
	EVM    *EVMQuote
	Solana *SolanaQuote
}

// MarshalJSON writes the quote of its family.
func (q Quote) MarshalJSON() ([]byte, error) { return marshalOne(q.EVM, q.Solana) }

// UnmarshalJSON reads the quote of the family its kind names.
func (q *Quote) UnmarshalJSON(data []byte) error { return unmarshalOne(data, &q.EVM, &q.Solana) }

// Schema documents the two quotes as a union on kind.
func (Quote) Schema(r huma.Registry) *huma.Schema {
	return kindOneOf(r, "Quote", "The fresh quote a swap build used, by chain family (kind).",
		reflect.TypeFor[EVMQuote](), "EVMQuote", reflect.TypeFor[SolanaQuote](), "SolanaQuote")
}

// EVMQuote is an exact-input swap quote on an EVM chain, from live Uniswap V2 reserves read at one
// block.
type EVMQuote struct {
	Kind           string     `json:"kind" enum:"evm" doc:"evm: a quote on an EVM chain." example:"evm"`
	Chain          string     `json:"chain" doc:"The chain quoted on." example:"base"`
	InputMint      string     `json:"inputMint" doc:"The token sold, or native." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputMint     string     `json:"outputMint" doc:"The token bought, or native." example:"0x4200000000000000000000000000000000000006"`
	InAmount       string     `json:"inAmount" doc:"Integer base units of inputMint sold." example:"1000000000"`
	OutAmount      string     `json:"outAmount" doc:"Integer base units of outputMint bought, exact at the block read (Uniswap V2 integer math with each pool's fee)." example:"304512877301245112"`
	MinOutAmount   string     `json:"minOutAmount" doc:"Integer base units: outAmount less slippageBps, rounded down; a build reverts below it." example:"302990312914739086"`
	SlippageBps    int        `json:"slippageBps" doc:"The accepted slippage, basis points." example:"50"`
	PriceImpactPct string     `json:"priceImpactPct" doc:"How much worse than the route's mid price this swap executes, percent (the pools' fees included)." example:"0.3512"`
	Route          []RouteHop `json:"route" doc:"The pools, in order."`
	Gas            int64      `json:"gas" doc:"Estimated gas of the swap call (a build simulates it exactly)." example:"115000"`
	NetworkFee     NetworkFee `json:"networkFee" doc:"Estimated network fee of the swap call at the current base fee and tip."`
	Block          int64      `json:"block" doc:"The block the reserves were read at." example:"38512345"`
	ExpiresAt      int64      `json:"expiresAt" doc:"Unix seconds after which the quote should be fetched again (30 s)." example:"1763798460"`
	FeeOnTransfer  bool       `json:"feeOnTransfer" doc:"A token of the swap keeps part of each transfer: outAmount is what arrives after its taxes, and a build uses the router's fee-on-transfer variants." example:"false"`
	Taxes          []TokenTax `json:"taxes,omitempty" doc:"The transfer taxes of the swap's taxed tokens, measured by simulating a buy and a sell on their pool."`
}

// SolanaQuote is an exact-input swap quote on Solana, in the shape Jupiter's quote API answers,
// so that Solana tooling reads it as is.
type SolanaQuote struct {
	Kind                 string                `json:"kind" enum:"solana" doc:"solana: a quote on Solana." example:"solana"`
	Chain                SolanaChainName       `json:"chain" doc:"The chain quoted on."`
	InputMint            string                `json:"inputMint" doc:"The mint sold (wrapped SOL's for SOL)." example:"So11111111111111111111111111111111111111112"`
	InAmount             string                `json:"inAmount" doc:"Integer base units of inputMint sold." example:"1000000000"`
	OutputMint           string                `json:"outputMint" doc:"The mint bought." example:"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"`
	OutAmount            string                `json:"outAmount" doc:"Integer base units of outputMint bought, exact at contextSlot." example:"150000000"`
	OtherAmountThreshold string                `json:"otherAmountThreshold" doc:"Integer base units: outAmount less slippageBps, rounded down; the swap fails below it." example:"149250000"`
	SwapMode             string                `json:"swapMode" enum:"ExactIn" doc:"ExactIn: inAmount is sold exactly." example:"ExactIn"`
	SlippageBps          int                   `json:"slippageBps" doc:"The accepted slippage, basis points." example:"50"`
	PriceImpactPct       string                `json:"priceImpactPct" doc:"How much worse than the route's mid price this swap executes, as a fraction (Jupiter's unit: 0.0035 is 0.35 %)." example:"0.0035"`
	PlatformFee          *SolanaPlatformFee    `json:"platformFee" doc:"Jupiter's platform fee: none is charged, so null."`
	RoutePlan            []SolanaRoutePlanStep `json:"routePlan" doc:"The pools, in order."`
	ContextSlot          uint64                `json:"contextSlot" doc:"The slot the pools were read at." example:"301234567"`
	TimeTaken            float64               `json:"timeTaken" doc:"Seconds the quote took to compute, its read included." example:"0.0021"`
	ExpiresAt            int64                 `json:"expiresAt" doc:"Unix seconds after which the quote should be fetched again (30 s); a swap build refuses it after that with 409 review_required and a fresh quote." example:"1763798460"`
	Seal                 string                `json:"seal" doc:"This service's seal over the quote, for the consumer and chain that asked: a swap build refuses a quoteResponse whose fields or seal were changed (400 invalid_request)." example:"q2b7C4yQ0cU3xk2mJ5aS9b1Vf8Zr4tLw6eN0hXoPjGk"`
}

// SolanaPlatformFee is Jupiter's platformFee of a quote.
type SolanaPlatformFee struct {
	Amount string `json:"amount" doc:"Integer base units of the output mint." example:"0"`
	FeeBps int    `json:"feeBps" doc:"Basis points." example:"0"`
}

// Schema documents the platform fee as an object or null (no fee is charged: always null).
func (SolanaPlatformFee) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{Type: huma.TypeObject, Nullable: true, Description: "Jupiter's platform fee of a quote; null: none is charged (always, here).",
		Properties: map[string]*huma.Schema{
			"amount": {Type: huma.TypeString, Description: "Integer base units of the output mint.", Examples: []any{"0"}},
			"feeBps": {Type: huma.TypeInteger, Format: "int64", Description: "Basis points.", Examples: []any{0}},
		}, Required: []string{"amount", "feeBps"}}
}

// SolanaRoutePlanStep is one pool of a Solana quote's route, as Jupiter names it.
type SolanaRoutePlanStep struct {
	SwapInfo SolanaSwapInfo `json:"swapInfo" doc:"The pool and what it swaps."`
	Percent  int            `json:"percent" doc:"The share of the input routed through this step, percent (100: one route)." example:"100"`
}

// SolanaSwapInfo is what one pool of a Solana route swaps.
type SolanaSwapInfo struct {
	AmmKey     string          `json:"ammKey" doc:"The pool's address." example:"58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2"`
	Label      SolanaVenueName `json:"label" doc:"The venue."`
	InputMint  string          `json:"inputMint" doc:"The mint the pool receives." example:"So11111111111111111111111111111111111111112"`
	OutputMint string          `json:"outputMint" doc:"The mint the pool pays out." example:"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"`
	InAmount   string          `json:"inAmount" doc:"Integer base units of inputMint." example:"1000000000"`
	OutAmount  string          `json:"outAmount" doc:"Integer base units of outputMint." example:"150000000"`
	FeeAmount  string          `json:"feeAmount" doc:"Integer base units of feeMint the pool keeps as its fee." example:"2500000"`
	FeeMint    string          `json:"feeMint" doc:"The mint the fee is taken in." example:"So11111111111111111111111111111111111111112"`
}

// RouteHop is one pool of a quote's route.
type RouteHop struct {
	Pool      string `json:"pool" doc:"The pool (pair) swapped through." example:"0x88a43bbdf9d098eec7bceda4e2494615dfd9bb9c"`
	Venue     string `json:"venue" doc:"The pool's venue, as the amm parameter names it." example:"uniswap-v2"`
	FeeBps    int    `json:"feeBps" doc:"The pool's swap fee, basis points." example:"30"`
	TokenIn   string `json:"tokenIn" doc:"The token the pool receives (the wrapped native token for native)." example:"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"`
	TokenOut  string `json:"tokenOut" doc:"The token the pool pays out." example:"0x4200000000000000000000000000000000000006"`
	AmountIn  string `json:"amountIn" doc:"Integer base units of tokenIn." example:"1000000000"`
	AmountOut string `json:"amountOut" doc:"Integer base units of tokenOut." example:"304512877301245112"`
}

// TokenTax is a token's transfer tax, in basis points of the amount transferred.
type TokenTax struct {
	Token      string `json:"token" doc:"The taxed token." example:"0xd3c0d1053efee01bbda6aa604e315858fddad976"`
	BuyTaxBps  int    `json:"buyTaxBps" doc:"Kept from transfers out of its pool (buys)." example:"300"`
	SellTaxBps int    `json:"sellTaxBps" doc:"Kept from transfers into its pool (sells)." example:"500"`
}

// NetworkFee is an amount of the chain's gas token and its USD value.
type NetworkFee struct {
	Native string `json:"native" doc:"Gas token units." example:"0.000012"`
	USD    string `json:"usd,omitempty" doc:"US dollars; absent when the chain has no pool pricing its gas token." example:"0.036"`
}

// BridgeQuoteResponse is a bridge quote.
type BridgeQuoteResponse struct {
	OK          bool           `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	FromChain   string         `json:"fromChain" doc:"The origin chain." example:"base"`
	ToChain     string         `json:"toChain" doc:"The destination chain." example:"ethereum"`
	InAmount    string         `json:"inAmount" doc:"Token units." example:"1000"`
	OutAmount   string         `json:"outAmount" doc:"Token units." example:"998.75"`
	FeeAmount   string         `json:"feeAmount" doc:"Token units of the input token." example:"1.25"`
	EtaSeconds  int            `json:"etaSeconds" doc:"Expected seconds from the origin transaction to delivery on toChain." example:"120"`
	Raw         map[string]any `json:"raw" doc:"The complete quote." example:"{\"route\":\"canonical\"}"`
	ExpiresAt   int64          `json:"expiresAt" doc:"Unix seconds." example:"1763798460"`
	Provider    string         `json:"provider" doc:"The bridge that would carry the transfer." example:"canonical"`
	Recipient   string         `json:"recipient" doc:"The receiver on toChain." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	InputToken  string         `json:"inputToken" doc:"The token sent on fromChain, or native." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputToken string         `json:"outputToken" doc:"The token delivered on toChain, or native." example:"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"`
}

// TransactionStatusResponse is the status of a submitted transaction on its origin chain.
type TransactionStatusResponse struct {
	OK            bool   `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Chain         string `json:"chain" doc:"The chain looked up." example:"base"`
	Signature     string `json:"signature" doc:"The transaction hash (EVM) or signature (Solana) looked up." example:"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a"`
	Status        string `json:"status" enum:"unknown,pending,confirmed,finalized,failed" doc:"unknown: the chain's node does not know it; pending: known, not mined; confirmed: mined and succeeded; finalized: at least the chain's confirmation depth deep; failed: mined and reverted." example:"confirmed"`
	Block         int64  `json:"block,omitempty" doc:"Mined: its block." example:"38512345"`
	Confirmations int    `json:"confirmations,omitempty" doc:"Mined: blocks on top of it, its own included." example:"3"`
	Error         string `json:"error,omitempty" doc:"failed: the revert reason, when it decodes." example:"UniswapV2: INSUFFICIENT_OUTPUT_AMOUNT"`
}

type swapQuoteInput struct {
	ChainParam
	InputMint   string `query:"inputMint" required:"true" maxLength:"100" doc:"Token to sell (native for the chain's gas token)." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputMint  string `query:"outputMint" required:"true" maxLength:"100" doc:"Token to buy (native for the chain's gas token)." example:"0x4200000000000000000000000000000000000006"`
	Amount      string `query:"amount" required:"true" maxLength:"78" doc:"Input amount, integer base units." pattern:"^[1-9][0-9]*$" example:"1000000000"`
	SlippageBps int    `query:"slippageBps" minimum:"0" maximum:"5000" default:"50" doc:"Accepted slippage, basis points." example:"50"`
}

// BridgeQuoteRequest asks for a bridge quote. Amount is in human token units.
type BridgeQuoteRequest struct {
	FromChain   ChainName `json:"fromChain" doc:"The origin chain, where inputToken is sent from; it must be enabled." example:"base"`
	ToChain     ChainName `json:"toChain" doc:"The destination chain, where outputToken is delivered." example:"ethereum"`
	InputToken  string    `json:"inputToken" maxLength:"100" doc:"The token to send on the origin chain, or native for its gas coin." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputToken string    `json:"outputToken" maxLength:"100" doc:"The token to receive on the destination chain, or native for its gas coin." example:"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"`
	Amount      string    `json:"amount" maxLength:"100" doc:"Human token units, e.g. 12.5." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"1000"`
	User        string    `json:"user" maxLength:"100" doc:"Sender on the origin chain." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	Recipient   string    `json:"recipient,omitempty" maxLength:"100" doc:"Receiver on the destination chain; default the sender where the families match." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	_           struct{}  `additionalProperties:"true"`
}

type bridgeQuoteInput struct {
	Body BridgeQuoteRequest
}

type txStatusInput struct {
	Signature string `path:"signature" maxLength:"128" doc:"EVM transaction hash or Solana signature." example:"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a"`
	ChainParam
}

func (s *Server) registerQuotes() {
	spec := func(id, method, path, summary, description string) opSpec {
		return opSpec{ID: id, Method: method, Path: path, Summary: summary, Description: description, Tag: "Quotes", Scope: ScopeQuoteRead, Class: ClassProvider,
			Body: map[string]string{"getBridgeQuote": "The bridge to quote: fromChain and toChain, inputToken and outputToken, amount in human token units, the sender (user) and optionally the recipient."}[id],
			Returns: map[string]string{
				"getSwapQuote":         "The quote, by chain family (kind), with raw, the complete quote.",
				"getBridgeQuote":       "The bridge quote: what arrives, the fee and the expected time.",
				"getTransactionStatus": "The transaction's status on its origin chain, with its block and confirmations once mined.",
			}[id]}
	}
	const onChains = " GET /v1/chains lists the chains that serve it."
	quote := spec("getSwapQuote", http.MethodGet, "/v1/quotes/swap", "A swap quote",
		"What amount (integer base units) of inputMint buys of outputMint, its minimum after slippageBps, the price impact, the route, "+
			"the estimated gas and network fee, and the block it was read at. EVM: the best of the direct pool and the two-hop routes "+
			"through the wrapped native token and the USD stablecoins on every uniswap-v2 venue, from live reserves (exact Uniswap V2 "+
			"integer math); native names the chain's gas token; a token that taxes its transfers is quoted after its taxes and flagged "+
			"(feeOnTransfer). Solana: in Jupiter's QuoteResponse shape; the best of the raydium pools of the pair and the two-hop routes "+
			"through wrapped SOL and the USD stablecoin, under each CPMM fee tier, from the pool, vault, config, mint and clock accounts read "+
			"in one getMultipleAccounts and priced with CPMM's exact math (Token-2022 transfer fees taken where they bite); native is SOL "+
			"(quoted as wrapped SOL); good for 30 s (expiresAt) and sealed for the consumer and chain (seal). No route: 404 no_route. "+
			"raw is the complete quote: a Solana swap build takes it back unchanged."+onChains)
	quote.Serves, quote.Needs = s.tradeServesSwaps, chain.CapSwaps
	register(s, quote, s.swapQuote)
	register(s, spec("getBridgeQuote", http.MethodPost, "/v1/quotes/bridge", "A bridge quote",
		"What amount (human token units) moving a token from one chain to another delivers, its fee and expected time. "+
			"Not available on any chain yet: GET /v1/chains lists each chain's operations."), s.bridgeQuote)
	status := spec("getTransactionStatus", http.MethodGet, "/v1/transactions/{signature}/status", "Status of a submitted transaction",
		"Whether a transaction hash or signature is unknown, pending, confirmed, finalized (at least the chain's confirmation depth deep) "+
			"or failed (with the revert reason when it decodes), on its origin chain only (not a bridge's destination)."+onChains)
	status.Serves = s.tradeServesTransfers
	register(s, status, s.transactionStatus)
}

func (s *Server) swapQuote(ctx context.Context, in *swapQuoteInput) (*output[SwapQuoteResponse], error) {
	if e := amountError(chain.ParseBaseUnits(in.Amount)); e != nil {
		return nil, e
	}
	c, e := s.resolve(ctx, string(in.Chain), mint("inputMint", in.InputMint), mint("outputMint", in.OutputMint))
	if e == nil {
		e = s.serving(ctx, c)
	}
	if e != nil {
		return nil, e
	}
	q, err := s.deps.Trade.QuoteSwap(ctx, consumerOf(ctx), c.Name, in.InputMint, in.OutputMint, in.Amount, in.SlippageBps)
	if err != nil {
		return nil, tradeError(err)
	}
	return &output[SwapQuoteResponse]{Body: swapQuoteResponse(q)}, nil
}

// swapQuoteResponse is the API form of a quote; raw is all of it.
func swapQuoteResponse(q trade.Quote) SwapQuoteResponse {
	if q.Solana != nil {
		sq := solanaQuote(*q.Solana)
		return SwapQuoteResponse{Solana: &SolanaSwapQuoteResponse{OK: true, SolanaQuote: sq, Raw: sq}}
	}
	eq := evmQuote(*q.EVM)
	return SwapQuoteResponse{EVM: &EVMSwapQuoteResponse{OK: true, EVMQuote: eq, Raw: eq}}
}

// tradeQuote is a Solana quote sent back (quoteResponse) as the trade service takes it: every field,
// so that its seal proves it unaltered.
func tradeQuote(q SolanaQuote) trade.SolanaQuote {
	r := trade.SolanaQuote{Chain: string(q.Chain), InputMint: q.InputMint, InAmount: q.InAmount, OutputMint: q.OutputMint, OutAmount: q.OutAmount,
		OtherAmountThreshold: q.OtherAmountThreshold, SwapMode: q.SwapMode, SlippageBps: q.SlippageBps, PriceImpactPct: q.PriceImpactPct,
		ContextSlot: q.ContextSlot, TimeTaken: q.TimeTaken, ExpiresAt: q.ExpiresAt, Seal: q.Seal}
	if f := q.PlatformFee; f != nil {
		r.PlatformFee = &trade.PlatformFee{Amount: f.Amount, FeeBps: f.FeeBps}
	}
	for _, st := range q.RoutePlan {
		i := st.SwapInfo
		r.RoutePlan = append(r.RoutePlan, trade.SolanaRouteStep{Percent: st.Percent, SwapInfo: trade.SolanaSwapInfo{AmmKey: i.AmmKey, Label: string(i.Label),
			InputMint: i.InputMint, OutputMint: i.OutputMint, InAmount: i.InAmount, OutAmount: i.OutAmount, FeeAmount: i.FeeAmount, FeeMint: i.FeeMint}})
	}
	return r
}

// solanaQuote is the API form of a Solana quote.
func solanaQuote(q trade.SolanaQuote) SolanaQuote {
	r := SolanaQuote{Kind: "solana", Chain: SolanaChainName(q.Chain), InputMint: q.InputMint, InAmount: q.InAmount, OutputMint: q.OutputMint,
		OutAmount: q.OutAmount, OtherAmountThreshold: q.OtherAmountThreshold, SwapMode: q.SwapMode, SlippageBps: q.SlippageBps,
		PriceImpactPct: q.PriceImpactPct, RoutePlan: []SolanaRoutePlanStep{}, ContextSlot: q.ContextSlot, TimeTaken: q.TimeTaken,
		ExpiresAt: q.ExpiresAt, Seal: q.Seal}
	if f := q.PlatformFee; f != nil {
		r.PlatformFee = &SolanaPlatformFee{Amount: f.Amount, FeeBps: f.FeeBps}
	}
	for _, st := range q.RoutePlan {
		i := st.SwapInfo
		r.RoutePlan = append(r.RoutePlan, SolanaRoutePlanStep{Percent: st.Percent, SwapInfo: SolanaSwapInfo{AmmKey: i.AmmKey, Label: SolanaVenueName(i.Label),
			InputMint: i.InputMint, OutputMint: i.OutputMint, InAmount: i.InAmount, OutAmount: i.OutAmount, FeeAmount: i.FeeAmount, FeeMint: i.FeeMint}})
	}
	return r
}

// evmQuote is the API form of an EVM quote.
func evmQuote(q trade.SwapQuote) EVMQuote {
	r := EVMQuote{Kind: "evm", Chain: q.Chain, InputMint: q.InputMint, OutputMint: q.OutputMint, InAmount: q.InAmount,
		OutAmount: q.OutAmount, MinOutAmount: q.MinOutAmount, SlippageBps: q.SlippageBps, PriceImpactPct: q.PriceImpactPct,
		Route: []RouteHop{}, Gas: int64(q.Gas), NetworkFee: NetworkFee{Native: q.NetworkFee.Native, USD: q.NetworkFee.USD}, Block: int64(q.Block),
		ExpiresAt: q.ExpiresAt, FeeOnTransfer: q.FeeOnTransfer}
	for _, h := range q.Route {
		r.Route = append(r.Route, RouteHop(h))
	}
	for _, t := range q.Taxes {
		r.Taxes = append(r.Taxes, TokenTax(t))
	}
	return r
}

func (s *Server) bridgeQuote(ctx context.Context, in *bridgeQuoteInput) (*output[BridgeQuoteResponse], error) {
	from, e := s.resolveBridge(ctx, in.Body)
	if e != nil {
		return nil, e
	}
	return nil, s.notAvailable(ctx, from)
}

// resolveBridge validates a bridge request and returns its origin chain, which must serve the call's
// operation (checked first: a bridge no chain serves says so before anything else); the destination
// must be enabled. Tokens may be native, the chain's gas coin.
func (s *Server) resolveBridge(ctx context.Context, b BridgeQuoteRequest) (chain.Info, *Error) {
	from, e := lookupChain(ctx, string(b.FromChain))
	if e == nil {
		from, e = s.requireChain(string(b.FromChain))
	}
	if e == nil {
		e = s.serving(ctx, from)
	}
	if e != nil {
		return chain.Info{}, e
	}
	if b.FromChain == b.ToChain {
		return chain.Info{}, Errorf(CodeInvalidRequest, "fromChain and toChain must differ")
	}
	if e := amountError(chain.ParseHumanAmount(b.Amount, 36)); e != nil {
		return chain.Info{}, e
	}
	if _, e := s.resolve(ctx, string(b.FromChain), mint("inputToken", b.InputToken), addr("user", b.User)); e != nil {
		return chain.Info{}, e
	}
	if _, e := s.resolve(ctx, string(b.ToChain), mint("outputToken", b.OutputToken), opt("recipient", b.Recipient)); e != nil {
		return chain.Info{}, e
	}
	return from, nil
}

func (s *Server) transactionStatus(ctx context.Context, in *txStatusInput) (*output[TransactionStatusResponse], error) {
	c, e := lookupChain(ctx, string(in.Chain))
	if e != nil {
		return nil, e
	}
	if !chain.IsTxID(c, in.Signature) {
		if c.Kind == chain.KindSolana {
			return nil, Errorf(CodeInvalidRequest, "signature must be a base58 Solana transaction signature")
		}
		return nil, Errorf(CodeInvalidRequest, "signature must be a transaction hash: 0x followed by 64 hex digits")
	}
	if c, e = s.requireChain(string(in.Chain)); e == nil {
		e = s.serving(ctx, c)
	}
	if e != nil {
		return nil, e
	}
	st, err := s.deps.Trade.Status(ctx, c.Name, in.Signature)
	if err != nil {
		return nil, tradeError(err)
	}
	return &output[TransactionStatusResponse]{Body: TransactionStatusResponse{OK: true, Chain: c.Name, Signature: in.Signature, Status: st.Status, Block: int64(st.Block),
		Confirmations: st.Confirmations, Error: st.Error}}, nil
}

// amountError maps an amount parser's failure to 400 invalid_amount.
func amountError(_ string, err error) *Error {
	if err == nil {
		return nil
	}
	if errors.Is(err, chain.ErrInvalidAmount) {
		return Errorf(CodeInvalidAmount, "%s", err.Error())
	}
	return internalError(err)
}

// TransformSchema describes EVMSwapQuoteResponse in the OpenAPI document.
func (EVMSwapQuoteResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A swap quote on an EVM chain (GET /v1/quotes/swap): the quote's fields, and raw, the complete quote again for the record.")
}

// TransformSchema describes SolanaSwapQuoteResponse in the OpenAPI document.
func (SolanaSwapQuoteResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A swap quote on Solana (GET /v1/quotes/swap), in Jupiter's quote shape: the quote's fields, and raw, the complete quote to send back unchanged as a swap build's quoteResponse.")
}

// TransformSchema describes EVMQuote in the OpenAPI document.
func (EVMQuote) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A swap quote on an EVM chain: what amount of inputMint buys of outputMint at the block read, its minimum after slippage, the price impact, the route, and the estimated gas and network fee.")
}

// TransformSchema describes SolanaQuote in the OpenAPI document.
func (SolanaQuote) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A swap quote on Solana, in Jupiter's shape: what amount of inputMint buys of outputMint at contextSlot, its threshold after slippage, the price impact and the route plan.")
}

// TransformSchema describes SolanaRoutePlanStep in the OpenAPI document.
func (SolanaRoutePlanStep) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One step of a Solana route plan: a pool swap and the share of the input routed through it.")
}

// TransformSchema describes SolanaSwapInfo in the OpenAPI document.
func (SolanaSwapInfo) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One pool swap of a Solana route: the pool, its venue, what goes in and comes out, and the pool's fee.")
}

// TransformSchema describes RouteHop in the OpenAPI document.
func (RouteHop) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One pool of an EVM swap route, in order: what goes in and comes out of it.")
}

// TransformSchema describes TokenTax in the OpenAPI document.
func (TokenTax) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "The transfer tax a token of the swap takes, measured by simulating a buy and a sell on its pool.")
}

// TransformSchema describes NetworkFee in the OpenAPI document.
func (NetworkFee) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "An estimated network fee: in the gas token's units and, when the gas token is priced, in US dollars.")
}

// TransformSchema describes BridgeQuoteResponse in the OpenAPI document.
func (BridgeQuoteResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A bridge quote: what amount of inputToken sent on fromChain delivers of outputToken on toChain, the fee, the expected time and the provider. No chain serves bridges yet.")
}

// TransformSchema describes TransactionStatusResponse in the OpenAPI document.
func (TransactionStatusResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "The status of a submitted transaction on its origin chain (GET /v1/transactions/{signature}/status); a bridge's delivery on its destination chain is not covered.")
}

// TransformSchema describes BridgeQuoteRequest in the OpenAPI document.
func (BridgeQuoteRequest) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A bridge to quote: amount (human token units) of inputToken from user on fromChain, delivered as outputToken to recipient on toChain.")
}
