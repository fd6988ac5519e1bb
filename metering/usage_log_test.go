package metering_test

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// logRID is a request id as the API makes them: "req_", 12 hex digits of time, 20 more.
func logRID(ms int64, n int) string { return fmt.Sprintf("req_%012x%020x", ms, n) }

// logCalls are n calls of the consumer's key, one every 250 ms but seven at a time sharing a time
// (ties on at), newest last; every third is a 404 not_found, every tenth a 429.
func logCalls(consumerID, keyID, n int) []metering.Call {
	calls := make([]metering.Call, n)
	for i := range calls {
		at := day0.Add(time.Duration(i/7) * 250 * time.Millisecond)
		c := metering.Call{ConsumerID: consumerID, KeyID: keyID, Operation: "getTrending", Status: 200, Cost: 1,
			Latency: time.Millisecond, RequestID: logRID(at.UnixMilli(), i), At: at, Method: "GET", Path: "/v1/trending"}
		switch {
		case i%10 == 0:
			c.Status, c.Cost, c.ErrorCode, c.ErrorBody = 429, 0, "rate_limited", []byte(`{"ok":false,"code":"rate_limited"}`)
		case i%3 == 0:
			c.Status, c.Operation, c.Path, c.ErrorCode = 404, "getPoolChart", "/v1/pools/x/chart", "not_found"
		}
		calls[i] = c
	}
	return calls
}

// walk pages through the log from the newest call to the oldest and back, returning the request
// ids in the order met going older; it fails on a page that repeats or skips a call.
func walk(t *testing.T, us *metering.UsageStore, consumerID int, f metering.LogFilter, size int) []string {
	t.Helper()
	var ids []string
	var pages [][]string
	var cur *metering.LogCursor
	for range 10_000 {
		p, err := us.Log(t.Context(), consumerID, f, cur, nil, size)
		if err != nil {
			t.Fatalf("Log: %v", err)
		}
		if len(p.Calls) > size {
			t.Fatalf("page of %d calls, asked for %d", len(p.Calls), size)
		}
		var page []string
		for _, c := range p.Calls {
			page = append(page, c.RequestID)
		}
		ids = append(ids, page...)
		pages = append(pages, page)
		if (cur == nil) != (p.Newer == nil) {
			t.Fatalf("page from cursor %v: Newer %v", cur, p.Newer)
		}
		if p.Older == nil {
			break
		}
		cur = p.Older
	}
	// Back from the oldest page with Newer: the same pages, in reverse.
	p, err := us.Log(t.Context(), consumerID, f, cur, nil, size)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(pages) - 2; i >= 0 && cur != nil; i-- {
		if p.Newer == nil {
			t.Fatalf("page %d has no Newer link", i+1)
		}
		if p, err = us.Log(t.Context(), consumerID, f, nil, p.Newer, size); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range p.Calls {
			got = append(got, c.RequestID)
		}
		if !slices.Equal(got, pages[i]) {
			t.Fatalf("going newer, page %d is %v, want %v", i, got, pages[i])
		}
	}
	return ids
}

// newestFirst is the request ids of calls matching keep, written in one batch, in the log's order:
// by time, newest first; calls sharing a time in the order they were stored, last first, where a
// batch stores its failed calls (status 400 and up) after its successful ones (pagesOf).
func newestFirst(calls []metering.Call, keep func(metering.Call) bool) []string {
	order := make([]int, 0, len(calls))
	for i, c := range calls {
		if keep(c) {
			order = append(order, i)
		}
	}
	failed := func(i int) int {
		if calls[i].Status >= 400 {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(calls[b].At.Compare(calls[a].At), cmp.Compare(failed(b), failed(a)), cmp.Compare(b, a))
	})
	out := make([]string, len(order))
	for i, j := range order {
		out[i] = calls[j].RequestID
	}
	return out
}

func TestUsageLogPagesEveryCallOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		cons := e.consumer("c")
		calls := logCalls(cons, e.key(cons), 503)
		e.write(calls...)
		all := func(metering.Call) bool { return true }
		for _, size := range []int{1, 7, 10, 50, 600} {
			got := walk(t, e.us, cons, metering.LogFilter{}, size)
			if want := newestFirst(calls, all); !slices.Equal(got, want) {
				t.Fatalf("page size %d: %d calls, want %d, in order newest first (first %v, want %v)",
					size, len(got), len(want), got[:min(3, len(got))], want[:3])
			}
		}
	})
}

func TestUsageLogFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		cons, other := e.consumer("c"), e.consumer("neighbour")
		k1, k2 := e.key(cons), e.key(cons)
		calls := logCalls(cons, k1, 300)
		for i := range calls {
			if i%4 == 1 {
				calls[i].KeyID = k2
			}
		}
		e.write(calls...)
		// The neighbour's calls match every filter but are never shown.
		theirs := logCalls(other, e.key(other), 120)
		for i := range theirs {
			theirs[i].RequestID = logRID(theirs[i].At.UnixMilli(), 1_000_000+i)
		}
		e.write(theirs...)

		from, to := calls[70].At, calls[140].At
		prefix := calls[150].RequestID[:16+4]
		for _, tc := range []struct {
			name string
			f    metering.LogFilter
			keep func(metering.Call) bool
		}{
			{"key", metering.LogFilter{KeyID: k2}, func(c metering.Call) bool { return c.KeyID == k2 }},
			{"operation", metering.LogFilter{Operation: "getPoolChart"}, func(c metering.Call) bool { return c.Operation == "getPoolChart" }},
			{"status 2xx", metering.LogFilter{StatusGroup: "2xx"}, func(c metering.Call) bool { return c.Status == 200 }},
			{"status 4xx", metering.LogFilter{StatusGroup: "4xx"}, func(c metering.Call) bool { return c.Status == 404 }},
			{"status 429", metering.LogFilter{StatusGroup: "429"}, func(c metering.Call) bool { return c.Status == 429 }},
			{"status 5xx", metering.LogFilter{StatusGroup: "5xx"}, func(metering.Call) bool { return false }},
			{"error code", metering.LogFilter{ErrorCode: "not_found"}, func(c metering.Call) bool { return c.ErrorCode == "not_found" }},
			{"time range", metering.LogFilter{From: from, To: to}, func(c metering.Call) bool { return !c.At.Before(from) && c.At.Before(to) }},
			{"key and status", metering.LogFilter{KeyID: k1, StatusGroup: "429"}, func(c metering.Call) bool { return c.KeyID == k1 && c.Status == 429 }},
			{"request id prefix", metering.LogFilter{RequestIDPrefix: prefix}, func(c metering.Call) bool { return strings.HasPrefix(c.RequestID, prefix) }},
			{"whole request id", metering.LogFilter{RequestIDPrefix: calls[33].RequestID}, func(c metering.Call) bool { return c.RequestID == calls[33].RequestID }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got := walk(t, e.us, cons, tc.f, 9)
				want := newestFirst(calls, tc.keep)
				if tc.f.RequestIDPrefix != "" {
					// A prefix search is in request-id order, which is time order for the API's ids.
					want = slices.Clone(want)
					slices.SortFunc(want, func(a, b string) int { return strings.Compare(b, a) })
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%d calls %v…, want %d %v…", len(got), got[:min(3, len(got))], len(want), want[:min(3, len(want))])
				}
				if tc.name != "status 5xx" && len(want) == 0 {
					t.Fatal("the case matches nothing: it tests nothing")
				}
			})
		}

		t.Run("isolation", func(t *testing.T) {
			if _, err := e.us.LogCall(t.Context(), cons, theirs[5].RequestID); !errors.Is(err, metering.ErrCallNotFound) {
				t.Fatalf("another consumer's call: %v, want ErrCallNotFound", err)
			}
			got, err := e.us.LogCall(t.Context(), other, theirs[5].RequestID)
			if err != nil || got.RequestID != theirs[5].RequestID {
				t.Fatalf("own call: %+v, %v", got, err)
			}
			if got := walk(t, e.us, cons, metering.LogFilter{RequestIDPrefix: theirs[5].RequestID}, 10); len(got) != 0 {
				t.Fatalf("prefix search found another consumer's calls: %v", got)
			}
		})
		t.Run("cursor of another order", func(t *testing.T) {
			p, err := e.us.Log(t.Context(), cons, metering.LogFilter{}, nil, nil, 5)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.us.Log(t.Context(), cons, metering.LogFilter{RequestIDPrefix: "req_0"}, p.Older, nil, 5); !errors.Is(err, metering.ErrBadCursor) {
				t.Fatalf("a time cursor in a prefix search: %v, want ErrBadCursor", err)
			}
		})
	})
}

