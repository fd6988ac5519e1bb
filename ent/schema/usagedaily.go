package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UsageDaily is the rollup of a key's calls to one operation on one UTC day.
type UsageDaily struct {
	ent.Schema
}

// Fields of the UsageDaily.
func (UsageDaily) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.Int("key_id"),
		field.String("day").MinLen(10).MaxLen(10).Comment("UTC day, YYYY-MM-DD"),
		field.String("operation").MaxLen(64),
		field.Int64("calls").NonNegative(),
		field.Int64("cost").NonNegative(),
		field.Int64("errors").NonNegative(),
	}
}

// Indexes of the UsageDaily.
func (UsageDaily) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("key_id", "day", "operation").Unique(),
		index.Fields("consumer_id", "day"),
	}
}
