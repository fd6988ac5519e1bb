package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// IndexCursor is how far the indexer has read one chain: every block up to and including Block is
// in the index. GenesisHash tells a different chain (a restarted devnet, a wrong RPC) from this one.
type IndexCursor struct {
	ent.Schema
}

// Fields of the IndexCursor.
func (IndexCursor) Fields() []ent.Field {
	return []ent.Field{
		field.String("chain").MaxLen(32),
		field.String("genesis_hash").MaxLen(66),
		field.Int64("block").Comment("last block indexed"),
		field.String("block_hash").MaxLen(66).Comment("hash of that block, to notice a reorg"),
		field.Int64("updated_at").Comment("unix seconds"),
		field.Int64("rollbacks").Default(0).Comment("how many reorgs the index rolled back: a reader holding index data reloads it when this changes"),
	}
}

// Indexes of the IndexCursor.
func (IndexCursor) Indexes() []ent.Index {
	return []ent.Index{index.Fields("chain").Unique()}
}
