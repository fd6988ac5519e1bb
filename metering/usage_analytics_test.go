package metering_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/usagehourly"
	"github.com/partner-platform/partnerd/ent/usagelatencyband"
	"github.com/partner-platform/partnerd/ent/usageminute"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// groupRow is one hourly rollup's calls by status group.
type groupRow struct {
	Hour                          time.Time
	Calls, C2xx, C4xx, C429, C5xx int64
}

func (e *usageEnv) groups(consumerID int) []groupRow {
	e.t.Helper()
	rows, err := e.st.Client.UsageHourly.Query().Where(usagehourly.ConsumerID(consumerID)).
		Order(ent.Asc(usagehourly.FieldHour)).All(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	var out []groupRow
	for _, r := range rows {
		out = append(out, groupRow{r.Hour.UTC(), r.Calls, r.Calls2xx, r.Calls4xx, r.Calls429, r.Calls5xx})
	}
	return out
}

// minuteRow is one minute rollup.
type minuteRow struct {
	Minute               time.Time
	Calls, Cost, Limited int64
}

func (e *usageEnv) minutes(consumerID int) []minuteRow {
	e.t.Helper()
	rows, err := e.st.Client.UsageMinute.Query().Where(usageminute.ConsumerID(consumerID)).
		Order(ent.Asc(usageminute.FieldMinute)).All(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	var out []minuteRow
	for _, r := range rows {
		out = append(out, minuteRow{r.Minute.UTC(), r.Calls, r.Cost, r.Limited})
	}
	return out
}

// histogram returns the consumer's latency histograms, read from their bands, as "hour operation
// bucket" -> calls, for each bucket with calls.
func (e *usageEnv) histogram(consumerID int) map[string]int64 {
	e.t.Helper()
	rows, err := e.st.Client.UsageLatencyBand.Query().Where(usagelatencyband.ConsumerID(consumerID)).All(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]int64{}
	for _, r := range rows {
		for i, n := range []int64{r.Calls0, r.Calls1, r.Calls2, r.Calls3, r.Calls4, r.Calls5, r.Calls6, r.Calls7} {
			if n != 0 {
				out[r.Hour.UTC().Format("2006-01-02 15:04")+" "+r.Operation+" "+strconv.Itoa(r.Band*8+i)] = n
			}
		}
	}
	return out
}

func (e *usageEnv) analytics(consumerID int, r metering.Range, now time.Time) metering.Analytics {
	e.t.Helper()
	a, err := e.us.Analytics(e.t.Context(), consumerID, r, now)
	if err != nil {
		e.t.Fatalf("Analytics(%s): %v", r, err)
	}
	return a
}

// eachWritePath runs f on SQLite and PostgreSQL, once with the store's pool (prepared statements;
// COPY and unnest on PostgreSQL) and once through the ent client alone.
func eachWritePath(t *testing.T, f func(t *testing.T, e *usageEnv)) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		t.Run("pool", func(t *testing.T) { f(t, newUsageEnv(t, st)) })
		t.Run("ent", func(t *testing.T) {
			f(t, &usageEnv{t: t, st: st, us: metering.NewUsageStore(st.Client, st.Dialect)})
		})
	})
}

