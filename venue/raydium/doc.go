// Package raydium is the Raydium CPMM venue's core, independent of the API and of solana-go: the
// constant-product math exactly as the on-chain program computes it (fees, rounding, u64 bounds,
// Token-2022 transfer fees, LP conversions, the initial liquidity), the program's account layouts
// (AmmConfig, PoolState, ObservationState) and its instruction encoders (initialize, deposit,
// withdraw, swap_base_input, swap_base_output) with the program-derived addresses they need.
//
// The rules were read from Raydium's public CPMM source (raydium-io/raydium-cp-swap, Anchor 0.32
// version); no code of it is copied here. The math is held to the 1,910 vectors of
// @raydium-io/raydium-sdk-v2 0.2.73-alpha in chain/solana/program/vectors (the SDK's figure, or the
// program's where the program differs by design), the layouts and encoders to what that SDK decodes
// and builds (testdata/, see testdata/sdk/README.md), and every encoder to the program itself: the
// tests run each instruction in LiteSVM against the local validator's CPMM-compatible program.
//
// Amounts are u64 base units. A quote fails with the error the program would fail with (see
// errors.go), so a quote that succeeds is a transaction that succeeds on the same state, slippage
// limits aside.
package raydium
