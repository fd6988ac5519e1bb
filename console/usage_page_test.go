package console

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// analyticsFixture: consumer Acme (keys k1, k2; rate 60 a minute, burst 100) with calls of every
// status group over the last 31 days, the last hours and one minute of 429s, recorded through
// metering's usage store; consumer Bobco with calls of its own in the same hours.
type analyticsFixture struct {
	h          *harness
	a, b       access.Consumer
	k1, k2, kb access.IssuedKey
	calls      []metering.Call
	burst429   time.Time // the minute of Acme's 429s
}

func newAnalyticsFixture(t *testing.T, open func(testing.TB) *store.Store) *analyticsFixture {
	h := newHarness(t, withStore(open), withStart(fixedStart))
	f := &analyticsFixture{h: h, a: h.consumer("Acme"), b: h.consumer("Bobco")}
	rate, burst := 60, 100
	if _, err := h.acc.UpdateConsumer(context.Background(), operatorActor, f.a.ID,
		access.ConsumerChange{RatePerMinute: &rate, Burst: &burst}, "test plan"); err != nil {
		t.Fatal(err)
	}
	f.k1, f.k2 = h.key(f.a.ID, "acme one"), h.key(f.a.ID, "acme two")
	f.kb = h.key(f.b.ID, "bobco key")
	h.consumerUser(f.a.ID, "alice@a.example", password)
	h.consumerUser(f.b.ID, "bob@b.example", password)
	h.operatorUser("ops@example.com", password)
	now := h.clock.Now() // 2025-06-15 12:30
	n := 0
	add := func(k access.IssuedKey, op string, status int, code string, cost int, lat time.Duration, at time.Time) {
		n++
		f.calls = append(f.calls, metering.Call{ConsumerID: consumerOf(f, k), KeyID: k.ID, Operation: op, Status: status,
			ErrorCode: code, Cost: cost, Latency: lat, RequestID: fmt.Sprintf("req-%05d", n), At: at})
	}
	// One call every 3 hours over 31 days, of every status group in turn, on both keys.
	statuses := []int{200, 200, 200, 404, 500, 201}
	for i := range 31 * 8 {
		at := now.Add(-time.Duration(i)*3*time.Hour - 7*time.Minute)
		st := statuses[i%len(statuses)]
		k := f.k1
		if i%2 == 1 {
			k = f.k2
		}
		code := ""
		if st >= 400 {
			code = "some_error"
		}
		add(k, "getTrending", st, code, 1, time.Duration(1+i%20)*time.Millisecond, at)
	}
	// A busy minute 4 hours ago: 3 batch calls of 3 owners (30 units each), then five 429s.
	f.burst429 = now.Add(-4 * time.Hour).Truncate(time.Minute)
	for i := range 3 {
		add(f.k1, "getHoldingsBatch", 200, "", 30, 40*time.Millisecond, f.burst429.Add(time.Duration(i)*time.Second))
	}
	for i := range 5 {
		add(f.k1, "getHoldingsBatch", 429, "rate_limited", 0, 200*time.Microsecond, f.burst429.Add(time.Duration(10+i)*time.Second))
	}
	for i := range 40 {
		f.calls = append(f.calls, metering.Call{ConsumerID: f.b.ID, KeyID: f.kb.ID, Operation: "getBobSecret", Status: 503,
			Cost: 7777, Latency: time.Second, RequestID: fmt.Sprintf("bob-%d", i), At: now.Add(-time.Duration(i) * time.Hour)})
	}
	h.writeCalls(f.calls...)
	return f
}

// consumerOf is the consumer of a fixture key.
func consumerOf(f *analyticsFixture, k access.IssuedKey) int {
	if k.ID == f.kb.ID {
		return f.b.ID
	}
	return f.a.ID
}

// want is what a range of the page should show, summed here from the fixture's calls.
type wantRange struct {
	points       []metering.UsagePoint
	total        metering.StatusCounts
	units        int64
	latency      map[string][]time.Duration // operation: latencies
	unitsByHour  map[time.Time]int64        // 24 hours: units per hour
	peakByHour   map[time.Time]int64
	limitedTotal int64
}

