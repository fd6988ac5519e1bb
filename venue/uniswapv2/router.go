package uniswapv2

import (
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// routerABI is the part of @uniswap/v2-periphery's IUniswapV2Router02 that swaps use.
var routerABI = func() abi.ABI {
	const swap = `{"type":"function","name":"%s","stateMutability":"nonpayable","inputs":[%s{"name":"amountOutMin","type":"uint256"},{"name":"path","type":"address[]"},{"name":"to","type":"address"},{"name":"deadline","type":"uint256"}],"outputs":[]}`
	in := `{"name":"amountIn","type":"uint256"},`
	var fragments []string
	for _, m := range []struct{ name, in string }{
		{"swapExactTokensForTokens", in}, {"swapExactTokensForETH", in}, {"swapExactETHForTokens", ""},
		{"swapExactTokensForTokensSupportingFeeOnTransferTokens", in}, {"swapExactTokensForETHSupportingFeeOnTransferTokens", in},
		{"swapExactETHForTokensSupportingFeeOnTransferTokens", ""},
	} {
		fragments = append(fragments, strings.Replace(strings.Replace(swap, "%s", m.name, 1), "%s", m.in, 1))
	}
	a, err := abi.JSON(strings.NewReader("[" + strings.Join(fragments, ",") + "]"))
	if err != nil {
		panic(err)
	}
	return a
}()

// SwapKind is which side of a router swap is the native coin.
type SwapKind int

// Router swap variants.
const (
	TokensForTokens SwapKind = iota // swapExactTokensForTokens
	NativeForTokens                 // swapExactETHForTokens: the input is the call's value
	TokensForNative                 // swapExactTokensForETH
)

// SwapData is the Router02 exact-input swap of kind along path (token addresses, the wrapped native
// at a native end), paying to. feeOnTransfer selects the ...SupportingFeeOnTransferTokens variant,
// which checks minOut against what arrives instead of what the pairs computed. For NativeForTokens
// amountIn is not encoded: it is the call's value. Addresses must be valid 0x hex.
func SwapData(kind SwapKind, amountIn, minOut *big.Int, path []string, to string, deadline int64, feeOnTransfer bool) []byte {
	p := make([]common.Address, len(path))
	for i, s := range path {
		p[i] = common.HexToAddress(s)
	}
	recipient, dl := common.HexToAddress(to), big.NewInt(deadline)
	method := map[SwapKind]string{TokensForTokens: "swapExactTokensForTokens", NativeForTokens: "swapExactETHForTokens",
		TokensForNative: "swapExactTokensForETH"}[kind]
	if feeOnTransfer {
		method += "SupportingFeeOnTransferTokens"
	}
	var data []byte
	var err error
	if kind == NativeForTokens {
		data, err = routerABI.Pack(method, minOut, p, recipient, dl)
	} else {
		data, err = routerABI.Pack(method, amountIn, minOut, p, recipient, dl)
	}
	if err != nil {
		panic("uniswapv2: pack " + method + ": " + err.Error()) // the arguments' types are fixed
	}
	return data
}
