package api

import (
	"strconv"

	"github.com/danielgtaylor/huma/v2"
)

// The documented request examples: named per chain family (evm, solana) and, where it differs, per
// outcome, built from the local devnets' fixed addresses, so that each one, sent as it is to
// `make run` (local mode), answers what its summary says. Within an operation, the parameter
// examples of one name, with the body example of that name, make one request; a parameter without
// an example of that name is left out (its default applies). The status each answers is the
// example's x-expected-status. cmd/partnerd's TestDocumentedExamples sends every one to the binary.

// Fixed addresses of local mode: the EVM devnet's (chain/devnet: the seeding's deterministic
// deployer and accounts) and the Solana validator's (chain/solana/validator: its fixed seed).
const (
	exUser      = "0xa3653e2558a372f01316057253eAB2b03E9d8a6b" // devnet account 5: ETH, USDD, AUR, QRTZ
	exReceiver  = "0x647DA401969aD18a3D499d7e3f39bdfd885A7077" // devnet account 6
	exStaker    = "0x49B293Dc6e5Df99a199A3a85C003b61eb6b4175d" // devnet account 7: LP of WETH/AUR, some staked in its farm
	exAUR       = "0xfA172D7e20A062de8B89f8B03821e77072B141B3"
	exQRTZ      = "0x71889ACda55F58e2296B6A744978DC7D8006Bbc2"
	exWETH      = "0x3AF85aeca993356830e23664463d9e669D6cfcd8"
	exWETHAUR   = "0x043ddFeFFaE4FDEefF0AdfC0230849EC1Ef4DF34" // the WETH/AUR pair, farmed
	exWETHUSDD5 = "0x1A224B51fa6644545743482680D5121f37d963Bd" // the WETH/USDD uniswap-v3 pool, 0.05 %
	exDeployer  = "0xe84722Ef4c9c310bCc5A98d13d3DED923eBdAa44" // devnet account 0, the seeder: uniswap-v3 positions 1 to 3 in WETH/USDD 0.05 %, 4 to 7 in WETH/USDD 0.3 % (5 staked in the staker's incentive)
	exTxHash    = "0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a"
	exHolder0   = "58BAP9tWqD3nWfvzfa83a9vnNzjp8erG8suDCEX6qvJ3" // the validator's holder-0: SOL, USDC, AUR, QRTZ, EMB
	exHolder1   = "2ruo7F7X9SmPoi5vrWPwRNYoJ3txVwuugnRCEW5zNK87" // holder-1
	exUSDC      = "95TkvMZoHP9tNNv4ZsEfrT47ZYEnpWVpMcciPyEa9Yfx"
	exEMB       = "DvxQQQ3XEuo1XMNbsnsxYt7mrBb9Totn6yPY3NLfX84N" // Token-2022, 1 % transfer fee
	exSolAUR    = "3QkfvpabHMF9CzxkvjQvHKR8mMcWTDnB2mnSa8sVZz7J"
	exAURUSDC   = "6podpzcP9vgfcHWCAZfmKTN6Rpf6GpfDcGJkEruqt3xL" // the AUR/USDC pool of the local validator's CPMM program
	exSOLUSDC   = "B4FvniqAKpnVQgjZ3ENALsk9jrVhjrhET8j48mdsNJ2m"
	exSolQRTZ   = "8fHDGuyC2xGBESuTurepNNhyFcZemJU2B71qMnCXEDJi"
	exProvider  = "J2VRywEnkRXgBs75Ju6XeuyVkkt7zdCSf5CyTejFWKU" // the validator's lp-provider: LP of SOL/USDC and EMB/USDC
	exSignature = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"
)

// requestExample is one documented request of an operation.
type requestExample struct {
	name    string            // evm, solana, or an outcome
	summary string            // what it asks and what it answers
	params  map[string]string // by parameter name; the Idempotency-Key of builders is added
	body    map[string]any    // nil: none
	status  int               // what it answers against make run
}

// unsupported is the summary's ending of an example answered 400 operation_not_supported.
const unsupported = " Answers 400 operation_not_supported: GET /v1/chains lists what each chain serves."

