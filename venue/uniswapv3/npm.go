package uniswapv3

import (
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// The venue's liquidity builds (chain.V3LiquidityVenue): the NonfungiblePositionManager's mint,
// increaseLiquidity, decreaseLiquidity and collect (@uniswap/v3-periphery 1.4.4), with the
// periphery's and the pool's exact deposit math (liquidity.go).

var _ chain.V3LiquidityVenue = Venue{}

// npmABI is the part of the NonfungiblePositionManager the builds call.
var npmABI = mustABI(`[
{"type":"function","name":"mint","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[
 {"name":"token0","type":"address"},{"name":"token1","type":"address"},{"name":"fee","type":"uint24"},{"name":"tickLower","type":"int24"},
 {"name":"tickUpper","type":"int24"},{"name":"amount0Desired","type":"uint256"},{"name":"amount1Desired","type":"uint256"},
 {"name":"amount0Min","type":"uint256"},{"name":"amount1Min","type":"uint256"},{"name":"recipient","type":"address"},{"name":"deadline","type":"uint256"}]}],"outputs":[]},
{"type":"function","name":"increaseLiquidity","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[
 {"name":"tokenId","type":"uint256"},{"name":"amount0Desired","type":"uint256"},{"name":"amount1Desired","type":"uint256"},
 {"name":"amount0Min","type":"uint256"},{"name":"amount1Min","type":"uint256"},{"name":"deadline","type":"uint256"}]}],"outputs":[]},
{"type":"function","name":"decreaseLiquidity","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[
 {"name":"tokenId","type":"uint256"},{"name":"liquidity","type":"uint128"},{"name":"amount0Min","type":"uint256"},
 {"name":"amount1Min","type":"uint256"},{"name":"deadline","type":"uint256"}]}],"outputs":[]},
{"type":"function","name":"collect","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[
 {"name":"tokenId","type":"uint256"},{"name":"recipient","type":"address"},{"name":"amount0Max","type":"uint128"},{"name":"amount1Max","type":"uint128"}]}],"outputs":[]},
{"type":"function","name":"burn","stateMutability":"payable","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[]},
{"type":"function","name":"multicall","stateMutability":"payable","inputs":[{"name":"data","type":"bytes[]"}],"outputs":[]},
` + poolInitializerFragment + `
]`)

// PoolAddress is the pool's CREATE2 address from cfg's factory and init code hash (the official
// pool's by default).
func (Venue) PoolAddress(cfg chain.VenueConfig, token0, token1 string, fee int) (string, error) {
	hash := cfg.InitCodeHash
	if hash == "" {
		hash = chain.UniswapV3InitCodeHash
	}
	return chain.UniswapV3PoolAddress(cfg.Factory, hash, token0, token1, fee)
}

// SnapRange is the package's SnapRange.
func (Venue) SnapRange(lower, upper, tickSpacing int) (int, int, error) {
	return SnapRange(lower, upper, tickSpacing)
}

// PriceTick is the package's PriceTick.
func (Venue) PriceTick(price *big.Rat, decimals0, decimals1 int) (int, error) {
	return PriceTick(price, decimals0, decimals1)
}

// Deposit is the package's Deposit.
func (Venue) Deposit(tickLower, tickUpper, tick int, sqrtPriceX96, desired0, desired1 *big.Int) (chain.V3Deposit, error) {
	l, a0, a1, err := Deposit(tickLower, tickUpper, tick, sqrtPriceX96, desired0, desired1)
	return chain.V3Deposit{Liquidity: l, Amount0: a0, Amount1: a1}, err
}

// MintCall is mint(params) on the position manager.
func (Venue) MintCall(cfg chain.VenueConfig, m chain.V3Mint) chain.EVMCall {
	params := struct {
		Token0, Token1                 common.Address
		Fee, TickLower, TickUpper      *big.Int
		Amount0Desired, Amount1Desired *big.Int
		Amount0Min, Amount1Min         *big.Int
		Recipient                      common.Address
		Deadline                       *big.Int
	}{common.HexToAddress(m.Token0), common.HexToAddress(m.Token1), big.NewInt(int64(m.Fee)), big.NewInt(int64(m.TickLower)),
		big.NewInt(int64(m.TickUpper)), m.Amount0Desired, m.Amount1Desired, m.Amount0Min, m.Amount1Min, common.HexToAddress(m.Recipient),
		big.NewInt(m.Deadline)}
	return chain.EVMCall{To: strings.ToLower(cfg.PositionManager), Data: packCall(npmABI, "mint", params)}
}

// IncreaseCall is increaseLiquidity(params) on the position manager.
func (Venue) IncreaseCall(cfg chain.VenueConfig, id, desired0, desired1, min0, min1 *big.Int, deadline int64) chain.EVMCall {
	params := struct {
		TokenId                        *big.Int
		Amount0Desired, Amount1Desired *big.Int
		Amount0Min, Amount1Min         *big.Int
		Deadline                       *big.Int
	}{id, desired0, desired1, min0, min1, big.NewInt(deadline)}
	return chain.EVMCall{To: strings.ToLower(cfg.PositionManager), Data: packCall(npmABI, "increaseLiquidity", params)}
}

// RemoveCall is multicall([decreaseLiquidity(params), collect(id, recipient, max, max)]) on the
// position manager: the NFT is not burned, even when no liquidity is left (it keeps the
// position's history; burning it is the owner's choice).
func (Venue) RemoveCall(cfg chain.VenueConfig, id, liquidity, min0, min1 *big.Int, recipient string, deadline int64) chain.EVMCall {
	calls := decreaseAndCollect(id, liquidity, min0, min1, recipient, deadline)
	return chain.EVMCall{To: strings.ToLower(cfg.PositionManager), Data: packCall(npmABI, "multicall", calls)}
}

// decreaseAndCollect is decreaseLiquidity(id, liquidity, min0, min1, deadline) and collect(id,
// recipient, max, max): the calls that take liquidity out of a position and pay it out.
func decreaseAndCollect(id, liquidity, min0, min1 *big.Int, recipient string, deadline int64) [][]byte {
	params := struct {
		TokenId                *big.Int
		Liquidity              *big.Int
		Amount0Min, Amount1Min *big.Int
		Deadline               *big.Int
	}{id, liquidity, min0, min1, big.NewInt(deadline)}
	return [][]byte{packCall(npmABI, "decreaseLiquidity", params), collectData(id, recipient)}
}

// CollectCall is collect(id, recipient, max, max) on the position manager.
func (Venue) CollectCall(cfg chain.VenueConfig, id *big.Int, recipient string) chain.EVMCall {
	return chain.EVMCall{To: strings.ToLower(cfg.PositionManager), Data: collectData(id, recipient)}
}

// collectData is collect of everything position id is owed (both maxima uint128's) to recipient.
func collectData(id *big.Int, recipient string) []byte {
	params := struct {
		TokenId                *big.Int
		Recipient              common.Address
		Amount0Max, Amount1Max *big.Int
	}{id, common.HexToAddress(recipient), maxUint128, maxUint128}
	return packCall(npmABI, "collect", params)
}