func (f *analyticsFixture) want(rg metering.Range) wantRange {
	now := f.h.clock.Now()
	var from, until time.Time
	var step time.Duration
	if rg == metering.Range24h {
		from, until, step = metering.Hour(now).Add(-23*time.Hour), metering.Hour(now).Add(time.Hour), time.Hour
	} else {
		y, m, d := now.Date()
		from, until, step = time.Date(y, m, d-(rg.Days()-1), 0, 0, 0, 0, time.UTC), time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC), 24*time.Hour
	}
	w := wantRange{latency: map[string][]time.Duration{}, unitsByHour: map[time.Time]int64{}, peakByHour: map[time.Time]int64{}}
	for t := from; t.Before(until); t = t.Add(step) {
		w.points = append(w.points, metering.UsagePoint{Start: t})
	}
	perMinute := map[time.Time]int64{}
	for _, c := range f.calls {
		if c.ConsumerID != f.a.ID || c.At.Before(from) || !c.At.Before(until) {
			continue
		}
		var s metering.StatusCounts
		switch {
		case c.Status == 429:
			s.Limited = 1
		case c.Status >= 500:
			s.Server = 1
		case c.Status >= 400:
			s.Client = 1
		default:
			s.OK = 1
		}
		p := &w.points[int(c.At.Sub(from)/step)]
		p.Status = addCounts(p.Status, s)
		p.Units += int64(c.Cost)
		w.total = addCounts(w.total, s)
		w.units += int64(c.Cost)
		w.latency[c.Operation] = append(w.latency[c.Operation], c.Latency)
		w.unitsByHour[metering.Hour(c.At)] += int64(c.Cost)
		perMinute[c.At.Truncate(time.Minute)] += int64(c.Cost)
		if c.Status == 429 {
			w.limitedTotal++
		}
	}
	for m, u := range perMinute {
		w.peakByHour[metering.Hour(m)] = max(w.peakByHour[metering.Hour(m)], u)
	}
	return w
}

func addCounts(a, b metering.StatusCounts) metering.StatusCounts {
	return metering.StatusCounts{OK: a.OK + b.OK, Client: a.Client + b.Client, Limited: a.Limited + b.Limited, Server: a.Server + b.Server}
}

