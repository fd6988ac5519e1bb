package metering

import "time"

// Call is one authenticated call, as recorded for usage.
type Call struct {
	ConsumerID int
	KeyID      int
	Operation  string
	Status     int
	Cost       int // what the call was charged: 0 when refused or refunded
	Latency    time.Duration
	Chain      string
	RequestID  string
	At         time.Time

	// The request log's detail of the call.
	Method    string
	Path      string // without the query
	ErrorCode string // the error envelope's code; empty on success
	Source    string // the caller's address as the source allowlist saw it
	// RateRemaining is the rate-limit units left in the consumer's bucket at admission; nil when
	// the call was not admitted through the limiter.
	RateRemaining *int
	Replayed      bool   // an idempotent replay of an earlier call's answer
	ErrorBody     []byte // the error envelope as answered (at most 4 KiB kept)
}

// UsageBatch is what one write stores, all or nothing: raw calls for the recent-calls log and rollup
// increments. The two need not cover the same calls: the Recorder counts every call in the increments
// of the first batch written after it, while its raw row may follow in a later batch or have been
// shed. Each call is counted in exactly one batch's Rollups and stored raw in at most one batch's Calls.
type UsageBatch struct {
	Calls   []Call
	Rollups *Rollups // nil: no increments
}
