package metering_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

func (e *usageEnv) report(consumerID, keyID, days int, now time.Time) metering.Report {
	e.t.Helper()
	r, err := e.us.Report(e.t.Context(), consumerID, keyID, days, now)
	if err != nil {
		e.t.Fatalf("Report(consumer %d, key %d, %d days): %v", consumerID, keyID, days, err)
	}
	return r
}

func (e *usageEnv) summaries(now time.Time, consumerIDs ...int) map[int]metering.Summary {
	e.t.Helper()
	s, err := e.us.Summaries(e.t.Context(), consumerIDs, now)
	if err != nil {
		e.t.Fatalf("Summaries(%v): %v", consumerIDs, err)
	}
	return s
}

func tot(calls, cost, errs int64) metering.Totals {
	return metering.Totals{Calls: calls, Cost: cost, Errors: errs}
}

// days names the UTC days from first, n of them, with the totals given for some of them.
func days(first string, n int, set map[string]metering.Totals) []metering.DayTotals {
	d, err := time.Parse(time.DateOnly, first)
	if err != nil {
		panic(err)
	}
	out := make([]metering.DayTotals, n)
	for i := range out {
		name := metering.Day(d.AddDate(0, 0, i))
		out[i] = metering.DayTotals{Day: name, Totals: set[name]}
	}
	return out
}

func assertReport(t *testing.T, name string, got, want metering.Report) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", name, got, want)
	}
}