// TestUsageRollupsByGroupMinuteAndLatency: writes add status groups to the hourly rollups, units
// and 429s to the minute rollups and calls to the latency buckets, adding to existing rows.
func TestUsageRollupsByGroupMinuteAndLatency(t *testing.T) {
	eachWritePath(t, func(t *testing.T, e *usageEnv) {
		c, other := e.consumer("acme "+t.Name()), e.consumer("other "+t.Name())
		k, ko := e.key(c), e.key(other)
		h := day0 // 12:00
		call := func(at time.Time, status int, code string, cost int, lat time.Duration) metering.Call {
			return metering.Call{ConsumerID: c, KeyID: k, Operation: "getTrending", Status: status, ErrorCode: code,
				Cost: cost, Latency: lat, RequestID: "r", At: at}
		}
		e.write(
			call(h.Add(5*time.Second), 200, "", 1, 2*time.Millisecond),
			call(h.Add(10*time.Second), 304, "", 1, 2*time.Millisecond),
			call(h.Add(20*time.Second), 404, "not_found", 1, 2*time.Millisecond),
			call(h.Add(30*time.Second), 429, "rate_limited", 0, 50*time.Microsecond),
			call(h.Add(70*time.Second), 502, "upstream_unavailable", 10, 300*time.Millisecond),
			metering.Call{ConsumerID: other, KeyID: ko, Operation: "x", Status: 200, Cost: 5, RequestID: "o", At: h},
		)
		// A second write adds to the same rows.
		e.write(
			call(h.Add(40*time.Second), 429, "rate_limited", 0, 50*time.Microsecond),
			call(h.Add(50*time.Second), 499, "client_closed_request", 0, 2*time.Millisecond),
			call(h.Add(61*time.Minute), 200, "", 240, 2*time.Millisecond),
		)
		if got, want := e.groups(c), []groupRow{
			{h, 7, 2, 2, 2, 1},
			{h.Add(time.Hour), 1, 1, 0, 0, 0},
		}; !slices.Equal(got, want) {
			t.Errorf("hourly groups:\n got %+v\nwant %+v", got, want)
		}
		if got, want := e.minutes(c), []minuteRow{
			{h, 6, 3, 2},
			{h.Add(time.Minute), 1, 10, 0},
			{h.Add(61 * time.Minute), 1, 240, 0},
		}; !slices.Equal(got, want) {
			t.Errorf("minutes:\n got %+v\nwant %+v", got, want)
		}
		b2, b50, b300 := metering.LatencyBucket(2*time.Millisecond), metering.LatencyBucket(50*time.Microsecond), metering.LatencyBucket(300*time.Millisecond)
		name := func(hm string, b int) string { return "2030-05-10 " + hm + " getTrending " + strconv.Itoa(b) }
		if got, want := e.histogram(c), map[string]int64{
			name("12:00", b2): 4, name("12:00", b50): 2, name("12:00", b300): 1, name("13:00", b2): 1,
		}; !reflect.DeepEqual(got, want) {
			t.Errorf("latency histogram:\n got %v\nwant %v", got, want)
		}
		if got := e.groups(other); len(got) != 1 || got[0].C2xx != 1 {
			t.Errorf("other consumer's hourly groups %+v", got)
		}
	})
}

