package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// IndexBlock is the hash of a block the index read and that is not final yet: after a reorg the
// indexer walks these back to the newest one still on the canonical chain and rolls back to it.
type IndexBlock struct {
	ent.Schema
}

// Fields of the IndexBlock.
func (IndexBlock) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.Int64("number"),
		field.String("hash").MaxLen(66),
	}
}

// Indexes of the IndexBlock.
func (IndexBlock) Indexes() []ent.Index {
	return []ent.Index{index.Fields("chain", "number").Unique()}
}
