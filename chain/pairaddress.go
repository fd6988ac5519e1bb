package chain

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"golang.org/x/crypto/sha3"
)

// UniswapV2InitCodeHash is the init code hash of the official Uniswap V2 pair: keccak256 of the
// UniswapV2Pair creation bytecode in @uniswap/v2-core 1.0.1, which the official factory deploys with
// CREATE2 on Ethereum mainnet and which the official Router02 (UniswapV2Library.pairFor) hardcodes.
// Forks that changed the pair (PancakeSwap, SushiSwap, ...) have their own hash; the devnet runs the
// official pair, so its pairs have this one.
const UniswapV2InitCodeHash = "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f"

// UniswapV3InitCodeHash is the init code hash of the official Uniswap V3 pool: keccak256 of the
// UniswapV3Pool creation bytecode in @uniswap/v3-core 1.0.1, which the official factory deploys with
// CREATE2 on every chain (PoolAddress.POOL_INIT_CODE_HASH in v3-periphery). The devnet runs that
// bytecode, so its pools have this hash too.
const UniswapV3InitCodeHash = "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54"

// UniswapV2PairAddress returns the CREATE2 address of the Uniswap V2 pair of tokenA and tokenB (any
// order) made by factory, whose pair init code hash is initCodeHash (0x + 64 hex). Addresses are 0x
// hex in any case; the answer is lower-case 0x hex. Errors: a malformed address or hash, or tokenA ==
// tokenB.
//
// The address is the last 20 bytes of keccak256(0xff ++ factory ++ salt ++ initCodeHash), where the
// salt is keccak256(token0 ++ token1) with the tokens sorted by address, as UniswapV2Factory.createPair
// deploys it. Nothing is read from a chain: the pair may not exist (factory.getPair says whether it does).
func UniswapV2PairAddress(factory, initCodeHash, tokenA, tokenB string) (string, error) {
	return poolAddress("uniswap v2 pair address", factory, initCodeHash, tokenA, tokenB, func(t0, t1 []byte) []byte {
		return legacyKeccak256(t0, t1)
	})
}

// UniswapV3PoolAddress returns the CREATE2 address of the Uniswap V3 pool of tokenA and tokenB (any
// order) at fee (hundredths of a bip: 500, 3000, 10000) made by factory, whose pool init code hash
// is initCodeHash (UniswapV3InitCodeHash for the official pool), as PoolAddress.computeAddress in
// v3-periphery computes it: the salt is keccak256(abi.encode(token0, token1, fee)) with the tokens
// sorted. The answer is lower-case 0x hex; nothing is read from a chain. Errors: as
// UniswapV2PairAddress's, and a fee outside 0 to 2^24-1.
func UniswapV3PoolAddress(factory, initCodeHash, tokenA, tokenB string, fee int) (string, error) {
	if fee < 0 || fee >= 1<<24 {
		return "", fmt.Errorf("uniswap v3 pool address: fee %d is not a uint24", fee)
	}
	return poolAddress("uniswap v3 pool address", factory, initCodeHash, tokenA, tokenB, func(t0, t1 []byte) []byte {
		word := func(b []byte) []byte { return append(make([]byte, 32-len(b)), b...) }
		return legacyKeccak256(word(t0), word(t1), word([]byte{byte(fee >> 16), byte(fee >> 8), byte(fee)}))
	})
}

// poolAddress is the CREATE2 address of factory's pool of tokenA and tokenB, sorted, with the salt
// salt gives for them and initCodeHash; what names the caller in errors.
func poolAddress(what, factory, initCodeHash, tokenA, tokenB string, salt func(token0, token1 []byte) []byte) (string, error) {
	f, err := decodeEVMAddress(what, "factory", factory)
	if err != nil {
		return "", err
	}
	a, err := decodeEVMAddress(what, "tokenA", tokenA)
	if err != nil {
		return "", err
	}
	b, err := decodeEVMAddress(what, "tokenB", tokenB)
	if err != nil {
		return "", err
	}
	if !isHex32(initCodeHash) {
		return "", fmt.Errorf("%s: init code hash %q: want 0x followed by 64 hex digits", what, initCodeHash)
	}
	hash, _ := hex.DecodeString(initCodeHash[2:]) // isHex32 checked it
	switch bytes.Compare(a, b) {
	case 0:
		return "", fmt.Errorf("%s: tokenA and tokenB are the same token", what)
	case 1:
		a, b = b, a
	}
	sum := legacyKeccak256([]byte{0xff}, f, salt(a, b), hash)
	return "0x" + hex.EncodeToString(sum[12:]), nil
}

// decodeEVMAddress decodes a 0x EVM address (any case) to its 20 bytes; what and name say what it is
// in errors.
func decodeEVMAddress(what, name, s string) ([]byte, error) {
	if !IsEVMAddress(s) {
		return nil, fmt.Errorf("%s: %s %q: want 0x followed by 40 hex digits", what, name, s)
	}
	b, _ := hex.DecodeString(s[2:]) // IsEVMAddress checked it
	return b, nil
}

func legacyKeccak256(parts ...[]byte) []byte {
	h := sha3.NewLegacyKeccak256()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}
