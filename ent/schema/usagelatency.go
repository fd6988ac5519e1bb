package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UsageLatency is a latency histogram: how many of one consumer's calls to one operation in one
// UTC hour took a latency within one bucket (metering defines the buckets). Percentiles per
// operation over 24 hours, 7 or 30 days are read from these rows, never from the raw calls.
type UsageLatency struct {
	ent.Schema
}

// Fields of the UsageLatency.
func (UsageLatency) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.Time("hour").Comment("start of the UTC hour"),
		field.String("operation").MaxLen(64),
		field.Int("bucket").NonNegative(),
		field.Int64("calls").NonNegative(),
	}
}

// Indexes of the UsageLatency.
func (UsageLatency) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id", "hour", "operation", "bucket").Unique(), index.Fields("hour")}
}
