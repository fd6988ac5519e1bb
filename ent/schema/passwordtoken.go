package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// PasswordToken is a one-time set-password link an operator hands to a console user.
type PasswordToken struct {
	ent.Schema
}

// Fields of the PasswordToken.
func (PasswordToken) Fields() []ent.Field {
	return []ent.Field{
		field.Bytes("token_hash").Unique().Sensitive().MinLen(32).MaxLen(32).Immutable(),
		field.Int("user_id"),
		field.Time("created_at").Default(time.Now).Immutable(),
		field.Time("expires_at"),
		field.Time("used_at").Optional().Nillable(),
	}
}

// Indexes of the PasswordToken.
func (PasswordToken) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id"), index.Fields("expires_at")}
}
