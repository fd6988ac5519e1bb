package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// UsageRecord is one authenticated call as releases before usage pages kept it, one row a call.
// Nothing writes it any more: metering.UsageStore.MoveRawCalls moves what an older release left into
// pages (UsagePage), and a later release drops the table.
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
		field.String("method").Default("").MaxLen(8),
		field.String("path").Default("").MaxLen(512).Comment("the request path without its query"),
		field.String("status_group").Default("").MaxLen(3).
			Comment("the request log's status filter: 2xx, 3xx, 4xx (other than 429), 429 or 5xx"),
		field.String("error_code").Default("").MaxLen(64).Comment("the error envelope's code; empty on success"),
		field.String("source").Default("").MaxLen(64).Comment("the caller's address as the source allowlist saw it"),
		field.Int("rate_remaining").Optional().Nillable().
			Comment("rate-limit units left in the consumer's bucket at admission"),
		field.Bool("replayed").Default(false).Comment("an idempotent replay of an earlier call's answer"),
		field.Bytes("error_body").Optional().MaxLen(4096).Comment("the error envelope as answered"),
	}
}
