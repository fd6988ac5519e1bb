package api

import (
	"context"
	"net/http"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/trade"
)

// Builders (scope tx:build): POST with a JSON body and a required Idempotency-Key header. They
// return unsigned transactions; the service never signs or submits.

// BuildResponse is the result of every builder.
type BuildResponse struct {
	OK                bool          `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Signing           Signing       `json:"signing" doc:"How to sign and send the transactions: one by one in order (sequential), or in bundles."`
	Metadata          BuildMetadata `json:"metadata" doc:"About the build: per operation and chain family (Solana: blockhash, lastValidBlockHeight, simulatedAtSlot, computeUnitLimit)."`
	Quote             *Quote        `json:"quote,omitempty" doc:"Swaps: the fresh quote the build used."`
	Fees              []FeeRow      `json:"fees" doc:"The network fee of each transaction, then the venue's fees."`
	Transactions      []Transaction `json:"transactions" doc:"In order: sign and send each, waiting for its receipt (and any payload.expect) before the next."`
	ConfirmationToken string        `json:"confirmationToken,omitempty" doc:"Give it to POST /v1/build/confirm with the transaction hashes; valid 15 minutes." example:"ct_Q2hhbmdlIG1lOiBhIHJhbmRvbSB0b2tlbg"`
}

// Transaction is one transaction of a build: an EVM call (EVMTransaction) or a serialized Solana
// transaction (SolanaTransaction), told apart by kind.
type Transaction struct {
	EVM    *EVMTransaction
	Solana *SolanaTransaction
}

// MarshalJSON writes the entry of its family.
func (t Transaction) MarshalJSON() ([]byte, error) { return marshalOne(t.EVM, t.Solana) }

// UnmarshalJSON reads the entry of the family its kind names.
func (t *Transaction) UnmarshalJSON(data []byte) error { return unmarshalOne(data, &t.EVM, &t.Solana) }

// Schema documents the two entries as a union on kind.
func (Transaction) Schema(r huma.Registry) *huma.Schema {
	return kindOneOf(r, "Transaction", "One transaction of a build, by chain family (kind): an EVM call to sign as an EIP-1559 transaction, "+
		"or a serialized Solana transaction to sign as is.",
		reflect.TypeFor[EVMTransaction](), "EVMTransaction", reflect.TypeFor[SolanaTransaction](), "SolanaTransaction")
}

// EVMTransaction is an EVM call of a build, to sign as an EIP-1559 transaction: its gas limit comes
// from the simulation, its fees from the fee market, its nonce from the signer's pending nonce
// (consecutive within a build).
type EVMTransaction struct {
	Kind                 string   `json:"kind" enum:"evm" doc:"evm: an EVM call." example:"evm"`
	ID                   string   `json:"id" doc:"The step: approve, swap, transfer, createPair, addLiquidity, removeLiquidity, stake, withdraw, getReward ..." example:"swap"`
	ChainID              int64    `json:"chainId" doc:"The chain id to sign for (a devnet's differs from its mainnet's)." example:"8453"`
	From                 string   `json:"from" doc:"The signer." example:"0x7c3a91f4e2b85d06a1c9e3f7b2d4058e6a1c9b3d"`
	To                   string   `json:"to" doc:"The contract or receiver called." example:"0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24"`
	Data                 string   `json:"data" doc:"Calldata, 0x hex (0x for a plain native transfer)." example:"0x38ed1739"`
	Value                string   `json:"value" doc:"Wei sent with the call, decimal." example:"0"`
	Gas                  int64    `json:"gas" doc:"Gas limit: what the simulation shows the call needs (its gas before refunds plus 2,300, times 64/63 for nested calls) plus 10 % and 20,000 (unused gas is not charged)." example:"152000"`
	MaxFeePerGas         string   `json:"maxFeePerGas" doc:"Wei per gas, decimal: twice the base fee plus the tip." example:"2000000000"`
	MaxPriorityFeePerGas string   `json:"maxPriorityFeePerGas" doc:"The tip, wei per gas, decimal." example:"1000000"`
	Nonce                int64    `json:"nonce" doc:"The nonce to sign with, if no other transaction of the signer goes first." example:"12"`
	Payload              *Payload `json:"payload,omitempty" doc:"What to wait for once this call is mined, before sending the next."`
}

// SolanaTransaction is a serialized Solana transaction of a build, to sign as is: its fee payer's
// signature slot is zeros, and its blockhash must still be valid when it is sent (never replace it).
type SolanaTransaction struct {
	Kind     string `json:"kind" enum:"solana" doc:"solana: a serialized Solana transaction." example:"solana"`
	ID       string `json:"id" doc:"The step: transfer, swap ..." example:"transfer"`
	Encoding string `json:"encoding" enum:"base64" doc:"The payload's encoding." example:"base64"`
	Payload  string `json:"payload" doc:"The serialized transaction (legacy or versioned, as the wire format has it), with partial signatures (zeros where the caller signs) and a recent blockhash (metadata.blockhash, valid through metadata.lastValidBlockHeight)." example:"AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQABAw=="`
}

// Payload is an EVM transaction's payload: expect states a condition the next call needs once this
// one is mined.
type Payload struct {
	Expect *Expect `json:"expect,omitempty" doc:"A condition the next call of the build needs once this one is mined."`
}

// Expect is what the next call needs once this one is mined.
type Expect struct {
	Allowance *AllowanceExpect `json:"allowance,omitempty" doc:"An ERC-20 allowance the next call spends: wait until it reaches amount (the approval is mined) before sending it."`
}

// AllowanceExpect is an ERC-20 allowance the next call needs: at least amount (base units) of token
// from owner to spender. Approvals are exact, never unlimited.
type AllowanceExpect struct {
	Token   string `json:"token" doc:"The ERC-20 token approved." example:"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"`
	Owner   string `json:"owner" doc:"The tokens' owner: the signer." example:"0x7c3a91f4e2b85d06a1c9e3f7b2d4058e6a1c9b3d"`
	Spender string `json:"spender" doc:"The contract the next call lets spend them: the router, or the farm." example:"0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24"`
	Amount  string `json:"amount" doc:"Base units." example:"1000000000"`
}

// FeeRow is one fee of a build: the network fee of a transaction (kind network, in the gas token,
// estimated at the simulated gas and the current base fee and tip), a venue's swap fee on one pool
// (kind venue, in the token the pool receives), and on Solana the priority fee, rent and a
// Token-2022 transfer fee. Every row, on every chain, gives its amount twice: in token units and in
// integer base units, with the token's decimals.
type FeeRow struct {
	Kind      string `json:"kind" enum:"network,venue,priority,rent,transfer_fee" doc:"network: the chain's base fee (EVM gas, Solana signatures); priority: Solana's priority fee; rent: Solana rent of an account the transaction creates (it stays in the account); venue: what the venue charges (the pool's swap fee; raydium create: the pool creation fee, in SOL); transfer_fee: a Token-2022 mint's transfer fee, withheld from the amount." example:"network"`
	TxID      string `json:"txId,omitempty" doc:"The id of the transaction it is paid in (network, priority, rent and transfer_fee rows)." example:"swap"`
	Venue     string `json:"venue,omitempty" doc:"venue: the venue of the pool." example:"uniswap-v2"`
	Pool      string `json:"pool,omitempty" doc:"venue: the pool that takes the fee." example:"0x88a43bbdf9d098eec7bceda4e2494615dfd9bb9c"`
	FeeBps    int    `json:"feeBps,omitempty" doc:"venue: the pool's fee; transfer_fee: the mint's rate; basis points." example:"30"`
	Token     string `json:"token" doc:"The token the fee is paid in: native (the gas coin: ETH, BNB, SOL ...) or the token's address." example:"native"`
	Amount    string `json:"amount" doc:"The fee in token units (ETH, SOL, USDC ...), a plain decimal: baseUnits moved decimals places." example:"0.000012"`
	BaseUnits string `json:"baseUnits" doc:"The same fee in integer base units of the token (wei, lamports ...)." example:"12000000000000"`
	Decimals  int    `json:"decimals" doc:"The token's decimals: 18 for every EVM gas coin, 9 for SOL." example:"18"`
	USD       string `json:"usd,omitempty" doc:"network: US dollars, when the gas token is priced." example:"0.036"`
}

// Signing tells the caller how to sign and send.
type Signing struct {
	Mode    string     `json:"mode" enum:"sequential,sender-bundles" doc:"sequential: sign and send in order, waiting for each receipt; sender-bundles: submit each group of bundles as one bundle." example:"sequential"`
	Bundles [][]string `json:"bundles,omitempty" doc:"For sender-bundles: groups of transaction ids, each submitted as one bundle." example:"[[\"tx1\",\"tx2\"]]"`
}

// ConfirmResponse is the result of POST /v1/build/confirm.
type ConfirmResponse struct {
	OK            bool             `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Confirmed     bool             `json:"confirmed" doc:"Every transaction was found on the chain as built." example:"true"`
	Updated       bool             `json:"updated" doc:"The build's records were updated with what was found." example:"true"`
	PendingIDs    []string         `json:"pendingIds,omitempty" doc:"The ids of the build's transactions still waiting to be found, mined or final." example:"swap"`
	PendingReason string           `json:"pendingReason,omitempty" enum:"transaction_not_found,receipt_pending,finality_pending" doc:"The earliest stage a pending transaction is at; retry later." example:"receipt_pending"`
	CreateFees    []map[string]any `json:"createFees,omitempty" doc:"Fees charged by a pool creation." example:"[{\"kind\":\"pool_creation\",\"amount\":\"0.15\",\"token\":\"native\"}]"`
}