func TestUsageReport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b := e.consumer("a"), e.consumer("b")
		kA, kB, kC := e.key(a), e.key(a), e.key(a)
		kb := e.key(b)
		plus2 := time.FixedZone("UTC+2", 2*3600)
		minus5 := time.FixedZone("UTC-5", -5*3600)
		at := func(day, hms string) time.Time {
			v, err := time.Parse(time.DateTime+".999", day+" "+hms)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		n := 0
		call := func(consumer, key int, op string, status, cost int, when time.Time) metering.Call {
			n++
			return metering.Call{ConsumerID: consumer, KeyID: key, Operation: op, Status: status, Cost: cost,
				RequestID: fmt.Sprint("r", n), At: when}
		}
		e.write(
			call(a, kA, "old", 200, 1, at("2030-05-07", "12:00:00")), // only in windows of 4 days or more
			call(a, kC, "getTrending", 200, 1, at("2030-05-08", "10:00:00")),
			call(a, kC, "getTrending", 500, 1, at("2030-05-08", "11:00:00")),
			call(a, kC, "getTrending", 200, 1, at("2030-05-08", "12:00:00")),
			// The last instant of May 9 UTC, written in a zone where it is May 10.
			call(a, kB, "getPoolChart", 200, 5, at("2030-05-09", "23:59:59.999").In(plus2)),
			// The first instant of May 10 UTC, written in a zone where it is May 9.
			call(a, kB, "getPoolChart", 200, 5, at("2030-05-10", "00:00:00").In(minus5)),
			call(a, kC, "getQuote", 200, 1, at("2030-05-10", "11:00:00")),
			call(a, kA, "getQuote", 429, 0, at("2030-05-10", "11:30:00")),
			call(a, kA, "getQuote", 200, 2, at("2030-05-10", "11:59:00")),
			call(a, kA, "future", 200, 1, at("2030-05-11", "00:00:00")), // after now's day
			// Another tenant's calls, on the same days and operations.
			call(b, kb, "getTrending", 200, 3, at("2030-05-10", "09:00:00")),
			call(b, kb, "getTrending", 200, 3, at("2030-05-10", "09:00:01")),
			call(b, kb, "secretOp", 503, 7, at("2030-05-09", "09:00:00")),
		)
		now := day0 // 2030-05-10 12:00 UTC

		// All keys, 3 days: zero-filled days oldest first, keys and operations by calls, ties by id and name.
		assertReport(t, "Report(a, all keys, 3 days)", e.report(a, 0, 3, now), metering.Report{
			Days: days("2030-05-08", 3, map[string]metering.Totals{
				"2030-05-08": tot(3, 3, 1), "2030-05-09": tot(1, 5, 0), "2030-05-10": tot(4, 8, 1)}),
			ByKey: []metering.KeyTotals{{KeyID: kC, Totals: tot(4, 4, 1)}, {KeyID: kA, Totals: tot(2, 2, 1)},
				{KeyID: kB, Totals: tot(2, 10, 0)}},
			ByOperation: []metering.OperationTotals{{Operation: "getQuote", Totals: tot(3, 3, 1)},
				{Operation: "getTrending", Totals: tot(3, 3, 1)}, {Operation: "getPoolChart", Totals: tot(2, 10, 0)}},
			Total: tot(8, 16, 2),
		})
		// One day: today only; the call at 00:00 UTC is today's even though written as yesterday.
		assertReport(t, "Report(a, all keys, 1 day)", e.report(a, 0, 1, now), metering.Report{
			Days: days("2030-05-10", 1, map[string]metering.Totals{"2030-05-10": tot(4, 8, 1)}),
			ByKey: []metering.KeyTotals{{KeyID: kA, Totals: tot(2, 2, 1)}, {KeyID: kB, Totals: tot(1, 5, 0)},
				{KeyID: kC, Totals: tot(1, 1, 0)}},
			ByOperation: []metering.OperationTotals{{Operation: "getQuote", Totals: tot(3, 3, 1)},
				{Operation: "getPoolChart", Totals: tot(1, 5, 0)}},
			Total: tot(4, 8, 1),
		})
		// One key.
		assertReport(t, "Report(a, key B, 3 days)", e.report(a, kB, 3, now), metering.Report{
			Days: days("2030-05-08", 3, map[string]metering.Totals{
				"2030-05-09": tot(1, 5, 0), "2030-05-10": tot(1, 5, 0)}),
			ByKey:       []metering.KeyTotals{{KeyID: kB, Totals: tot(2, 10, 0)}},
			ByOperation: []metering.OperationTotals{{Operation: "getPoolChart", Totals: tot(2, 10, 0)}},
			Total:       tot(2, 10, 0),
		})
		// 30 days: the window reaches back to April 11 and takes the older call in.
		r30 := e.report(a, 0, 30, now)
		assertReport(t, "Report(a, all keys, 30 days)", r30, metering.Report{
			Days: days("2030-04-11", 30, map[string]metering.Totals{"2030-05-07": tot(1, 1, 0),
				"2030-05-08": tot(3, 3, 1), "2030-05-09": tot(1, 5, 0), "2030-05-10": tot(4, 8, 1)}),
			ByKey: []metering.KeyTotals{{KeyID: kC, Totals: tot(4, 4, 1)}, {KeyID: kA, Totals: tot(3, 3, 1)},
				{KeyID: kB, Totals: tot(2, 10, 0)}},
			ByOperation: []metering.OperationTotals{{Operation: "getQuote", Totals: tot(3, 3, 1)},
				{Operation: "getTrending", Totals: tot(3, 3, 1)}, {Operation: "getPoolChart", Totals: tot(2, 10, 0)},
				{Operation: "old", Totals: tot(1, 1, 0)}},
			Total: tot(9, 17, 2),
		})

		// Tenant isolation: b sees only its own calls; a's report for b's key is empty.
		assertReport(t, "Report(b, all keys, 3 days)", e.report(b, 0, 3, now), metering.Report{
			Days: days("2030-05-08", 3, map[string]metering.Totals{
				"2030-05-09": tot(1, 7, 1), "2030-05-10": tot(2, 6, 0)}),
			ByKey: []metering.KeyTotals{{KeyID: kb, Totals: tot(3, 13, 1)}},
			ByOperation: []metering.OperationTotals{{Operation: "getTrending", Totals: tot(2, 6, 0)},
				{Operation: "secretOp", Totals: tot(1, 7, 1)}},
			Total: tot(3, 13, 1),
		})
		assertReport(t, "Report(a, b's key)", e.report(a, kb, 3, now), metering.Report{Days: days("2030-05-08", 3, nil)})
		assertReport(t, "Report(b, a's key)", e.report(b, kA, 3, now), metering.Report{Days: days("2030-05-08", 3, nil)})
		assertReport(t, "Report(unknown consumer)", e.report(b+a+1000, 0, 2, now), metering.Report{Days: days("2030-05-09", 2, nil)})

		// "Today" is now's UTC day, whatever now's zone: 19:30 on May 10 at UTC-5 is 00:30 on May 11 UTC.
		late := at("2030-05-11", "00:30:00").In(minus5)
		assertReport(t, "Report(a, 1 day, now in UTC-5)", e.report(a, 0, 1, late), metering.Report{
			Days:        days("2030-05-11", 1, map[string]metering.Totals{"2030-05-11": tot(1, 1, 0)}),
			ByKey:       []metering.KeyTotals{{KeyID: kA, Totals: tot(1, 1, 0)}},
			ByOperation: []metering.OperationTotals{{Operation: "future", Totals: tot(1, 1, 0)}},
			Total:       tot(1, 1, 0),
		})

		// Bounds.
		for _, bad := range []struct{ key, days int }{{0, 0}, {0, -1}, {0, 31}, {0, 365}, {-1, 7}} {
			if _, err := e.us.Report(t.Context(), a, bad.key, bad.days, now); !errors.Is(err, metering.ErrInvalidReport) {
				t.Fatalf("Report(key %d, %d days) = %v, want ErrInvalidReport", bad.key, bad.days, err)
			}
		}
		if got := e.report(a, 0, metering.MaxReportDays, now); len(got.Days) != 30 {
			t.Fatalf("Report(%d days) has %d days", metering.MaxReportDays, len(got.Days))
		}
	})
}

