package metering

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/ent/usagehourly"
	"github.com/partner-platform/partnerd/ent/usagelatencyband"
	"github.com/partner-platform/partnerd/ent/usageminute"
)

// Range is a usage analytics view: the last 24 hours by hour, or the last 7 or 30 UTC days by day.
type Range string

// The ranges of the usage pages.
const (
	Range24h Range = "24h"
	Range7d  Range = "7d"
	Range30d Range = "30d"
)

// Ranges are the analytics ranges in the order pages offer them.
var Ranges = []Range{Range24h, Range7d, Range30d}

// ErrInvalidRange is returned, wrapped, by Analytics for a range other than Ranges.
var ErrInvalidRange = errors.New("invalid usage range")

// Days is how many UTC days a daily range covers (0 for the 24-hour view).
func (r Range) Days() int {
	switch r {
	case Range7d:
		return 7
	case Range30d:
		return 30
	}
	return 0
}

// Valid reports whether r is one of Ranges.
func (r Range) Valid() bool { return slices.Contains(Ranges, r) }

// UsagePoint is one bar of the calls chart: the calls by status group and the rate-limit units
// charged in one hour (24-hour view) or one UTC day (7 and 30 days).
type UsagePoint struct {
	Start  time.Time
	Status StatusCounts
	Units  int64
}

// LatencyStats are an operation's latency percentiles over a range, read from its histograms
// (BucketEstimate: within +11.8% / -10.6% of the true value).
type LatencyStats struct {
	Operation     string
	Calls         int64
	P50, P95, P99 time.Duration
}

// UnitsPoint is one point of the units chart: in the 24-hour view a UTC minute's units (Peak) and
// the calls the limiter refused in it (Limited); in the 7 and 30-day views an hour, with its average
// units per minute (Units / 60), its busiest minute when the minute rollups still hold the hour
// (Peak; -1 when they no longer do), and its 429s.
type UnitsPoint struct {
	Start   time.Time
	Units   int64 // units charged in the point's span
	Peak    int64 // the busiest minute's units; -1 when unknown (minutes are kept MinuteRetention)
	Limited int64 // calls answered 429
}

// Analytics is a consumer's usage over a range, read from the hourly, minute and latency rollups
// only, never from raw calls.
type Analytics struct {
	Range       Range
	From, Until time.Time     // the range: [From, Until)
	Step        time.Duration // of Points: an hour or a day
	Points      []UsagePoint  // oldest first, zero-filled
	Total       StatusCounts
	Units       int64
	Latency     []LatencyStats // operations with calls, most calls first (ties by name)
	UnitsStep   time.Duration  // of UnitsPoints: a minute (24 hours) or an hour (7 and 30 days)
	UnitsPoints []UnitsPoint   // oldest first, zero-filled
}

// ErrorRate is the share of calls answered with a status of 400 or more (0 without calls).
func (c StatusCounts) ErrorRate() float64 {
	if c.Calls() == 0 {
		return 0
	}
	return float64(c.Errors()) / float64(c.Calls())
}

// window returns the range's bounds and point step at now: the current UTC hour and the 23 before
// it, or the UTC days ending today.
func (r Range) window(now time.Time) (from, until time.Time, step time.Duration) {
	if r == Range24h {
		h := Hour(now)
		return h.Add(-23 * time.Hour), h.Add(time.Hour), time.Hour
	}
	y, m, d := now.UTC().Date()
	return time.Date(y, m, d-(r.Days()-1), 0, 0, 0, 0, time.UTC), time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC), 24 * time.Hour
}

