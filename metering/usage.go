package metering

import (
	"net/netip"
	"time"
)

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
	Path      string     // without the query
	ErrorCode string     // the error envelope's code; empty on success
	Source    netip.Addr // the caller's address as the source allowlist saw it (a value: no string on the hot path)
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

// Status groups of the request log's status filter (StatusGroup).
const (
	Group2xx = "2xx"
	Group3xx = "3xx"
	Group4xx = "4xx" // every 4xx other than 429
	Group429 = "429"
	Group5xx = "5xx"
)

// StatusGroups are the status groups in the order pages list them.
var StatusGroups = []string{Group2xx, Group3xx, Group4xx, Group429, Group5xx}

// StatusGroup is the request log's group of an HTTP status: "2xx", "3xx", "4xx" (any 4xx other
// than 429, including 499 for a caller that went away), "429" or "5xx". Statuses below 300 count as
// 2xx and those from 600 as 5xx, so every call lands in exactly one group.
func StatusGroup(status int) string {
	switch {
	case status < 300:
		return Group2xx
	case status < 400:
		return Group3xx
	case status == 429:
		return Group429
	case status < 500:
		return Group4xx
	default:
		return Group5xx
	}
}

// MaxErrorBody is how much of an error body a recorded call keeps.
const MaxErrorBody = 4096