func TestUsageSummaries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b, idle, other := e.consumer("a"), e.consumer("b"), e.consumer("idle"), e.consumer("other")
		ka, kb, ko := e.key(a), e.key(b), e.key(other)
		now := day0.Add(30*time.Minute + 15*time.Second) // 2030-05-10 12:30:15 UTC, in the hour from 12:00
		hour := day0                                     // the current, partial hour
		from24h := hour.Add(-23 * time.Hour)             // 13:00 on May 9
		from30d := time.Date(2030, time.April, 11, 0, 0, 0, 0, time.UTC)
		n := 0
		call := func(consumer, key, status, cost int, when time.Time) metering.Call {
			n++
			return metering.Call{ConsumerID: consumer, KeyID: key, Operation: "op", Status: status, Cost: cost,
				RequestID: fmt.Sprint("r", n), At: when}
		}
		e.write(
			call(a, ka, 200, 1, now),  // 24h, 30d
			call(a, ka, 500, 2, hour), // 24h, 30d: the start of the current hour
			call(a, ka, 200, 4, from24h.In(time.FixedZone("UTC+9", 9*3600))), // 24h, 30d: the start of the oldest hour
			call(a, ka, 404, 8, from24h.Add(-time.Millisecond)),              // 30d only: the hour before
			call(a, ka, 200, 16, from30d),                                    // 30d only: the first instant of the 30 days
			call(a, ka, 200, 32, from30d.Add(-time.Millisecond)),             // neither: the day before
			call(b, kb, 200, 100, now.Add(-time.Hour)),                       // b: 24h, 30d
			call(b, kb, 429, 0, now.Add(-5*24*time.Hour)),                    // b: 30d only
			call(other, ko, 200, 1000, now),                                  // a consumer not asked for
		)
		const unknown = -7
		got := e.summaries(now, a, b, idle, a, unknown) // a twice, and an id no consumer has
		want := map[int]metering.Summary{
			a:       {Last24h: tot(3, 7, 1), Last30d: tot(5, 31, 2)},
			b:       {Last24h: tot(1, 100, 0), Last30d: tot(2, 100, 1)},
			idle:    {},
			unknown: {},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Summaries:\n got %+v\nwant %+v", got, want)
		}
		// The 30-day figure is the 30-day report's total.
		if r := e.report(a, 0, 30, now); r.Total != want[a].Last30d {
			t.Fatalf("Report(a, 30 days).Total = %+v, Summary.Last30d = %+v", r.Total, want[a].Last30d)
		}
		// An hour later the oldest hour has left the 24 hours (but not the 30 days).
		if got := e.summaries(now.Add(time.Hour), a)[a]; got != (metering.Summary{Last24h: tot(2, 3, 1), Last30d: tot(5, 31, 2)}) {
			t.Fatalf("Summaries an hour later = %+v", got)
		}
		// A day later, April 11 has left the 30 days.
		if got := e.summaries(now.Add(24*time.Hour), a)[a]; got != (metering.Summary{Last30d: tot(4, 15, 2)}) {
			t.Fatalf("Summaries a day later = %+v", got)
		}

		// No consumers: no query, an empty map.
		if got := e.summaries(now); len(got) != 0 {
			t.Fatalf("Summaries() = %+v", got)
		}
		// More consumers than one query takes: negative ids sort first, so a and b land in a later batch.
		ids := []int{a, b}
		for i := range 1_200 {
			ids = append(ids, -1-i)
		}
		many := e.summaries(now, ids...)
		if len(many) != len(ids) || many[a] != want[a] || many[b] != want[b] || many[-1] != (metering.Summary{}) {
			t.Fatalf("Summaries(%d consumers): %d results, a %+v, b %+v", len(ids), len(many), many[a], many[b])
		}
	})
}

