package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ScopeGrant gives a consumer one scope (market:read, portfolio:read, quote:read, tx:build).
type ScopeGrant struct {
	ent.Schema
}

// Fields of the ScopeGrant.
func (ScopeGrant) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.String("scope").NotEmpty().MaxLen(64),
	}
}

// Edges of the ScopeGrant.
func (ScopeGrant) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("consumer", Consumer.Type).Ref("scopes").Field("consumer_id").Unique().Required(),
	}
}

// Indexes of the ScopeGrant.
func (ScopeGrant) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id", "scope").Unique()}
}
