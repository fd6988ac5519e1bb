package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RecoveryCode is a one-time code that signs a user in instead of a TOTP code. Only its SHA-256 is
// stored; the codes are shown once, when two-factor sign-in is switched on.
type RecoveryCode struct {
	ent.Schema
}

// Fields of the RecoveryCode.
func (RecoveryCode) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id"),
		field.Bytes("code_hash").Unique().Sensitive().MinLen(32).MaxLen(32).Immutable(),
		field.Time("created_at").Default(time.Now).Immutable(),
		field.Time("used_at").Optional().Nillable(),
	}
}

// Indexes of the RecoveryCode.
func (RecoveryCode) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id")}
}
