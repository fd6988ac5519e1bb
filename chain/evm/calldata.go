package evm

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// Calldata of the calls the builders return, encoded with the official ABIs (fragments of
// @uniswap/v2-periphery's IUniswapV2Router02, @uniswap/v2-core's IUniswapV2Factory and
// @uniswap/liquidity-staker's StakingRewards in abi/). Addresses are 0x hex, amounts base units,
// deadlines Unix seconds. The caller validates addresses first: a malformed one encodes as zero.

func hexAddr(s string) common.Address { return common.HexToAddress(s) }

// ApproveData is ERC-20 approve(spender, amount).
func ApproveData(spender string, amount *big.Int) []byte {
	return pack(erc20ABI, "approve", hexAddr(spender), amount)
}

// TransferData is ERC-20 transfer(to, amount).
func TransferData(to string, amount *big.Int) []byte {
	return pack(erc20ABI, "transfer", hexAddr(to), amount)
}

// CreatePairData is the factory's createPair(tokenA, tokenB).
func CreatePairData(tokenA, tokenB string) []byte {
	return pack(factoryABI, "createPair", hexAddr(tokenA), hexAddr(tokenB))
}

// AddLiquidityData is Router02's addLiquidity.
func AddLiquidityData(tokenA, tokenB string, amountA, amountB, minA, minB *big.Int, to string, deadline int64) []byte {
	return pack(routerABI, "addLiquidity", hexAddr(tokenA), hexAddr(tokenB), amountA, amountB, minA, minB, hexAddr(to), big.NewInt(deadline))
}

// AddLiquidityNativeData is Router02's addLiquidityETH; the native amount is the call's value.
func AddLiquidityNativeData(token string, amount, minToken, minNative *big.Int, to string, deadline int64) []byte {
	return pack(routerABI, "addLiquidityETH", hexAddr(token), amount, minToken, minNative, hexAddr(to), big.NewInt(deadline))
}

// RemoveLiquidityData is Router02's removeLiquidity.
func RemoveLiquidityData(tokenA, tokenB string, liquidity, minA, minB *big.Int, to string, deadline int64) []byte {
	return pack(routerABI, "removeLiquidity", hexAddr(tokenA), hexAddr(tokenB), liquidity, minA, minB, hexAddr(to), big.NewInt(deadline))
}

// RemoveLiquidityNativeData is Router02's removeLiquidityETH, or its SupportingFeeOnTransferTokens
// variant for a taxed token.
func RemoveLiquidityNativeData(token string, liquidity, minToken, minNative *big.Int, to string, deadline int64, feeOnTransfer bool) []byte {
	method := "removeLiquidityETH"
	if feeOnTransfer {
		method += "SupportingFeeOnTransferTokens"
	}
	return pack(routerABI, method, hexAddr(token), liquidity, minToken, minNative, hexAddr(to), big.NewInt(deadline))
}

// StakeData is StakingRewards' stake(amount).
func StakeData(amount *big.Int) []byte { return pack(stakingABI, "stake", amount) }

// WithdrawData is StakingRewards' withdraw(amount).
func WithdrawData(amount *big.Int) []byte { return pack(stakingABI, "withdraw", amount) }

// GetRewardData is StakingRewards' getReward().
func GetRewardData() []byte { return pack(stakingABI, "getReward") }
