package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UsageRecord is one authenticated call, kept raw for 30 days. Pages read UsageDaily, never these, except
// the recent-calls log and a lookup by request id.
type UsageRecord struct {
	ent.Schema
}

// Fields of the UsageRecord.
func (UsageRecord) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.Int("key_id"),
		field.String("operation").MaxLen(64),
		field.Int("status"),
		field.Int("cost").NonNegative(),
		field.Int64("latency_us").NonNegative(),
		field.String("chain").Default("").MaxLen(32),
		field.String("request_id").MaxLen(64),
		field.Time("at"),
	}
}

// Indexes of the UsageRecord. Every index costs the usage writer on every call, so there are only
// those the reads need: the log by consumer (and pruning, consumer by consumer), by key, and the
// lookup by request id. Request ids and times grow, so each index grows at its end.
func (UsageRecord) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("consumer_id", "at"),
		index.Fields("consumer_id", "request_id"),
		index.Fields("consumer_id", "key_id", "at"),
	}
}
