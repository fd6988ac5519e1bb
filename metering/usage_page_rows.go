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

// pagesOf encodes calls as pages: in each, the calls of one consumer and one UTC hour that all
// succeeded (status below 400) or all failed, in the order given, at most MaxPageCalls. So
// retention drops a call within the hour it becomes due, as it drops the hourly rollups; and a
// request log filtered to errors, or to a rare error code, decodes only pages of failed calls,
// a few percent of the calls. The rows are ordered by consumer and hour.
func pagesOf(calls []Call) ([]pageRow, error) {
	if len(calls) == 0 {
		return nil, nil
	}
	type place struct {
		consumer, hour int64
		failed         bool
	}
	places := make([]place, len(calls))
	mixed := false
	for i := range calls {
		c := &calls[i]
		places[i] = place{int64(c.ConsumerID), c.At.UnixMicro() / int64(time.Hour/time.Microsecond), c.Status >= 400}
		mixed = mixed || places[i] != places[0]
	}
	var order []int32 // nil: the calls in the order given
	if mixed {        // each place's calls together, in the order given, without copying a call
		order = make([]int32, len(calls))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			pa, pb := places[a], places[b]
			return cmp.Or(cmp.Compare(pa.consumer, pb.consumer), cmp.Compare(pa.hour, pb.hour), cmpBool(pa.failed, pb.failed), cmp.Compare(a, b))
		})
	}
	placeAt := func(i int) place {
		if order != nil {
			return places[order[i]]
		}
		return places[i]
	}
	var rows []pageRow
	for start := 0; start < len(calls); {
		end := start + 1
		for end < len(calls) && end-start < MaxPageCalls && placeAt(end) == placeAt(start) {
			end++
		}
		page := callView{calls: calls}
		if order != nil {
			page.idx = order[start:end]
		} else {
			page.calls = calls[start:end]
		}
		data, err := encodePage(page)
		if err != nil {
			return nil, err
		}
		rows = append(rows, pageRow{sum: summarizePage(page), data: data})
		start = end
	}
	return rows, nil
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
