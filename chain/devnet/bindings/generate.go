// Package bindings holds the abigen v2 bindings of the devnet contracts, generated from the committed
// artifacts in ../artifacts (see `make contracts`; `make check-generated` regenerates and compares).
package bindings

//go:generate go tool abigen --v2 --combined-json ../artifacts/Token.json --pkg bindings --out token.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/WETH9.json --pkg bindings --out weth9.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/UniswapV2Factory.json --pkg bindings --out uniswap_v2_factory.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/UniswapV2Pair.json --pkg bindings --out uniswap_v2_pair.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/UniswapV2Router02.json --pkg bindings --out uniswap_v2_router02.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/StakingRewards.json --pkg bindings --out staking_rewards.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/StakingRewardsFactory.json --pkg bindings --out staking_rewards_factory.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/Multicall3.json --pkg bindings --out multicall3.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/TaxToken.json --pkg bindings --out tax_token.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/AuditProbe.json --pkg bindings --out audit_probe.go
