package metering

import "time"

// PageSummary is what the store indexes of a usage page (DESIGN.md section 7): the request log
// selects pages by its columns (usage_log_pages.go) before decoding any.
type PageSummary struct {
	ConsumerID int
	Calls      int
	// First and Last are the earliest and latest call times, as the page keeps them (UTC, to the
	// microsecond); a page's calls may be out of order.
	First, Last time.Time
	// FirstRequestID and LastRequestID are the least and greatest request ids. Ids lead with their
	// millisecond, so the range is a time range too.
	FirstRequestID, LastRequestID string
	// Groups counts the calls per status group (StatusGroup); a group with none is absent.
	Groups map[string]int
	// The key ids, operations and error codes (none for success) present, sorted.
	KeyIDs     []int
	Operations []string
	ErrorCodes []string
}
