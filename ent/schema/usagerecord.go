package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UsageRecord is one authenticated call, kept raw for 30 days. Pages read the rollups, never these,
// except the request log (its pages, a call's detail, its CSV export) and a lookup by request id.
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

// Indexes of the UsageRecord. Every index costs the usage writer on every call, so there are only
// those the reads need: the request log by consumer (and pruning, consumer by consumer), its
// filters by key, operation, status group and error code (each serves its filter's first page
// newest-first without a scan), and the lookup by request id or its prefix. Request ids and times
// grow, so each index grows at its end.
func (UsageRecord) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("consumer_id", "at"),
		index.Fields("consumer_id", "request_id"),
		index.Fields("consumer_id", "key_id", "at"),
		index.Fields("consumer_id", "operation", "at"),
		index.Fields("consumer_id", "status_group", "at"),
		index.Fields("consumer_id", "error_code", "at"),
	}
}