// TestUsageReportsReadRollupsOnly deletes every raw call and finds reports and summaries unchanged.
func TestUsageReportsReadRollupsOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b := e.consumer("a"), e.consumer("b")
		ka1, ka2, kb := e.key(a), e.key(a), e.key(b)
		var calls []metering.Call
		for i := range 500 {
			c := metering.Call{ConsumerID: a, KeyID: ka1, Operation: fmt.Sprint("op", i%7), Status: 200 + 100*(i%4),
				Cost: i % 3, RequestID: fmt.Sprint("r", i), At: day0.Add(-time.Duration(i) * 97 * time.Minute)}
			if i%5 == 0 {
				c.KeyID = ka2
			}
			if i%11 == 0 {
				c.ConsumerID, c.KeyID = b, kb
			}
			calls = append(calls, c)
		}
		e.write(calls...)
		now := day0.Add(10 * time.Minute)
		reports := func() []metering.Report {
			return []metering.Report{e.report(a, 0, 30, now), e.report(a, ka2, 7, now), e.report(b, 0, 30, now), e.report(a, 0, 1, now)}
		}
		before, sumBefore := reports(), e.summaries(now, a, b)
		if before[0].Total.Calls == 0 || sumBefore[a].Last24h.Calls == 0 || sumBefore[b].Last30d.Calls == 0 {
			t.Fatalf("the fixture has no usage to report: %+v, %+v", before[0].Total, sumBefore)
		}

		if _, err := st.DB.ExecContext(t.Context(), "DELETE FROM usage_pages"); err != nil {
			t.Fatal(err)
		}
		if n := e.rawCount(); n != 0 {
			t.Fatalf("%d raw calls left", n)
		}
		if after := reports(); !reflect.DeepEqual(after, before) {
			t.Fatalf("reports changed without raw calls:\nbefore %+v\n after %+v", before, after)
		}
		if sumAfter := e.summaries(now, a, b); !reflect.DeepEqual(sumAfter, sumBefore) {
			t.Fatalf("summaries changed without raw calls:\nbefore %+v\n after %+v", sumBefore, sumAfter)
		}
	})
}
