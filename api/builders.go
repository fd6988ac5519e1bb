package api

import (
	"context"
	"net/http"

	"github.com/partner-platform/partnerd/chain"
)

// Builders (scope tx:build): POST with a JSON body and a required Idempotency-Key header. They
// return unsigned transactions; the service never signs or submits.

// BuildResponse is the result of every builder.
type BuildResponse struct {
	OK                bool             `json:"ok" example:"true"`
	Signing           Signing          `json:"signing"`
	Metadata          map[string]any   `json:"metadata" doc:"May hold poolId, bridgeRequestId, seeded." example:"{\"poolId\":\"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C\"}"`
	Quote             map[string]any   `json:"quote,omitempty" doc:"The quote the build used." example:"{\"inAmount\":\"1000000000\",\"outAmount\":\"304512877301245112\"}"`
	Fees              []map[string]any `json:"fees" doc:"Fee rows the build charges, besides network fees." example:"[{\"kind\":\"network\",\"amount\":\"0.00012\",\"token\":\"native\"}]"`
	Transactions      []map[string]any `json:"transactions" doc:"Ordered: Solana entries have encoding base64 and a serialized payload; EVM entries are calls, whose payload.expect may state an allowance expected before the next call." example:"[{\"id\":\"approve\",\"payload\":{\"to\":\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",\"data\":\"0x095ea7b3\",\"value\":\"0\"}}]"`
	ConfirmationToken string           `json:"confirmationToken,omitempty" doc:"Present when the build must be confirmed; valid 15 minutes." example:"ct_3q2Zt9bV7xW1mK8pL4nR6s"`
}

// Signing tells the caller how to sign and send.
type Signing struct {
	Mode    string     `json:"mode" enum:"sequential,sender-bundles" doc:"sequential: sign and send in order, waiting for each receipt; sender-bundles: submit each group of bundles as one bundle." example:"sequential"`
	Bundles [][]string `json:"bundles,omitempty" doc:"For sender-bundles: groups of transaction ids, each submitted as one bundle." example:"[[\"tx1\",\"tx2\"]]"`
}

// ConfirmResponse is the result of POST /v1/build/confirm.
type ConfirmResponse struct {
	OK            bool             `json:"ok" example:"true"`
	Confirmed     bool             `json:"confirmed" doc:"Every transaction was found on the chain as built." example:"true"`
	Updated       bool             `json:"updated" doc:"The build's records were updated with what was found." example:"true"`
	PendingIDs    []string         `json:"pendingIds,omitempty" doc:"Transactions still waiting for a receipt or finality." example:"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a"`
	PendingReason string           `json:"pendingReason,omitempty" doc:"Why confirmation is not complete yet; retry later." example:"receipt_pending"`
	CreateFees    []map[string]any `json:"createFees,omitempty" doc:"Fees charged by a pool creation." example:"[{\"kind\":\"pool_creation\",\"amount\":\"0.15\",\"token\":\"native\"}]"`
}

// BuildSwapRequest builds a swap. Solana: chain, user and quoteResponse (the quote's raw object,
// unchanged). EVM: chain, user, inputMint, outputMint, amount and slippageBps; the server requotes.
type BuildSwapRequest struct {
	Chain              string         `json:"chain" enum:"solana,ethereum,base,bsc,robinhood,arc" example:"base"`
	User               string         `json:"user" maxLength:"100" doc:"The signer's public address." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	QuoteResponse      map[string]any `json:"quoteResponse,omitempty" doc:"Solana: the complete raw quote." example:"{\"inAmount\":\"1000000000\",\"outAmount\":\"304512877301245112\"}"`
	InputMint          string         `json:"inputMint,omitempty" maxLength:"100" doc:"EVM: token to sell (native for the gas token)." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputMint         string         `json:"outputMint,omitempty" maxLength:"100" doc:"EVM: token to buy (native for the gas token)." example:"0x4200000000000000000000000000000000000006"`
	Amount             string         `json:"amount,omitempty" maxLength:"78" doc:"Integer base units." pattern:"^[1-9][0-9]*$" example:"1000000000"`
	SlippageBps        *int           `json:"slippageBps,omitempty" minimum:"0" maximum:"5000" example:"50"`
	MaxValueLossPpm    *int           `json:"maxValueLossPpm,omitempty" minimum:"0" doc:"A reviewed value-loss bound; never acknowledge automatically." example:"12500"`
	V4SwapCostApproval *bool          `json:"v4SwapCostApproval,omitempty" doc:"A reviewed cost approval; never acknowledge automatically." example:"false"`
	_                  struct{}       `additionalProperties:"true"`
}

// BuildBridgeRequest builds a bridge transfer. Amount is in human token units.
type BuildBridgeRequest struct {
	BridgeQuoteRequest
}

// BuildTransferRequest builds a token or native transfer. Amount is in human token units.
type BuildTransferRequest struct {
	Chain  string   `json:"chain" enum:"solana,ethereum,base,bsc,robinhood,arc" example:"base"`
	User   string   `json:"user" maxLength:"100" doc:"Sender and signer." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	To     string   `json:"to" maxLength:"100" doc:"Receiver." example:"0x4A8C1E2F6B3D9057ac2e41B8F3D6c09E7B5A1f23"`
	Token  string   `json:"token" maxLength:"100" doc:"Token address, or native for the gas token." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	Amount string   `json:"amount" maxLength:"100" doc:"Human token units, e.g. 12.5." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"12.5"`
	_      struct{} `additionalProperties:"true"`
}