// checkRange checks a usage page of Acme in a range against the fixture's calls.
func checkRange(t *testing.T, f *analyticsFixture, body string, rg metering.Range) {
	t.Helper()
	w := f.want(rg)
	c := cards(body)
	if c["Calls"] != num(w.total.Calls()) || c["Units"] != num(w.units) || c["Errors"] != num(w.total.Errors()) ||
		c["Error rate"] != percent(w.total.ErrorRate()) {
		t.Errorf("%s cards %q, want calls %d units %d errors %d rate %s", rg, c, w.total.Calls(), w.units, w.total.Errors(), percent(w.total.ErrorRate()))
	}
	if w.total.Calls() == 0 || w.total.Limited == 0 && rg == metering.Range24h {
		t.Fatalf("%s: the fixture has no calls to show", rg)
	}
	wantContains(t, body, `<a href="/console/usage?range=`+string(rg)+`" aria-current="page">`)
	// The status chart: one bar per point, each with its figures, and the table behind it.
	status := sectionOf(body, "Calls by status")
	if n := strings.Count(status, `<g><title>`); n != len(w.points) {
		t.Errorf("%s: %d bars, want %d", rg, n, len(w.points))
	}
	wantContains(t, status, `role="img"`, `<title id="status-title">`, `<desc id="status-desc">`)
	table := map[string][]string{}
	for _, r := range rows(sectionOf(body, "Error rate")) {
		if len(r) == 8 && !strings.HasSuffix(r[0], "(UTC)") {
			table[r[0]] = r
		}
	}
	if len(table) != len(w.points) {
		t.Errorf("%s: %d rows in the status table, want %d", rg, len(table), len(w.points))
	}
	for _, p := range w.points {
		label := p.Start.Format(time.DateOnly)
		if rg == metering.Range24h {
			label = p.Start.Format("2006-01-02 15:04")
		}
		want := []string{label, num(p.Status.OK), num(p.Status.Client), num(p.Status.Limited), num(p.Status.Server),
			num(p.Status.Calls()), percent(p.Status.ErrorRate()), num(p.Units)}
		if !reflect.DeepEqual(table[label], want) {
			t.Errorf("%s: row %q, want %q", rg, table[label], want)
		}
		if p.Status.Calls() > 0 && !strings.Contains(status, fmt.Sprintf("%s calls (%s 2xx, %s 4xx, %s 429, %s 5xx)",
			num(p.Status.Calls()), num(p.Status.OK), num(p.Status.Client), num(p.Status.Limited), num(p.Status.Server))) {
			t.Errorf("%s: no bar titled with %s's figures", rg, label)
		}
	}
	// Percentiles per operation: calls exact, p50/p95/p99 within the histograms' error.
	lat := sectionOf(body, "Latency by operation")
	for op, ls := range w.latency {
		r := rowWith(t, lat, op)
		slices.Sort(ls)
		if r[1] != num(int64(len(ls))) {
			t.Errorf("%s: %s calls %q, want %d", rg, op, r[1], len(ls))
		}
		for i, q := range []float64{0.50, 0.95, 0.99} {
			rank := int(q*float64(len(ls)) + 0.999999)
			exact := ls[max(rank, 1)-1]
			got := parseMs(t, r[2+i])
			if ratio := float64(got) / float64(exact); ratio < 0.89 || ratio > 1.12 {
				t.Errorf("%s: %s p%v %s, exact %v", rg, op, q*100, r[2+i], exact)
			}
		}
	}
	// Units: the chart's lines and 429 markers, and the table behind it.
	units := sectionOf(body, "Units per minute")
	wantContains(t, units, "rate 60/min", "burst 100", `<title id="units-title">`, "10 units per distinct owner")
	if rg == metering.Range24h {
		r := rowWith(t, units, metering.Hour(f.burst429).Format("2006-01-02 15:04"))
		want := []string{r[0], num(w.unitsByHour[metering.Hour(f.burst429)]), num(w.peakByHour[metering.Hour(f.burst429)]), "5"}
		if !reflect.DeepEqual(r, want) || w.peakByHour[metering.Hour(f.burst429)] != 90 {
			t.Errorf("units row %q, want %q", r, want)
		}
		if strings.Count(units, `<path class="u-mark"`) != 1 {
			t.Errorf("24h: %d 429 markers, want 1 (one minute)", strings.Count(units, `<path class="u-mark"`))
		}
		wantContains(t, units, "5 refused with 429 in this minute, 90 units")
	} else {
		r := rowWith(t, units, metering.Day(f.burst429))
		if r[4] != "5" || r[3] != "90" {
			t.Errorf("%s: units row of the 429s' day %q", rg, r)
		}
		wantContains(t, units, "5 refused with 429 in this hour")
	}
}

// sectionOf is the part of body from the heading (with an id) to the next <h2>.
func sectionOf(body, heading string) string {
	i := strings.Index(body, heading+"</h2>")
	if i < 0 {
		return ""
	}
	rest := body[i:]
	if j := strings.Index(rest[1:], "<h2"); j >= 0 {
		return rest[:j+1]
	}
	return rest
}

// parseMs reads a latency as the page writes it.
func parseMs(t *testing.T, s string) time.Duration {
	t.Helper()
	for _, u := range []struct {
		suffix string
		unit   time.Duration
	}{{" µs", time.Microsecond}, {" ms", time.Millisecond}, {" s", time.Second}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("latency %q", s)
			}
			return time.Duration(x * float64(u.unit))
		}
	}
	t.Fatalf("latency %q", s)
	return 0
}

