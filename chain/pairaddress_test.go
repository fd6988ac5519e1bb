package chain

import (
	"strings"
	"testing"
)

// Ethereum mainnet's Uniswap V2 deployment.
const (
	mainnetV2Factory = "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f"
	mainnetUSDC      = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
	mainnetWETH      = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2"
	mainnetDAI       = "0x6B175474E89094C44Da98b954EedeAC495271d0F"
)

func TestUniswapV2PairAddress(t *testing.T) {
	for _, tc := range []struct {
		name, a, b, want string
	}{
		{"USDC/WETH", mainnetUSDC, mainnetWETH, "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc"},
		{"WETH/USDC: either order", mainnetWETH, mainnetUSDC, "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc"},
		{"lower-case input", strings.ToLower(mainnetUSDC), strings.ToLower(mainnetWETH), "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc"},
		{"upper-case input", "0X" + strings.ToUpper(mainnetUSDC[2:]), mainnetWETH, "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc"},
		{"DAI/WETH", mainnetDAI, mainnetWETH, "0xa478c2975ab1ea89e8196811f51a7b7ade33eb11"},
	} {
		got, err := UniswapV2PairAddress(mainnetV2Factory, UniswapV2InitCodeHash, tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("%s: UniswapV2PairAddress = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	// The hash's case does not matter either.
	if got, err := UniswapV2PairAddress(strings.ToLower(mainnetV2Factory), "0x"+strings.ToUpper(UniswapV2InitCodeHash[2:]), mainnetUSDC, mainnetWETH); err != nil || got != "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc" {
		t.Errorf("upper-case hash: %q, %v", got, err)
	}
	// Another factory or hash gives another address.
	if got, err := UniswapV2PairAddress(mainnetV2Factory, "0x"+strings.Repeat("00", 32), mainnetUSDC, mainnetWETH); err != nil || got == "0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc" || !IsEVMAddress(got) {
		t.Errorf("zero hash: %q, %v", got, err)
	}
}

func TestUniswapV2PairAddressErrors(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		factory, hash, tokenA, tokenB string
		want                          string
	}{
		{"factory without 0x", mainnetV2Factory[2:], UniswapV2InitCodeHash, mainnetUSDC, mainnetWETH, "factory"},
		{"short factory", mainnetV2Factory[:40], UniswapV2InitCodeHash, mainnetUSDC, mainnetWETH, "factory"},
		{"tokenA not hex", mainnetV2Factory, UniswapV2InitCodeHash, "0x" + strings.Repeat("g", 40), mainnetWETH, "tokenA"},
		{"tokenB empty", mainnetV2Factory, UniswapV2InitCodeHash, mainnetUSDC, "", "tokenB"},
		{"tokenB too long", mainnetV2Factory, UniswapV2InitCodeHash, mainnetUSDC, mainnetWETH + "00", "tokenB"},
		{"hash empty", mainnetV2Factory, "", mainnetUSDC, mainnetWETH, "init code hash"},
		{"hash short", mainnetV2Factory, UniswapV2InitCodeHash[:65], mainnetUSDC, mainnetWETH, "init code hash"},
		{"hash without 0x", mainnetV2Factory, UniswapV2InitCodeHash[2:], mainnetUSDC, mainnetWETH, "init code hash"},
		{"hash not hex", mainnetV2Factory, "0x" + strings.Repeat("z", 64), mainnetUSDC, mainnetWETH, "init code hash"},
		{"same token", mainnetV2Factory, UniswapV2InitCodeHash, mainnetWETH, mainnetWETH, "same token"},
		{"same token, other case", mainnetV2Factory, UniswapV2InitCodeHash, strings.ToLower(mainnetWETH), mainnetWETH, "same token"},
	} {
		got, err := UniswapV2PairAddress(tc.factory, tc.hash, tc.tokenA, tc.tokenB)
		if err == nil || got != "" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: UniswapV2PairAddress = %q, %v; want an error about %s", tc.name, got, err, tc.want)
		}
	}
}

// TestUniswapV3PoolAddress: mainnet's USDC/WETH pools of the official V3 factory, at two fee tiers.
func TestUniswapV3PoolAddress(t *testing.T) {
	const factory = "0x1F98431c8aD98523631AE4a59f267346ea31F984"
	for _, tc := range []struct {
		name, a, b string
		fee        int
		want       string
	}{
		{"USDC/WETH 0.05 %", mainnetUSDC, mainnetWETH, 500, "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640"},
		{"WETH/USDC 0.05 %: either order", mainnetWETH, mainnetUSDC, 500, "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640"},
		{"USDC/WETH 0.3 %", mainnetUSDC, mainnetWETH, 3000, "0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8"},
	} {
		got, err := UniswapV3PoolAddress(factory, UniswapV3InitCodeHash, tc.a, tc.b, tc.fee)
		if err != nil || got != tc.want {
			t.Errorf("%s: UniswapV3PoolAddress = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	for _, fee := range []int{-1, 1 << 24} {
		if _, err := UniswapV3PoolAddress(factory, UniswapV3InitCodeHash, mainnetUSDC, mainnetWETH, fee); err == nil {
			t.Errorf("fee %d accepted", fee)
		}
	}
	if _, err := UniswapV3PoolAddress(factory, UniswapV3InitCodeHash, mainnetUSDC, mainnetUSDC, 500); err == nil {
		t.Error("the same token twice accepted")
	}
}
