package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ConfirmationToken binds a build's result to its later confirm call for 15 minutes.
type ConfirmationToken struct {
	ent.Schema
}

// Fields of the ConfirmationToken.
func (ConfirmationToken) Fields() []ent.Field {
	return []ent.Field{
		field.Bytes("token_hash").Unique().Sensitive().MinLen(32).MaxLen(32).Immutable(),
		field.Int("consumer_id"),
		field.String("chain").MaxLen(32),
		field.JSON("binding", map[string]any{}).Comment("fee rows, intents and transaction order"),
		field.Time("created_at").Default(time.Now).Immutable(),
		field.Time("expires_at"),
		field.Time("confirmed_at").Optional().Nillable(),
	}
}

// Indexes of the ConfirmationToken.
func (ConfirmationToken) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id"), index.Fields("expires_at")}
}
