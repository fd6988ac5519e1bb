package metering

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/partner-platform/partnerd/ent/schema"
)

// Rollups are the increments a set of calls adds to the usage rollups: the daily rollups per key, UTC
// day and operation, the hourly rollups per consumer and UTC hour (with calls by status group), the
// units per consumer and UTC minute, the latency histograms per consumer, UTC hour and operation (in
// bands of latencyBandWidth buckets), and each key's last use. Their size depends on how many
// distinct (key, day, operation), (consumer, hour), (consumer, minute) and (consumer, hour,
// operation, latency band) the calls fall in, never on how many calls there are. The zero value
// is empty and ready to use; a Rollups is not safe for concurrent use.
type Rollups struct {
	daily     map[dailyKey]*Totals
	hourly    map[hourKey]*hourTotals
	minutes   map[hourKey]*minuteTotals // hour holds the start of the minute
	latencies map[latencyKey]*latencyBand
	lastUsed  map[int]*time.Time
	calls     int64
}

// entry returns m's value for k, adding a zero one first when there is none. Values are pointers so
// that counting a call into an entry already there is one map lookup, where reading, changing and
// storing a value takes two.
func entry[K comparable, V any](m map[K]*V, k K) *V {
	v := m[k]
	if v == nil {
		v = new(V)
		m[k] = v
	}
	return v
}

// keepLatest keeps the later of *last and at (a zero *last is unset).
func keepLatest(last *time.Time, at time.Time) {
	if last.IsZero() || at.After(*last) {
		*last = at
	}
}

// hourTotals are an hourly rollup's increments: totals and calls by status group.
type hourTotals struct {
	Totals
	groups StatusCounts
}

func (h *hourTotals) add(o hourTotals) {
	h.Totals.add(o.Totals)
	h.groups.add(o.groups)
}

// minuteTotals are a minute rollup's increments: calls, rate-limit units charged and calls refused
// 429 rate_limited.
type minuteTotals struct{ calls, cost, limited int64 }

// latencyKey names a band of a latency histogram: consumer, start of the UTC hour (Unix seconds),
// operation and band (buckets band x latencyBandWidth onwards).
type latencyKey struct {
	consumerID int
	hour       int64
	operation  string
	band       int
}

// latencyBandWidth is how many adjacent buckets a band of a latency histogram counts, in one row
// of usage_latency_bands.
const latencyBandWidth = schema.LatencyBandWidth

// latencyBand counts calls in each bucket of a band.
type latencyBand [latencyBandWidth]int64

func (b *latencyBand) add(o latencyBand) {
	for i, n := range o {
		b[i] += n
	}
}

// rateLimitedCode is the error code of a call the limiter refused (429).
const rateLimitedCode = "rate_limited"

// dailyKey names a daily rollup; day is the UTC day as days since the Unix epoch.
type dailyKey struct {
	consumerID, keyID int
	day               int64
	operation         string
}

// hourKey names an hourly rollup: the consumer and the start of the UTC hour in Unix seconds.
type hourKey struct {
	consumerID int
	hour       int64
}

const secondsPerDay = 24 * 60 * 60

// floorDiv is a/b rounded down (Unix times before 1970 stay in their day and hour).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// RollupsOf returns the rollup increments of calls.
func RollupsOf(calls []Call) *Rollups {
	r := &Rollups{}
	for _, c := range calls {
		r.Add(c)
	}
	return r
}

// Add counts c: one call, its cost, an error when its status is 400 or more, and its time as its
// key's last use.
func (r *Rollups) Add(c Call) {
	if r.daily == nil {
		r.daily = map[dailyKey]*Totals{}
		r.hourly = map[hourKey]*hourTotals{}
		r.minutes = map[hourKey]*minuteTotals{}
		r.latencies = map[latencyKey]*latencyBand{}
		r.lastUsed = map[int]*time.Time{}
	}
	t := Totals{Calls: 1, Cost: int64(c.Cost)}
	if c.Status >= 400 {
		t.Errors = 1
	}
	sec := c.At.Unix()
	entry(r.daily, dailyKey{c.ConsumerID, c.KeyID, floorDiv(sec, secondsPerDay), c.Operation}).add(t)
	hk := hourKey{c.ConsumerID, floorDiv(sec, 3600) * 3600}
	entry(r.hourly, hk).add(hourTotals{t, statusCountsOf(c.Status)})
	m := entry(r.minutes, hourKey{c.ConsumerID, floorDiv(sec, 60) * 60})
	m.calls++
	m.cost += int64(c.Cost)
	if c.Status == 429 && c.ErrorCode == rateLimitedCode {
		m.limited++
	}
	bucket := LatencyBucket(c.Latency)
	entry(r.latencies, latencyKey{c.ConsumerID, hk.hour, c.Operation, bucket / latencyBandWidth})[bucket%latencyBandWidth]++
	keepLatest(entry(r.lastUsed, c.KeyID), c.At)
	r.calls++
}

