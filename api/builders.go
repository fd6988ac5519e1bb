package api

import (
	"context"
	"net/http"
	"slices"

	"github.com/partner-platform/partnerd/chain"
)

// Builders (scope tx:build): POST with a JSON body and a required Idempotency-Key header. They
// return unsigned transactions; the service never signs or submits.

// BuildResponse is the result of every builder.
type BuildResponse struct {
	OK                bool             `json:"ok"`
	Signing           Signing          `json:"signing"`
	Metadata          map[string]any   `json:"metadata" doc:"May hold poolId, bridgeRequestId, seeded."`
	Quote             map[string]any   `json:"quote,omitempty"`
	Fees              []map[string]any `json:"fees"`
	Transactions      []map[string]any `json:"transactions" doc:"Ordered: Solana entries have encoding base64 and a serialized payload; EVM entries are calls, whose payload.expect may state an allowance expected before the next call."`
	ConfirmationToken string           `json:"confirmationToken,omitempty" doc:"Present when the build must be confirmed; valid 15 minutes."`
}

// Signing tells the caller how to sign and send.
type Signing struct {
	Mode    string     `json:"mode" enum:"sequential,sender-bundles"`
	Bundles [][]string `json:"bundles,omitempty" doc:"For sender-bundles: groups of transaction ids, each submitted as one bundle."`
}

// ConfirmResponse is the result of POST /v1/build/confirm.
type ConfirmResponse struct {
	OK            bool             `json:"ok"`
	Confirmed     bool             `json:"confirmed"`
	Updated       bool             `json:"updated"`
	PendingIDs    []string         `json:"pendingIds,omitempty"`
	PendingReason string           `json:"pendingReason,omitempty"`
	CreateFees    []map[string]any `json:"createFees,omitempty"`
}

// BuildSwapRequest builds a swap. Solana: chain, user and quoteResponse (the quote's raw object,
// unchanged). EVM: chain, user, inputMint, outputMint, amount and slippageBps; the server requotes.
type BuildSwapRequest struct {
	Chain              string         `json:"chain" enum:"solana,ethereum,base,bsc,robinhood,arc"`
	User               string         `json:"user" maxLength:"100" doc:"The signer's public address."`
	QuoteResponse      map[string]any `json:"quoteResponse,omitempty" doc:"Solana: the complete raw quote."`
	InputMint          string         `json:"inputMint,omitempty" maxLength:"100"`
	OutputMint         string         `json:"outputMint,omitempty" maxLength:"100"`
	Amount             string         `json:"amount,omitempty" maxLength:"78" doc:"Integer base units."`
	SlippageBps        *int           `json:"slippageBps,omitempty" minimum:"0" maximum:"5000"`
	MaxValueLossPpm    *int           `json:"maxValueLossPpm,omitempty" minimum:"0" doc:"A reviewed value-loss bound; never acknowledge automatically."`
	V4SwapCostApproval *bool          `json:"v4SwapCostApproval,omitempty" doc:"A reviewed cost approval; never acknowledge automatically."`
	_                  struct{}       `additionalProperties:"true"`
}

// BuildBridgeRequest builds a bridge transfer. Amount is in human token units.
type BuildBridgeRequest struct {
	BridgeQuoteRequest
}

// BuildTransferRequest builds a token or native transfer. Amount is in human token units.
type BuildTransferRequest struct {
	Chain  string   `json:"chain" enum:"solana,ethereum,base,bsc,robinhood,arc"`
	User   string   `json:"user" maxLength:"100" doc:"Sender and signer."`
	To     string   `json:"to" maxLength:"100"`
	Token  string   `json:"token" maxLength:"100" doc:"Token address, or native for the gas token."`
	Amount string   `json:"amount" maxLength:"100" doc:"Human token units, e.g. 12.5."`
	_      struct{} `additionalProperties:"true"`
}

