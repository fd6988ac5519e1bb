package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// LPPosition is a liquidity position held as an NFT of a position manager (a Uniswap V3
// NonfungiblePositionManager), as its logs leave it: its pool and tick range, owner and liquidity.
// A burned NFT keeps its row, owned by the zero address.
type LPPosition struct {
	ent.Schema
}

// Fields of the LPPosition.
func (LPPosition) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.String("manager").MaxLen(100),
		field.String("position_id").MaxLen(80).Comment("the NFT's id, decimal"),
		field.String("pool").MaxLen(100).Comment("empty until a liquidity change ties the position to an indexed pool"),
		field.String("owner").MaxLen(100),
		field.Int("tick_lower"),
		field.Int("tick_upper"),
		field.String("liquidity").MaxLen(80).Comment("decimal, zero-padded to 78 digits so that it sorts as a number"),
		field.Int64("created_block").Comment("block of the position's first indexed change"),
	}
}

// Indexes of the LPPosition.
func (LPPosition) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("chain", "manager", "position_id").Unique(),
		index.Fields("chain", "pool", "liquidity"),
	}
}
