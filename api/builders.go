package api

import (
	"context"
	"net/http"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/trade"
)

// Builders (scope tx:build): POST with a JSON body and a required Idempotency-Key header. They
// return unsigned transactions; the service never signs or submits.

// BuildResponse is the result of every builder.
type BuildResponse struct {
	OK                bool           `json:"ok" example:"true"`
	Signing           Signing        `json:"signing"`
	Metadata          map[string]any `json:"metadata" doc:"About the build: poolId and seeded for pool creation and liquidity, the venue and router, deadline (Unix seconds), simulatedAtBlock." example:"{\"poolId\":\"0x88a43bbdf9d098eec7bceda4e2494615dfd9bb9c\",\"simulatedAtBlock\":38512345}"`
	Quote             map[string]any `json:"quote,omitempty" doc:"The fresh quote the build used (a swap quote's fields)." example:"{\"inAmount\":\"1000000000\",\"outAmount\":\"304512877301245112\"}"`
	Fees              []FeeRow       `json:"fees" doc:"The network fee of each transaction, then the venue's fees."`
	Transactions      []Transaction  `json:"transactions" doc:"In order: sign and send each, waiting for its receipt (and any payload.expect) before the next."`
	ConfirmationToken string         `json:"confirmationToken,omitempty" doc:"Give it to POST /v1/build/confirm with the transaction hashes; valid 15 minutes." example:"ct_Q2hhbmdlIG1lOiBhIHJhbmRvbSB0b2tlbg"`
}

// Transaction is one transaction of a build. EVM: a call to sign as an EIP-1559 transaction, with
// its gas limit from the simulation and the fee market's current fees (consecutive nonces from
// the signer's pending nonce). Solana: encoding base64 and a serialized transaction as payload.
type Transaction struct {
	ID                   string   `json:"id" doc:"The step: approve, swap, transfer, createPair, addLiquidity, removeLiquidity, stake, getReward ..." example:"swap"`
	ChainID              int64    `json:"chainId,omitempty" doc:"EVM: the chain id to sign for." example:"8453"`
	From                 string   `json:"from,omitempty" doc:"EVM: the signer." example:"0x7c3a91f4e2b85d06a1c9e3f7b2d4058e6a1c9b3d"`
	To                   string   `json:"to,omitempty" doc:"EVM: the contract or receiver called." example:"0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24"`
	Data                 string   `json:"data,omitempty" doc:"EVM: calldata, 0x hex (0x for a plain native transfer)." example:"0x38ed1739"`
	Value                string   `json:"value,omitempty" doc:"EVM: wei sent with the call, decimal." example:"0"`
	Gas                  int64    `json:"gas,omitempty" doc:"EVM: gas limit: the simulated gas plus 30 % and 20,000 (unused gas is not charged)." example:"152000"`
	MaxFeePerGas         string   `json:"maxFeePerGas,omitempty" doc:"EVM: wei per gas, decimal: twice the base fee plus the tip." example:"2000000000"`
	MaxPriorityFeePerGas string   `json:"maxPriorityFeePerGas,omitempty" doc:"EVM: the tip, wei per gas, decimal." example:"1000000"`
	Nonce                *int64   `json:"nonce,omitempty" doc:"EVM: the nonce to sign with, if no other transaction of the signer goes first." example:"12"`
	Encoding             string   `json:"encoding,omitempty" enum:"base64" doc:"Solana: the payload's encoding." example:"base64"`
	Payload              *Payload `json:"payload,omitempty" doc:"EVM: what to wait for after this call (expect); Solana: the serialized transaction."`
}

// Payload is a transaction's payload. EVM: expect states a condition the next call needs once this
// one is mined. Solana: transaction is the serialized transaction, with partial signatures and a
// blockhash.
type Payload struct {
	Expect      *Expect `json:"expect,omitempty"`
	Transaction string  `json:"transaction,omitempty" doc:"Solana: the serialized transaction, base64." example:"AQABAg=="`
}

// Expect is what the next call needs once this one is mined.
type Expect struct {
	Allowance *AllowanceExpect `json:"allowance,omitempty"`
}