func TestUsageAnalyticsRanges(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		f := newAnalyticsFixture(t, open)
		alice := f.h.signedIn("alice@a.example", password)
		bob := f.h.signedIn("bob@b.example", password)
		ops := f.h.signedIn("ops@example.com", password)
		for _, rg := range metering.Ranges {
			t.Run(string(rg), func(t *testing.T) {
				r := alice.get("/console/usage?range=" + string(rg))
				wantStatus(t, r, http.StatusOK)
				checkRange(t, f, r.body, rg)
				wantNotContains(t, r.body, "getBobSecret", "7,777", "bobco key", f.kb.Prefix)
				wantContains(t, r.body, `<a href="/console/log">request log</a>`)

				// The operator's view of Acme shows the same figures.
				o := ops.get(consumerPath(f.a.ID) + "/usage?range=" + string(rg))
				wantStatus(t, o, http.StatusOK)
				if cards(o.body)["Calls"] != cards(r.body)["Calls"] || cards(o.body)["Units"] != cards(r.body)["Units"] {
					t.Errorf("operator cards %q, consumer cards %q", cards(o.body), cards(r.body))
				}
				wantNotContains(t, o.body, "getBobSecret")
				wantContains(t, o.body, `<a href="`+consumerPath(f.a.ID)+`/log">request log</a>`)

				// Bob sees only his own calls.
				b := bob.get("/console/usage?range=" + string(rg))
				wantStatus(t, b, http.StatusOK)
				wantNotContains(t, b.body, "getTrending", "getHoldingsBatch", "acme one", f.k1.Prefix, f.k2.Prefix)
				wantContains(t, b.body, "getBobSecret")
			})
		}
		// The plan page says its rate and burst are units, apart from the price.
		wantContains(t, alice.get("/console/plan").body, "counted in rate-limit units", "it is not counted in units")
		// The default range is 30 days.
		if d := alice.get("/console/usage"); cards(d.body)["Calls"] != num(f.want(metering.Range30d).total.Calls()) {
			t.Errorf("default range cards %q", cards(d.body))
		}
	})
}

func TestUsageKeyFilterByRange(t *testing.T) {
	f := newAnalyticsFixture(t, storetest.SQLite)
	alice := f.h.signedIn("alice@a.example", password)
	bob := f.h.signedIn("bob@b.example", password)
	for _, rg := range []metering.Range{metering.Range7d, metering.Range30d} {
		r := alice.get("/console/usage?range=" + string(rg) + "&key=" + strconv.Itoa(f.k2.ID))
		wantStatus(t, r, http.StatusOK)
		var calls, units, errs int64
		first := f.want(rg).points[0].Start
		for _, c := range f.calls {
			if c.KeyID == f.k2.ID && !c.At.Before(first) {
				calls, units = calls+1, units+int64(c.Cost)
				if c.Status >= 400 {
					errs++
				}
			}
		}
		if c := cards(r.body); c["Calls"] != num(calls) || c["Units"] != num(units) || c["Errors"] != num(errs) {
			t.Errorf("%s key filter cards %q, want %d %d %d", rg, c, calls, units, errs)
		}
		if n := len(rows(sectionOf(r.body, rangeName(rg)))) - 1; n != rg.Days() {
			t.Errorf("%s key filter: %d daily rows", rg, n)
		}
		wantContains(t, r.body, `<option value="`+strconv.Itoa(f.k2.ID)+`" selected>`)
		wantStatus(t, bob.get("/console/usage?range="+string(rg)+"&key="+strconv.Itoa(f.k2.ID)), http.StatusNotFound)
	}
	for path, status := range map[string]int{
		"/console/usage?range=1y":                               http.StatusBadRequest,
		"/console/usage?range=24h&key=" + strconv.Itoa(f.k1.ID): http.StatusBadRequest,
		"/console/usage?range=7d&key=abc":                       http.StatusNotFound,
		"/console/usage.csv?range=24h":                          http.StatusBadRequest,
		"/console/usage.csv?key=" + strconv.Itoa(f.kb.ID):       http.StatusNotFound,
	} {
		r := alice.get(path)
		wantStatus(t, r, status)
		wantContains(t, r.body, "<h1>")
	}
}

