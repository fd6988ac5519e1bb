package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// MarketToken is a token the indexer follows: one side of an indexed pool, or a pool's own LP token.
type MarketToken struct {
	ent.Schema
}

// Fields of the MarketToken.
func (MarketToken) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.String("address").MaxLen(100).Comment("lower-case hex on EVM"),
		field.String("symbol").MaxLen(64),
		field.String("name").MaxLen(128),
		field.Int("decimals"),
		field.Bool("lp").Default(false).Comment("a pool's LP token"),
		field.Int64("discovered_block").Comment("block of the pool that introduced it"),
	}
}

// Indexes of the MarketToken.
func (MarketToken) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("chain", "address").Unique(),
		index.Fields("chain", "discovered_block"),
	}
}