// BuildLPRequest builds an LP operation. Fungible pools use pool; NFT-style positions use
// positionIds. Venue-specific fields are allowed and validated at run time.
type BuildLPRequest struct {
	Chain       string   `json:"chain" enum:"solana,ethereum,base,bsc,robinhood,arc"`
	Venue       string   `json:"venue" maxLength:"32" doc:"One of the amm venues."`
	Version     string   `json:"version" maxLength:"32"`
	User        string   `json:"user" maxLength:"100"`
	Pool        string   `json:"pool,omitempty" maxLength:"100"`
	PositionIDs []string `json:"positionIds,omitempty" maxItems:"50"`
	TokenA      string   `json:"tokenA,omitempty" maxLength:"100"`
	TokenB      string   `json:"tokenB,omitempty" maxLength:"100"`
	AmountA     string   `json:"amountA,omitempty" maxLength:"100" doc:"Human token units."`
	AmountB     string   `json:"amountB,omitempty" maxLength:"100" doc:"Human token units."`
	Bps         *int     `json:"bps,omitempty" minimum:"1" maximum:"10000" doc:"remove: share of the position, 2500 withdraws 25%."`
	_           struct{} `additionalProperties:"true"`
}

// ConfirmRequest confirms a returned build.
type ConfirmRequest struct {
	ConfirmationToken string    `json:"confirmationToken" minLength:"1" maxLength:"200"`
	Signatures        []*string `json:"signatures" maxItems:"64" doc:"In the order of transactions; null for a failed optional step."`
}

