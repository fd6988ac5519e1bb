package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// AuditEntry records one change to a consumer, its grants or its keys: who, what, before, after, when.
// Its id also serves as the change counter replicas poll to refresh their policy and key caches.
type AuditEntry struct {
	ent.Schema
}

// Fields of the AuditEntry.
func (AuditEntry) Fields() []ent.Field {
	return []ent.Field{
		field.String("actor").NotEmpty().MaxLen(200),
		field.String("action").NotEmpty().MaxLen(64),
		field.Int("consumer_id").Optional().Nillable(),
		field.String("target").Default("").MaxLen(200),
		field.String("reason").Default("").MaxLen(500),
		field.JSON("before", map[string]any{}).Optional(),
		field.JSON("after", map[string]any{}).Optional(),
		field.Time("at").Default(time.Now).Immutable(),
	}
}

// Indexes of the AuditEntry.
func (AuditEntry) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id", "at"), index.Fields("actor", "at"), index.Fields("action", "at")}
}