// BuildSwapRequest builds a swap. Solana: chain, user and quoteResponse (the quote's raw object,
// unchanged). EVM: chain, user, inputMint, outputMint, amount and slippageBps; the server requotes.
type BuildSwapRequest struct {
	Chain              ChainName    `json:"chain" doc:"The chain to swap on; it must be enabled and serve swaps (GET /v1/chains)." example:"base"`
	User               string       `json:"user" maxLength:"100" doc:"The signer's public address." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	QuoteResponse      *SolanaQuote `json:"quoteResponse,omitempty" doc:"Solana: the complete raw object of GET /v1/quotes/swap, unchanged."`
	InputMint          string       `json:"inputMint,omitempty" maxLength:"100" doc:"EVM: token to sell (native for the gas token)." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	OutputMint         string       `json:"outputMint,omitempty" maxLength:"100" doc:"EVM: token to buy (native for the gas token)." example:"0x4200000000000000000000000000000000000006"`
	Amount             string       `json:"amount,omitempty" maxLength:"78" doc:"Integer base units." pattern:"^[1-9][0-9]*$" example:"1000000000"`
	SlippageBps        *int         `json:"slippageBps,omitempty" minimum:"0" maximum:"5000" doc:"EVM (required there): the accepted slippage, basis points: minOutAmount is the fresh quote's outAmount less this share." example:"50"`
	MaxValueLossPpm    *int         `json:"maxValueLossPpm,omitempty" minimum:"0" doc:"A reviewed value-loss bound; never acknowledge automatically." example:"12500"`
	V4SwapCostApproval *bool        `json:"v4SwapCostApproval,omitempty" doc:"A reviewed cost approval; never acknowledge automatically." example:"false"`
	_                  struct{}     `additionalProperties:"true"`
}

// BuildBridgeRequest builds a bridge transfer. Amount is in human token units.
type BuildBridgeRequest struct {
	BridgeQuoteRequest
}

// BuildTransferRequest builds a token or native transfer. Amount is in human token units.
type BuildTransferRequest struct {
	Chain  ChainName `json:"chain" doc:"The chain to transfer on; it must be enabled (GET /v1/chains)." example:"base"`
	User   string    `json:"user" maxLength:"100" doc:"Sender and signer." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	To     string    `json:"to" maxLength:"100" doc:"Receiver." example:"0x4A8C1E2F6B3D9057ac2e41B8F3D6c09E7B5A1f23"`
	Token  string    `json:"token" maxLength:"100" doc:"Token address, or native for the gas token." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	Amount string    `json:"amount" maxLength:"100" doc:"Human token units, e.g. 12.5." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"12.5"`
	_      struct{}  `additionalProperties:"true"`
}