// BuildLPRequest builds an LP operation. Fungible pools use pool; NFT-style positions use
// positionIds. Venue-specific fields are allowed and validated at run time.
type BuildLPRequest struct {
	Chain       string   `json:"chain" enum:"solana,ethereum,base,bsc,robinhood,arc" example:"base"`
	Venue       string   `json:"venue" enum:"raydium,orca,meteora,pumpswap,uniswap-v2,uniswap-v3" doc:"The venue: raydium, orca, meteora and pumpswap trade on solana, uniswap-v2 and uniswap-v3 on the EVM chains." example:"uniswap-v2"`
	Version     string   `json:"version" maxLength:"32" doc:"The venue's pool program or version: 2 for uniswap-v2, 3 for uniswap-v3; on Solana the venue's program, e.g. cpmm (raydium), whirlpool (orca), dlmm (meteora), amm (pumpswap). Checked when the operation runs." example:"2"`
	User        string   `json:"user" maxLength:"100" doc:"The signer's public address." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	Pool        string   `json:"pool,omitempty" maxLength:"100" doc:"Fungible pools: the pool address." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	PositionIDs []string `json:"positionIds,omitempty" maxItems:"50" doc:"NFT-style positions: their ids." example:"1184502"`
	TokenA      string   `json:"tokenA,omitempty" maxLength:"100" doc:"create: one token of the pool." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	TokenB      string   `json:"tokenB,omitempty" maxLength:"100" doc:"create: the other token." example:"0x4200000000000000000000000000000000000006"`
	AmountA     string   `json:"amountA,omitempty" maxLength:"100" doc:"Human token units." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"1520.25"`
	AmountB     string   `json:"amountB,omitempty" maxLength:"100" doc:"Human token units." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"0.5"`
	Bps         *int     `json:"bps,omitempty" minimum:"1" maximum:"10000" doc:"remove: share of the position, 2500 withdraws 25%." example:"2500"`
	_           struct{} `additionalProperties:"true"`
}

// ConfirmRequest confirms a returned build.
type ConfirmRequest struct {
	ConfirmationToken string    `json:"confirmationToken" minLength:"1" maxLength:"200" doc:"The build's confirmationToken." example:"ct_3q2Zt9bV7xW1mK8pL4nR6s"`
	Signatures        []*string `json:"signatures" maxItems:"64" doc:"In the order of transactions; null for a failed optional step." example:"0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a"`
}

type buildInput[T any] struct {
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"128" doc:"Replays the original result for ten minutes." example:"order-42"`
	Body           T
}

type lpOp struct {
	id, path, summary, description string
}

var lpOps = []lpOp{
	{"buildLPCreate", "/v1/build/lp/create", "Create an LP pool or position", "Creates a pool of tokenA and tokenB, or an NFT-style position; " +
		"where the create holds no funding transaction, wait for its receipt, read metadata.poolId and build lp/add."},
	{"buildLPAdd", "/v1/build/lp/add", "Add liquidity", "Adds amountA and amountB (human token units) to pool."},
	{"buildLPIncrease", "/v1/build/lp/increase", "Increase a position", "Adds liquidity to the NFT-style positions positionIds."},
	{"buildLPRemove", "/v1/build/lp/remove", "Remove liquidity", "Withdraws bps basis points of the position: 2500 withdraws 25%, 10000 everything."},
	{"buildLPHarvest", "/v1/build/lp/harvest", "Harvest rewards or fees", "Collects the position's fees or farm rewards."},
	{"buildLPCompound", "/v1/build/lp/compound", "Compound", "Collects the position's fees or rewards and adds them back to it."},
	{"buildLPRebalance", "/v1/build/lp/rebalance", "Rebalance", "Moves a concentrated position's liquidity to a new price range."},
	{"buildLPMigrate", "/v1/build/lp/migrate", "Migrate", "Moves liquidity from one pool or venue version to another."},
	{"buildLPFarm", "/v1/build/lp/farm", "Farm", "Stakes the pool's LP tokens in its farm, or unstakes them."},
}

func (s *Server) registerBuilders() {
	spec := func(id, path, summary, description string) opSpec {
		return opSpec{ID: id, Method: http.MethodPost, Path: path, Summary: summary, Tag: "Builders", Scope: ScopeTxBuild, Class: ClassProvider, Builder: true,
			Description: description + " Returns unsigned transactions in order, for the caller's wallet to sign and send; " +
				"a retry with the same Idempotency-Key and body within ten minutes replays the first answer. " +
				"Not available on any chain yet: GET /v1/chains lists each chain's operations."}
	}
	register(s, spec("buildSwap", "/v1/build/swap", "Build swap transactions", "Solana: takes back a swap quote's raw object as quoteResponse. "+
		"EVM: takes inputMint, outputMint, amount (integer base units) and slippageBps, and quotes again; when fresh conditions need a review "+
		"the answer is 409 review_required, and the reviewed fields must never be acknowledged automatically."), s.buildSwap)
	register(s, spec("buildBridge", "/v1/build/bridge", "Build bridge transactions", "Moves amount (human token units) of inputToken to toChain."), s.buildBridge)
	register(s, spec("buildTransfer", "/v1/build/transfer", "Build a transfer", "Sends amount (human token units) of token, or native for the gas token, from user to to."), s.buildTransfer)
	for _, op := range lpOps {
		register(s, spec(op.id, op.path, op.summary, op.description+" Fungible pools take pool, NFT-style positions positionIds; "+
			"venue-specific fields are accepted and checked when the operation runs."), s.buildLP(op.id))
	}
	confirm := spec("confirmBuild", "/v1/build/confirm", "Confirm a returned build", "")
	confirm.Description = "Checks the signatures (transaction hashes on EVM) of a build's transactions, in the order they were returned, " +
		"against the chain: confirmed and updated when all are found as built, or confirmed false with pendingIds and pendingReason " +
		"while receipts or finality are pending, in which case retry. A token is valid 15 minutes; an unknown or expired one is 404."
	register(s, confirm, s.confirmBuild)
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
