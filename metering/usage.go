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

// UsageBatch is what one write stores, all or nothing: raw calls for the request log and rollup
// increments. Rollups may count more calls than Calls holds (calls whose raw rows are written by a
// later batch, or were shed), never fewer than it leaves for later: a call is counted exactly once.
type UsageBatch struct {
	Calls   []Call
	Rollups *Rollups // nil: no increments
}