// BuildLPRequest builds an LP operation. Fungible pools use pool; NFT-style positions use
// positionIds. Venue-specific fields are allowed and validated at run time. On uniswap-v2 (EVM):
// create takes tokenA and tokenB; add takes pool, amountA and amountB (human units; of token0 and
// token1, or of tokenA and tokenB when named), optionally native and slippageBps; remove takes pool
// and bps, optionally native and slippageBps; farm takes pool, optionally action and amount;
// harvest takes pool; compound takes pool, optionally slippageBps. On raydium (Solana, version
// cpmm): create takes tokenA, tokenB, amountA and amountB (the pool is funded as it is created),
// optionally feeTier; add and remove as uniswap-v2's (a wrapped SOL side is paid and received in
// SOL). On uniswap-v3 (EVM, version 3, through the NonfungiblePositionManager): add takes pool,
// tickLower and tickUpper or priceLower and priceUpper, amountA and amountB (and optionally tokenA,
// tokenB, slippageBps); increase takes positionIds (one) and amountA and amountB; remove takes
// positionIds and bps; harvest and compound take positionIds; rebalance takes positionIds and a
// range as add takes it; create takes tokenA, tokenB, feeTier, price, a range and amountA and
// amountB; farm takes positionIds, optionally action and incentiveId; migrate takes pool (the
// uniswap-v2 pair), bps, feeTier and a range as add takes it (and optionally slippageBps and
// native).
type BuildLPRequest struct {
	Chain       ChainName `json:"chain" doc:"The chain of the pool or position; it must be enabled and its venue serve the operation (GET /v1/chains)." example:"base"`
	Venue       VenueName `json:"venue" doc:"The venue: raydium, orca, meteora and pumpswap trade on solana, uniswap-v2 and uniswap-v3 on the EVM chains." example:"uniswap-v2"`
	Version     string    `json:"version" maxLength:"32" doc:"The venue's pool program or version: 2 for uniswap-v2, 3 for uniswap-v3; on Solana the venue's program, e.g. cpmm (raydium), whirlpool (orca), dlmm (meteora), amm (pumpswap). Checked when the operation runs." example:"2"`
	User        string    `json:"user" maxLength:"100" doc:"The signer's public address." example:"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"`
	Pool        string    `json:"pool,omitempty" maxLength:"100" doc:"Fungible pools: the pool address (uniswap-v2: the pair). An address that is not a pair is 404 not_found." example:"0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C"`
	PositionIDs []string  `json:"positionIds,omitempty" maxItems:"50" doc:"NFT-style positions: their ids. uniswap-v3 increase, remove, harvest, compound, rebalance and farm take exactly one, a position NFT of the user: increase, remove, compound and rebalance one it holds in its wallet (another owner's, or one deposited in the staker, is 422 prerequisite_failed); harvest and farm also one it deposited in the UniswapV3Staker." example:"1184502"`
	TickLower   *int      `json:"tickLower,omitempty" minimum:"-887272" maximum:"887272" doc:"uniswap-v3 add, create, rebalance and migrate (with tickUpper, instead of priceLower and priceUpper): the new position's lower tick, snapped down to the pool's tick spacing (10 at 0.05 %, 60 at 0.3 %, 200 at 1 %); metadata.tickLower is the tick used." example:"-201250"`
	TickUpper   *int      `json:"tickUpper,omitempty" minimum:"-887272" maximum:"887272" doc:"uniswap-v3 add, create, rebalance and migrate: the new position's upper tick, snapped up to the pool's tick spacing; metadata.tickUpper is the tick used." example:"-199250"`
	PriceLower  string    `json:"priceLower,omitempty" maxLength:"100" doc:"uniswap-v3 add, create, rebalance and migrate (with priceUpper, instead of tickLower and tickUpper): the range's lower price, in token units of the pool's token1 per token0 (the pool's own token order: quote per base), converted to the tick at or below it and snapped down to the tick spacing." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"1800.5"`
	PriceUpper  string    `json:"priceUpper,omitempty" maxLength:"100" doc:"uniswap-v3 add, create, rebalance and migrate: the range's upper price (token1 per token0, token units), converted to the tick at or below it and snapped up to the tick spacing." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"2200"`
	TokenA      string    `json:"tokenA,omitempty" maxLength:"100" doc:"create: one token of the pool (native: the wrapped native token). add (optional, with tokenB): the token amountA is of, one of the pool's two; native names the pool's wrapped native side paid in the gas coin. Without tokenA and tokenB, amountA is of the pool's token0." example:"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"`
	TokenB      string    `json:"tokenB,omitempty" maxLength:"100" doc:"create: the other token. add (optional, with tokenA): the token amountB is of; without them, the pool's token1." example:"0x4200000000000000000000000000000000000006"`
	AmountA     string    `json:"amountA,omitempty" maxLength:"100" doc:"add (and uniswap-v3 increase): human token units of tokenA (token0 when tokenA is not given); on uniswap-v3, the most the deposit may take: it takes the largest liquidity both amounts buy in the range at the pool's price." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"1520.25"`
	AmountB     string    `json:"amountB,omitempty" maxLength:"100" doc:"add (and uniswap-v3 increase): human token units of tokenB (token1 when tokenB is not given)." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"0.5"`
	Price       string    `json:"price,omitempty" maxLength:"100" doc:"uniswap-v3 create: the new pool's initial price, token units of its token1 per token0 (token0 is the lower address); required when the pool does not exist; when it does, optional and checked to be within slippageBps of the pool's." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"3000"`
	Bps         *int      `json:"bps,omitempty" minimum:"1" maximum:"10000" doc:"remove: share of the position, 2500 withdraws 25%. uniswap-v3: bps/10000 of the position's liquidity (rounded down), and everything that frees and every fee owed is collected to the user; the NFT is not burned, even at 10000 (it keeps the position's history). uniswap-v3 migrate: the share of the user's LP balance of the uniswap-v2 pair to migrate (rounded down)." example:"2500"`
	Native      bool      `json:"native,omitempty" doc:"uniswap-v2 add and remove: pay or receive the pool's wrapped native side in the gas coin (the router's addLiquidityETH, removeLiquidityETH). uniswap-v3 migrate: refund the wrapped native side as the gas coin (refundAsETH)." example:"false"`
	SlippageBps *int      `json:"slippageBps,omitempty" minimum:"0" maximum:"5000" doc:"add, increase, remove, compound: tolerance of the minimum amounts, basis points; default 50." example:"50"`
	Action      string    `json:"action,omitempty" enum:"stake,unstake" doc:"farm: stake (the default) the pool's LP tokens in its farm, or unstake them; uniswap-v3: deposit and stake the position in the UniswapV3Staker, or unstake, claim and withdraw it." example:"stake"`
	Amount      string    `json:"amount,omitempty" maxLength:"100" doc:"farm: human units of LP tokens (18 decimals) to stake or unstake; default all held (stake) or all staked (unstake)." pattern:"^(0|[1-9][0-9]*)(\\.[0-9]+)?$" example:"12.5"`
	FeeTier     *int      `json:"feeTier,omitempty" minimum:"0" maximum:"65535" doc:"raydium create: the CPMM fee tier, the index of its AmmConfig (default 0: 0.25 %). uniswap-v3 create and migrate (required): the new position's pool fee in hundredths of a basis point: 100, 500, 3000 or 10000." example:"0"`
	IncentiveID string    `json:"incentiveId,omitempty" maxLength:"66" doc:"uniswap-v3 farm (stake): the UniswapV3Staker incentive to stake in, its id (keccak256 of its key); default the only live incentive of the position's pool (several live is 400 invalid_request naming them)." example:"0x5e0b1c4a9d2f3e8b7c6a5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a"`
	_           struct{}  `additionalProperties:"true"`
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
	needs                          chain.Capability // what a venue must serve; empty: no venue serves it yet
}

