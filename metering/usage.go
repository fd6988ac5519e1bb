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
