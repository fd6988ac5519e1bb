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
	OK             bool           `json:"ok"`
	Chain          string         `json:"chain"`
	InputMint      string         `json:"inputMint"`
	OutputMint     string         `json:"outputMint"`
	InAmount       string         `json:"inAmount" doc:"Integer base units."`
	OutAmount      string         `json:"outAmount" doc:"Integer base units."`
	MinOutAmount   string         `json:"minOutAmount" doc:"Integer base units after slippage."`
	SlippageBps    int            `json:"slippageBps"`
	PriceImpactPct string         `json:"priceImpactPct"`
	Route          []string       `json:"route" doc:"Pools, in order."`
	Raw            map[string]any `json:"raw"`
}

// BridgeQuoteResponse is a bridge quote.
type BridgeQuoteResponse struct {
	OK          bool           `json:"ok"`
	FromChain   string         `json:"fromChain"`
	ToChain     string         `json:"toChain"`
	InAmount    string         `json:"inAmount"`
	OutAmount   string         `json:"outAmount"`
	FeeAmount   string         `json:"feeAmount"`
	EtaSeconds  int            `json:"etaSeconds"`
	Raw         map[string]any `json:"raw"`
	ExpiresAt   int64          `json:"expiresAt"`
	Provider    string         `json:"provider"`
	Recipient   string         `json:"recipient"`
	InputToken  string         `json:"inputToken"`
	OutputToken string         `json:"outputToken"`
}

// TransactionStatusResponse is the status of a submitted transaction on its origin chain.
type TransactionStatusResponse struct {
	OK            bool   `json:"ok"`
	Chain         string `json:"chain"`
	Signature     string `json:"signature"`
	Status        string `json:"status" enum:"unknown,pending,confirmed,finalized,failed"`
	Block         int64  `json:"block,omitempty"`
	Confirmations int    `json:"confirmations,omitempty"`
	Error         string `json:"error,omitempty"`
}

type swapQuoteInput struct {
	ChainParam
	InputMint   string `query:"inputMint" required:"true" maxLength:"100"`
	OutputMint  string `query:"outputMint" required:"true" maxLength:"100"`
	Amount      string `query:"amount" required:"true" maxLength:"78" doc:"Input amount, integer base units."`
	SlippageBps int    `query:"slippageBps" minimum:"0" maximum:"5000" default:"50" doc:"Accepted slippage, basis points."`
}

// BridgeQuoteRequest asks for a bridge quote. Amount is in human token units.
type BridgeQuoteRequest struct {
	FromChain   string   `json:"fromChain" enum:"solana,ethereum,base,bsc,robinhood,arc"`
	ToChain     string   `json:"toChain" enum:"solana,ethereum,base,bsc,robinhood,arc"`
	InputToken  string   `json:"inputToken" maxLength:"100"`
	OutputToken string   `json:"outputToken" maxLength:"100"`
	Amount      string   `json:"amount" maxLength:"100" doc:"Human token units, e.g. 12.5."`
	User        string   `json:"user" maxLength:"100" doc:"Sender on the origin chain."`
	Recipient   string   `json:"recipient,omitempty" maxLength:"100" doc:"Receiver on the destination chain; default the sender where the families match."`
	_           struct{} `additionalProperties:"true"`
}

type bridgeQuoteInput struct {
	Body BridgeQuoteRequest
}

type txStatusInput struct {
	Signature string `path:"signature" maxLength:"128" doc:"EVM transaction hash or Solana signature."`
	ChainParam
}

func (s *Server) registerQuotes() {
	spec := func(id, method, path, summary string) opSpec {
		return opSpec{ID: id, Method: method, Path: path, Summary: summary, Tag: "Quotes", Scope: ScopeQuoteRead, Class: ClassProvider}
	}
	register(s, spec("getSwapQuote", http.MethodGet, "/v1/quotes/swap", "A swap quote"), s.swapQuote)
	register(s, spec("getBridgeQuote", http.MethodPost, "/v1/quotes/bridge", "A bridge quote"), s.bridgeQuote)
	register(s, spec("getTransactionStatus", http.MethodGet, "/v1/transactions/{signature}/status", "Status of a submitted transaction"), s.transactionStatus)
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
