package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// TokenTransfer is a Transfer event of an indexed token in a block that is not final yet, kept so
// that a reorg can take its balance change back. Final transfers are pruned.
type TokenTransfer struct {
	ent.Schema
}

// Fields of the TokenTransfer.
func (TokenTransfer) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.String("token").MaxLen(100),
		field.String("from").MaxLen(100),
		field.String("to").MaxLen(100),
		field.String("value").MaxLen(80),
		field.Int64("block"),
		field.Int("log_index"),
	}
}

// Indexes of the TokenTransfer.
func (TokenTransfer) Indexes() []ent.Index {
	return []ent.Index{index.Fields("chain", "block", "log_index").Unique()}
}