// Merge adds o's increments to r.
func (r *Rollups) Merge(o *Rollups) {
	if o == nil || o.calls == 0 {
		return
	}
	if r.daily == nil {
		*r = *o
		return
	}
	for k, t := range o.daily {
		entry(r.daily, k).add(*t)
	}
	for k, t := range o.hourly {
		entry(r.hourly, k).add(*t)
	}
	for k, t := range o.minutes {
		m := entry(r.minutes, k)
		m.calls, m.cost, m.limited = m.calls+t.calls, m.cost+t.cost, m.limited+t.limited
	}
	for k, n := range o.latencies {
		entry(r.latencies, k).add(*n)
	}
	for k, at := range o.lastUsed {
		keepLatest(entry(r.lastUsed, k), *at)
	}
	r.calls += o.calls
}

// Calls returns how many calls r counts.
func (r *Rollups) Calls() int64 {
	if r == nil {
		return 0
	}
	return r.calls
}

// Total returns the calls, cost and errors r counts.
func (r *Rollups) Total() Totals {
	var t Totals
	if r == nil {
		return t
	}
	for _, d := range r.daily {
		t.add(*d)
	}
	return t
}

// dailyRow is one daily rollup increment as written.
type dailyRow struct {
	consumerID, keyID int
	day, operation    string
	Totals
}

// hourlyRow is one hourly rollup increment as written.
type hourlyRow struct {
	consumerID int
	hour       time.Time
	hourTotals
}

// minuteRow is one minute rollup increment as written.
type minuteRow struct {
	consumerID int
	minute     time.Time
	minuteTotals
}

// latencyRow is one latency histogram band's increments as written.
type latencyRow struct {
	consumerID int
	hour       time.Time
	operation  string
	band       int
	calls      latencyBand
}

// keyUse is one key's latest call.
type keyUse struct {
	keyID int
	at    time.Time
}

// dailyRows returns the daily increments ordered by key, day and operation: the order every writer
// locks rollup rows in, so replicas writing at once for the same consumer wait for each other instead
// of deadlocking.
func (r *Rollups) dailyRows() []dailyRow {
	keys := slices.SortedFunc(maps.Keys(r.daily), func(a, b dailyKey) int {
		return cmp.Or(cmp.Compare(a.keyID, b.keyID), cmp.Compare(a.day, b.day), cmp.Compare(a.operation, b.operation))
	})
	out := make([]dailyRow, len(keys))
	for i, k := range keys {
		out[i] = dailyRow{k.consumerID, k.keyID, Day(time.Unix(k.day*secondsPerDay, 0)), k.operation, *r.daily[k]}
	}
	return out
}

// hourlyRows returns the hourly increments ordered by consumer and hour.
func (r *Rollups) hourlyRows() []hourlyRow {
	keys := slices.SortedFunc(maps.Keys(r.hourly), func(a, b hourKey) int {
		return cmp.Or(cmp.Compare(a.consumerID, b.consumerID), cmp.Compare(a.hour, b.hour))
	})
	out := make([]hourlyRow, len(keys))
	for i, k := range keys {
		out[i] = hourlyRow{k.consumerID, time.Unix(k.hour, 0).UTC(), *r.hourly[k]}
	}
	return out
}

// keyUses returns each key's latest call, ordered by key.
func (r *Rollups) keyUses() []keyUse {
	out := make([]keyUse, 0, len(r.lastUsed))
	for _, id := range slices.Sorted(maps.Keys(r.lastUsed)) {
		out = append(out, keyUse{id, *r.lastUsed[id]})
	}
	return out
}

// minuteRows returns the minute increments ordered by consumer and minute.
func (r *Rollups) minuteRows() []minuteRow {
	keys := slices.SortedFunc(maps.Keys(r.minutes), func(a, b hourKey) int {
		return cmp.Or(cmp.Compare(a.consumerID, b.consumerID), cmp.Compare(a.hour, b.hour))
	})
	out := make([]minuteRow, len(keys))
	for i, k := range keys {
		out[i] = minuteRow{k.consumerID, time.Unix(k.hour, 0).UTC(), *r.minutes[k]}
	}
	return out
}

// latencyRows returns the latency histogram increments ordered by consumer, hour, operation and
// band (the unique index's order).
func (r *Rollups) latencyRows() []latencyRow {
	keys := slices.SortedFunc(maps.Keys(r.latencies), func(a, b latencyKey) int {
		return cmp.Or(cmp.Compare(a.consumerID, b.consumerID), cmp.Compare(a.hour, b.hour),
			cmp.Compare(a.operation, b.operation), cmp.Compare(a.band, b.band))
	})
	out := make([]latencyRow, len(keys))
	for i, k := range keys {
		out[i] = latencyRow{k.consumerID, time.Unix(k.hour, 0).UTC(), k.operation, k.band, *r.latencies[k]}
	}
	return out
}
