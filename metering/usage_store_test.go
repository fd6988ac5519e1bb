package metering_test

import (
	"crypto/rand"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/usagehourly"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// day0 is noon UTC of a fixed day; usage tests place calls around it.
var day0 = time.Date(2030, time.May, 10, 12, 0, 0, 0, time.UTC)

// usageEnv is one subtest's store with a usage store and helpers to make consumers and keys.
type usageEnv struct {
	t  *testing.T
	st *store.Store
	us *metering.UsageStore
}

func newUsageEnv(t *testing.T, st *store.Store) *usageEnv {
	return &usageEnv{t: t, st: st, us: metering.NewUsageStore(st.Client, st.Dialect, metering.WithDB(st.DB))}
}

// consumer creates a consumer row and returns its id.
func (e *usageEnv) consumer(name string) int {
	e.t.Helper()
	c, err := e.st.Client.Consumer.Create().SetName(name).SetCreatedAt(day0).SetUpdatedAt(day0).Save(e.t.Context())
	if err != nil {
		e.t.Fatalf("create consumer: %v", err)
	}
	return c.ID
}

// key creates an API key row of the consumer and returns its id.
func (e *usageEnv) key(consumerID int) int {
	e.t.Helper()
	h := make([]byte, 32)
	rand.Read(h)
	k, err := e.st.Client.APIKey.Create().SetConsumerID(consumerID).SetName("k").SetHash(h).
		SetPrefix("pk_live_test").SetCreatedAt(day0).Save(e.t.Context())
	if err != nil {
		e.t.Fatalf("create key: %v", err)
	}
	return k.ID
}

func (e *usageEnv) write(calls ...metering.Call) {
	e.t.Helper()
	if err := e.us.WriteCalls(e.t.Context(), calls); err != nil {
		e.t.Fatalf("WriteCalls(%d calls): %v", len(calls), err)
	}
}

func (e *usageEnv) daily(consumerID int, since time.Time) []metering.DailyUsage {
	e.t.Helper()
	rows, err := e.us.Daily(e.t.Context(), consumerID, since)
	if err != nil {
		e.t.Fatalf("Daily: %v", err)
	}
	return rows
}

func (e *usageEnv) recent(consumerID int, requestID string, limit int) []metering.RecentCall {
	e.t.Helper()
	rows, err := e.us.Recent(e.t.Context(), consumerID, metering.RecentFilter{RequestID: requestID}, limit)
	if err != nil {
		e.t.Fatalf("Recent: %v", err)
	}
	return rows
}

// hourRow is one hourly rollup, its hour in UTC.
type hourRow struct {
	Hour                time.Time
	Calls, Cost, Errors int64
}

// hourly returns the consumer's hourly rollups, oldest first.
func (e *usageEnv) hourly(consumerID int) []hourRow {
	e.t.Helper()
	rows, err := e.st.Client.UsageHourly.Query().Where(usagehourly.ConsumerID(consumerID)).
		Order(ent.Asc(usagehourly.FieldHour)).All(e.t.Context())
	if err != nil {
		e.t.Fatalf("read hourly rollups: %v", err)
	}
	out := make([]hourRow, len(rows))
	for i, r := range rows {
		out[i] = hourRow{Hour: r.Hour.UTC(), Calls: r.Calls, Cost: r.Cost, Errors: r.Errors}
	}
	return out
}

func assertHourly(t *testing.T, got, want []hourRow) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("hourly rollups:\n got %+v\nwant %+v", got, want)
	}
}

func (e *usageEnv) rawCount() int {
	e.t.Helper()
	return meteringtest.StoredCallCount(e.t, e.st.DB)
}

func (e *usageEnv) lastUsed(keyID int) *time.Time {
	e.t.Helper()
	k, err := e.st.Client.APIKey.Get(e.t.Context(), keyID)
	if err != nil {
		e.t.Fatal(err)
	}
	return k.LastUsedAt
}

func assertDaily(t *testing.T, got, want []metering.DailyUsage) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("Daily:\n got %+v\nwant %+v", got, want)
	}
}