// TestUsageAnalytics reads each range's points, totals, percentiles and units from the rollups
// written by real calls, and nothing of another consumer.
func TestUsageAnalytics(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		c, other := e.consumer("acme"), e.consumer("other")
		k, ko := e.key(c), e.key(other)
		now := day0.Add(30*time.Minute + 15*time.Second) // 12:30:15
		var calls []metering.Call
		add := func(at time.Time, op string, status int, code string, cost int, lat time.Duration) {
			calls = append(calls, metering.Call{ConsumerID: c, KeyID: k, Operation: op, Status: status, ErrorCode: code,
				Cost: cost, Latency: lat, RequestID: "r", At: at})
		}
		// 100 calls of getTrending in the current hour with latencies 1..100 ms, 10 of them 500s.
		for i := range 100 {
			status := 200
			if i%10 == 0 {
				status = 500
			}
			add(now.Add(-time.Duration(i)*time.Second), "getTrending", status, "", 1, time.Duration(i+1)*time.Millisecond)
		}
		// Three 429s and a batch call 5 hours ago in one minute; a 404 two days ago; one call 10 days ago.
		five := now.Add(-5 * time.Hour).Truncate(time.Minute)
		for i := range 3 {
			add(five.Add(time.Duration(i)*time.Second), "getHoldingsBatch", 429, "rate_limited", 0, time.Millisecond)
		}
		add(five.Add(10*time.Second), "getHoldingsBatch", 200, "", 40, 20*time.Millisecond)
		add(now.Add(-48*time.Hour), "getPool", 404, "not_found", 1, 3*time.Millisecond)
		add(now.Add(-10*24*time.Hour), "getPool", 200, "", 1, 3*time.Millisecond)
		// Another consumer's calls in the same hours.
		for i := range 50 {
			calls = append(calls, metering.Call{ConsumerID: other, KeyID: ko, Operation: "secretOp", Status: 503, Cost: 9,
				Latency: time.Second, RequestID: "o", At: now.Add(-time.Duration(i) * time.Minute)})
		}
		e.write(calls...)

		a := e.analytics(c, metering.Range24h, now)
		if len(a.Points) != 24 || !a.Points[23].Start.Equal(metering.Hour(now)) || !a.From.Equal(metering.Hour(now).Add(-23*time.Hour)) {
			t.Fatalf("24h points: %d, last %v", len(a.Points), a.Points[len(a.Points)-1].Start)
		}
		if got, want := a.Points[23].Status, (metering.StatusCounts{OK: 90, Server: 10}); got != want {
			t.Errorf("current hour %+v, want %+v", got, want)
		}
		if got, want := a.Points[18].Status, (metering.StatusCounts{OK: 1, Limited: 3}); got != want || a.Points[18].Units != 40 {
			t.Errorf("5 hours ago %+v units %d, want %+v units 40", got, a.Points[18].Units, want)
		}
		if want := (metering.StatusCounts{OK: 91, Limited: 3, Server: 10}); a.Total != want || a.Units != 140 {
			t.Errorf("24h total %+v units %d", a.Total, a.Units)
		}
		if len(a.UnitsPoints) != 24*60 || a.UnitsStep != time.Minute {
			t.Fatalf("24h units points %d step %v", len(a.UnitsPoints), a.UnitsStep)
		}
		m := a.UnitsPoints[int(five.Sub(a.From)/time.Minute)]
		if m.Units != 40 || m.Peak != 40 || m.Limited != 3 {
			t.Errorf("minute of the 429s %+v", m)
		}
		var units, limited int64
		for _, p := range a.UnitsPoints {
			units += p.Units
			limited += p.Limited
		}
		if units != 140 || limited != 3 {
			t.Errorf("24h minutes sum to %d units, %d limited", units, limited)
		}
		// Percentiles by nearest rank over latencies 1..100 ms: p50 = 50 ms, p95 = 95 ms, p99 = 99 ms,
		// each within the histogram's error.
		tr := a.Latency[0]
		if tr.Operation != "getTrending" || tr.Calls != 100 || len(a.Latency) != 2 {
			t.Fatalf("latency %+v", a.Latency)
		}
		for _, p := range []struct {
			got  time.Duration
			want time.Duration
		}{{tr.P50, 50 * time.Millisecond}, {tr.P95, 95 * time.Millisecond}, {tr.P99, 99 * time.Millisecond}} {
			if r := float64(p.got) / float64(p.want); r < 0.894 || r > 1.118 {
				t.Errorf("percentile %v, want %v within the histogram's error", p.got, p.want)
			}
		}

		a = e.analytics(c, metering.Range7d, now)
		if len(a.Points) != 7 || a.Points[6].Start.Format(time.DateOnly) != metering.Day(now) {
			t.Fatalf("7d points %d", len(a.Points))
		}
		if want := (metering.StatusCounts{OK: 91, Client: 1, Limited: 3, Server: 10}); a.Total != want || a.Units != 141 {
			t.Errorf("7d total %+v units %d", a.Total, a.Units)
		}
		if got := a.Points[4].Status; got != (metering.StatusCounts{Client: 1}) {
			t.Errorf("two days ago %+v", got)
		}
		if len(a.UnitsPoints) != 7*24 || a.UnitsStep != time.Hour {
			t.Fatalf("7d units points %d", len(a.UnitsPoints))
		}
		hp := a.UnitsPoints[int(metering.Hour(five).Sub(a.From)/time.Hour)]
		if hp.Units != 40 || hp.Peak != 40 || hp.Limited != 3 {
			t.Errorf("hour of the 429s %+v", hp)
		}
		if a.UnitsPoints[0].Peak != -1 {
			t.Errorf("an hour older than the minutes' retention has a peak %d", a.UnitsPoints[0].Peak)
		}

		a = e.analytics(c, metering.Range30d, now)
		if len(a.Points) != 30 || a.Total.Calls() != 106 || a.Units != 142 {
			t.Errorf("30d: %d points, %d calls, %d units", len(a.Points), a.Total.Calls(), a.Units)
		}
		if len(a.Latency) != 3 {
			t.Errorf("30d latency %+v", a.Latency)
		}
		for _, l := range a.Latency {
			if l.Operation == "secretOp" {
				t.Error("another consumer's operation shows")
			}
		}
		if _, err := e.us.Analytics(t.Context(), c, "1y", now); err == nil {
			t.Error("an unknown range was read")
		}
	})
}

