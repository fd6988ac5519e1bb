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
		field.Int64("calls_2xx").NonNegative().Default(0),
		field.Int64("calls_4xx").NonNegative().Default(0).Comment("4xx other than 429"),
		field.Int64("calls_429").NonNegative().Default(0),
		field.Int64("calls_5xx").NonNegative().Default(0),
	}
}

// Indexes of the UsageHourly: by consumer and hour (a consumer's figures), and by hour with every
// column the operators' consumer list sums (every consumer's last 24 hours read from the index
// alone, and retention's deletes by hour).
func (UsageHourly) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("consumer_id", "hour").Unique(),
		index.Fields("hour", "consumer_id", "calls", "cost", "errors", "calls_429"),
	}
}