func TestUsageStoreWriteCallsRollsUp(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		c := e.consumer("acme")
		k1, k2 := e.key(c), e.key(c)
		plus2 := time.FixedZone("UTC+2", 2*3600)
		minus5 := time.FixedZone("UTC-5", -5*3600)
		d0, d1 := metering.Day(day0), metering.Day(day0.Add(24*time.Hour))
		endOfDay0 := time.Date(2030, time.May, 10, 23, 59, 59, 999_000_000, time.UTC)
		startOfDay1 := time.Date(2030, time.May, 11, 0, 0, 0, 0, time.UTC)

		first := []metering.Call{
			{ConsumerID: c, KeyID: k1, Operation: "getTrending", Status: 200, Cost: 1, Latency: 1500 * time.Microsecond, Chain: "base", RequestID: "r1", At: day0},
			{ConsumerID: c, KeyID: k1, Operation: "getTrending", Status: 404, Cost: 1, Latency: time.Millisecond, RequestID: "r2", At: day0.Add(time.Minute)},
			{ConsumerID: c, KeyID: k1, Operation: "getTrending", Status: 499, Cost: 0, Latency: time.Millisecond, RequestID: "r3", At: day0.Add(2 * time.Minute)},
			{ConsumerID: c, KeyID: k1, Operation: "getPoolChart", Status: 399, Cost: 3, RequestID: "r4", At: day0},
			// The last instant of day 0, written in a zone where it is already day 1.
			{ConsumerID: c, KeyID: k1, Operation: "getPoolChart", Status: 500, Cost: 2, RequestID: "r5", At: endOfDay0.In(plus2)},
			// The first instant of day 1, written in a zone where it is still day 0.
			{ConsumerID: c, KeyID: k1, Operation: "getPoolChart", Status: 200, Cost: 10, RequestID: "r6", At: startOfDay1.In(minus5)},
			{ConsumerID: c, KeyID: k2, Operation: "getTrending", Status: 429, Cost: 0, RequestID: "r7", At: day0},
		}
		e.write(first...)
		if n := e.rawCount(); n != len(first) {
			t.Fatalf("raw rows = %d, want %d", n, len(first))
		}
		assertDaily(t, e.daily(c, day0.Add(-48*time.Hour)), []metering.DailyUsage{
			{Day: d0, KeyID: k1, Operation: "getPoolChart", Calls: 2, Cost: 5, Errors: 1},
			{Day: d0, KeyID: k1, Operation: "getTrending", Calls: 3, Cost: 2, Errors: 2},
			{Day: d0, KeyID: k2, Operation: "getTrending", Calls: 1, Cost: 0, Errors: 1},
			{Day: d1, KeyID: k1, Operation: "getPoolChart", Calls: 1, Cost: 10, Errors: 0},
		})

		// Raw rows keep every field; times come back as the same instants.
		byID := map[string]metering.Call{}
		for _, c := range first {
			byID[c.RequestID] = c
		}
		for _, r := range e.recent(c, "", 100) {
			w := byID[r.RequestID]
			if !r.At.Equal(w.At) || r.KeyID != w.KeyID || r.Operation != w.Operation || r.Status != w.Status ||
				r.Cost != w.Cost || r.LatencyUs != w.Latency.Microseconds() || r.Chain != w.Chain {
				t.Fatalf("raw call %s = %+v, want %+v", r.RequestID, r, w)
			}
			delete(byID, r.RequestID)
		}
		if len(byID) != 0 {
			t.Fatalf("raw calls missing: %v", byID)
		}

		// A second batch adds to the same rollups and creates the ones it lacks.
		e.write(
			metering.Call{ConsumerID: c, KeyID: k1, Operation: "getTrending", Status: 200, Cost: 1, RequestID: "r8", At: day0.Add(time.Hour)},
			metering.Call{ConsumerID: c, KeyID: k1, Operation: "getTrending", Status: 503, Cost: 1, RequestID: "r9", At: day0.Add(time.Hour)},
			metering.Call{ConsumerID: c, KeyID: k2, Operation: "getPoolChart", Status: 200, Cost: 4, RequestID: "r10", At: startOfDay1},
		)
		e.write(metering.Call{ConsumerID: c, KeyID: k1, Operation: "getPoolChart", Status: 200, Cost: 10, RequestID: "r11", At: startOfDay1.Add(time.Hour)})
		assertDaily(t, e.daily(c, day0), []metering.DailyUsage{
			{Day: d0, KeyID: k1, Operation: "getPoolChart", Calls: 2, Cost: 5, Errors: 1},
			{Day: d0, KeyID: k1, Operation: "getTrending", Calls: 5, Cost: 4, Errors: 3},
			{Day: d0, KeyID: k2, Operation: "getTrending", Calls: 1, Cost: 0, Errors: 1},
			{Day: d1, KeyID: k1, Operation: "getPoolChart", Calls: 2, Cost: 20, Errors: 0},
			{Day: d1, KeyID: k2, Operation: "getPoolChart", Calls: 1, Cost: 4, Errors: 0},
		})
		if n := e.rawCount(); n != 11 {
			t.Fatalf("raw rows = %d, want 11", n)
		}

		if err := e.us.WriteCalls(t.Context(), nil); err != nil {
			t.Fatalf("WriteCalls(nil) = %v", err)
		}
	})
}