// Analytics returns the consumer's usage over the range at now: calls by status group and units
// per hour (24 hours) or per UTC day, latency percentiles per operation, and units per minute (24
// hours) or per hour. It reads at most 720 hourly rows, 2,880 minute rows and one summed row per
// operation and latency bucket; every row read is filtered by consumerID.
func (s *UsageStore) Analytics(ctx context.Context, consumerID int, rng Range, now time.Time) (Analytics, error) {
	if !rng.Valid() {
		return Analytics{}, fmt.Errorf("usage analytics: %w: %q", ErrInvalidRange, rng)
	}
	from, until, step := rng.window(now)
	a := Analytics{Range: rng, From: from, Until: until, Step: step, UnitsStep: time.Hour}
	if rng == Range24h {
		a.UnitsStep = time.Minute
	}
	n := int(until.Sub(from) / step)
	a.Points = make([]UsagePoint, n)
	for i := range a.Points {
		a.Points[i].Start = from.Add(time.Duration(i) * step)
	}
	a.UnitsPoints = make([]UnitsPoint, int(until.Sub(from)/a.UnitsStep))
	for i := range a.UnitsPoints {
		a.UnitsPoints[i] = UnitsPoint{Start: from.Add(time.Duration(i) * a.UnitsStep), Peak: -1}
	}

	hours, err := s.db.UsageHourly.Query().
		Where(usagehourly.ConsumerID(consumerID), usagehourly.HourGTE(from), usagehourly.HourLT(until)).
		All(ctx)
	if err != nil {
		return Analytics{}, fmt.Errorf("usage analytics: %w", err)
	}
	for _, h := range hours {
		c := StatusCounts{OK: h.Calls2xx, Client: h.Calls4xx, Limited: h.Calls429, Server: h.Calls5xx}
		p := &a.Points[int(h.Hour.Sub(from)/step)]
		p.Status.add(c)
		p.Units += h.Cost
		a.Total.add(c)
		a.Units += h.Cost
		if rng != Range24h {
			u := &a.UnitsPoints[int(h.Hour.Sub(from)/time.Hour)]
			u.Units += h.Cost
			u.Limited += h.Calls429
		}
	}

	// Minutes: the 24-hour view's points, or the busiest minute of the hours still kept.
	mins, err := s.db.UsageMinute.Query().
		Where(usageminute.ConsumerID(consumerID), usageminute.MinuteGTE(later(from, Hour(now).Add(-MinuteRetention))), usageminute.MinuteLT(until)).
		All(ctx)
	if err != nil {
		return Analytics{}, fmt.Errorf("usage analytics: %w", err)
	}
	if rng != Range24h {
		// Hours wholly inside the minutes' retention have a known peak (0 when idle).
		kept := Hour(now).Add(-MinuteRetention).Add(time.Hour)
		for i := range a.UnitsPoints {
			if !a.UnitsPoints[i].Start.Before(kept) {
				a.UnitsPoints[i].Peak = 0
			}
		}
	} else {
		for i := range a.UnitsPoints {
			a.UnitsPoints[i].Peak = 0
		}
	}
	for _, m := range mins {
		u := &a.UnitsPoints[int(m.Minute.Sub(from)/a.UnitsStep)]
		if rng == Range24h {
			u.Units, u.Peak, u.Limited = m.Cost, m.Cost, m.Limited
		} else if u.Peak >= 0 {
			u.Peak = max(u.Peak, m.Cost)
		}
	}

	if a.Latency, err = s.latencies(ctx, consumerID, from, until, now); err != nil {
		return Analytics{}, fmt.Errorf("usage analytics: %w", err)
	}
	return a, nil
}

// latencies sums the consumer's latency histograms per operation and bucket over [from, until) in
// the database and reads the percentiles from the sums.
//
// The hours before the previous one are settled: their sums are kept (latencyCache) for
// latencyCacheTTL, so a page read again reads only the current and previous hours' rows; the
// 30-day sum reads every hour's rows of every operation once (90,000 rows for a consumer with calls
// to 30 operations around the clock).
func (s *UsageStore) latencies(ctx context.Context, consumerID int, from, until, now time.Time) ([]LatencyStats, error) {
	settled := Hour(now).Add(-time.Hour)
	hists := map[string][]int64{}
	if settled.After(from) && settled.Before(until) {
		key := latencyCacheKey{consumerID, from.Unix(), settled.Unix()}
		past, ok := s.latCache.get(key)
		if !ok {
			var err error
			if past, err = s.sumLatencies(ctx, consumerID, from, settled); err != nil {
				return nil, err
			}
			s.latCache.put(key, past)
		}
		addHists(hists, past)
		from = settled
	}
	live, err := s.sumLatencies(ctx, consumerID, from, until)
	if err != nil {
		return nil, err
	}
	addHists(hists, live)
	out := make([]LatencyStats, 0, len(hists))
	for op, h := range hists {
		st := LatencyStats{Operation: op}
		for _, n := range h {
			st.Calls += n
		}
		st.P50, st.P95, st.P99 = Percentile(h, 0.50), Percentile(h, 0.95), Percentile(h, 0.99)
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b LatencyStats) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Operation, b.Operation))
	})
	return out, nil
}