// rangedOnly names the LP operations that fungible (constant-product) pools have no use for.
var rangedOnly = map[string]string{"buildLPIncrease": "lp/increase", "buildLPRebalance": "lp/rebalance", "buildLPMigrate": "lp/migrate"}

var lpOps = []lpOp{
	{"buildLPCreate", "/v1/build/lp/create", "Create an LP pool or position", "Creates a pool of tokenA and tokenB, or an NFT-style position; " +
		"where the create holds no funding transaction, wait for its receipt, read metadata.poolId and build lp/add. " +
		"uniswap-v2: the factory's createPair alone (transaction createPair); metadata.poolId is the pair's address, seeded false. " +
		"A pool that already exists is 400 invalid_request naming it: build lp/add. " +
		"raydium: CPMM's initialize with amountA and amountB in the same instruction (seeded true; metadata.poolId is the pool's derived " +
		"address; feeTier picks the AmmConfig, default 0), the pool creation fee as a venue fee row. " +
		"uniswap-v3: the pool of tokenA and tokenB at feeTier (100, 500, 3000 or 10000), created and initialized at price (token units of " +
		"token1 per token0, the pool's own order: token0 is the lower address; required when the pool does not exist), and its first " +
		"position: amountA of tokenA and amountB of tokenB at most, in a range given as lp/add takes it. In order: approveToken0, " +
		"approveToken1 (exact) and createAndMint, the position manager's multicall of createAndInitializePoolIfNecessary and mint to the " +
		"user (minimums slippageBps below). When the pool exists, its price stands and the build is an add (created false); a price given " +
		"more than slippageBps away from the pool's is 422 prerequisite_failed. metadata: poolId (derived offline), created, seeded (true), " +
		"sqrtPriceX96 and price (the price the mint is computed at), the position as lp/add states it, and positionIdFrom: the new " +
		"position's id is in the createAndMint receipt (the position manager's IncreaseLiquidity event, tokenId).", chain.CapLiquidity},
	{"buildLPAdd", "/v1/build/lp/add", "Add liquidity", "Adds amountA and amountB (human token units) to pool. " +
		"uniswap-v2: amountA is of the pool's token0 and amountB of token1, unless tokenA and tokenB name which of the pool's tokens " +
		"they are of (native: the wrapped native side paid in the gas coin, as with native true). The router takes the most of both at the " +
		"pool's current ratio, and the build asks for exactly that: approveToken0 and approveToken1 (exact, left out when the allowance " +
		"suffices), then addLiquidity (the router's addLiquidity or addLiquidityETH) with minimums slippageBps (default 50) below. " +
		"metadata: amount0, amount1 and their minimums, unused0 and unused1 (what the ratio leaves in the wallet), lpAmount (LP base units " +
		"minted at the read state), seeded (true when the deposit sets the price of an empty pool). A balance short is 422 prerequisite_failed. " +
		"uniswap-v3: mints a new position NFT for user in a range of pool (the V3 pool's address), given as tickLower and tickUpper or as " +
		"priceLower and priceUpper (token1 per token0, converted to ticks), snapped outwards to the pool's tick spacing; the " +
		"NonfungiblePositionManager takes the largest liquidity amountA and amountB buy in the range at the pool's price " +
		"(the periphery's getLiquidityForAmounts; the pool's amounts rounded up), and the build asks for exactly that: approveToken0 and " +
		"approveToken1 of the position manager (exact, left out when the allowance suffices or nothing of the token is taken), then mint " +
		"with minimums slippageBps below. metadata: tickLower and tickUpper used, tick, inRange, liquidity, amount0 and amount1 and their " +
		"minimums, amount0Desired and amount1Desired (asked).", chain.CapLiquidity},
	{"buildLPIncrease", "/v1/build/lp/increase", "Increase a position", "Adds liquidity to the NFT-style positions positionIds. " +
		"Not for uniswap-v2's fungible pools (400 operation_not_supported). uniswap-v3: positionIds holds one position the user holds " +
		"(another owner's is 422 prerequisite_failed); the position manager's increaseLiquidity of what amountA and amountB buy at the " +
		"pool's price, as lp/add computes it: approveToken0, approveToken1 (exact), increaseLiquidity with minimums slippageBps below. " +
		"metadata: positionId, tickLower, tickUpper, liquidity (added), liquidityBefore, amount0 and amount1 and their minimums.", chain.CapLiquidity},
	{"buildLPRemove", "/v1/build/lp/remove", "Remove liquidity", "Withdraws bps basis points of the position: 2500 withdraws 25%, 10000 everything. " +
		"uniswap-v2: bps of the user's LP balance of pool: approveLP (exact) and removeLiquidity (removeLiquidityETH with native true) " +
		"with minimums slippageBps (default 50) below the pro-rata amounts; metadata: lpAmount, amount0, amount1 and their minimums. " +
		"No LP held is 422 prerequisite_failed. " +
		"uniswap-v3: positionIds holds one position the user holds; one position manager multicall (decreaseLiquidityAndCollect) " +
		"decreases bps/10000 of its liquidity (rounded down) with minimums slippageBps below what the pool's burn pays, and collects " +
		"everything that frees and every fee owed to the user. The NFT is not burned, even at 10000: it keeps the position's history. " +
		"metadata: liquidity (removed), liquidityBefore, liquidityAfter, amount0, amount1 and their minimums, fees0 and fees1 (owed " +
		"before), collect0 and collect1 (what the collect pays), burned false.", chain.CapLiquidity},
	{"buildLPHarvest", "/v1/build/lp/harvest", "Harvest rewards or fees", "Collects the position's fees or farm rewards. " +
		"uniswap-v2: getReward on the pool's farm (its StakingRewards); metadata.earned is what was earned at the read block (the claim pays " +
		"at least that). Nothing earned is 422 prerequisite_failed; a pool without a farm 404 not_found. " +
		"uniswap-v3: positionIds holds one position the user holds; the position manager's collect of everything it is owed to the " +
		"user; metadata.fees0 and fees1 are its fees at the read block, computed exactly from the fee growth inside its range: what " +
		"the collect pays when nothing trades in between. No fees is 422 prerequisite_failed. " +
		"A position the user deposited in the UniswapV3Staker has its staker rewards harvested instead, in one staker multicall " +
		"(harvestRewards): unstakeToken from every incentive it is staked in (the staker credits a stake's rewards only then), claimReward " +
		"of everything owed in their reward tokens, and stakeToken in each again; the NFT stays deposited, and its fees are not collected " +
		"(the staker holds the NFT: unstake it to collect them; metadata.feesCollected false). metadata.rewards, per reward token: owed (already " +
		"credited) and earned (getRewardInfo), exact at the read block, and claim, their sum: what the claim pays if mined at that block's " +
		"time (metadata.rewardsAtTime); mined later it pays what the stakes earned by then, usually more while the position is in range, " +
		"possibly less (the staker spreads an incentive's unclaimed rewards over its unclaimed seconds). Nothing earned is 422 prerequisite_failed.", chain.CapFarms},
	{"buildLPCompound", "/v1/build/lp/compound", "Compound", "Collects the position's fees or rewards and adds them back to it. " +
		"uniswap-v2, in order: getReward on the pool's farm; approveReward; swapToken0 and swapToken1 (half the reward earned into each " +
		"pool token, or one swap of the balancing share when the reward is a pool token); approveToken0, approveToken1; addLiquidity; " +
		"approveLP; stake of the LP minted (metadata.lpAmount). Approvals are exact and left out when the allowance suffices; amounts are " +
		"computed in order on the state read, minimums slippageBps (default 50) below. Nothing earned is 422 prerequisite_failed. " +
		"uniswap-v3: positionIds holds one position the user holds; in order: collect of its fees to the user (metadata.fees0, fees1); " +
		"approveRouter and swap, SwapRouter02's exactInputSingle through the position's own pool of what makes the fees fit the range's " +
		"ratio at the pool's price after the swap (computed with the pool's exact swap math; metadata.swap: tokenIn, tokenOut, amountIn, " +
		"amountOut, minAmountOut; null and left out when nothing needs swapping); approveToken0, approveToken1; increaseLiquidity " +
		"(metadata.liquidity added, amount0, amount1, minimums, leftover0 and leftover1 kept in the wallet). No fees is 422 prerequisite_failed.", chain.CapFarms},
	{"buildLPRebalance", "/v1/build/lp/rebalance", "Rebalance", "Moves a concentrated position's liquidity to a new price range. " +
		"Not for uniswap-v2's fungible pools (400 operation_not_supported). uniswap-v3: positionIds holds one position the user holds, " +
		"and the new range is given as lp/add takes it (tickLower and tickUpper, or priceLower and priceUpper). One ordered list computed " +
		"from the state read at one block: exit, the position manager's multicall of decreaseLiquidity of all the liquidity, collect of " +
		"everything owed to the user and burn of the emptied NFT (metadata.burned true: the user ends with one position); approveRouter and " +
		"swap, SwapRouter02's exactInputSingle through the position's own pool of what makes the collected amounts fit the new range's " +
		"ratio at the pool's price after the swap (computed with the pool's exact swap math on the pool as the exit leaves it; left out " +
		"when nothing needs swapping); approveToken0, approveToken1 and mint of the new position to the user. Approvals are exact and spent " +
		"whole: nothing stays approved. Minimums slippageBps (default 50) below. metadata: removedLiquidity, removed0, removed1, fees0, " +
		"fees1, collect0, collect1 (what the exit pays), swap (tokenIn, tokenOut, amountIn, amountOut, minAmountOut, or null), the new " +
		"position (tickLower, tickUpper, liquidity, amount0, amount1, minimums), leftover0 and leftover1 (kept in the wallet), and " +
		"positionIdFrom: the new position's id is in the mint's receipt.", chain.CapLiquidity},
	{"buildLPMigrate", "/v1/build/lp/migrate", "Migrate", "Moves liquidity from one pool or venue version to another. " +
		"Not for uniswap-v2 (400 operation_not_supported). uniswap-v3 (venue uniswap-v3): bps of the user's LP balance of pool, a uniswap-v2 " +
		"pair, into a new position NFT of the V3 pool of the same tokens at feeTier, in a range given as tickLower and tickUpper or " +
		"priceLower and priceUpper (as lp/add takes them), through the V3Migrator: approveLP (exact, left out when the allowance suffices), " +
		"then migrate, which burns the LP tokens, mints the position for the user of everything the burn returns (with minimums slippageBps " +
		"below what the mint takes) and refunds what does not fit the range's ratio (native true: the wrapped native side as the gas coin). " +
		"When the V3 pool does not exist, the same migrator multicall creates and initializes it at the pair's price (metadata.created). " +
		"metadata, exact at the read state: lpAmount (burned), v2Amount0 and v2Amount1 (what the burn returns), poolId, liquidity, amount0 " +
		"and amount1 (what the mint takes) and their minimums, refund0 and refund1, tickLower, tickUpper, tick, inRange. No LP held is 422 " +
		"prerequisite_failed.", chain.CapLiquidity},
	{"buildLPFarm", "/v1/build/lp/farm", "Farm", "Stakes the pool's LP tokens in its farm, or unstakes them. " +
		"uniswap-v2: the pool's StakingRewards farm (looked up in the venue's StakingRewardsFactory; none is 404 not_found). " +
		"action stake (default): approveLP (exact) and stake of amount (human LP units, 18 decimals; default the whole LP balance). " +
		"action unstake: withdraw of amount (default the whole stake); rewards stay in the farm until harvested. " +
		"Nothing to stake or unstake is 422 prerequisite_failed. " +
		"uniswap-v3: positionIds holds one position of the user, farmed in the UniswapV3Staker. action stake (default): the position " +
		"manager's safeTransferFrom of the NFT, held in the wallet, to the staker with the incentive's key (transaction stake: it deposits and " +
		"stakes in one call, no approval needed), for incentiveId or the only live incentive of the position's pool (the staker's " +
		"IncentiveCreated logs); metadata: incentiveId, rewardToken, startTime, endTime. action unstake: one staker multicall " +
		"(unstakeAndWithdraw) of unstakeToken from every incentive it is staked in, claimReward of everything owed in their reward tokens " +
		"and withdrawToken to the user; metadata.rewards as lp/harvest states them. Another owner's position, one in the wrong place for " +
		"the action, no liquidity, or an incentive not of the pool, not started or ended is 422 prerequisite_failed.", chain.CapFarms},
}