type buildInput[T any] struct {
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"128" doc:"Replays the original result for ten minutes."`
	Body           T
}

type lpOp struct {
	id, path, summary string
}

var lpOps = []lpOp{
	{"buildLPCreate", "/v1/build/lp/create", "Create an LP pool or position"},
	{"buildLPAdd", "/v1/build/lp/add", "Add liquidity"},
	{"buildLPIncrease", "/v1/build/lp/increase", "Increase a position"},
	{"buildLPRemove", "/v1/build/lp/remove", "Remove liquidity"},
	{"buildLPHarvest", "/v1/build/lp/harvest", "Harvest rewards or fees"},
	{"buildLPCompound", "/v1/build/lp/compound", "Compound"},
	{"buildLPRebalance", "/v1/build/lp/rebalance", "Rebalance"},
	{"buildLPMigrate", "/v1/build/lp/migrate", "Migrate"},
	{"buildLPFarm", "/v1/build/lp/farm", "Farm"},
}

func (s *Server) registerBuilders() {
	spec := func(id, path, summary string) opSpec {
		return opSpec{ID: id, Method: http.MethodPost, Path: path, Summary: summary, Tag: "Builders", Scope: ScopeTxBuild, Class: ClassProvider, Builder: true}
	}
	register(s, spec("buildSwap", "/v1/build/swap", "Build swap transactions"), s.buildSwap)
	register(s, spec("buildBridge", "/v1/build/bridge", "Build bridge transactions"), s.buildBridge)
	register(s, spec("buildTransfer", "/v1/build/transfer", "Build a transfer"), s.buildTransfer)
	for _, op := range lpOps {
		register(s, spec(op.id, op.path, op.summary), s.buildLP(op.id))
	}
	register(s, spec("confirmBuild", "/v1/build/confirm", "Confirm a returned build"), s.confirmBuild)
}

func (s *Server) buildSwap(ctx context.Context, in *buildInput[BuildSwapRequest]) (*output[BuildResponse], error) {
	b := in.Body
	c, e := lookupChain(ctx, b.Chain)
	if e != nil {
		return nil, e
	}
	if c.Kind == chain.KindSolana {
		if b.QuoteResponse == nil {
			return nil, Errorf(CodeInvalidRequest, "a Solana swap build takes quoteResponse: the raw object of GET /v1/quotes/swap, unchanged")
		}
		c, e = s.resolve(ctx, b.Chain, addr("user", b.User))
	} else {
		if b.SlippageBps == nil {
			return nil, Errorf(CodeInvalidRequest, "an EVM swap build takes slippageBps")
		}
		if e := amountError(chain.ParseBaseUnits(b.Amount)); e != nil {
			return nil, e
		}
		c, e = s.resolve(ctx, b.Chain, addr("user", b.User), addr("inputMint", b.InputMint), addr("outputMint", b.OutputMint))
	}
	if e != nil {
		return nil, e
	}
	return nil, notAvailable(ctx, c)
}

func (s *Server) buildBridge(ctx context.Context, in *buildInput[BuildBridgeRequest]) (*output[BuildResponse], error) {
	from, e := s.resolveBridge(ctx, in.Body.BridgeQuoteRequest)
	if e != nil {
		return nil, e
	}
	return nil, notAvailable(ctx, from)
}

func (s *Server) buildTransfer(ctx context.Context, in *buildInput[BuildTransferRequest]) (*output[BuildResponse], error) {
	b := in.Body
	if e := amountError(chain.ParseHumanAmount(b.Amount, 36)); e != nil {
		return nil, e
	}
	fields := []field{addr("user", b.User), addr("to", b.To)}
	if b.Token != "native" {
		fields = append(fields, addr("token", b.Token))
	}
	c, e := s.resolve(ctx, b.Chain, fields...)
	if e != nil {
		return nil, e
	}
	return nil, notAvailable(ctx, c)
}

func (s *Server) buildLP(opID string) func(context.Context, *buildInput[BuildLPRequest]) (*output[BuildResponse], error) {
	return func(ctx context.Context, in *buildInput[BuildLPRequest]) (*output[BuildResponse], error) {
		b := in.Body
		c, e := lookupChain(ctx, b.Chain)
		if e != nil {
			return nil, e
		}
		if !slices.Contains(chain.Venues, b.Venue) {
			return nil, Errorf(CodeInvalidRequest, "unknown venue %q", b.Venue)
		}
		if e := venueOn(c, b.Venue); e != nil {
			return nil, e
		}
		fields := []field{addr("user", b.User)}
		switch {
		case opID == "buildLPCreate":
			if b.TokenA == "" || b.TokenB == "" {
				return nil, Errorf(CodeInvalidRequest, "creating a pool takes tokenA and tokenB")
			}
			fields = append(fields, addr("tokenA", b.TokenA), addr("tokenB", b.TokenB))
		case b.Pool != "" && len(b.PositionIDs) > 0:
			return nil, Errorf(CodeInvalidRequest, "give pool for fungible pools or positionIds for NFT-style positions, not both")
		case b.Pool != "":
			fields = append(fields, addr("pool", b.Pool))
		case len(b.PositionIDs) == 0:
			return nil, Errorf(CodeInvalidRequest, "give pool (fungible pools) or positionIds (NFT-style positions)")
		}
		if opID == "buildLPRemove" && b.Bps == nil {
			return nil, Errorf(CodeInvalidRequest, "remove takes bps: the share of the position in basis points, 1 to 10000")
		}
		for _, amount := range []string{b.AmountA, b.AmountB} { // optional
			if amount == "" {
				continue
			}
			if e := amountError(chain.ParseHumanAmount(amount, 36)); e != nil {
				return nil, e
			}
		}
		if c, e = s.resolve(ctx, b.Chain, fields...); e != nil {
			return nil, e
		}
		return nil, notAvailable(ctx, c)
	}
}

// confirmBuild confirms a build. No builder issues confirmation tokens yet, so every token is
// unknown: 404, the same answer an expired token gets.
func (s *Server) confirmBuild(ctx context.Context, in *buildInput[ConfirmRequest]) (*output[ConfirmResponse], error) {
	return nil, Errorf(CodeNotFound, "confirmation token not found or expired")
}
