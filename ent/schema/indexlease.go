package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// IndexLease is a named lease that at most one replica holds at a time: "index:<chain>" for the
// replica that indexes a chain, "devnet" for the replica that runs local mode's devnet on a shared
// PostgreSQL (see index.Leases). A lease whose expires_at has passed, by the database's clock, may
// be taken by anyone; its holder renews it well before then or stops.
type IndexLease struct {
	ent.Schema
}

// Fields of the IndexLease.
func (IndexLease) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(64),
		field.String("holder").MaxLen(128).Comment("the replica holding the lease; empty when released"),
		field.Int64("expires_at").Comment("unix milliseconds by the database's clock; released: 0"),
		field.Int64("acquired_at").Comment("unix milliseconds by the database's clock: when the holder took it"),
	}
}

// Indexes of the IndexLease.
func (IndexLease) Indexes() []ent.Index {
	return []ent.Index{index.Fields("name").Unique()}
}