func (s *Server) registerBuilders() {
	spec := func(id, path, summary, description string, serves func(chain.Info) bool, needs chain.Capability) opSpec {
		where := " GET /v1/chains lists the chains that serve it."
		if serves == nil {
			where = " Not available on any chain yet: GET /v1/chains lists each chain's operations."
		}
		return opSpec{ID: id, Method: http.MethodPost, Path: path, Summary: summary, Tag: "Builders", Scope: ScopeTxBuild, Class: ClassProvider, Builder: true,
			Body: builderDocs[id].body, Returns: builderDocs[id].returns,
			Serves: serves, Needs: needs,
			Description: description + " Returns unsigned transactions in order, for the caller's wallet to sign and send, each simulated " +
				"in order before it is returned (a call that would revert is 422 simulation_failed with reasons); " +
				"a retry with the same Idempotency-Key and body within ten minutes replays the first answer." + where}
	}
	register(s, spec("buildSwap", "/v1/build/swap", "Build swap transactions", "Solana: takes back a swap quote's raw object as quoteResponse, "+
		"unchanged: a quote altered, or made for another consumer or chain, is 400 invalid_request; one older than 30 s (expiresAt), or that "+
		"the pools have moved past beyond its slippage, is 409 review_required with freshQuote to review and build. One v0 transaction "+
		"(signed by user, who pays the fees): the compute unit limit from a simulation and a priority fee from recent fees, the user's "+
		"token accounts created where missing (idempotently), SOL wrapped in and out where the route starts or ends in it (a wrapped SOL "+
		"account the build creates is closed at its end; one the user has is left as it is), and one swap_base_input per pool, the last "+
		"with otherAmountThreshold as its minimum (a second pool sends exactly what the first was quoted to deliver); metadata carries "+
		"blockhash and lastValidBlockHeight: send it before that height. "+
		"EVM: takes inputMint, outputMint, amount (integer base units) and slippageBps, and quotes again: an exact approve of the router when "+
		"the allowance falls short, then the router's swap (ETH variants for native) with minOutAmount from slippageBps. "+
		"When the fresh execution price loses more than 3 % (30,000 ppm) against the route's mid price, the answer is 409 review_required "+
		"with valueLossPpm; repeating the request with maxValueLossPpm at or above it goes ahead. Never set it automatically. "+
		"That 409 is kept under its Idempotency-Key like any answer (the same request replays it); the reviewed request is a different "+
		"body, so send it under a new Idempotency-Key (under the old one it is 409 idempotency_conflict). "+
		"A balance short of amount is 422 prerequisite_failed.", s.tradeServesSwaps, chain.CapSwaps), s.buildSwap)
	register(s, spec("buildBridge", "/v1/build/bridge", "Build bridge transactions", "Moves amount (human token units) of inputToken to toChain.", nil, ""), s.buildBridge)
	register(s, spec("buildTransfer", "/v1/build/transfer", "Build a transfer", "Sends amount (human token units) of token, or native for the gas token, "+
		"from user to to. The amount converts exactly with the token's decimals (18 for every EVM gas coin, 9 for SOL); more decimals than the token has is "+
		"400 invalid_amount, a balance short of it 422 prerequisite_failed.", s.tradeServesTransfers, ""), s.buildTransfer)
	for _, op := range lpOps {
		serves := s.tradeServesSwaps // where a venue serves op.needs: EVM chains and solana
		switch {
		case op.needs == "":
			serves = nil
		case op.id == "buildLPIncrease" || op.id == "buildLPMigrate" || op.id == "buildLPRebalance": // NFT-style positions: uniswap-v3, on EVM chains only
			serves = func(c chain.Info) bool { return c.Kind == chain.KindEVM && s.tradeServesSwaps(c) }
		}
		register(s, spec(op.id, op.path, op.summary, op.description+" Fungible pools take pool, NFT-style positions positionIds; "+
			"venue-specific fields are accepted and checked when the operation runs.", serves, op.needs), s.buildLP(op.id))
	}
	confirm := spec("confirmBuild", "/v1/build/confirm", "Confirm a returned build", "", s.tradeServesTransfers, "")
	confirm.Description = "Checks the signatures (transaction hashes on EVM) of a build's transactions, in the order they were returned, " +
		"against the chain: each must be mined, succeeded, and be the call that was built (from, to, data, value). All final (at least " +
		"the chain's confirmation depth deep): confirmed true, and updated true the first time. Not yet found, mined or final: " +
		"confirmed false with pendingIds and pendingReason; retry later (a pending answer is never replayed: a retry with the same " +
		"Idempotency-Key checks the chain again). A mismatch or a revert is 422 verification_failed with " +
		"verification per hash. A token is valid 15 minutes and only for the consumer it was issued to: an unknown, expired or " +
		"other consumer's token is 404. GET /v1/chains lists the chains that serve it."
	register(s, confirm, s.confirmBuild)
}

