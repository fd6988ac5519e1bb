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
	}
}

// Indexes of the ConsoleUser.
func (ConsoleUser) Indexes() []ent.Index {
	return []ent.Index{index.Fields("consumer_id")}
}
