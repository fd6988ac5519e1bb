package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// MarketPool is an indexed pool with its latest reserves. Base and quote orient it for prices: the
// quote is the USD stablecoin, else the wrapped native token, else token1.
//
// lp_token is the pool's LP token when it is a token of its own (a Solana venue's LP mint, such as
// Raydium CPMM's ["pool_lp_mint", pool] PDA). Empty means the pool's own address is its LP token
// (a Uniswap V2 pair is its LP token's contract), or, for a pool without fungible LP tokens
// (Uniswap V3), that nobody holds its address as a token: index.Store.PoolsOfLPTokens reads it so.
type MarketPool struct {
	ent.Schema
}

// Fields of the MarketPool.
func (MarketPool) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.String("address").MaxLen(100),
		field.String("venue").MaxLen(32),
		field.String("token0").MaxLen(100),
		field.String("token1").MaxLen(100),
		field.Bool("base_is_token0"),
		field.Int("fee_bps"),
		field.Int64("created_block"),
		field.Int64("created_at").Comment("unix seconds"),
		field.String("reserve0").MaxLen(80).Comment("base units, decimal"),
		field.String("reserve1").MaxLen(80),
		field.Int64("state_block").Comment("block of the reserves; never below created_block"),
		field.String("lp_token").MaxLen(100).Optional().
			Comment("the pool's LP token when it is not the pool itself (a Solana LP mint); empty: the pool's own address"),
		field.String("sqrt_price_x96").MaxLen(80).Optional().
			Comment("concentrated-liquidity pools (Uniswap V3): sqrt price, Q64.96, decimal; the reserves are its virtual reserves"),
		field.String("liquidity").MaxLen(80).Optional().Comment("concentrated-liquidity pools: in-range liquidity, decimal"),
		field.Int("tick").Optional().Nillable().Comment("concentrated-liquidity pools: current tick"),
	}
}

// Indexes of the MarketPool.
func (MarketPool) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("chain", "address").Unique(),
		index.Fields("chain", "token0"),
		index.Fields("chain", "token1"),
		index.Fields("chain", "created_at"),
		index.Fields("chain", "state_block"), // what changed after a block: the market snapshot, rollbacks
		index.Fields("chain", "lp_token"),    // which pool an LP token held belongs to: positions
	}
}
