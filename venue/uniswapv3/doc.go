// Package uniswapv3 is Uniswap V3's exact swap math, computed as the official contracts compute
// it (@uniswap/v3-core 1.0.1): TickMath, SqrtPriceMath, SwapMath.computeSwapStep and the pool's
// swap loop, on math/big integers that stand for the contracts' fixed-width ones (uint160 sqrt
// prices in Q64.96, uint128 liquidity, int24 ticks). Every rounding is the contract's; where a
// contract reverts, the function returns an error.
//
// The math is held to the official @uniswap/v3-sdk on generated vectors (testdata/) and to the
// official QuoterV2 on a devnet running the official contracts (devnet_test.go).
package uniswapv3
