package uniswapv3

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// routerABI is the part of @uniswap/swap-router-contracts' SwapRouter02 that swap builds call:
// multicall with a deadline, exactInput (V3 hops; IV3SwapRouter's params carry no deadline),
// exactInputSingle (a swap to a range's ratio: ratio.go), swapExactTokensForTokens (V2 hops) and
// unwrapWETH9 to a recipient.
var routerABI = mustABI(`[
{"type":"function","name":"multicall","stateMutability":"payable","inputs":[{"name":"deadline","type":"uint256"},{"name":"data","type":"bytes[]"}],"outputs":[{"name":"","type":"bytes[]"}]},
{"type":"function","name":"exactInput","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[
 {"name":"path","type":"bytes"},{"name":"recipient","type":"address"},{"name":"amountIn","type":"uint256"},{"name":"amountOutMinimum","type":"uint256"}]}],
 "outputs":[{"name":"amountOut","type":"uint256"}]},
{"type":"function","name":"swapExactTokensForTokens","stateMutability":"payable","inputs":[{"name":"amountIn","type":"uint256"},{"name":"amountOutMin","type":"uint256"},
 {"name":"path","type":"address[]"},{"name":"to","type":"address"}],"outputs":[{"name":"amountOut","type":"uint256"}]},
{"type":"function","name":"exactInputSingle","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[
 {"name":"tokenIn","type":"address"},{"name":"tokenOut","type":"address"},{"name":"fee","type":"uint24"},{"name":"recipient","type":"address"},
 {"name":"amountIn","type":"uint256"},{"name":"amountOutMinimum","type":"uint256"},{"name":"sqrtPriceLimitX96","type":"uint160"}]}],
 "outputs":[{"name":"amountOut","type":"uint256"}]},
{"type":"function","name":"unwrapWETH9","stateMutability":"payable","inputs":[{"name":"amountMinimum","type":"uint256"},{"name":"recipient","type":"address"}],"outputs":[]}
]`)

// SwapRouter02's special recipients and amount (its Constants library): a recipient of
// addressThis keeps the output in the router for the next call, an amountIn of contractBalance
// spends what the router holds.
var (
	addressThis     = common.BigToAddress(big.NewInt(2))
	contractBalance = new(big.Int)
)

// exactInputParams is IV3SwapRouter.ExactInputParams.
type exactInputParams struct {
	Path             []byte
	Recipient        common.Address
	AmountIn         *big.Int
	AmountOutMinimum *big.Int
}

// swapRouter02Data is multicall(deadline, calls): the route cut into runs of pools of one model,
// each run one call (exactInput for V3 pools, swapExactTokensForTokens for V2 pairs); a run after
// the first spends the router's balance, a run before the last leaves its output in the router;
// the last pays r.Recipient at least r.MinOut, or leaves wrapped native in the router for
// unwrapWETH9(MinOut, Recipient) when r.NativeOut. A native input is the call's value, which the
// router wraps as the first run pays its pool.
func swapRouter02Data(r chain.EVMSwapRoute) []byte {
	var calls [][]byte
	recipient := common.HexToAddress(r.Recipient)
	for start := 0; start < len(r.Pools); {
		end := start + 1
		for end < len(r.Pools) && r.Pools[end].Model == r.Pools[start].Model {
			end++
		}
		amountIn, minOut, to := contractBalance, new(big.Int), addressThis
		if start == 0 {
			amountIn = r.AmountIn
		}
		if end == len(r.Pools) {
			minOut = r.MinOut
			if !r.NativeOut {
				to = recipient
			}
		}
		if r.Pools[start].Model == chain.EVMPair {
			path := make([]common.Address, 0, end-start+1)
			for _, t := range r.Path[start : end+1] {
				path = append(path, common.HexToAddress(t))
			}
			calls = append(calls, packCall(routerABI, "swapExactTokensForTokens", amountIn, minOut, path, to))
		} else {
			calls = append(calls, packCall(routerABI, "exactInput", exactInputParams{Path: v3Path(r.Path[start:end+1], r.Pools[start:end]),
				Recipient: to, AmountIn: amountIn, AmountOutMinimum: minOut}))
		}
		start = end
	}
	if r.NativeOut {
		calls = append(calls, packCall(routerABI, "unwrapWETH9", r.MinOut, recipient))
	}
	return packCall(routerABI, "multicall", big.NewInt(r.Deadline), calls)
}

// v3Path is a V3 multi-hop path: token, fee (3 bytes), token, ..., token.
func v3Path(tokens []string, pools []chain.EVMSwapPool) []byte {
	out := common.HexToAddress(tokens[0]).Bytes()
	for i, p := range pools {
		out = append(out, byte(p.FeePips>>16), byte(p.FeePips>>8), byte(p.FeePips))
		out = append(out, common.HexToAddress(tokens[i+1]).Bytes()...)
	}
	return out
}
