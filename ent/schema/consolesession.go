package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ConsoleSession is a console sign-in session as the session manager stores it.
type ConsoleSession struct {
	ent.Schema
}

// Fields of the ConsoleSession.
func (ConsoleSession) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").NotEmpty().MaxLen(64).Immutable().Sensitive().Comment("the session token"),
		field.Bytes("data"),
		field.Time("expiry"),
		field.Int("user_id").Optional().Nillable().Comment("the signed-in user, for the sessions list"),
		field.Time("created_at").Optional().Nillable(),
		field.Time("last_seen_at").Optional().Nillable(),
		field.String("user_agent").Default("").MaxLen(300),
		field.String("ip").Default("").MaxLen(64),
	}
}

// Indexes of the ConsoleSession.
func (ConsoleSession) Indexes() []ent.Index {
	return []ent.Index{index.Fields("expiry"), index.Fields("user_id")}
}