func TestUsageLogRecordsDetail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		for _, us := range []struct {
			name string
			opts []metering.UsageOption
		}{{"pool", []metering.UsageOption{metering.WithDB(st.DB)}}, {"ent", nil}} {
			t.Run(us.name, func(t *testing.T) {
				e := newUsageEnv(t, st)
				e.us = metering.NewUsageStore(st.Client, st.Dialect, us.opts...)
				cons := e.consumer(us.name)
				key := e.key(cons)
				rate := 17
				body := []byte(`{"ok":false,"error":"no such pool","code":"not_found","requestId":"x"}` + strings.Repeat(" ", 5000))
				failed := metering.Call{ConsumerID: cons, KeyID: key, Operation: "getPoolChart", Status: 404, Cost: 1,
					Latency: 1500 * time.Microsecond, Chain: "ethereum", RequestID: logRID(1, 1), At: day0,
					Method: "GET", Path: "/v1/pools/" + strings.Repeat("é", 400), ErrorCode: "not_found", Source: netip.MustParseAddr("2001:db8::1"),
					RateRemaining: &rate, Replayed: true, ErrorBody: body}
				ok := metering.Call{ConsumerID: cons, KeyID: key, Operation: "getTrending", Status: 200, Cost: 1,
					RequestID: logRID(2, 2), At: day0.Add(time.Second), Method: "GET", Path: "/v1/trending"}
				e.write(failed, ok)

				got, err := e.us.LogCall(t.Context(), cons, failed.RequestID)
				if err != nil {
					t.Fatal(err)
				}
				if got.Method != "GET" || got.StatusGroup != "4xx" || got.ErrorCode != "not_found" || got.Source != "2001:db8::1" ||
					got.RateRemaining == nil || *got.RateRemaining != 17 || !got.Replayed || got.Chain != "ethereum" ||
					got.LatencyUs != 1500 || !got.At.Equal(day0) || got.KeyID != key {
					t.Fatalf("recorded %+v", got)
				}
				if len(got.ErrorBody) != metering.MaxErrorBody || string(got.ErrorBody) != string(body[:metering.MaxErrorBody]) {
					t.Fatalf("error body of %d bytes, want the first %d", len(got.ErrorBody), metering.MaxErrorBody)
				}
				if len(got.Path) > 512 || !strings.HasPrefix(got.Path, "/v1/pools/é") || strings.ContainsRune(got.Path, '\uFFFD') {
					t.Fatalf("path of %d bytes clipped badly: %q…", len(got.Path), got.Path[:20])
				}
				plain, err := e.us.LogCall(t.Context(), cons, ok.RequestID)
				if err != nil {
					t.Fatal(err)
				}
				if plain.StatusGroup != "2xx" || plain.RateRemaining != nil || plain.Replayed || plain.ErrorBody != nil || plain.ErrorCode != "" {
					t.Fatalf("a plain success recorded as %+v", plain)
				}
			})
		}
	})
}

