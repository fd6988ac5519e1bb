package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/partner-platform/partnerd/chain"
)

// Quotes and status (scope quote:read).

// SwapQuoteResponse is a swap quote. Raw is the complete provider quote, which the Solana swap
// build takes back unchanged as quoteResponse.
type SwapQuoteResponse struct {
	OK             bool           `json:"ok" example:"true"`
	Chain          string         `json:"chain" example:"base"`
	InputMint      string         `json:"inputMint" example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputMint     string         `json:"outputMint" example:"0x4200000000000000000000000000000000000006"`
	InAmount       string         `json:"inAmount" doc:"Integer base units." example:"1000000000"`
	OutAmount      string         `json:"outAmount" doc:"Integer base units." example:"304512877301245112"`
	MinOutAmount   string         `json:"minOutAmount" doc:"Integer base units after slippage." example:"302990312914739086"`
	SlippageBps    int            `json:"slippageBps" example:"50"`
	PriceImpactPct string         `json:"priceImpactPct" doc:"How far the price moves by this swap, percent." example:"0.013"`
	Route          []string       `json:"route" doc:"Pools, in order." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	Raw            map[string]any `json:"raw" doc:"The complete quote; a Solana swap build takes it back unchanged as quoteResponse." example:"{\"inAmount\":\"1000000000\",\"outAmount\":\"304512877301245112\"}"`
}

// BridgeQuoteResponse is a bridge quote.
type BridgeQuoteResponse struct {
	OK          bool           `json:"ok" example:"true"`
	FromChain   string         `json:"fromChain" example:"base"`
	ToChain     string         `json:"toChain" example:"ethereum"`
	InAmount    string         `json:"inAmount" doc:"Token units." example:"1000"`
	OutAmount   string         `json:"outAmount" doc:"Token units." example:"998.75"`
	FeeAmount   string         `json:"feeAmount" doc:"Token units of the input token." example:"1.25"`
	EtaSeconds  int            `json:"etaSeconds" example:"120"`
	Raw         map[string]any `json:"raw" doc:"The complete quote." example:"{\"route\":\"canonical\"}"`
	ExpiresAt   int64          `json:"expiresAt" doc:"Unix seconds." example:"1763798460"`
	Provider    string         `json:"provider" example:"canonical"`
	Recipient   string         `json:"recipient" example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	InputToken  string         `json:"inputToken" example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputToken string         `json:"outputToken" example:"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"`
}

// TransactionStatusResponse is the status of a submitted transaction on its origin chain.
type TransactionStatusResponse struct {
	OK            bool   `json:"ok" example:"true"`
	Chain         string `json:"chain" example:"base"`
	Signature     string `json:"signature" example:"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a"`
	Status        string `json:"status" enum:"unknown,pending,confirmed,finalized,failed" example:"confirmed"`
	Block         int64  `json:"block,omitempty" example:"38512345"`
	Confirmations int    `json:"confirmations,omitempty" example:"3"`
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
	FromChain   string   `json:"fromChain" enum:"solana,ethereum,base,bsc,robinhood,arc" example:"base"`
	ToChain     string   `json:"toChain" enum:"solana,ethereum,base,bsc,robinhood,arc" example:"ethereum"`
	InputToken  string   `json:"inputToken" maxLength:"100" example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputToken string   `json:"outputToken" maxLength:"100" example:"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"`
	Amount      string   `json:"amount" maxLength:"100" doc:"Human token units, e.g. 12.5." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"1000"`
	User        string   `json:"user" maxLength:"100" doc:"Sender on the origin chain." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	Recipient   string   `json:"recipient,omitempty" maxLength:"100" doc:"Receiver on the destination chain; default the sender where the families match." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	_           struct{} `additionalProperties:"true"`
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
		return opSpec{ID: id, Method: method, Path: path, Summary: summary, Description: description, Tag: "Quotes", Scope: ScopeQuoteRead, Class: ClassProvider}
	}
	const notYet = " Not available on any chain yet: GET /v1/chains lists each chain's operations."
	register(s, spec("getSwapQuote", http.MethodGet, "/v1/quotes/swap", "A swap quote",
		"What amount (integer base units) of outputMint sells for, its minimum after slippageBps, the price impact and the route. "+
			"raw is the complete quote: a Solana swap build takes it back unchanged."+notYet), s.swapQuote)
	register(s, spec("getBridgeQuote", http.MethodPost, "/v1/quotes/bridge", "A bridge quote",
		"What amount (human token units) moving a token from one chain to another delivers, its fee and expected time."+notYet), s.bridgeQuote)
	register(s, spec("getTransactionStatus", http.MethodGet, "/v1/transactions/{signature}/status", "Status of a submitted transaction",
		"Whether a transaction hash or signature is unknown, pending, confirmed, finalized or failed, on its origin chain only "+
			"(not a bridge's destination)."+notYet), s.transactionStatus)
}

func (s *Server) swapQuote(ctx context.Context, in *swapQuoteInput) (*output[SwapQuoteResponse], error) {
	if e := amountError(chain.ParseBaseUnits(in.Amount)); e != nil {
		return nil, e
	}
	c, e := s.resolve(ctx, in.Chain, addr("inputMint", in.InputMint), addr("outputMint", in.OutputMint))
	if e != nil {
		return nil, e
	}
	return nil, notAvailable(ctx, c)
}

func (s *Server) bridgeQuote(ctx context.Context, in *bridgeQuoteInput) (*output[BridgeQuoteResponse], error) {
	from, e := s.resolveBridge(ctx, in.Body)
	if e != nil {
		return nil, e
	}
	return nil, notAvailable(ctx, from)
}

// resolveBridge validates a bridge request and returns its origin chain, which must serve the call's
// operation; the destination must be enabled.
func (s *Server) resolveBridge(ctx context.Context, b BridgeQuoteRequest) (chain.Info, *Error) {
	if b.FromChain == b.ToChain {
		return chain.Info{}, Errorf(CodeInvalidRequest, "fromChain and toChain must differ")
	}
	if e := amountError(chain.ParseHumanAmount(b.Amount, 36)); e != nil {
		return chain.Info{}, e
	}
	from, e := s.resolve(ctx, b.FromChain, addr("inputToken", b.InputToken), addr("user", b.User))
	if e == nil {
		e = s.serving(ctx, from)
	}
	if e != nil {
		return chain.Info{}, e
	}
	if _, e := s.resolve(ctx, b.ToChain, addr("outputToken", b.OutputToken), opt("recipient", b.Recipient)); e != nil {
		return chain.Info{}, e
	}
	return from, nil
}

func (s *Server) transactionStatus(ctx context.Context, in *txStatusInput) (*output[TransactionStatusResponse], error) {
	c, e := lookupChain(ctx, in.Chain)
	if e != nil {
		return nil, e
	}
	if !chain.IsTxID(c, in.Signature) {
		if c.Kind == chain.KindSolana {
			return nil, Errorf(CodeInvalidRequest, "signature must be a base58 Solana transaction signature")
		}
		return nil, Errorf(CodeInvalidRequest, "signature must be a transaction hash: 0x followed by 64 hex digits")
	}
	if c, e = s.requireChain(in.Chain); e != nil {
		return nil, e
	}
	return nil, notAvailable(ctx, c)
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
