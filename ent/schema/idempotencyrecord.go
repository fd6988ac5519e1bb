package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// IdempotencyRecord remembers a builder call under (API key, Idempotency-Key) for ten minutes.
type IdempotencyRecord struct {
	ent.Schema
}

// Fields of the IdempotencyRecord.
func (IdempotencyRecord) Fields() []ent.Field {
	return []ent.Field{
		field.Int("key_id"),
		field.String("idempotency_key").NotEmpty().MaxLen(128),
		field.Bytes("body_hash").MinLen(32).MaxLen(32),
		field.Bool("done").Default(false),
		field.Int("status").Default(0),
		field.Bytes("response").Optional(),
		field.String("request_id").Optional().MaxLen(64).Comment("the finished call's request id, sent as Original-Request-Id on replays"),
		field.Time("created_at").Default(time.Now).Immutable(),
		field.Time("expires_at").Comment("the replay window ends"),
		field.Time("lease_until").Comment("an unfinished record older than this was abandoned"),
	}
}

// Indexes of the IdempotencyRecord.
func (IdempotencyRecord) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("key_id", "idempotency_key").Unique(),
		index.Fields("expires_at"),
	}
}
