package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UsageHourly is the rollup of a consumer's calls in one UTC hour: exact 24-hour figures without raw rows.
type UsageHourly struct {
	ent.Schema
}

// Fields of the UsageHourly.
func (UsageHourly) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.Time("hour").Comment("start of the UTC hour"),
		field.Int64("calls").NonNegative(),
		field.Int64("cost").NonNegative(),
		field.Int64("errors").NonNegative(),
	}
}

// Indexes of the UsageHourly.
func (UsageHourly) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id", "hour").Unique(), index.Fields("hour")}
}
