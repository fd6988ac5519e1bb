package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// TokenBalance is a holder's balance of an indexed token, summed from the Transfer events the index
// has read. Zero balances have no row. Balance is zero-padded to 78 digits so that text order is
// numeric order on every database.
type TokenBalance struct {
	ent.Schema
}

// Fields of the TokenBalance.
func (TokenBalance) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.String("token").MaxLen(100),
		field.String("holder").MaxLen(100),
		field.String("balance").MinLen(78).MaxLen(78),
	}
}

// Indexes of the TokenBalance.
func (TokenBalance) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("chain", "token", "holder").Unique(),
		index.Fields("chain", "token", "balance"),
		index.Fields("chain", "holder"),
	}
}