func TestUsageStoreWriteCallsRollsUpHourly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b := e.consumer("a"), e.consumer("b")
		ka1, ka2, kb := e.key(a), e.key(a), e.key(b)
		plus2 := time.FixedZone("UTC+2", 2*3600)
		minus5 := time.FixedZone("UTC-5", -5*3600)
		h := func(d time.Duration) time.Time { return day0.Add(d) } // hours around noon of day 0
		e.write(
			// Every key and operation of a consumer adds to one row per UTC hour.
			metering.Call{ConsumerID: a, KeyID: ka1, Operation: "x", Status: 200, Cost: 1, RequestID: "1", At: h(0)},
			metering.Call{ConsumerID: a, KeyID: ka2, Operation: "y", Status: 500, Cost: 2, RequestID: "2", At: h(59 * time.Minute).In(plus2)},
			metering.Call{ConsumerID: a, KeyID: ka1, Operation: "x", Status: 404, Cost: 0, RequestID: "3", At: h(time.Hour - time.Nanosecond)},
			// The first instant of the next hour, written at UTC-5.
			metering.Call{ConsumerID: a, KeyID: ka1, Operation: "x", Status: 200, Cost: 4, RequestID: "4", At: h(time.Hour).In(minus5)},
			metering.Call{ConsumerID: b, KeyID: kb, Operation: "x", Status: 200, Cost: 9, RequestID: "5", At: h(30 * time.Minute)},
		)
		assertHourly(t, e.hourly(a), []hourRow{{h(0), 3, 3, 2}, {h(time.Hour), 1, 4, 0}})
		assertHourly(t, e.hourly(b), []hourRow{{h(0), 1, 9, 0}})

		// A later batch adds to existing hours and creates the ones it lacks.
		e.write(
			metering.Call{ConsumerID: a, KeyID: ka2, Operation: "z", Status: 503, Cost: 5, RequestID: "6", At: h(time.Hour + time.Minute)},
			metering.Call{ConsumerID: a, KeyID: ka1, Operation: "x", Status: 200, Cost: 6, RequestID: "7", At: h(-time.Nanosecond)},
		)
		assertHourly(t, e.hourly(a), []hourRow{{h(-time.Hour), 1, 6, 0}, {h(0), 3, 3, 2}, {h(time.Hour), 2, 9, 1}})
		assertHourly(t, e.hourly(b), []hourRow{{h(0), 1, 9, 0}})
		if got := metering.Hour(h(59 * time.Minute).In(plus2)); !got.Equal(h(0)) || got.Location() != time.UTC {
			t.Fatalf("Hour(12:59 UTC at UTC+2) = %v, want %v", got, h(0))
		}
	})
}

