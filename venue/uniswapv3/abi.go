package uniswapv3

import (
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// The contracts' calls are encoded with go-ethereum's abi package from JSON fragments of the
// official ABIs (@uniswap/v3-periphery 1.4.4, @uniswap/swap-router-contracts 1.3.1,
// @uniswap/v3-staker 1.0.2), each the part of its contract the builds call.

// poolInitializerFragment is PoolInitializer's createAndInitializePoolIfNecessary, which the
// position manager and the V3Migrator both have.
const poolInitializerFragment = `{"type":"function","name":"createAndInitializePoolIfNecessary","stateMutability":"payable","inputs":[
 {"name":"token0","type":"address"},{"name":"token1","type":"address"},{"name":"fee","type":"uint24"},{"name":"sqrtPriceX96","type":"uint160"}],
 "outputs":[{"name":"pool","type":"address"}]}`

// mustABI parses a JSON array of ABI fragments; a fragment that does not parse is a programming
// error.
func mustABI(fragments string) abi.ABI {
	a, err := abi.JSON(strings.NewReader(fragments))
	if err != nil {
		panic(err)
	}
	return a
}

// packCall encodes a call of method of a; the callers' argument types are fixed, so an error is a
// programming error.
func packCall(a abi.ABI, method string, args ...any) []byte {
	data, err := a.Pack(method, args...)
	if err != nil {
		panic("uniswapv3: pack " + method + ": " + err.Error())
	}
	return data
}
