package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UsagePage is a page of one consumer's raw calls (metering.EncodePage), kept 30 days, with the
// summary the request log selects pages by (metering.PageSummary). Sets are written ",a,b," so
// that a member is found by its delimited spelling.
type UsagePage struct {
	ent.Schema
}

// Fields of the UsagePage. The page itself comes last, so reading the summary leaves it unread.
func (UsagePage) Fields() []ent.Field {
	return []ent.Field{
		field.Int("consumer_id"),
		field.Time("first_at").Comment("the earliest call's time"),
		field.Time("last_at").Comment("the latest call's time"),
		field.String("first_request_id").MaxLen(64).Comment("the least request id"),
		field.String("last_request_id").MaxLen(64).Comment("the greatest request id"),
		field.Int("calls").Positive(),
		field.Int("calls_2xx").NonNegative().Default(0),
		field.Int("calls_3xx").NonNegative().Default(0),
		field.Int("calls_4xx").NonNegative().Default(0).Comment("4xx other than 429"),
		field.Int("calls_429").NonNegative().Default(0),
		field.Int("calls_5xx").NonNegative().Default(0),
		field.Text("key_ids").Comment("the key ids present, as ,1,2,"),
		field.Text("operations").Comment("the operations present, as ,a,b,"),
		field.Text("error_codes").Comment("the error codes present, as ,a,b,; empty when none"),
		field.Bytes("data").Comment("the calls, as metering.EncodePage wrote them"),
	}
}

// Indexes of the UsagePage. The request log reads pages newest first by their latest call and
// oldest first by their earliest, by time or, in a request-id search, by request id, with the page
// id as the tie-break; each index carries the range's other end, so the read skips pages beyond a
// cursor without opening them.
// Pages are a few thousand calls each, so four indexes cost under a byte a call.
func (UsagePage) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("consumer_id", "last_at", "id", "first_at"),
		index.Fields("consumer_id", "first_at", "id", "last_at"),
		index.Fields("consumer_id", "last_request_id", "id", "first_request_id"),
		index.Fields("consumer_id", "first_request_id", "id", "last_request_id"),
	}
}