func (s *Server) buildSwap(ctx context.Context, in *buildInput[BuildSwapRequest]) (*output[BuildResponse], error) {
	b := in.Body
	c, e := lookupChain(ctx, string(b.Chain))
	if e != nil {
		return nil, e
	}
	if c.Kind == chain.KindSolana {
		if b.QuoteResponse == nil {
			return nil, Errorf(CodeInvalidRequest, "a Solana swap build takes quoteResponse: the raw object of GET /v1/quotes/swap, unchanged")
		}
		c, e = s.resolve(ctx, string(b.Chain), addr("user", b.User))
	} else {
		if b.SlippageBps == nil {
			return nil, Errorf(CodeInvalidRequest, "an EVM swap build takes slippageBps")
		}
		if e := amountError(chain.ParseBaseUnits(b.Amount)); e != nil {
			return nil, e
		}
		c, e = s.resolve(ctx, string(b.Chain), addr("user", b.User), mint("inputMint", b.InputMint), mint("outputMint", b.OutputMint))
	}
	if e == nil {
		e = s.serving(ctx, c)
	}
	if e != nil {
		return nil, e
	}
	r := trade.SwapRequest{Chain: c.Name, User: b.User, InputMint: b.InputMint, OutputMint: b.OutputMint, Amount: b.Amount,
		MaxValueLossPpm: b.MaxValueLossPpm}
	if b.SlippageBps != nil {
		r.SlippageBps = *b.SlippageBps
	}
	if b.QuoteResponse != nil {
		q := tradeQuote(*b.QuoteResponse)
		r.Quote = &q
	}
	build, err := s.deps.Trade.BuildSwap(ctx, consumerOf(ctx), r)
	return buildOutput(ctx, build, err)
}

// consumerOf is the calling consumer.
func consumerOf(ctx context.Context) int { return callOf(ctx).principal.ConsumerID }

