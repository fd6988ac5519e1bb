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
}

// UsageBatch is what one write stores, all or nothing: raw calls for the recent-calls log and rollup
// increments. The two need not cover the same calls: the Recorder counts every call in the increments
// of the first batch written after it, while its raw row may follow in a later batch or have been
// shed. Each call is counted in exactly one batch's Rollups and stored raw in at most one batch's Calls.
type UsageBatch struct {
	Calls   []Call
	Rollups *Rollups // nil: no increments
}
