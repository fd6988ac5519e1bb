package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// PoolEvent is one swap, mint, burn, collect or bare sync of an indexed pool, with the reserves
// after it and, for swaps, the base token's USD price after it and the trade's USD volume (priced
// when indexed).
type PoolEvent struct {
	ent.Schema
}

// Fields of the PoolEvent.
func (PoolEvent) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.String("pool").MaxLen(100),
		field.Int64("block"),
		field.Int("log_index"),
		field.String("tx_hash").MaxLen(100),
		field.Enum("kind").Values("swap", "mint", "burn", "sync", "collect").Comment("collect: a concentrated pool's Collect, owed tokens paid out (amounts in base_amount, quote_amount)"),
		field.Enum("side").Values("buy", "sell", "none").Comment("swaps: buy means the trader received the base token"),
		field.String("trader").MaxLen(100).Comment("the transaction's sender"),
		field.String("base_amount").MaxLen(80).Comment("base units, decimal"),
		field.String("quote_amount").MaxLen(80),
		field.String("reserve0").MaxLen(80),
		field.String("reserve1").MaxLen(80),
		field.Float("price_usd").Comment("base token in USD after the event; 0 when unpriced"),
		field.Float("price_native").Comment("base token in the quote token after the event"),
		field.Float("volume_usd"),
		field.Int64("time").Comment("block time, unix seconds"),
		field.String("sqrt_price_x96").MaxLen(80).Optional().
			Comment("concentrated-liquidity pools (Uniswap V3): sqrt price, Q64.96, decimal; the reserves are its virtual reserves"),
		field.String("liquidity").MaxLen(80).Optional().Comment("concentrated-liquidity pools: in-range liquidity, decimal"),
		field.Int("tick").Optional().Nillable().Comment("concentrated-liquidity pools: current tick"),
	}
}

// Indexes of the PoolEvent.
func (PoolEvent) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("chain", "block", "log_index").Unique(),
		index.Fields("chain", "pool", "time"),
		index.Fields("chain", "time"),
	}
}