func TestUsageStoreLastUsedMovesForward(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		c := e.consumer("acme")
		k, idle := e.key(c), e.key(c)
		call := func(at time.Time) metering.Call {
			return metering.Call{ConsumerID: c, KeyID: k, Operation: "op", Status: 200, Cost: 1, RequestID: "r", At: at}
		}
		for _, step := range []struct {
			name  string
			calls []metering.Call
			want  time.Time
		}{
			{"first use", []metering.Call{call(day0)}, day0},
			{"an older call does not move it back", []metering.Call{call(day0.Add(-time.Hour))}, day0},
			{"the newest call of a batch wins, in any order", []metering.Call{
				call(day0.Add(3 * time.Minute)), call(day0.Add(5 * time.Minute)), call(day0.Add(time.Minute))}, day0.Add(5 * time.Minute)},
			{"an equal time changes nothing", []metering.Call{call(day0.Add(5 * time.Minute))}, day0.Add(5 * time.Minute)},
			{"a later call moves it forward", []metering.Call{call(day0.Add(time.Hour).In(time.FixedZone("X", -7200)))}, day0.Add(time.Hour)},
		} {
			e.write(step.calls...)
			got := e.lastUsed(k)
			if got == nil || !got.Equal(step.want) {
				t.Fatalf("%s: last_used_at = %v, want %v", step.name, got, step.want)
			}
		}
		if got := e.lastUsed(idle); got != nil {
			t.Fatalf("a key without calls has last_used_at %v", got)
		}
	})
}

func TestUsageStoreDailyFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b, none := e.consumer("a"), e.consumer("b"), e.consumer("none")
		ka, kb := e.key(a), e.key(b)
		var calls []metering.Call
		for d := range 4 { // days -3 .. 0
			at := day0.Add(time.Duration(d-3) * 24 * time.Hour)
			calls = append(calls, metering.Call{ConsumerID: a, KeyID: ka, Operation: "op", Status: 200, Cost: 1, RequestID: fmt.Sprint("a", d), At: at})
		}
		calls = append(calls, metering.Call{ConsumerID: b, KeyID: kb, Operation: "op", Status: 200, Cost: 7, RequestID: "b", At: day0})
		e.write(calls...)

		dayOf := func(d int) string { return metering.Day(day0.Add(time.Duration(d) * 24 * time.Hour)) }
		// since is inclusive by day: any instant of day -1 selects day -1 onwards.
		sinceLate := time.Date(2030, time.May, 9, 23, 59, 0, 0, time.UTC)
		assertDaily(t, e.daily(a, sinceLate), []metering.DailyUsage{
			{Day: dayOf(-1), KeyID: ka, Operation: "op", Calls: 1, Cost: 1},
			{Day: dayOf(0), KeyID: ka, Operation: "op", Calls: 1, Cost: 1},
		})
		if got := e.daily(a, day0.Add(-30*24*time.Hour)); len(got) != 4 || got[0].Day != dayOf(-3) {
			t.Fatalf("Daily(a, 30 days) = %+v, want 4 days oldest first", got)
		}
		assertDaily(t, e.daily(b, day0.Add(-30*24*time.Hour)), []metering.DailyUsage{{Day: dayOf(0), KeyID: kb, Operation: "op", Calls: 1, Cost: 7}})
		if got := e.daily(none, time.Time{}); len(got) != 0 {
			t.Fatalf("Daily of a consumer without calls = %+v", got)
		}
		if got := e.daily(a, day0.Add(24*time.Hour)); len(got) != 0 {
			t.Fatalf("Daily since tomorrow = %+v", got)
		}
	})
}

func TestUsageStoreRecent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b := e.consumer("a"), e.consumer("b")
		ka, kb := e.key(a), e.key(b)
		var calls []metering.Call
		for i := range 10 {
			calls = append(calls, metering.Call{ConsumerID: a, KeyID: ka, Operation: "op", Status: 200, Cost: 1,
				RequestID: fmt.Sprintf("a-%d", i), At: day0.Add(time.Duration(i) * time.Second)})
		}
		// Written out of order, and two calls at the same instant.
		slices.Reverse(calls)
		calls = append(calls, metering.Call{ConsumerID: a, KeyID: ka, Operation: "op", Status: 200, RequestID: "a-9-twin", At: day0.Add(9 * time.Second)})
		calls = append(calls, metering.Call{ConsumerID: b, KeyID: kb, Operation: "op", Status: 500, RequestID: "b-secret", At: day0.Add(time.Hour)})
		e.write(calls...)

		got := e.recent(a, "", 4)
		var ids []string
		for _, r := range got {
			ids = append(ids, r.RequestID)
		}
		if want := []string{"a-9-twin", "a-9", "a-8", "a-7"}; !slices.Equal(ids, want) {
			t.Fatalf("Recent(a, 4) = %v, want %v (newest first; a tie goes to the later write)", ids, want)
		}
		if all := e.recent(a, "", 100); len(all) != 11 {
			t.Fatalf("Recent(a, 100) = %d calls, want 11", len(all))
		}
		if one := e.recent(a, "a-3", 10); len(one) != 1 || one[0].RequestID != "a-3" || !one[0].At.Equal(day0.Add(3*time.Second)) {
			t.Fatalf("Recent(a, request a-3) = %+v", one)
		}
		if other := e.recent(a, "b-secret", 10); len(other) != 0 {
			t.Fatalf("Recent(a) found consumer b's call: %+v", other)
		}
		if own := e.recent(b, "", 10); len(own) != 1 || own[0].RequestID != "b-secret" {
			t.Fatalf("Recent(b) = %+v", own)
		}
		if none := e.recent(a, "no-such-request", 10); len(none) != 0 {
			t.Fatalf("Recent(unknown request id) = %+v", none)
		}
	})
}

