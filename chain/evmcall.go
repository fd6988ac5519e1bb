package chain

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
)

// Calls with static arguments only (addresses and unsigned integers), encoded without an ABI: the
// ERC-20 calls every EVM build makes, and a venue's simple calls.

// EVMCalldata is the calldata of the function signature (e.g. "approve(address,uint256)") with
// args, each an address (string, 0x hex) or an unsigned integer (*big.Int below 2^256) in one
// 32-byte word. It panics on another argument type: the caller's programming error.
func EVMCalldata(signature string, args ...any) []byte {
	data := make([]byte, 4, 4+32*len(args))
	copy(data, legacyKeccak256([]byte(signature))[:4])
	for _, a := range args {
		var w [32]byte
		switch v := a.(type) {
		case string:
			b, err := hex.DecodeString(strings.TrimPrefix(strings.ToLower(v), "0x"))
			if err != nil || len(b) != 20 {
				panic(fmt.Sprintf("EVMCalldata: %q is not an address", v))
			}
			copy(w[12:], b)
		case *big.Int:
			if v.Sign() < 0 || v.BitLen() > 256 {
				panic(fmt.Sprintf("EVMCalldata: %s is not a uint256", v))
			}
			v.FillBytes(w[:])
		default:
			panic(fmt.Sprintf("EVMCalldata: argument of type %T", a))
		}
		data = append(data, w[:]...)
	}
	return data
}

// ERC20ApproveCall is token's approve(spender, amount).
func ERC20ApproveCall(token, spender string, amount *big.Int) EVMCall {
	return EVMCall{To: token, Data: EVMCalldata("approve(address,uint256)", spender, amount)}
}

// ERC20TransferCall is token's transfer(to, amount).
func ERC20TransferCall(token, to string, amount *big.Int) EVMCall {
	return EVMCall{To: token, Data: EVMCalldata("transfer(address,uint256)", to, amount)}
}
