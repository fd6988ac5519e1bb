package schema

import (
	"strconv"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// LatencyBandWidth is how many adjacent latency buckets a UsageLatencyBand counts.
const LatencyBandWidth = 8

// UsageLatencyBand is a band of a latency histogram: how many of one consumer's calls to one
// operation in one UTC hour took a latency within each of LatencyBandWidth adjacent buckets
// (metering defines the buckets; band b counts buckets 8b to 8b+7 in calls0 to calls7).
// Percentiles per operation over 24 hours, 7 or 30 days are read from these rows, never from the
// raw calls. An operation's latencies spread over a few bands, so a write touches a few rows for
// each consumer, hour and operation, not one for every bucket.
type UsageLatencyBand struct {
	ent.Schema
}

// Fields of the UsageLatencyBand.
func (UsageLatencyBand) Fields() []ent.Field {
	fields := []ent.Field{
		field.Int("consumer_id"),
		field.Time("hour").Comment("start of the UTC hour"),
		field.String("operation").MaxLen(64),
		field.Int("band").NonNegative(),
	}
	for i := range LatencyBandWidth {
		fields = append(fields, field.Int64("calls"+strconv.Itoa(i)).NonNegative().Default(0))
	}
	return fields
}

// Indexes of the UsageLatencyBand.
func (UsageLatencyBand) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id", "hour", "operation", "band").Unique(), index.Fields("hour")}
}
