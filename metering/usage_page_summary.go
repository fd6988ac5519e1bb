package metering

import (
	"slices"
	"time"
)

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

// SummarizePage summarizes the calls of a page (EncodePage), all of one consumer.
func SummarizePage(calls []Call) PageSummary { return summarizePage(callView{calls: calls}) }

func summarizePage(calls callView) PageSummary {
	n := calls.len()
	s := PageSummary{Calls: n, Groups: map[string]int{}}
	if n == 0 {
		return s
	}
	c0 := calls.at(0)
	s.ConsumerID = c0.ConsumerID
	s.FirstRequestID, s.LastRequestID = c0.RequestID, c0.RequestID
	first, last := c0.At.UnixMicro(), c0.At.UnixMicro()
	group, run := "", 0 // calls in a row of one status group, counted once the row ends
	for i := range n {
		c := calls.at(i)
		us := c.At.UnixMicro()
		first, last = min(first, us), max(last, us)
		s.FirstRequestID, s.LastRequestID = min(s.FirstRequestID, c.RequestID), max(s.LastRequestID, c.RequestID)
		if g := StatusGroup(c.Status); g != group {
			if run > 0 {
				s.Groups[group] += run
			}
			group, run = g, 0
		}
		run++
		s.KeyIDs = addSorted(s.KeyIDs, c.KeyID)
		s.Operations = addSorted(s.Operations, c.Operation)
		if code := clip(c.ErrorCode, maxErrorCode); code != "" {
			s.ErrorCodes = addSorted(s.ErrorCodes, code)
		}
	}
	s.Groups[group] += run
	s.First, s.Last = time.UnixMicro(first).UTC(), time.UnixMicro(last).UTC()
	return s
}

// addSorted adds v to the sorted set vs. Sets are small (a page's keys, operations, codes).
func addSorted[T int | string](vs []T, v T) []T {
	if i, found := slices.BinarySearch(vs, v); !found {
		vs = slices.Insert(vs, i, v)
	}
	return vs
}