func TestUsageStorePrune(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b := e.consumer("a"), e.consumer("b")
		ka, kb := e.key(a), e.key(b)
		now := day0 // noon: the cutoff is noon 30 days ago
		cutoff := now.Add(-metering.UsageRetention)
		at := map[string]time.Time{
			"40 days":           now.Add(-40 * 24 * time.Hour),
			"just over 30 days": cutoff.Add(-time.Hour), // raw row goes; its day is the cutoff's day, whose rollup stays
			"exactly 30 days":   cutoff,
			"29 days":           now.Add(-29 * 24 * time.Hour),
			"now":               now,
			"b 31 days":         now.Add(-31 * 24 * time.Hour),
			"b 2 days":          now.Add(-2 * 24 * time.Hour),
		}
		var calls []metering.Call
		for id, when := range at {
			c := metering.Call{ConsumerID: a, KeyID: ka, Operation: "op", Status: 200, Cost: 1, RequestID: id, At: when}
			if id[0] == 'b' {
				c.ConsumerID, c.KeyID = b, kb
			}
			calls = append(calls, c)
		}
		e.write(calls...)

		n, err := e.us.Prune(t.Context(), now)
		if err != nil {
			t.Fatalf("Prune: %v", err)
		}
		if n != 3 {
			t.Fatalf("Prune deleted %d raw calls, want 3", n)
		}
		ids := meteringtest.StoredRequestIDs(t, st.DB)
		slices.Sort(ids)
		if want := []string{"29 days", "b 2 days", "exactly 30 days", "now"}; !slices.Equal(ids, want) {
			t.Fatalf("raw calls after Prune = %v, want %v", ids, want)
		}
		var days []string
		for _, d := range e.daily(a, time.Time{}) {
			days = append(days, d.Day)
		}
		if want := []string{metering.Day(cutoff), metering.Day(at["29 days"]), metering.Day(now)}; !slices.Equal(days, want) {
			t.Fatalf("rollup days of a after Prune = %v, want %v", days, want)
		}
		if got := e.daily(b, time.Time{}); len(got) != 1 || got[0].Day != metering.Day(at["b 2 days"]) {
			t.Fatalf("rollups of b after Prune = %+v", got)
		}
		// Hourly rollups go when their whole hour is before the cutoff: the cutoff's own hour stays.
		var hours []time.Time
		for _, h := range e.hourly(a) {
			hours = append(hours, h.Hour)
		}
		if want := []time.Time{cutoff, at["29 days"], now}; !slices.Equal(hours, want) {
			t.Fatalf("hourly rollups of a after Prune = %v, want %v", hours, want)
		}
		if got := e.hourly(b); len(got) != 1 || !got[0].Hour.Equal(at["b 2 days"]) {
			t.Fatalf("hourly rollups of b after Prune = %+v", got)
		}
		if n, err := e.us.Prune(t.Context(), now); err != nil || n != 0 {
			t.Fatalf("second Prune = %d, %v; want 0", n, err)
		}
	})
}

// TestUsageStoreLargeBatch writes a batch of several statements' worth of rows, through the pool
// (WithDB: prepared statements on SQLite, COPY on PostgreSQL) and through the ent client alone.
func TestUsageStoreLargeBatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		t.Run("pool", func(t *testing.T) { testLargeBatch(t, newUsageEnv(t, st)) })
		t.Run("ent", func(t *testing.T) {
			testLargeBatch(t, &usageEnv{t: t, st: st, us: metering.NewUsageStore(st.Client, st.Dialect)})
		})
	})
}

