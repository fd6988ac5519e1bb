package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// Consumer is a partner company: the tenant every key, grant and usage row belongs to.
type Consumer struct {
	ent.Schema
}

// Fields of the Consumer.
func (Consumer) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).Unique(),
		field.Bool("access_enabled").Default(false),
		field.Int("rate_per_minute").NonNegative().Default(60),
		field.Int("burst").NonNegative().Default(60),
		field.String("price").Default("").MaxLen(500).
			Comment("negotiated price, free text shown to the consumer"),
		field.Strings("disabled_operations").Optional().
			Comment("operation ids switched off for this consumer (endpoint availability)"),
		field.Time("access_changed_at").Optional().Nillable().Comment("when access was last switched on or off"),
		field.Time("created_at").Default(time.Now).Immutable(),
		field.Time("updated_at").Default(time.Now).UpdateDefault(time.Now),
	}
}

// Edges of the Consumer.
func (Consumer) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("scopes", ScopeGrant.Type),
		edge.To("sources", SourceAllow.Type),
		edge.To("keys", APIKey.Type),
	}
}
