package chain

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"

	"golang.org/x/crypto/sha3"
)

// UniswapV2InitCodeHash is the init code hash of the official Uniswap V2 pair: keccak256 of the
// UniswapV2Pair creation bytecode in @uniswap/v2-core 1.0.1, which the official factory deploys with
// CREATE2 on Ethereum mainnet and which the official Router02 (UniswapV2Library.pairFor) hardcodes.
// Forks that changed the pair (PancakeSwap, SushiSwap, ...) have their own hash; the devnet runs the
// official pair, so its pairs have this one.
const UniswapV2InitCodeHash = "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f"

// UniswapV2PairAddress returns the CREATE2 address of the Uniswap V2 pair of tokenA and tokenB (any order) made by factory, whose pair init code hash is initCodeHash (0x + 64 hex). Addresses are 0x hex in any case; the answer is lower-case 0x hex. Errors: a malformed address or hash, or tokenA == tokenB.
//
// The address is the last 20 bytes of keccak256(0xff ++ factory ++ salt ++ initCodeHash), where the
// salt is keccak256(token0 ++ token1) with the tokens sorted by address, as UniswapV2Factory.createPair
// deploys it. Nothing is read from a chain: the pair may not exist (factory.getPair says whether it does).
func UniswapV2PairAddress(factory, initCodeHash, tokenA, tokenB string) (string, error) {
	f, err := decodeEVMAddress("factory", factory)
	if err != nil {
		return "", err
	}
	a, err := decodeEVMAddress("tokenA", tokenA)
	if err != nil {
		return "", err
	}
	b, err := decodeEVMAddress("tokenB", tokenB)
	if err != nil {
		return "", err
	}
	if !isHex32(initCodeHash) {
		return "", fmt.Errorf("uniswap v2 pair address: init code hash %q: want 0x followed by 64 hex digits", initCodeHash)
	}
	hash, _ := hex.DecodeString(initCodeHash[2:]) // isHex32 checked it
	switch bytes.Compare(a, b) {
	case 0:
		return "", errors.New("uniswap v2 pair address: tokenA and tokenB are the same token")
	case 1:
		a, b = b, a
	}
	salt := legacyKeccak256(a, b)
	sum := legacyKeccak256([]byte{0xff}, f, salt, hash)
	return "0x" + hex.EncodeToString(sum[12:]), nil
}

// decodeEVMAddress decodes a 0x EVM address (any case) to its 20 bytes.
func decodeEVMAddress(what, s string) ([]byte, error) {
	if !IsEVMAddress(s) {
		return nil, fmt.Errorf("uniswap v2 pair address: %s %q: want 0x followed by 40 hex digits", what, s)
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