// requestExamples are the documented requests, by operation id.
var requestExamples = map[string][]requestExample{
	"searchTokens": {
		{"evm", "Tokens named, or with a symbol, like AUR on base.", map[string]string{"chain": "base", "q": "AUR"}, nil, 200},
		{"solana", "Tokens like USDC on solana, the default chain.", map[string]string{"q": "USDC"}, nil, 200},
	},
	"getToken": {
		{"evm", "AUR on the base devnet.", map[string]string{"mint": exAUR, "chain": "base"}, nil, 200},
		{"solana", "USDC on solana, the default chain.", map[string]string{"mint": exUSDC}, nil, 200},
	},
	"getTokenPrice": {
		{"evm", "AUR's price on base.", map[string]string{"mint": exAUR, "chain": "base"}, nil, 200},
		{"native", "The gas coin's price on base, as its wrapped token's.", map[string]string{"mint": "native", "chain": "base"}, nil, 200},
		{"solana", "AUR's price on solana, from its deepest raydium pool.", map[string]string{"mint": exSolAUR}, nil, 200},
	},
	"getTokenHistory": {
		{"evm", "AUR's prices over the last 5 minutes on base.", map[string]string{"mint": exAUR, "chain": "base", "window": "300"}, nil, 200},
		{"solana", "AUR's prices over the last 5 minutes on solana.", map[string]string{"mint": exSolAUR, "window": "300"}, nil, 200},
	},
	"getTokenStats": {
		{"evm", "AUR's 24-hour figures on base.", map[string]string{"mint": exAUR, "chain": "base"}, nil, 200},
		{"solana", "AUR's figures on solana: price, liquidity and activity of its pools, supply and holders.", map[string]string{"mint": exSolAUR}, nil, 200},
	},
	"getTokenHolders": {
		{"evm", "AUR's largest holders on base.", map[string]string{"mint": exAUR, "chain": "base"}, nil, 200},
		{"solana", "USDC's largest holders on solana.", map[string]string{"mint": exUSDC}, nil, 200},
	},
	"getTokenTrades": {
		{"evm", "AUR's latest trades in its WETH pool on base.", map[string]string{"mint": exAUR, "chain": "base", "pool": exWETHAUR, "limit": "20"}, nil, 200},
		{"solana", "AUR's latest trades in its USDC pool on solana.", map[string]string{"mint": exSolAUR, "pool": exAURUSDC, "limit": "20"}, nil, 200},
	},
	"getTokenTopTraders": {
		{"evm", "AUR's top traders over 24 hours on base.", map[string]string{"mint": exAUR, "chain": "base"}, nil, 200},
		{"solana", "AUR's top traders over 24 hours on solana.", map[string]string{"mint": exSolAUR}, nil, 200},
	},
	"getTrending": {
		{"evm", "Trending uniswap-v2 pools on base.", map[string]string{"chain": "base", "amm": "uniswap-v2"}, nil, 200},
		{"solana", "Trending raydium pools on solana, the default chain.", map[string]string{"amm": "raydium"}, nil, 200},
		{"all", "Trending pools on every enabled chain.", map[string]string{"chain": "all"}, nil, 200},
	},
	"getHotPools": {
		{"evm", "Hot pools on base.", map[string]string{"chain": "base"}, nil, 200},
		{"solana", "Hot pools on solana.", map[string]string{"chain": "solana"}, nil, 200},
	},
	"getNewPools": {
		{"evm", "The newest pools on base.", map[string]string{"chain": "base"}, nil, 200},
		{"solana", "The newest pools on solana.", map[string]string{"chain": "solana"}, nil, 200},
	},
	"getPool": {
		{"evm", "The WETH/AUR pool on base.", map[string]string{"pool": exWETHAUR, "chain": "base"}, nil, 200},
		{"solana", "The AUR/USDC raydium pool on solana.", map[string]string{"pool": exAURUSDC}, nil, 200},
	},
	"getPoolReserves": {
		{"evm", "The WETH/AUR pool's reserves, AUR as base.", map[string]string{"pool": exWETHAUR, "chain": "base", "amm": "uniswap-v2", "base": exAUR, "quote": exWETH}, nil, 200},
		{"solana", "The AUR/USDC pool's reserves on solana: its vaults less the fees it owes.", map[string]string{"pool": exAURUSDC, "amm": "raydium", "base": exSolAUR, "quote": exUSDC}, nil, 200},
	},
	"getPoolBins": {
		{"evm", "Bins of the WETH/USDD 0.05 % uniswap-v3 pool on base around its price, priced in USDD (its token1).",
			map[string]string{"pool": exWETHUSDD5, "chain": "base", "amm": "uniswap-v3"}, nil, 200},
		{"solana", "Bins of a raydium (constant-product) pool: no venue with bins is served yet." + unsupported,
			map[string]string{"pool": exAURUSDC, "amm": "raydium"}, nil, 400},
	},
	"getPoolChart": {
		{"evm", "Hourly candles of AUR in the WETH/AUR pool.", map[string]string{"pool": exWETHAUR, "chain": "base", "resolution": "60", "limit": "24", "mint": exAUR}, nil, 200},
		{"solana", "Minute candles of AUR in the AUR/USDC pool on solana.", map[string]string{"pool": exAURUSDC, "resolution": "1", "limit": "60"}, nil, 200},
	},
	"getPoolAudit": {
		{"evm", "The WETH/AUR pool's audit.", map[string]string{"pool": exWETHAUR, "chain": "base"}, nil, 200},
		{"solana", "The AUR/USDC pool's audit on solana: AUR's mint facts.", map[string]string{"pool": exAURUSDC}, nil, 200},
	},
	"getHoldings": {
		{"evm", "Devnet account 5's holdings on base.", map[string]string{"owner": exUser, "chain": "base"}, nil, 200},
		{"solana", "holder-0's SOL, SPL and Token-2022 holdings on solana.", map[string]string{"owner": exHolder0}, nil, 200},
	},
	"getHoldingsBatch": {
		{"mixed", "Holdings of an EVM and a Solana owner in one call (cost 20).", map[string]string{"owners": "base:" + exUser + "," + exHolder0}, nil, 200},
	},
	"getPositions": {
		{"evm", "Devnet account 7's LP positions on base: in the wallet and staked in the farm.", map[string]string{"owner": exStaker, "chain": "base"}, nil, 200},
		{"solana", "lp-provider's LP positions on solana: its SOL/USDC and EMB/USDC raydium LP, with the underlying amounts.", map[string]string{"owner": exProvider}, nil, 200},
	},
	"getPositionsBatch": {
		{"evm", "LP positions of two owners on base (cost 20).", map[string]string{"owners": "base:" + exStaker + ",base:" + exUser}, nil, 200},
		{"mixed", "LP positions of an EVM and a Solana owner in one call (cost 20).", map[string]string{"owners": "base:" + exStaker + "," + exProvider}, nil, 200},
	},
	"getSwapQuote": {
		{"evm", "Selling 0.01 ETH for AUR on base.", map[string]string{"chain": "base", "inputMint": "native", "outputMint": exAUR, "amount": "10000000000000000", "slippageBps": "50"}, nil, 200},
		{"solana", "Selling 1 USDC for EMB (Token-2022, 1 % transfer fee) on solana, in Jupiter's quote shape.",
			map[string]string{"inputMint": exUSDC, "outputMint": exEMB, "amount": "1000000", "slippageBps": "50"}, nil, 200},
	},
	"getBridgeQuote": {
		{"evm", "Bridging 0.1 ETH from base to ethereum: no bridge is served yet." + unsupported, nil,
			map[string]any{"fromChain": "base", "toChain": "ethereum", "inputToken": "native", "outputToken": "native", "amount": "0.1", "user": exUser}, 400},
	},
	"getTransactionStatus": {
		{"evm", "The status of a transaction hash on base (unknown to the devnet).", map[string]string{"signature": exTxHash, "chain": "base"}, nil, 200},
		{"solana", "The status of a signature on solana (unknown to the validator).", map[string]string{"signature": exSignature}, nil, 200},
	},
	"buildSwap": {
		{"evm", "Account 5 swaps 0.01 ETH for AUR on base; the server quotes again.", nil,
			map[string]any{"chain": "base", "user": exUser, "inputMint": "native", "outputMint": exAUR, "amount": "10000000000000000", "slippageBps": 50}, 200},
		{"solana", "A Solana swap takes back a quote's raw object unchanged; this one is not a quote the service made (its seal does not match), " +
			"so it is refused with 400 invalid_request: send back what GET /v1/quotes/swap answered as raw.", nil,
			map[string]any{"chain": "solana", "user": exHolder0, "quoteResponse": map[string]any{"kind": "solana", "chain": "solana", "inputMint": exUSDC,
				"inAmount": "1000000", "outputMint": exEMB, "outAmount": "23511", "otherAmountThreshold": "23393", "swapMode": "ExactIn", "slippageBps": 50,
				"platformFee": nil, "priceImpactPct": "0.012538", "routePlan": []any{map[string]any{"percent": 100, "swapInfo": map[string]any{
					"ammKey": "5PCWBA9zrQf8LJfNYJEowUboVZAcKxYn14Whz6MYzfF9", "label": "raydium", "inputMint": exUSDC, "outputMint": exEMB,
					"inAmount": "1000000", "outAmount": "23511", "feeAmount": "2500", "feeMint": exUSDC}}},
				"contextSlot": 1000, "timeTaken": 0.0019, "expiresAt": 1763798460, "seal": "sn2W1mUq9mkEj0-sGIDAXiDdI8of4JYoA8Ey3krfl-U"}}, 400},
	},
	"buildBridge": {
		{"evm", "Bridging 0.1 ETH from base to ethereum: no bridge is served yet." + unsupported, nil,
			map[string]any{"fromChain": "base", "toChain": "ethereum", "inputToken": "native", "outputToken": "native", "amount": "0.1", "user": exUser}, 400},
	},
	"buildTransfer": {
		{"evm", "Account 5 sends 1.5 ETH to account 6 on base.", nil,
			map[string]any{"chain": "base", "user": exUser, "to": exReceiver, "token": "native", "amount": "1.5"}, 200},
		{"evm-token", "Account 5 sends 12.5 AUR to account 6 on base.", nil,
			map[string]any{"chain": "base", "user": exUser, "to": exReceiver, "token": exAUR, "amount": "12.5"}, 200},
		{"solana", "holder-0 sends 0.01 SOL to holder-1 on solana.", nil,
			map[string]any{"chain": "solana", "user": exHolder0, "to": exHolder1, "token": "native", "amount": "0.01"}, 200},
		{"solana-token-2022", "holder-0 sends 25 EMB (Token-2022, 1 % transfer fee) to holder-1 on solana.", nil,
			map[string]any{"chain": "solana", "user": exHolder0, "to": exHolder1, "token": exEMB, "amount": "25"}, 200},
	},
	"buildLPCreate": {
		{"evm", "Account 5 creates the AUR/QRTZ pair on base (then lp/add seeds it).", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": exUser, "tokenA": exAUR, "tokenB": exQRTZ}, 200},
		{"solana", "holder-0 creates a QRTZ/AUR raydium pool on solana, funded with 1,000 QRTZ and 10 AUR in the same instruction.", nil,
			map[string]any{"chain": "solana", "venue": "raydium", "version": "cpmm", "user": exHolder0, "tokenA": exSolQRTZ, "tokenB": exSolAUR,
				"amountA": "1000", "amountB": "10"}, 200},
	},
	"buildLPAdd": {
		{"evm", "Account 5 adds 100 AUR and up to 0.06 ETH to the WETH/AUR pool.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": exUser, "pool": exWETHAUR,
				"tokenA": exAUR, "amountA": "100", "tokenB": "native", "amountB": "0.06", "slippageBps": 50}, 200},
		{"evm-v3", "The deployer mints a full-range uniswap-v3 position in the WETH/USDD 0.05 % pool with up to 0.001 of each token " +
			"(amountA of token0, amountB of token1; the ticks are snapped to the pool's spacing of 10).", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exDeployer, "pool": exWETHUSDD5,
				"tickLower": -887272, "tickUpper": 887272, "amountA": "0.001", "amountB": "0.001", "slippageBps": 50}, 200},
		{"solana", "holder-0 adds up to 100 AUR and 150 USDC to the AUR/USDC raydium pool on solana.", nil,
			map[string]any{"chain": "solana", "venue": "raydium", "version": "cpmm", "user": exHolder0, "pool": exAURUSDC,
				"tokenA": exSolAUR, "amountA": "100", "tokenB": exUSDC, "amountB": "150", "slippageBps": 50}, 200},
	},
	"buildLPIncrease": {
		{"evm", "The deployer adds up to 0.001 of each token to its uniswap-v3 position 1 (WETH/USDD 0.05 %).", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exDeployer, "positionIds": []string{"1"},
				"amountA": "0.001", "amountB": "0.001"}, 200},
		{"evm-not-owner", "Account 5 does not hold position 1 (the deployer does): 422 prerequisite_failed.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exUser, "positionIds": []string{"1"},
				"amountA": "0.001", "amountB": "0.001"}, 422},
	},
	"buildLPRemove": {
		{"evm", "Account 7 withdraws 25 % of its WETH/AUR LP, the ETH side as ETH.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": exStaker, "pool": exWETHAUR, "bps": 2500, "native": true}, 200},
		{"evm-v3", "The deployer removes 1 % of its uniswap-v3 position 1's liquidity and collects what that frees and its fees; the NFT stays.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exDeployer, "positionIds": []string{"1"}, "bps": 100}, 200},
		{"solana", "lp-provider withdraws 25 % of its SOL/USDC raydium LP on solana, the SOL side as SOL.", nil,
			map[string]any{"chain": "solana", "venue": "raydium", "version": "cpmm", "user": exProvider, "pool": exSOLUSDC, "bps": 2500}, 200},
	},
	"buildLPHarvest": {
		{"evm", "Account 7 claims its rewards in the WETH/AUR farm.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": exStaker, "pool": exWETHAUR}, 200},
		{"evm-v3-staked", "The deployer claims the staker rewards of its uniswap-v3 position 5, staked in the WETH/USDD 0.3 % incentive, and stakes it again.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exDeployer, "positionIds": []string{"5"}}, 200},
	},
	"buildLPCompound": {
		{"evm", "Account 7 turns its farm rewards into more staked WETH/AUR LP.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": exStaker, "pool": exWETHAUR, "slippageBps": 100}, 200},
	},
	"buildLPRebalance": {
		{"evm", "The deployer moves its uniswap-v3 position 1 (WETH/USDD 0.05 %, a narrow range) to the full range: exit and burn, a swap " +
			"to the new range's ratio through the pool, and a mint.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exDeployer, "positionIds": []string{"1"},
				"tickLower": -887272, "tickUpper": 887272, "slippageBps": 100}, 200},
	},
	"buildLPMigrate": {
		{"evm", "Account 7 migrates half its WETH/AUR uniswap-v2 LP into a full-range uniswap-v3 position at 0.3 % (the pool is created at the pair's price).", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exStaker, "pool": exWETHAUR, "bps": 5000, "feeTier": 3000,
				"tickLower": -887272, "tickUpper": 887272}, 200},
	},
	"buildLPFarm": {
		{"evm", "Account 7 stakes 1 more WETH/AUR LP in its farm.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": exStaker, "pool": exWETHAUR, "action": "stake", "amount": "1"}, 200},
		{"evm-unstake", "Account 7 unstakes 2 WETH/AUR LP (rewards stay in the farm).", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": exStaker, "pool": exWETHAUR, "action": "unstake", "amount": "2"}, 200},
		{"evm-v3", "The deployer stakes its uniswap-v3 position 4 in the WETH/USDD 0.3 % pool's only live incentive.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exDeployer, "positionIds": []string{"4"}}, 200},
		{"evm-v3-unstake", "The deployer unstakes its uniswap-v3 position 5, claims its rewards and withdraws the NFT.", nil,
			map[string]any{"chain": "base", "venue": "uniswap-v3", "version": "3", "user": exDeployer, "positionIds": []string{"5"}, "action": "unstake"}, 200},
	},
	"confirmBuild": {
		{"unknown-token", "Confirming with a token nobody issued (a real one comes from a build's answer): answers 404 not_found.", nil,
			map[string]any{"confirmationToken": "ct_Q2hhbmdlIG1lOiBhIHJhbmRvbSB0b2tlbg", "signatures": []string{exTxHash}}, 404},
	},
}

