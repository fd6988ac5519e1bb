package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SourceAllow is one CIDR a consumer's calls may come from. A consumer with none accepts any source.
type SourceAllow struct {
	ent.Schema
}

// Fields of the SourceAllow.
func (SourceAllow) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.String("cidr").NotEmpty().MaxLen(64),
	}
}

// Edges of the SourceAllow.
func (SourceAllow) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("consumer", Consumer.Type).Ref("sources").Field("consumer_id").Unique().Required(),
	}
}

// Indexes of the SourceAllow.
func (SourceAllow) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id", "cidr").Unique()}
}
