package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// LPPositionChange is a change of an LPPosition in a block that is not final yet, kept so that a
// reorg can take it back (as TokenTransfer for balances). Final changes are pruned.
type LPPositionChange struct {
	ent.Schema
}

// Fields of the LPPositionChange.
func (LPPositionChange) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.String("manager").MaxLen(100),
		field.String("position_id").MaxLen(80),
		field.Enum("kind").Values("increase", "decrease", "transfer"),
		field.String("liquidity").MaxLen(80).Comment("increase, decrease: the liquidity added or removed, decimal"),
		field.String("from").MaxLen(100).Comment("transfer: the previous owner"),
		field.Int64("block"),
		field.Int("log_index"),
	}
}

// Indexes of the LPPositionChange.
func (LPPositionChange) Indexes() []ent.Index {
	return []ent.Index{index.Fields("chain", "block", "log_index").Unique()}
}