func TestUsageCSV(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		f := newAnalyticsFixture(t, open)
		h := f.h
		// A key whose name a spreadsheet would read as a formula, with a comma and a quote.
		odd := h.key(f.a.ID, `=HYPERLINK("x"), y`)
		at := h.clock.Now().Add(-time.Hour)
		h.writeCalls(metering.Call{ConsumerID: f.a.ID, KeyID: odd.ID, Operation: "getPool", Status: 200, Cost: 1, RequestID: "odd", At: at})
		alice := h.signedIn("alice@a.example", password)
		ops := h.signedIn("ops@example.com", password)
		bob := h.signedIn("bob@b.example", password)

		r := alice.get("/console/usage.csv?range=7d")
		wantStatus(t, r, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
		if cd := r.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="usage-`) {
			t.Errorf("Content-Disposition %q", cd)
		}
		recs, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(recs[0], []string{"day", "key", "operation", "calls", "units", "errors"}) {
			t.Fatalf("header %q", recs[0])
		}
		// Expected rows from the calls: (day, key, operation) sums of the last 7 days.
		first := f.want(metering.Range7d).points[0].Start
		type k3 struct{ day, key, op string }
		want := map[k3][3]int64{}
		name := map[int]string{f.k1.ID: f.k1.Name + " (" + f.k1.Prefix + "…)", f.k2.ID: f.k2.Name + " (" + f.k2.Prefix + "…)",
			odd.ID: `'=HYPERLINK("x"), y (` + odd.Prefix + "…)"}
		for _, c := range append(slices.Clone(f.calls), metering.Call{ConsumerID: f.a.ID, KeyID: odd.ID, Operation: "getPool", Status: 200, Cost: 1, At: at}) {
			if c.ConsumerID != f.a.ID || c.At.Before(first) {
				continue
			}
			k := k3{metering.Day(c.At), name[c.KeyID], c.Operation}
			v := want[k]
			v[0]++
			v[1] += int64(c.Cost)
			if c.Status >= 400 {
				v[2]++
			}
			want[k] = v
		}
		got := map[k3][3]int64{}
		for _, rec := range recs[1:] {
			var v [3]int64
			for i := range v {
				v[i], _ = strconv.ParseInt(rec[3+i], 10, 64)
			}
			got[k3{rec[0], rec[1], rec[2]}] = v
		}
		if !reflect.DeepEqual(got, want) || len(recs)-1 != len(want) {
			t.Errorf("CSV rows:\n got %v\nwant %v", got, want)
		}
		wantContains(t, r.body, `"'=HYPERLINK(""x""), y (`+odd.Prefix+`…)"`)
		wantNotContains(t, r.body, "getBobSecret", "bobco")

		// One key; the operator's export of the consumer; Bob's own export.
		one := alice.get("/console/usage.csv?key=" + strconv.Itoa(f.k1.ID))
		wantContains(t, one.body, f.k1.Prefix)
		wantNotContains(t, one.body, f.k2.Prefix, odd.Prefix)
		op := ops.get(consumerPath(f.a.ID) + "/usage.csv?range=7d")
		wantStatus(t, op, http.StatusOK)
		if op.body != r.body {
			t.Error("the operator's export differs from the consumer's")
		}
		b := bob.get("/console/usage.csv")
		wantContains(t, b.body, "getBobSecret")
		wantNotContains(t, b.body, "getTrending", "acme")
		wantStatus(t, bob.get("/console/usage.csv?key="+strconv.Itoa(f.k1.ID)), http.StatusNotFound)
		wantStatus(t, ops.get(consumerPath(999999)+"/usage.csv"), http.StatusNotFound)
	})
}
