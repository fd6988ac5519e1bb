// Package program holds our constant-product AMM program for the local Solana validator: C
// (src/) whose instruction interface and account layouts follow Raydium CPMM, compiled by Debian's
// clang and linked by our linker (link/) into raydium_cpmm.so, which the validator deploys at
// Raydium CPMM's mainnet program id. It is ours, compatible in interface, not Raydium's binary.
package program
