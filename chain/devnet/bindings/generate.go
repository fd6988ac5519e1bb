// Package bindings holds the abigen v2 bindings of the devnet contracts, generated from the committed
// artifacts in ../artifacts (see `make contracts`; `make check-generated` regenerates and compares).
//
// The Uniswap V3 pool's binding is in the subpackage v3pool (its result types would collide here).
// NonfungibleTokenPositionDescriptor's artifact also holds the NFTDescriptor library its bytecode links,
// so its binding declares NFTDescriptorMetaData too, listed in the descriptor's MetaData.Deps, whose
// ID is the library's placeholder in the descriptor's bytecode (chain/devnet links it at deploy time).
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
//go:generate go tool abigen --v2 --combined-json ../artifacts/UniswapV3Factory.json --pkg bindings --out uniswap_v3_factory.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/UniswapV3Pool.json --pkg v3pool --out v3pool/uniswap_v3_pool.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/NonfungiblePositionManager.json --pkg bindings --out nonfungible_position_manager.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/NonfungibleTokenPositionDescriptor.json --pkg bindings --out nonfungible_token_position_descriptor.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/QuoterV2.json --pkg bindings --out quoter_v2.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/TickLens.json --pkg bindings --out tick_lens.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/V3Migrator.json --pkg bindings --out v3_migrator.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/SwapRouter02.json --pkg bindings --out swap_router02.go
//go:generate go tool abigen --v2 --combined-json ../artifacts/UniswapV3Staker.json --pkg bindings --out uniswap_v3_staker.go