// addRequestExamples documents each operation's request examples: named examples on its parameters
// (replacing a parameter's single example) and its request body, each with its x-expected-status.
// A builder's examples each get an Idempotency-Key of their own.
func addRequestExamples(doc *huma.OpenAPI) {
	for _, item := range doc.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post} {
			if op == nil {
				continue
			}
			for _, x := range requestExamples[op.OperationID] {
				example := func(v any) *huma.Example {
					return &huma.Example{Summary: x.summary, Value: v, Extensions: map[string]any{"x-expected-status": x.status}}
				}
				for _, p := range op.Parameters {
					v, ok := x.params[p.Name]
					if p.Name == "Idempotency-Key" {
						v, ok = "example-"+op.OperationID+"-"+x.name, true
					}
					if !ok {
						continue
					}
					if p.Examples == nil {
						p.Examples = map[string]*huma.Example{}
					}
					p.Example, p.Examples[x.name] = nil, example(typedParam(p, v))
				}
				if x.body != nil && op.RequestBody != nil {
					m := op.RequestBody.Content["application/json"]
					if m.Examples == nil {
						m.Examples = map[string]*huma.Example{}
					}
					m.Example, m.Examples[x.name] = nil, example(x.body)
				}
			}
		}
	}
}

// typedParam is a parameter example's value in its schema's type.
func typedParam(p *huma.Param, v string) any {
	if p.Schema != nil && p.Schema.Type == huma.TypeInteger {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return v
}