// Percentile reads the q-quantile (0 < q <= 1) from a histogram of LatencyBuckets counts by
// nearest rank: the estimate (BucketEstimate) of the bucket holding the ceil(q x calls)-th fastest
// call. It is 0 for an empty histogram.
func Percentile(hist []int64, q float64) time.Duration {
	var total int64
	for _, n := range hist {
		total += n
	}
	if total == 0 {
		return 0
	}
	rank := int64(q * float64(total))
	if float64(rank) < q*float64(total) {
		rank++
	}
	rank = max(rank, 1)
	var seen int64
	for b, n := range hist {
		seen += n
		if seen >= rank {
			return BucketEstimate(b)
		}
	}
	return BucketEstimate(len(hist) - 1)
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// sumLatencies sums the consumer's latency histograms over [from, until) per operation.
func (s *UsageStore) sumLatencies(ctx context.Context, consumerID int, from, until time.Time) (map[string][]int64, error) {
	t := sql.Dialect(s.dialect).Table(usagelatencyband.Table)
	sel := sql.Dialect(s.dialect).Select(t.C(usagelatencyband.FieldOperation), t.C(usagelatencyband.FieldBand)).From(t)
	cols := make([]string, len(latencyBandColumns))
	for i, c := range latencyBandColumns {
		cols[i] = t.C(c)
	}
	sel.AppendSelectExpr(sums(cols...)...)
	sel.Where(sql.And(
		sql.EQ(t.C(usagelatencyband.FieldConsumerID), consumerID),
		sql.GTE(t.C(usagelatencyband.FieldHour), from),
		sql.LT(t.C(usagelatencyband.FieldHour), until),
	)).GroupBy(t.C(usagelatencyband.FieldOperation), t.C(usagelatencyband.FieldBand))
	query, args := sel.Query()
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	hists := map[string][]int64{}
	for rows.Next() {
		var (
			op    string
			band  int
			calls latencyBand
		)
		dest := []any{&op, &band}
		for i := range calls {
			dest = append(dest, &calls[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		h := hists[op]
		if h == nil {
			h = make([]int64, LatencyBuckets)
			hists[op] = h
		}
		for i, n := range calls {
			h[min(max(band*latencyBandWidth+i, 0), LatencyBuckets-1)] += n
		}
	}
	return hists, rows.Err()
}

// addHists adds histograms to dst, copying (the cache's histograms are never changed).
func addHists(dst, src map[string][]int64) {
	for op, h := range src {
		d := dst[op]
		if d == nil {
			d = make([]int64, LatencyBuckets)
			dst[op] = d
		}
		for i, n := range h {
			d[i] += n
		}
	}
}

// Latency cache bounds: how long settled sums are kept, and how many.
const (
	latencyCacheTTL  = 5 * time.Minute
	latencyCacheSize = 1_000
)

// latencyCacheKey names a sum: the consumer and its hours [from, until) in Unix seconds.
type latencyCacheKey struct {
	consumerID  int
	from, until int64
}

type latencyCacheEntry struct {
	hists map[string][]int64
	at    time.Time
}

// latencyCache keeps the latency sums of settled hours for latencyCacheTTL: a call written late
// (the usage recorder retrying while the store was down) into an hour before the previous one shows
// in the percentiles within that time. Safe for concurrent use; the zero value is ready.
type latencyCache struct {
	mu sync.Mutex
	m  map[latencyCacheKey]latencyCacheEntry
}

func (c *latencyCache) get(k latencyCacheKey) (map[string][]int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || time.Since(e.at) > latencyCacheTTL {
		return nil, false
	}
	return e.hists, true
}

func (c *latencyCache) put(k latencyCacheKey, hists map[string][]int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= latencyCacheSize {
		c.m = map[latencyCacheKey]latencyCacheEntry{}
	}
	for old, e := range c.m {
		if old.consumerID == k.consumerID && old.until < k.until || time.Since(e.at) > latencyCacheTTL {
			delete(c.m, old)
		}
	}
	c.m[k] = latencyCacheEntry{hists: hists, at: time.Now()}
}