// buildOutput is a build's answer: sequential signing, the transactions, fees, quote and token,
// which is stored with the answer (call.keep).
func buildOutput(ctx context.Context, b trade.Build, err error) (*output[BuildResponse], error) {
	if err != nil {
		return nil, tradeError(err)
	}
	callOf(ctx).keep = b.Keep
	r := BuildResponse{OK: true, Signing: Signing{Mode: "sequential"}, Metadata: BuildMetadata(b.Metadata), ConfirmationToken: b.ConfirmationToken,
		Fees: []FeeRow{}, Transactions: []Transaction{}}
	if b.Quote != nil {
		eq := evmQuote(*b.Quote)
		r.Quote = &Quote{EVM: &eq}
	}
	if b.SolanaQuote != nil {
		sq := solanaQuote(*b.SolanaQuote)
		r.Quote = &Quote{Solana: &sq}
	}
	for _, f := range b.Fees {
		r.Fees = append(r.Fees, FeeRow(f))
	}
	for _, tx := range b.Transactions {
		if tx.Encoding != "" { // Solana: the serialized transaction is all there is
			t := &SolanaTransaction{Kind: "solana", ID: tx.ID, Encoding: tx.Encoding}
			if tx.Payload != nil {
				t.Payload = tx.Payload.Transaction
			}
			r.Transactions = append(r.Transactions, Transaction{Solana: t})
			continue
		}
		t := &EVMTransaction{Kind: "evm", ID: tx.ID, ChainID: tx.ChainID, From: tx.From, To: tx.To, Data: tx.Data, Value: tx.Value, Gas: int64(tx.Gas),
			MaxFeePerGas: tx.MaxFeePerGas, MaxPriorityFeePerGas: tx.MaxPriorityFeePerGas, Nonce: int64(tx.Nonce)}
		if tx.Payload != nil && tx.Payload.Expect != nil && tx.Payload.Expect.Allowance != nil {
			t.Payload = &Payload{Expect: &Expect{Allowance: (*AllowanceExpect)(tx.Payload.Expect.Allowance)}}
		}
		r.Transactions = append(r.Transactions, Transaction{EVM: t})
	}
	return &output[BuildResponse]{Body: r}, nil
}

func (s *Server) buildBridge(ctx context.Context, in *buildInput[BuildBridgeRequest]) (*output[BuildResponse], error) {
	from, e := s.resolveBridge(ctx, in.Body.BridgeQuoteRequest)
	if e != nil {
		return nil, e
	}
	return nil, s.notAvailable(ctx, from)
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
	c, e := s.resolve(ctx, string(b.Chain), fields...)
	if e == nil {
		e = s.serving(ctx, c)
	}
	if e != nil {
		return nil, e
	}
	build, err := s.deps.Trade.BuildTransfer(ctx, consumerOf(ctx), trade.TransferRequest{Chain: c.Name, User: b.User, To: b.To, Token: b.Token, Amount: b.Amount})
	return buildOutput(ctx, build, err)
}

func (s *Server) buildLP(opID string) func(context.Context, *buildInput[BuildLPRequest]) (*output[BuildResponse], error) {
	return func(ctx context.Context, in *buildInput[BuildLPRequest]) (*output[BuildResponse], error) {
		b := in.Body
		c, e := lookupChain(ctx, string(b.Chain))
		if e != nil {
			return nil, e
		}
		if e := venueOn(c, string(b.Venue)); e != nil {
			return nil, e
		}
		spec, _ := chain.LookupVenue(string(b.Venue))
		if op, ok := rangedOnly[opID]; ok && spec.Kind == chain.ConstantProduct {
			will := " will support "
			if spec.Family == chain.KindEVM {
				will = " supports "
			}
			return nil, Errorf(CodeOperationNotSupported, "%s is for NFT-style positions (concentrated liquidity); %s pools are fungible "+
				"(lp/add, lp/remove, lp/farm, lp/harvest and lp/compound serve them); %s%s%s",
				op, b.Venue, strings.Join(chain.VenuesOf(spec.Family, chain.Concentrated), " and "), will, op)
		}
		if spec.Kind == chain.ConstantProduct {
			return s.buildLPFungible(ctx, opID, spec, b)
		}
		if c.Kind == chain.KindEVM {
			return s.buildLPPositions(ctx, opID, spec, b)
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
		if e := lpAmountsError(b); e != nil {
			return nil, e
		}
		if c, e = s.resolve(ctx, string(b.Chain), fields...); e != nil {
			return nil, e
		}
		return nil, s.notAvailable(ctx, c) // a Solana venue of concentrated liquidity
	}
}

// buildLPFungible builds an LP operation on a venue of fungible pools (uniswap-v2; raydium on solana).
func (s *Server) buildLPFungible(ctx context.Context, opID string, spec chain.VenueSpec, b BuildLPRequest) (*output[BuildResponse], error) {
	if b.Version != spec.Version {
		return nil, Errorf(CodeInvalidRequest, "%s takes version %s, not %q", spec.Name, spec.Version, b.Version)
	}
	if len(b.PositionIDs) > 0 {
		return nil, Errorf(CodeInvalidRequest, "%s pools are fungible: give pool, not positionIds", spec.Name)
	}
	fields := []field{addr("user", b.User)}
	if opID == "buildLPCreate" {
		if b.TokenA == "" || b.TokenB == "" {
			return nil, Errorf(CodeInvalidRequest, "creating a pool takes tokenA and tokenB")
		}
		fields = append(fields, mint("tokenA", b.TokenA), mint("tokenB", b.TokenB))
	} else if b.Pool == "" {
		return nil, Errorf(CodeInvalidRequest, "%s LP operations take pool: the pool's address", spec.Name)
	} else {
		fields = append(fields, addr("pool", b.Pool))
	}
	switch opID {
	case "buildLPAdd":
		if b.AmountA == "" || b.AmountB == "" {
			return nil, Errorf(CodeInvalidAmount, "adding liquidity takes amountA and amountB, in human token units")
		}
		if (b.TokenA == "") != (b.TokenB == "") {
			return nil, Errorf(CodeInvalidRequest, "give both tokenA and tokenB (the tokens amountA and amountB are of), or neither (token0 and token1)")
		}
		fields = append(fields, field{name: "tokenA", value: b.TokenA, optional: true, native: true},
			field{name: "tokenB", value: b.TokenB, optional: true, native: true})
	case "buildLPRemove":
		if b.Bps == nil {
			return nil, Errorf(CodeInvalidRequest, "remove takes bps: the share of the position in basis points, 1 to 10000")
		}
	}
	return s.runLP(ctx, opID, b, fields)
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
	if !res.Confirmed { // pending: a retry under the same Idempotency-Key checks the chain again
		callOf(ctx).transient = true
	}
	return &output[ConfirmResponse]{Body: ConfirmResponse{OK: true, Confirmed: res.Confirmed, Updated: res.Updated, PendingIDs: res.PendingIDs,
		PendingReason: res.PendingReason}}, nil
}

// builderDocs says, per builder, what its request body carries and what its 200 answers (opSpec.Body
// and opSpec.Returns).
var builderDocs = map[string]struct{ body, returns string }{
	"buildSwap": {
		"The swap: Solana, chain, user and the quote's raw object as quoteResponse; EVM, chain, user, inputMint, outputMint, amount (integer base units) and slippageBps.",
		"The swap's unsigned transactions in order (an exact approve when the allowance falls short, then the swap), their fees, the fresh quote and a confirmation token.",
	},
	"buildBridge": {
		"The bridge transfer: fromChain and toChain, inputToken and outputToken, amount in human token units, the sender (user) and the recipient.",
		"The bridge's unsigned transactions in order, their fees and a confirmation token.",
	},
	"buildTransfer": {
		"The transfer: chain, user (the sender and signer), to, token (or native) and amount in human token units.",
		"The transfer's unsigned transaction, its fees and a confirmation token.",
	},
	"buildLPCreate": {
		"The pool to create: chain, venue, version, user, tokenA and tokenB.",
		"The create's unsigned transactions (uniswap-v2: createPair), their fees, metadata.poolId and a confirmation token.",
	},
	"buildLPAdd": {
		"The deposit: chain, venue, version, user, pool, amountA and amountB (human token units), optionally tokenA and tokenB, native and slippageBps.",
		"The deposit's unsigned transactions in order (exact approvals when needed, then addLiquidity), their fees, the amounts and LP minted in metadata, and a confirmation token.",
	},
	"buildLPIncrease": {
		"The NFT-style positions (positionIds) to add liquidity to, with the amounts to add.",
		"The increase's unsigned transactions in order, their fees and a confirmation token.",
	},
	"buildLPRemove": {
		"The withdrawal: chain, venue, version, user, pool and bps (the share of the position), optionally native and slippageBps.",
		"The withdrawal's unsigned transactions in order (an exact LP approval, then removeLiquidity), their fees, the amounts in metadata, and a confirmation token.",
	},
	"buildLPHarvest": {
		"The position whose farm rewards or fees to collect: chain, venue, version, user and pool.",
		"The claim's unsigned transaction (getReward), its fees, what was earned in metadata, and a confirmation token.",
	},
	"buildLPCompound": {
		"The position whose rewards to add back to it: chain, venue, version, user and pool, optionally slippageBps.",
		"The compound's unsigned transactions in order (claim, swaps, approvals, addLiquidity, stake), their fees, metadata.lpAmount and a confirmation token.",
	},
	"buildLPRebalance": {
		"The concentrated positions (positionIds) to move to a new price range.",
		"The rebalance's unsigned transactions in order, their fees and a confirmation token.",
	},
	"buildLPMigrate": {
		"The positions (positionIds) whose liquidity to move to another pool or venue version.",
		"The migration's unsigned transactions in order, their fees and a confirmation token.",
	},
	"buildLPFarm": {
		"The stake or unstake: chain, venue, version, user and pool, optionally action (stake, unstake) and amount (human LP units).",
		"The stake's or unstake's unsigned transactions in order (an exact LP approval, then stake; or withdraw), their fees and a confirmation token.",
	},
	"confirmBuild": {
		"The build to confirm: its confirmationToken and the signatures of its transactions, in the order they were returned.",
		"Whether every transaction of the build is final and as built, or which are still pending and why.",
	},
}

// TransformSchema describes BuildResponse in the OpenAPI document.
func (BuildResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "The answer of every builder: the unsigned transactions to sign and send in order, how to sign them, their fees, the build's metadata, the quote a swap used, and the token to confirm them with.")
}

