package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// APIKey is a consumer's live key. Only the SHA-256 of the whole key is stored.
type APIKey struct {
	ent.Schema
}

// Fields of the APIKey.
func (APIKey) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.String("name").NotEmpty().MaxLen(200),
		field.Bytes("hash").Unique().Sensitive().MinLen(32).MaxLen(32).Immutable(),
		field.String("prefix").NotEmpty().MaxLen(32).Immutable().
			Comment("display prefix, safe to show"),
		field.Time("created_at").Default(time.Now).Immutable(),
		field.Time("last_used_at").Optional().Nillable(),
		field.Time("expires_at").Optional().Nillable(),
		field.Time("revoked_at").Optional().Nillable(),
		field.Int("rotated_from_id").Optional().Nillable().
			Comment("the key this one replaced"),
		field.Strings("scopes").Optional().
			Comment("a restricted key's scopes, a subset of its consumer's; nil: all of the consumer's"),
		field.Strings("source_cidrs").Optional().
			Comment("a restricted key's own source allowlist, applied with the consumer's; nil: none of its own"),
	}
}

// Edges of the APIKey.
func (APIKey) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("consumer", Consumer.Type).Ref("keys").Field("consumer_id").Unique().Required(),
		edge.To("successors", APIKey.Type).From("rotated_from").Field("rotated_from_id").Unique(),
	}
}

// Indexes of the APIKey.
func (APIKey) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id")}
}
