package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UsageMinute is one consumer's rate-limit units used and calls refused (429) in one UTC minute,
// for the usage page's units-per-minute chart against the plan's rate and burst. Kept 48 hours.
type UsageMinute struct {
	ent.Schema
}

// Fields of the UsageMinute.
func (UsageMinute) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.Time("minute").Comment("start of the UTC minute"),
		field.Int64("calls").NonNegative(),
		field.Int64("cost").NonNegative().Comment("rate-limit units charged"),
		field.Int64("limited").NonNegative().Comment("calls refused 429 rate_limited"),
	}
}

// Indexes of the UsageMinute.
func (UsageMinute) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id", "minute").Unique(), index.Fields("minute")}
}