func testLargeBatch(t *testing.T, e *usageEnv) {
	c := e.consumer("big-" + t.Name())
	k := e.key(c)
	const n = 5_000
	ops := []string{"getTrending", "getPoolChart", "getTokenPrice"}
	calls := make([]metering.Call, n)
	var wantErrors int64
	for i := range calls {
		status := 200
		if i%7 == 0 {
			status = 502
			wantErrors++
		}
		calls[i] = metering.Call{ConsumerID: c, KeyID: k, Operation: ops[i%len(ops)], Status: status, Cost: 2,
			Latency: time.Duration(i) * time.Microsecond, Chain: "solana", RequestID: fmt.Sprintf("req-%05d", i),
			At: day0.Add(time.Duration(i) * 10 * time.Second)} // noon to 1:53 the next day
	}
	before := e.rawCount()
	e.write(calls...)
	if got := e.rawCount() - before; got != n {
		t.Fatalf("raw rows = %d, want %d", got, n)
	}
	var sumCalls, sumCost, sumErrors int64
	rows := e.daily(c, time.Time{})
	for _, r := range rows {
		sumCalls += r.Calls
		sumCost += r.Cost
		sumErrors += r.Errors
	}
	if len(rows) != 2*len(ops) || sumCalls != n || sumCost != 2*n || sumErrors != wantErrors {
		t.Fatalf("rollups: %d rows, calls %d cost %d errors %d; want %d rows, %d, %d, %d",
			len(rows), sumCalls, sumCost, sumErrors, 2*len(ops), n, 2*n, wantErrors)
	}
	if got := e.lastUsed(k); got == nil || !got.Equal(calls[n-1].At) {
		t.Fatalf("last_used_at = %v, want %v", got, calls[n-1].At)
	}
}

// TestUsagePagesBounded: a batch of one consumer's hour goes into the fewest pages of one class
// each: succeeded calls up to MaxPageCalls a page, failed ones up to 512, so a filter on a rare
// error code decodes little beside its matches.
func TestUsagePagesBounded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		c := e.consumer("bounded")
		k := e.key(c)
		const n, failEvery = 20_000, 10
		calls := make([]metering.Call, n)
		for i := range calls {
			calls[i] = metering.Call{ConsumerID: c, KeyID: k, Operation: "getTrending", Status: 200, Cost: 1,
				RequestID: fmt.Sprintf("req-%05d", i), At: day0.Add(time.Duration(i) * 100 * time.Millisecond)} // 33 min
			if i%failEvery == 0 {
				calls[i].Status, calls[i].ErrorCode = 502, "upstream_unavailable"
			}
		}
		e.write(calls...)
		param := "?"
		if st.Dialect == "postgres" {
			param = "$1"
		}
		rows, err := st.DB.QueryContext(t.Context(), `SELECT "calls", "calls_4xx" + "calls_429" + "calls_5xx" FROM "usage_pages"
			WHERE "consumer_id" = `+param, c)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var okPages, failedPages, okCalls, failedCalls int
		for rows.Next() {
			var calls, failed int
			if err := rows.Scan(&calls, &failed); err != nil {
				t.Fatal(err)
			}
			switch {
			case failed == 0 && calls <= metering.MaxPageCalls:
				okPages, okCalls = okPages+1, okCalls+calls
			case failed == calls && calls <= 512:
				failedPages, failedCalls = failedPages+1, failedCalls+calls
			default:
				t.Fatalf("a page of %d calls, %d failed: want one class, at most %d succeeded or 512 failed", calls, failed, metering.MaxPageCalls)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		wantFailed := n / failEvery
		if okCalls != n-wantFailed || failedCalls != wantFailed {
			t.Fatalf("pages hold %d succeeded and %d failed calls, want %d and %d", okCalls, failedCalls, n-wantFailed, wantFailed)
		}
		if want := (n - wantFailed + metering.MaxPageCalls - 1) / metering.MaxPageCalls; okPages != want {
			t.Fatalf("%d pages of succeeded calls, want %d", okPages, want)
		}
		if want := (wantFailed + 511) / 512; failedPages != want {
			t.Fatalf("%d pages of failed calls, want %d", failedPages, want)
		}
	})
}
