package api

import "github.com/danielgtaylor/huma/v2"

// BuildMetadata is what a builder says about its build besides the transactions. Which keys appear
// depends on the operation and the chain family; Schema documents every one of them, and more may be
// added at any time.
type BuildMetadata map[string]any

// metadataKey documents one key of BuildMetadata: its JSON type, where it appears and an example.
type metadataKey struct {
	name, typ, doc string
	example        any
}

// metadataKeys are the keys builders write, by chain family and operation.
var metadataKeys = []metadataKey{
	// Every EVM build.
	{"simulatedAtBlock", huma.TypeInteger, "EVM: the block the state was read at; each call was simulated in a block after it.", 38512345},
	// Solana builds.
	{"blockhash", huma.TypeString, "Solana: the recent blockhash the transactions carry; never replace it (the signatures cover it).", "GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi"},
	{"lastValidBlockHeight", huma.TypeInteger, "Solana: the last block height at which blockhash is valid: send and confirm before the cluster passes it, or build again.", 312345678},
	{"simulatedAtSlot", huma.TypeInteger, "Solana: the slot the transaction was simulated at.", 301234567},
	{"computeUnitLimit", huma.TypeInteger, "Solana: the compute unit limit the transaction sets (the simulated units plus a margin).", 12000},
	{"computeUnitPrice", huma.TypeString, "Solana: the compute unit price the transaction sets, micro-lamports per unit, decimal.", "1000"},
	// Transfers.
	{"token", huma.TypeString, "Transfers: the token sent, native or its address.", "native"},
	{"to", huma.TypeString, "Transfers: the receiver.", "0x647DA401969aD18a3D499d7e3f39bdfd885A7077"},
	{"amount", huma.TypeString, "Transfers: the amount sent, in token units, as requested.", "1.5"},
	{"baseUnits", huma.TypeString, "Transfers: the amount sent, in integer base units.", "1500000000000000000"},
	{"decimals", huma.TypeInteger, "Transfers: the token's decimals.", 18},
	{"received", huma.TypeString, "Solana transfers: what the receiver gets, in token units (less a Token-2022 transfer fee).", "1.485"},
	{"receivedBaseUnits", huma.TypeString, "Solana transfers: what the receiver gets, in integer base units.", "1485000"},
	{"source", huma.TypeString, "Solana token transfers: the sender's token account.", "9tX9Lx2gkAqTP1WDN5i4Rwqgcuz7dWpQLkWH7HzVG4sD"},
	{"destination", huma.TypeString, "Solana transfers: the receiver's token account (or wallet for SOL).", "6Yz9h2aVsYvX9R6u8mE3Lwqb3gWfLKU5jd8JTN2v5Tq1"},
	{"createsDestination", huma.TypeBoolean, "Solana token transfers: the transaction creates the receiver's associated token account (its rent is a fee row).", true},
	{"tokenProgram", huma.TypeString, "Solana token transfers: the mint's token program (SPL Token or Token-2022).", "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"},
	{"transferFee", huma.TypeObject, "Solana Token-2022 transfers: the mint's transfer fee withheld from the amount: amount (token units), baseUnits, basisPoints, maximumFee (base units), epoch.",
		map[string]any{"amount": "0.015", "baseUnits": "15000", "basisPoints": 100, "maximumFee": "10000000", "epoch": 0}},
	// Swaps and liquidity (EVM).
	{"venue", huma.TypeString, "Swaps and liquidity: the venue built on.", "uniswap-v2"},
	{"router", huma.TypeString, "Swaps and liquidity: the venue's router the calls go through.", "0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24"},
	{"factory", huma.TypeString, "Pool creation: the venue's factory.", "0x8909dc15e40173ff4699343b6eb8132c65e18ec6"},
	{"deadline", huma.TypeInteger, "Swaps and liquidity: the router deadline, Unix seconds; the call reverts after it.", 1763798700},
	{"valueLossPpm", huma.TypeInteger, "Swaps: the value the swap loses at the fresh price against its route's mid price, parts per million.", 3512},
	{"minOutAmount", huma.TypeString, "Swaps: the least output the swap accepts, integer base units.", "302990312914739086"},
	{"poolId", huma.TypeString, "Pool creation and liquidity: the pool (the pair's address); after a create, build lp/add with it once the create is mined.", "0x88a43bbdf9d098eec7bceda4e2494615dfd9bb9c"},
	{"token0", huma.TypeString, "Pool creation: the pair's token0.", "0x4200000000000000000000000000000000000006"},
	{"token1", huma.TypeString, "Pool creation: the pair's token1.", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"},
	{"seeded", huma.TypeBoolean, "Pool creation and lp/add: the deposit sets the price of an empty pool.", false},
	{"native", huma.TypeBoolean, "lp/add and lp/remove: the wrapped native side is paid or received in the gas coin.", false},
	{"amount0", huma.TypeString, "Liquidity: token0 deposited or withdrawn, integer base units.", "1000000000000000000"},
	{"amount1", huma.TypeString, "Liquidity: token1 deposited or withdrawn, integer base units.", "3012000000"},
	{"minAmount0", huma.TypeString, "Liquidity: the least token0 the router accepts, integer base units.", "995000000000000000"},
	{"minAmount1", huma.TypeString, "Liquidity: the least token1 the router accepts, integer base units.", "2996940000"},
	{"unused0", huma.TypeString, "lp/add: token0 the pool's ratio leaves in the wallet, integer base units.", "0"},
	{"unused1", huma.TypeString, "lp/add: token1 the pool's ratio leaves in the wallet, integer base units.", "4521"},
	{"leftover0", huma.TypeString, "lp/compound: token0 left in the wallet after adding, integer base units.", "0"},
	{"leftover1", huma.TypeString, "lp/compound: token1 left in the wallet after adding, integer base units.", "12"},
	{"lpAmount", huma.TypeString, "Liquidity and farms: LP tokens minted, withdrawn, staked or unstaked, integer base units (18 decimals).", "54772255750516611"},
	{"bps", huma.TypeInteger, "lp/remove: the share of the position withdrawn, basis points.", 2500},
	// Farms (EVM).
	{"farm", huma.TypeString, "Farms: the pool's StakingRewards farm.", "0x3032ab3fa8c01d786d29dade018d7f2017918e12"},
	{"action", huma.TypeString, "lp/farm: stake or unstake.", "stake"},
	{"staked", huma.TypeString, "Farms: the user's stake before the build, LP base units.", "5000000000000000000"},
	{"rewardToken", huma.TypeString, "Farms: the token the farm pays rewards in.", "0xfa172d7e20a062de8b89f8b03821e77072b141b3"},
	{"earned", huma.TypeString, "Farms: rewards earned at the read block, integer base units of rewardToken (the claim pays at least that).", "1250000000000000000"},
	{"reward", huma.TypeString, "lp/compound: the reward compounded, integer base units of rewardToken.", "1250000000000000000"},
	{"swaps", huma.TypeArray, "lp/compound: the swaps of the reward into the pool's tokens: id, tokenIn, tokenOut, amountIn, amountOut, minOutAmount, path.",
		[]any{map[string]any{"id": "swapToken0", "tokenIn": "0xfa172d7e20a062de8b89f8b03821e77072b141b3", "tokenOut": "0x4200000000000000000000000000000000000006",
			"amountIn": "625000000000000000", "amountOut": "1820000000000000", "minOutAmount": "1810900000000000",
			"path": []any{"0xfa172d7e20a062de8b89f8b03821e77072b141b3", "0x4200000000000000000000000000000000000006"}}}},
}

// Schema documents every key builders write; more may appear.
func (BuildMetadata) Schema(huma.Registry) *huma.Schema {
	s := &huma.Schema{Type: huma.TypeObject, Properties: map[string]*huma.Schema{},
		Description: "About the build. Which keys appear depends on the operation and the chain family, as each key's description says; " +
			"more may be added at any time.",
		Examples: []any{map[string]any{"venue": "uniswap-v2", "router": "0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24", "deadline": 1763798700,
			"valueLossPpm": 3512, "minOutAmount": "302990312914739086", "simulatedAtBlock": 38512345}}}
	for _, k := range metadataKeys {
		p := &huma.Schema{Type: k.typ, Description: k.doc, Examples: []any{k.example}}
		if k.typ == huma.TypeArray {
			p.Items = &huma.Schema{Type: huma.TypeObject}
		}
		s.Properties[k.name] = p
	}
	return s
}