// TestLatencyBuckets: buckets are contiguous and log-spaced, and a percentile read from a histogram
// is within +11.8% / -10.6% of the exact nearest-rank value between 0.1 ms and 60 s.
func TestLatencyBuckets(t *testing.T) {
	if metering.LatencyBucket(0) != 0 || metering.LatencyBucket(99*time.Microsecond) != 0 || metering.LatencyBucket(100*time.Microsecond) != 1 {
		t.Error("bucket 0 is not below 0.1 ms")
	}
	if b := metering.LatencyBucket(time.Hour); b != metering.LatencyBuckets-1 {
		t.Errorf("an hour falls in bucket %d", b)
	}
	if b := metering.LatencyBucket(60 * time.Second); b >= metering.LatencyBuckets-1 {
		t.Errorf("60 s falls in the open-ended bucket %d", b)
	}
	prevHi := time.Duration(0)
	for b := range metering.LatencyBuckets - 1 {
		lo, hi := metering.BucketRange(b)
		if lo != prevHi || hi <= lo {
			t.Fatalf("bucket %d is [%v, %v) after %v", b, lo, hi, prevHi)
		}
		if metering.LatencyBucket(lo) != b || metering.LatencyBucket(hi-time.Microsecond) != b {
			t.Errorf("bucket %d's bounds fall in %d and %d", b, metering.LatencyBucket(lo), metering.LatencyBucket(hi-time.Microsecond))
		}
		prevHi = hi
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 1 + rng.IntN(5000)
		lat := make([]time.Duration, n)
		hist := make([]int64, metering.LatencyBuckets)
		for i := range lat {
			// Log-uniform from 0.1 ms to 60 s.
			lat[i] = time.Duration(float64(100*time.Microsecond) * math.Pow(600_000, rng.Float64()))
			hist[metering.LatencyBucket(lat[i])]++
		}
		slices.Sort(lat)
		for _, q := range []float64{0.5, 0.95, 0.99} {
			rank := int(q*float64(n) + 0.999999999)
			exact := lat[max(rank, 1)-1]
			got := metering.Percentile(hist, q)
			if r := float64(got) / float64(exact); r < 0.894 || r > 1.1181 {
				t.Fatalf("p%v of %d calls: %v, exact %v (ratio %.3f)", q*100, n, got, exact, r)
			}
		}
	}
	if metering.Percentile(make([]int64, metering.LatencyBuckets), 0.5) != 0 {
		t.Error("an empty histogram has a percentile")
	}
}

// TestUsagePruneMinutesAndLatencies: Prune drops minute rollups older than 48 hours and latency
// histograms of hours before the retention, and keeps the rest.
func TestUsagePruneMinutesAndLatencies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		c := e.consumer("acme")
		k := e.key(c)
		now := day0
		at := []time.Time{now.Add(-metering.UsageRetention - 2*time.Hour), now.Add(-49 * time.Hour), now.Add(-47 * time.Hour), now.Add(-time.Minute)}
		for _, a := range at {
			e.write(metering.Call{ConsumerID: c, KeyID: k, Operation: "op", Status: 200, Cost: 1, Latency: time.Millisecond, RequestID: "r", At: a})
		}
		if _, err := e.us.Prune(t.Context(), now); err != nil {
			t.Fatal(err)
		}
		if got := e.minutes(c); len(got) != 2 || !got[0].Minute.Equal(at[2].Truncate(time.Minute)) {
			t.Errorf("minutes after prune %+v", got)
		}
		if got := e.histogram(c); len(got) != 3 {
			t.Errorf("latency rows after prune %v, want the 3 within the retention", got)
		}
	})
}

// TestUsageAnalyticsLatencyStaysLive: with the settled hours' sums kept, calls of the current and
// previous hours still show at once, and the settled hours' sums are those of the database.
func TestUsageAnalyticsLatencyStaysLive(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		c := e.consumer("acme")
		k := e.key(c)
		now := day0.Add(30 * time.Minute)
		call := func(at time.Time, lat time.Duration) metering.Call {
			return metering.Call{ConsumerID: c, KeyID: k, Operation: "op", Status: 200, Cost: 1, Latency: lat, RequestID: "r", At: at}
		}
		e.write(call(now.Add(-5*time.Hour), time.Millisecond), call(now.Add(-3*24*time.Hour), time.Millisecond))
		for _, rg := range metering.Ranges {
			e.analytics(c, rg, now)
		}
		e.write(call(now, time.Second), call(now.Add(-time.Hour), time.Second))
		for rg, want := range map[metering.Range]int64{metering.Range24h: 3, metering.Range7d: 4, metering.Range30d: 4} {
			a := e.analytics(c, rg, now)
			if len(a.Latency) != 1 || a.Latency[0].Calls != want || a.Total.Calls() != want {
				t.Fatalf("%s: latency %+v, %d calls; want %d", rg, a.Latency, a.Total.Calls(), want)
			}
			if r := float64(a.Latency[0].P99) / float64(time.Second); r < 0.89 || r > 1.12 {
				t.Errorf("%s: p99 %v, want about 1 s (the new calls)", rg, a.Latency[0].P99)
			}
		}
	})
}