// AllowanceExpect is an ERC-20 allowance the next call needs: at least amount (base units) of token
// from owner to spender. Approvals are exact, never unlimited.
type AllowanceExpect struct {
	Token   string `json:"token" example:"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"`
	Owner   string `json:"owner" example:"0x7c3a91f4e2b85d06a1c9e3f7b2d4058e6a1c9b3d"`
	Spender string `json:"spender" example:"0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24"`
	Amount  string `json:"amount" doc:"Base units." example:"1000000000"`
}

// FeeRow is one fee of a build: the network fee of a transaction (kind network, in the gas token,
// estimated at the simulated gas and the current base fee and tip) or a venue's swap fee on one pool
// (kind venue, in base units of the token the pool receives).
type FeeRow struct {
	Kind   string `json:"kind" enum:"network,venue" example:"network"`
	TxID   string `json:"txId,omitempty" doc:"network: the transaction it pays for." example:"swap"`
	Venue  string `json:"venue,omitempty" example:"uniswap-v2"`
	Pool   string `json:"pool,omitempty" example:"0x88a43bbdf9d098eec7bceda4e2494615dfd9bb9c"`
	FeeBps int    `json:"feeBps,omitempty" doc:"venue: the pool's fee, basis points." example:"30"`
	Token  string `json:"token" doc:"native (the gas token) or the token's address." example:"native"`
	Amount string `json:"amount" doc:"network: gas token units; venue: base units." example:"0.000012"`
	USD    string `json:"usd,omitempty" doc:"network: US dollars, when the gas token is priced." example:"0.036"`
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
	PendingIDs    []string         `json:"pendingIds,omitempty" doc:"The ids of the build's transactions still waiting to be found, mined or final." example:"swap"`
	PendingReason string           `json:"pendingReason,omitempty" enum:"transaction_not_found,receipt_pending,finality_pending" doc:"The earliest stage a pending transaction is at; retry later." example:"receipt_pending"`
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
	spec := func(id, path, summary, description string, serves func(chain.Info) bool) opSpec {
		where := " GET /v1/chains lists the chains that serve it."
		if serves == nil {
			where = " Not available on any chain yet: GET /v1/chains lists each chain's operations."
		}
		return opSpec{ID: id, Method: http.MethodPost, Path: path, Summary: summary, Tag: "Builders", Scope: ScopeTxBuild, Class: ClassProvider, Builder: true,
			Serves: serves,
			Description: description + " Returns unsigned transactions in order, for the caller's wallet to sign and send, each simulated " +
				"in order before it is returned (a call that would revert is 422 simulation_failed with reasons); " +
				"a retry with the same Idempotency-Key and body within ten minutes replays the first answer." + where}
	}
	register(s, spec("buildSwap", "/v1/build/swap", "Build swap transactions", "Solana: takes back a swap quote's raw object as quoteResponse. "+
		"EVM: takes inputMint, outputMint, amount (integer base units) and slippageBps, and quotes again: an exact approve of the router when "+
		"the allowance falls short, then the router's swap (ETH variants for native) with minOutAmount from slippageBps. "+
		"When the fresh execution price loses more than 3 % (30,000 ppm) against the route's mid price, the answer is 409 review_required "+
		"with valueLossPpm; repeating the request with maxValueLossPpm at or above it goes ahead. Never set it automatically. "+
		"A balance short of amount is 422 prerequisite_failed.", s.tradeServes), s.buildSwap)
	register(s, spec("buildBridge", "/v1/build/bridge", "Build bridge transactions", "Moves amount (human token units) of inputToken to toChain.", nil), s.buildBridge)
	register(s, spec("buildTransfer", "/v1/build/transfer", "Build a transfer", "Sends amount (human token units) of token, or native for the gas token, "+
		"from user to to. The amount converts exactly with the token's decimals (18 for every gas token); more decimals than the token has is "+
		"400 invalid_amount, a balance short of it 422 prerequisite_failed.", s.tradeServes), s.buildTransfer)
	for _, op := range lpOps {
		register(s, spec(op.id, op.path, op.summary, op.description+" Fungible pools take pool, NFT-style positions positionIds; "+
			"venue-specific fields are accepted and checked when the operation runs.", nil), s.buildLP(op.id))
	}
	confirm := spec("confirmBuild", "/v1/build/confirm", "Confirm a returned build", "", s.tradeServes)
	confirm.Description = "Checks the signatures (transaction hashes on EVM) of a build's transactions, in the order they were returned, " +
		"against the chain: each must be mined, succeeded, and be the call that was built (from, to, data, value). All final (at least " +
		"the chain's confirmation depth deep): confirmed true, and updated true the first time. Not yet found, mined or final: " +
		"confirmed false with pendingIds and pendingReason; retry later. A mismatch or a revert is 422 verification_failed with " +
		"verification per hash. A token is valid 15 minutes and only for the consumer it was issued to: an unknown, expired or " +
		"other consumer's token is 404. GET /v1/chains lists the chains that serve it."
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
		c, e = s.resolve(ctx, b.Chain, addr("user", b.User), mint("inputMint", b.InputMint), mint("outputMint", b.OutputMint))
	}
	if e == nil {
		e = s.serving(ctx, c)
	}
	if e != nil {
		return nil, e
	}
	build, err := s.deps.Trade.BuildSwap(ctx, consumerOf(ctx), trade.SwapRequest{Chain: c.Name, User: b.User, InputMint: b.InputMint,
		OutputMint: b.OutputMint, Amount: b.Amount, SlippageBps: *b.SlippageBps, MaxValueLossPpm: b.MaxValueLossPpm})
	return buildOutput(build, err)
}

