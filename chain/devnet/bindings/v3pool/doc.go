// Package v3pool holds the abigen v2 binding of the official UniswapV3Pool (@uniswap/v3-core 1.0.1),
// generated from ../../artifacts/UniswapV3Pool.json by a go:generate line in package bindings.
//
// It has a package of its own because abigen v2 names a method's multi-value result after the method
// alone (MintOutput, BurnOutput, CollectOutput, PositionsOutput), and the pool's mint, burn, collect
// and positions would collide in package bindings with those of the V2 pair and the
// NonfungiblePositionManager.
package v3pool
