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
	}
}

// Indexes of the ConsoleSession.
func (ConsoleSession) Indexes() []ent.Index {
	return []ent.Index{index.Fields("expiry")}
}
