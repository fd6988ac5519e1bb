package uniswapv3

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain"
)

// The venue's migration of Uniswap V2 liquidity (chain.V3MigrateVenue) through the V3Migrator
// (@uniswap/v3-periphery 1.4.4): migrate burns the LP tokens, mints a position of what the burn
// returned and refunds what the mint did not take; createAndInitializePoolIfNecessary first in the
// same multicall when the pool does not exist.

var _ chain.V3MigrateVenue = Venue{}

// migratorABI is the part of the V3Migrator the builds call.
var migratorABI = mustABI(`[
{"type":"function","name":"migrate","stateMutability":"nonpayable","inputs":[{"name":"params","type":"tuple","components":[
 {"name":"pair","type":"address"},{"name":"liquidityToMigrate","type":"uint256"},{"name":"percentageToMigrate","type":"uint8"},
 {"name":"token0","type":"address"},{"name":"token1","type":"address"},{"name":"fee","type":"uint24"},{"name":"tickLower","type":"int24"},
 {"name":"tickUpper","type":"int24"},{"name":"amount0Min","type":"uint256"},{"name":"amount1Min","type":"uint256"},
 {"name":"recipient","type":"address"},{"name":"deadline","type":"uint256"},{"name":"refundAsETH","type":"bool"}]}],"outputs":[]},
` + poolInitializerFragment + `,
{"type":"function","name":"multicall","stateMutability":"payable","inputs":[{"name":"data","type":"bytes[]"}],"outputs":[{"name":"results","type":"bytes[]"}]}
]`)

// MigrateCall is migrate(params) on the migrator with percentageToMigrate 100, after
// createAndInitializePoolIfNecessary in one multicall when m.CreateAt is set.
func (Venue) MigrateCall(cfg chain.VenueConfig, m chain.V3Migration) chain.EVMCall {
	params := struct {
		Pair                   common.Address
		LiquidityToMigrate     *big.Int
		PercentageToMigrate    uint8
		Token0, Token1         common.Address
		Fee                    *big.Int
		TickLower, TickUpper   *big.Int
		Amount0Min, Amount1Min *big.Int
		Recipient              common.Address
		Deadline               *big.Int
		RefundAsETH            bool
	}{common.HexToAddress(m.Pair), m.Liquidity, 100, common.HexToAddress(m.Token0), common.HexToAddress(m.Token1), big.NewInt(int64(m.Fee)),
		big.NewInt(int64(m.TickLower)), big.NewInt(int64(m.TickUpper)), m.Amount0Min, m.Amount1Min, common.HexToAddress(m.Recipient),
		big.NewInt(m.Deadline), m.RefundAsETH}
	data := packCall(migratorABI, "migrate", params)
	if m.CreateAt != nil {
		create := packCall(migratorABI, "createAndInitializePoolIfNecessary", common.HexToAddress(m.Token0), common.HexToAddress(m.Token1),
			big.NewInt(int64(m.Fee)), m.CreateAt)
		data = packCall(migratorABI, "multicall", [][]byte{create, data})
	}
	return chain.EVMCall{To: strings.ToLower(cfg.Migrator), Data: data}
}

// PairPrice is sqrt(reserve1 / reserve0) in Q64.96, rounded down (SqrtPriceAt of the raw
// price), and its tick.
func (Venue) PairPrice(reserve0, reserve1 *big.Int) (*big.Int, int, error) {
	if reserve0.Sign() <= 0 {
		return nil, 0, fmt.Errorf("%w: reserve0 %s", ErrSqrtRatio, reserve0)
	}
	sqrt, err := SqrtPriceAt(new(big.Rat).SetFrac(reserve1, reserve0), 0, 0)
	if err != nil {
		return nil, 0, err
	}
	tick, err := TickAtSqrtRatio(sqrt)
	return sqrt, tick, err
}
