package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ConsoleUser is a person who signs in to the console: an operator, or a user of one consumer.
type ConsoleUser struct {
	ent.Schema
}

// Fields of the ConsoleUser.
func (ConsoleUser) Fields() []ent.Field {
	return []ent.Field{
		field.String("email").NotEmpty().MaxLen(254).Unique().Comment("lower-cased"),
		field.String("password_hash").Optional().Sensitive().Comment("argon2id, PHC string; empty until set"),
		field.Enum("role").Values("operator", "consumer"),
		field.Int("consumer_id").Optional().Nillable().Comment("set for consumer users"),
		field.Time("created_at").Default(time.Now).Immutable(),
		field.Time("last_sign_in_at").Optional().Nillable(),
		field.Enum("team_role").Values("owner", "developer", "viewer").Optional().Nillable().
			Comment("a consumer user's role in its team; nil for operators"),
		field.String("invited_by").Default("").MaxLen(254).Comment("who invited the user (an email or an actor name)"),
		field.Time("password_changed_at").Optional().Nillable(),
		field.String("totp_secret").Optional().Sensitive().MaxLen(128).
			Comment("the base32 TOTP seed sealed with the service's secret key (access.SecretBox); set while enrolling, confirmed by totp_enabled_at"),
		field.Time("totp_enabled_at").Optional().Nillable(),
		field.Int64("totp_last_step").Default(0).Comment("the last TOTP time step accepted, so a code is used once"),
	}
}

// Indexes of the ConsoleUser.
func (ConsoleUser) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id")}
}
