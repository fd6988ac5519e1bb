// Package program holds our constant-product AMM program for the local Solana validator: C
// (src/) whose instruction interface and account layouts follow Raydium CPMM, compiled by Debian's
// clang and linked by our linker (link/) into raydium_cpmm.so, which the validator deploys at
// Raydium CPMM's mainnet program id. It is ours, compatible in interface, not Raydium's binary.
package program

import (
	_ "embed"

	"github.com/gagliardetto/solana-go"
)

// SO is the program's shared object, as `make program` builds it from src/.
//
//go:embed raydium_cpmm.so
var SO []byte

// ID is Raydium CPMM's mainnet program id, where the local validator deploys SO.
var ID = solana.MustPublicKeyFromBase58("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C")