// TransformSchema describes EVMTransaction in the OpenAPI document.
func (EVMTransaction) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "An EVM call of a build, to sign as an EIP-1559 transaction: its gas limit comes from the simulation, its fees from the fee market, its nonce from the signer's pending nonce (consecutive within a build).")
}

// TransformSchema describes SolanaTransaction in the OpenAPI document.
func (SolanaTransaction) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A serialized Solana transaction of a build, to sign as is: its fee payer's signature slot is zeros, and its blockhash must still be valid when it is sent (never replace it).")
}

// TransformSchema describes Payload in the OpenAPI document.
func (Payload) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "What an EVM call of a build states for the call after it: expect, a condition that must hold once this call is mined.")
}

// TransformSchema describes Expect in the OpenAPI document.
func (Expect) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A condition the next call of a build needs once this one is mined: wait until it holds before sending the next call.")
}

// TransformSchema describes AllowanceExpect in the OpenAPI document.
func (AllowanceExpect) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "An ERC-20 allowance the next call needs: at least amount (base units) of token from owner to spender. Approvals are exact, never unlimited.")
}

// TransformSchema describes FeeRow in the OpenAPI document.
func (FeeRow) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One fee of a build: the network fee of a transaction (kind network, in the gas token, estimated at the simulated gas and the current base fee and tip), a venue's swap fee on one pool (kind venue, in the token the pool receives), and on Solana the priority fee, rent and a Token-2022 transfer fee. Every row gives its amount twice: in token units and in integer base units, with the token's decimals.")
}

// TransformSchema describes Signing in the OpenAPI document.
func (Signing) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "How the caller signs and sends a build's transactions.")
}

// TransformSchema describes ConfirmResponse in the OpenAPI document.
func (ConfirmResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "What confirming a build found: confirmed true once every transaction is mined, succeeded, final and as built; otherwise which are still pending and why (retry later).")
}

// TransformSchema describes BuildSwapRequest in the OpenAPI document.
func (BuildSwapRequest) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A swap to build. Solana: chain, user and quoteResponse (the raw object of GET /v1/quotes/swap, unchanged). EVM: chain, user, inputMint, outputMint, amount (integer base units) and slippageBps; the service quotes again.")
}

// TransformSchema describes BuildBridgeRequest in the OpenAPI document.
func (BuildBridgeRequest) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A bridge transfer to build: amount (human token units) of inputToken from user on fromChain, delivered as outputToken to recipient on toChain. No chain serves bridges yet.")
}

// TransformSchema describes BuildTransferRequest in the OpenAPI document.
func (BuildTransferRequest) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A transfer to build: amount (human token units) of token, or of the gas coin, from user to to.")
}

// TransformSchema describes BuildLPRequest in the OpenAPI document.
func (BuildLPRequest) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "An LP operation to build. Fungible pools take pool, NFT-style positions positionIds; venue-specific fields are accepted and checked when the operation runs. uniswap-v2: create takes tokenA and tokenB; add takes pool, amountA and amountB, optionally tokenA, tokenB, native and slippageBps; remove takes pool and bps, optionally native and slippageBps; farm takes pool, optionally action and amount; harvest takes pool; compound takes pool, optionally slippageBps.")
}

// TransformSchema describes ConfirmRequest in the OpenAPI document.
func (ConfirmRequest) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "A build to confirm: its confirmationToken and the signatures (EVM: transaction hashes) of its transactions, in the order they were returned.")
}