func TestUsageLogExportStreams(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		cons := e.consumer("c")
		calls := logCalls(cons, e.key(cons), 2_345) // more than two export pages
		e.write(calls...)
		var got []string
		if err := e.us.ExportLog(t.Context(), cons, metering.LogFilter{}, func(c metering.LogCall) error {
			got = append(got, c.RequestID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := newestFirst(calls, func(metering.Call) bool { return true }); !slices.Equal(got, want) {
			t.Fatalf("exported %d calls, want %d newest first", len(got), len(want))
		}
		n := 0
		if err := e.us.ExportLog(t.Context(), cons, metering.LogFilter{StatusGroup: "429"}, func(c metering.LogCall) error {
			if c.Status != 429 {
				t.Fatalf("exported a %d under the 429 filter", c.Status)
			}
			n++
			return nil
		}); err != nil || n != 235 {
			t.Fatalf("exported %d 429s (%v), want 235", n, err)
		}
		stop := errors.New("stop")
		n = 0
		err := e.us.ExportLog(t.Context(), cons, metering.LogFilter{}, func(metering.LogCall) error {
			if n++; n == 3 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || n != 3 {
			t.Fatalf("export went on after its callback failed: %d calls, %v", n, err)
		}
	})
}

func TestLogCursorRoundTrip(t *testing.T) {
	for _, c := range []metering.LogCursor{
		{At: day0.Add(123456789 * time.Nanosecond), ID: 42},
		{RequestID: logRID(99, 7), ID: 1},
	} {
		got, err := metering.ParseLogCursor(c.String())
		if err != nil || !got.At.Equal(c.At) || got.RequestID != c.RequestID || got.ID != c.ID {
			t.Fatalf("ParseLogCursor(%v) = %+v, %v", c, got, err)
		}
	}
	for _, bad := range []string{"", "!!", "dDEyMw", metering.LogCursor{At: day0, ID: 1}.String() + "x"} {
		if _, err := metering.ParseLogCursor(bad); err == nil {
			t.Errorf("ParseLogCursor(%q) accepted", bad)
		}
	}
}

func TestStatusGroup(t *testing.T) {
	for status, want := range map[int]string{200: "2xx", 201: "2xx", 304: "3xx", 400: "4xx", 404: "4xx", 429: "429", 499: "4xx", 500: "5xx", 503: "5xx"} {
		if got := metering.StatusGroup(status); got != want {
			t.Errorf("StatusGroup(%d) = %q, want %q", status, got, want)
		}
	}
}

// TestUsageLogQueryPlans checks that the request log reads pages through the index of its order
// (newest first by their last call, oldest first by their first; by request id in a search),
// without sorting: what keeps a first page fast with millions of calls.
func TestUsageLogQueryPlans(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		cons := e.consumer("c")
		k1, k2 := e.key(cons), e.key(cons)
		// Each filtered value is rare, as in a real log, where a filter is worth its index.
		calls := logCalls(cons, k1, 5_000)
		for i := range calls {
			c := &calls[i]
			c.Operation, c.Status, c.ErrorCode = "getTrending", 200, ""
			switch {
			case i%50 == 0:
				c.KeyID = k2
			case i%50 == 1:
				c.Operation = "getPoolChart"
			case i%50 == 2:
				c.Status, c.ErrorCode = 429, "rate_limited"
			case i%50 == 3:
				c.Status, c.ErrorCode = 404, "not_found"
			}
		}
		e.write(calls...)
		ctx := t.Context()
		conn, err := st.DB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		explain := "EXPLAIN QUERY PLAN "
		if st.Dialect == "postgres" {
			explain = "EXPLAIN "
			if _, err := conn.ExecContext(ctx, "ANALYZE usage_pages"); err != nil {
				t.Fatal(err)
			}
			// A table this small is cheaper to scan whole: ask the planner what it would do with
			// a big one, where scanning is out of the question.
			// With a big one, the planner reads an index in order and sorts only the calls that share
			// a time by id (an incremental sort, which is cheap), rather than fetching every match
			// and sorting it.
			for _, set := range []string{"enable_seqscan", "enable_bitmapscan", "enable_sort"} {
				if _, err := conn.ExecContext(ctx, "SET "+set+" = off"); err != nil {
					t.Fatal(err)
				}
				defer conn.ExecContext(context.WithoutCancel(ctx), "RESET "+set)
			}
		}
		cur := &metering.LogCursor{At: day0.Add(time.Minute), ID: 1000}
		for _, f := range []metering.LogFilter{
			{}, {KeyID: k2}, {Operation: "getPoolChart"}, {StatusGroup: "429"}, {ErrorCode: "not_found"},
			{From: day0, To: day0.Add(time.Hour)}, {RequestIDPrefix: "req_0"},
		} {
			for _, c := range []*metering.LogCursor{nil, cur} {
				if c != nil && f.RequestIDPrefix != "" {
					c = &metering.LogCursor{RequestID: "req_0f", ID: 1000}
				}
				for _, older := range []bool{true, false} {
					index := map[[2]bool]string{
						{false, true}: "usagepage_consumer_id_last_at_id_first_at", {false, false}: "usagepage_consumer_id_first_at_id_last_at",
						{true, true}: "usagepage_consumer_id_last_request_id_id_first_request_id", {true, false}: "usagepage_consumer_id_first_request_id_id_last_request_id",
					}[[2]bool{f.RequestIDPrefix != "", older}]
					q, args := e.us.PageQuery(cons, f, c, older)
					text := queryPlan(t, conn, explain+q, args)
					sorted := strings.Contains(text, "TEMP B-TREE") || strings.Contains(text, "\nSort") ||
						strings.HasPrefix(text, "Sort") || strings.Contains(text, "->  Sort")
					if !strings.Contains(text, index+" ") && !strings.HasSuffix(text, index) || sorted ||
						strings.Contains(text, "Seq Scan") || strings.Contains(text, "SCAN usage_pages") {
						t.Errorf("filter %+v (cursor %v, older %v) plan:\n%s\nwant %s, in order", f, c != nil, older, text, index)
					}
					// The next chunk starts where the last one ended: its bound is part of the index
					// range, not a filter over every page before it.
					q, args = e.us.NextPageQuery(cons, f, older, 7, day0, day0.Add(time.Minute), "req_0a", "req_0b")
					text = queryPlan(t, conn, explain+q, args)
					col := strings.TrimPrefix(strings.TrimSuffix(index, "_id_first_at"), "usagepage_consumer_id_")
					col = strings.TrimSuffix(strings.TrimSuffix(col, "_id_last_at"), "_id_first_request_id")
					col = strings.TrimSuffix(col, "_id_last_request_id")
					if !rangeOn(text, col) {
						t.Errorf("filter %+v (older %v), the next chunk's plan:\n%s\nwant an index range on %s", f, older, text, col)
					}
				}
			}
		}
	})
}

// rangeOn reports whether a plan bounds its index scan on col: SQLite's SEARCH names it in its
// index's terms, PostgreSQL's Index Cond in its condition.
func rangeOn(plan, col string) bool {
	for _, line := range strings.Split(plan, "\n") {
		if strings.Contains(line, "SEARCH usage_pages USING") && strings.Contains(line, " AND "+col) ||
			strings.Contains(line, "Index Cond:") && strings.Contains(line, col) {
			return true
		}
	}
	return false
}

// queryPlan runs an EXPLAIN on conn and returns its plan, one line a row (the last column).
func queryPlan(t *testing.T, conn *sql.Conn, explain string, args []any) string {
	t.Helper()
	rows, err := conn.QueryContext(t.Context(), explain, args...)
	if err != nil {
		t.Fatalf("%s: %v", explain, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		for i := range vals {
			vals[i] = new(any)
		}
		if err := rows.Scan(vals...); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, fmt.Sprint(*vals[len(vals)-1].(*any)))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}