// consumerOf is the calling consumer.
func consumerOf(ctx context.Context) int { return callOf(ctx).principal.ConsumerID }

// buildOutput is a build's answer: sequential signing, the transactions, fees, quote and token.
func buildOutput(b trade.Build, err error) (*output[BuildResponse], error) {
	if err != nil {
		return nil, tradeError(err)
	}
	r := BuildResponse{OK: true, Signing: Signing{Mode: "sequential"}, Metadata: b.Metadata, ConfirmationToken: b.ConfirmationToken,
		Fees: []FeeRow{}, Transactions: []Transaction{}}
	if b.Quote != nil {
		r.Quote = asMap(b.Quote)
	}
	for _, f := range b.Fees {
		r.Fees = append(r.Fees, FeeRow(f))
	}
	for _, tx := range b.Transactions {
		nonce := int64(tx.Nonce)
		t := Transaction{ID: tx.ID, ChainID: tx.ChainID, From: tx.From, To: tx.To, Data: tx.Data, Value: tx.Value, Gas: int64(tx.Gas),
			MaxFeePerGas: tx.MaxFeePerGas, MaxPriorityFeePerGas: tx.MaxPriorityFeePerGas, Nonce: &nonce}
		if tx.Payload != nil && tx.Payload.Expect != nil && tx.Payload.Expect.Allowance != nil {
			t.Payload = &Payload{Expect: &Expect{Allowance: (*AllowanceExpect)(tx.Payload.Expect.Allowance)}}
		}
		r.Transactions = append(r.Transactions, t)
	}
	return &output[BuildResponse]{Body: r}, nil
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
	if e == nil {
		e = s.serving(ctx, c)
	}
	if e != nil {
		return nil, e
	}
	build, err := s.deps.Trade.BuildTransfer(ctx, consumerOf(ctx), trade.TransferRequest{Chain: c.Name, User: b.User, To: b.To, Token: b.Token, Amount: b.Amount})
	return buildOutput(build, err)
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

// confirmBuild confirms a build against the chain its token was issued for.
func (s *Server) confirmBuild(ctx context.Context, in *buildInput[ConfirmRequest]) (*output[ConfirmResponse], error) {
	if s.deps.Trade == nil {
		return nil, Errorf(CodeNotFound, "confirmation token not found or expired")
	}
	res, err := s.deps.Trade.Confirm(ctx, consumerOf(ctx), in.Body.ConfirmationToken, in.Body.Signatures)
	if err != nil {
		return nil, tradeError(err)
	}
	return &output[ConfirmResponse]{Body: ConfirmResponse{OK: true, Confirmed: res.Confirmed, Updated: res.Updated, PendingIDs: res.PendingIDs,
		PendingReason: res.PendingReason}}, nil
}
