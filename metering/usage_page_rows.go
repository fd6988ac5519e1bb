package metering

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/ent/usagepage"
)

// pageRow is a usage page as the store writes it: its summary and its bytes.
type pageRow struct {
	sum  PageSummary
	data []byte
}

// pageColumnsWritten are the usage_pages columns a write sets, in the order of pageRow.args.
var pageColumnsWritten = []string{"consumer_id", "first_at", "last_at", "first_request_id", "last_request_id", "calls",
	"calls_2xx", "calls_3xx", "calls_4xx", "calls_429", "calls_5xx", "key_ids", "operations", "error_codes", "data"}

var pageInsertHead = `INSERT INTO "` + usagepage.Table + `" ("` + strings.Join(pageColumnsWritten, `", "`) + `") VALUES `

// args appends the row's values in the order of pageColumnsWritten.
func (p *pageRow) args(a []any) []any {
	s := &p.sum
	return append(a, s.ConsumerID, s.First, s.Last, s.FirstRequestID, s.LastRequestID, s.Calls,
		s.Groups[Group2xx], s.Groups[Group3xx], s.Groups[Group4xx], s.Groups[Group429], s.Groups[Group5xx],
		setOf(s.KeyIDs, strconv.Itoa), setOf(s.Operations, identity), setOf(s.ErrorCodes, identity), p.data)
}

func identity(s string) string { return s }

// setOf spells a set as the summary columns keep it: ",a,b," (setMember finds a member), or ""
// when empty.
func setOf[T any](vs []T, str func(T) string) string {
	if len(vs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, v := range vs {
		b.WriteByte(',')
		b.WriteString(str(v))
	}
	b.WriteByte(',')
	return b.String()
}

// setMember is how v is spelled inside a set column.
func setMember(v string) string { return "," + v + "," }

// maxFailedPageCalls bounds a page of failed calls. A request log filtered to failures (a status
// group, an error code) decodes such pages only, each whole when it holds a match: for a rare
// error code most of what it decodes does not match, so these pages stay small. Failed calls are
// a few percent of all, so their extra pages cost little.
const maxFailedPageCalls = 512

// pageCap is the most calls a page of succeeded (false) or failed (true) calls holds.
func pageCap(failed bool) int {
	if failed {
		return maxFailedPageCalls
	}
	return MaxPageCalls
}

// pagesOf encodes calls as pages: in each, the calls of one consumer and one UTC hour that all
// succeeded (status below 400) or all failed, in the order given, at most MaxPageCalls
// (maxFailedPageCalls for failed calls). So
// retention drops a call within the hour it becomes due, as it drops the hourly rollups; and a
// request log filtered to errors, or to a rare error code, decodes only pages of failed calls,
// a few percent of the calls. The rows are ordered by consumer and hour.
func pagesOf(calls []Call) ([]pageRow, error) {
	if len(calls) == 0 {
		return nil, nil
	}
	// Each call's place, as an index into the distinct places met (few: a batch's consumers,
	// hours and classes); the last one found is tried first, as calls come in runs.
	var distinct []pagePlace
	at := map[pagePlace]int32{}
	placeOf := make([]int32, len(calls))
	last := int32(-1)
	for i := range calls {
		c := &calls[i]
		p := pagePlace{int64(c.ConsumerID), c.At.UnixMicro() / int64(time.Hour/time.Microsecond), c.Status >= 400}
		if last < 0 || distinct[last] != p {
			var ok bool
			if last, ok = at[p]; !ok {
				last = int32(len(distinct))
				at[p] = last
				distinct = append(distinct, p)
			}
		}
		placeOf[i] = last
	}
	// Each place's calls together, places in order, calls in the order given, without copying a
	// call: a counting sort of their indexes.
	var order []int32 // nil: every call is of one place
	rank := make([]int32, len(distinct))
	starts := make([]int, len(distinct)+1) // by rank
	byPlace := []int32{0}                  // places by rank
	if len(distinct) > 1 {
		byPlace = make([]int32, len(distinct))
		for i := range byPlace {
			byPlace[i] = int32(i)
		}
		slices.SortFunc(byPlace, func(a, b int32) int { return distinct[a].compare(distinct[b]) })
		for r, p := range byPlace {
			rank[p] = int32(r)
		}
		for _, p := range placeOf {
			starts[rank[p]+1]++
		}
		for r := 1; r < len(starts); r++ {
			starts[r] += starts[r-1]
		}
		order = make([]int32, len(calls))
		next := slices.Clone(starts[:len(distinct)])
		for i, p := range placeOf {
			order[next[rank[p]]] = int32(i)
			next[rank[p]]++
		}
	} else {
		starts[1] = len(calls)
	}
	var rows []pageRow
	for r, p := range byPlace {
		size := pageCap(distinct[p].failed)
		for start := starts[r]; start < starts[r+1]; start += size {
			end := min(start+size, starts[r+1])
			page := callView{calls: calls}
			if order != nil {
				page.idx = order[start:end]
			} else {
				page.calls = calls[start:end]
			}
			data, sum, err := encodePage(page)
			if err != nil {
				return nil, err
			}
			rows = append(rows, pageRow{sum: sum, data: data})
		}
	}
	return rows, nil
}

// pagePlace is what a page's calls share: consumer, UTC hour (in hours since 1970) and class.
type pagePlace struct {
	consumer, hour int64
	failed         bool
}

// compare orders places by consumer, hour, then succeeded before failed.
func (p pagePlace) compare(q pagePlace) int {
	return cmp.Or(cmp.Compare(p.consumer, q.consumer), cmp.Compare(p.hour, q.hour), cmpBool(p.failed, q.failed))
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
