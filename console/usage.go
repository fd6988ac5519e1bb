package console

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// defaultRange is the usage page's range when the URL names none: the 30 days the page has always
// shown.
const defaultRange = metering.Range30d

// recentCalls is how many raw calls the recent-calls log shows.
const recentCalls = 50

// usageView is everything a usage page shows: read from rollups, except the recent-calls log,
// which reads the newest raw calls through an index.
type usageView struct {
	Base      string // the page's path, for filter links
	Whose     string // "your" for consumers, "this consumer's" for operators
	Range     metering.Range
	Consumer  access.Consumer // the plan's rate and burst
	Keys      []access.KeyInfo
	KeyNames  map[int]string
	KeyID     int    // 0: all keys
	RequestID string // recent-calls search

	// All keys: the analytics from the hourly, minute and latency rollups.
	Analytics metering.Analytics
	Status    statusChart
	Errors    lineChart
	Units     unitsChart
	UnitRows  []unitsRow

	// Daily rollups, 7 and 30 days: per key and operation, or everything of one key.
	Report metering.Report
	Recent []metering.RecentCall
}

// unitsRow is a row of the table behind the units chart: an hour (24 hours) or a day.
type unitsRow struct {
	Name        string
	Units       int64
	BusiestHour int64  // days: the busiest hour's average units per minute (rounded up)
	Peak        string // the busiest minute's units, or "not kept" past the minutes' retention
	Limited     int64
}

// usageFor reads a consumer's usage for the page at base, for the request's range, key and
// request-id parameters. An unknown range, or a key filter on the 24-hour view (keys are counted per
// UTC day), is a bad request (400); a key id that is not the consumer's is no such page (404).
func (c *Console) usageFor(w http.ResponseWriter, r *http.Request, a access.Actor, consumerID int, base string) (usageView, bool) {
	ctx := r.Context()
	q := r.URL.Query()
	u := usageView{Base: base, Whose: "your", Range: metering.Range(q.Get("range")), KeyNames: map[int]string{}, RequestID: q.Get("requestId")}
	if a.ConsumerID == 0 {
		u.Whose = "this consumer's"
	}
	if u.Range == "" {
		u.Range = defaultRange
	}
	if !u.Range.Valid() {
		c.render(w, r, http.StatusBadRequest, errorPage(c.page(r, "Unknown range"),
			"Usage is shown for the last 24 hours, 7 days or 30 days (range=24h, 7d or 30d)."))
		return usageView{}, false
	}
	cons, err := c.deps.Access.Consumer(ctx, a, consumerID)
	if err != nil {
		c.fail(w, r, err)
		return usageView{}, false
	}
	u.Consumer = cons
	if u.Keys, err = c.deps.Access.ListKeys(ctx, a, consumerID); err != nil {
		c.fail(w, r, err)
		return usageView{}, false
	}
	for _, k := range u.Keys {
		u.KeyNames[k.ID] = keyCaption(k)
	}
	if s := q.Get("key"); s != "" {
		id, err := strconv.Atoi(s)
		if _, mine := u.KeyNames[id]; err != nil || !mine {
			c.notFound(w, r)
			return usageView{}, false
		}
		if u.Range == metering.Range24h {
			c.render(w, r, http.StatusBadRequest, errorPage(c.page(r, "Choose 7 or 30 days"),
				"Usage per key is counted per UTC day, so one key's usage is shown for 7 or 30 days, not 24 hours."))
			return usageView{}, false
		}
		u.KeyID = id
	}
	// The recent calls are read first: a call's raw record and its counts are written in one
	// transaction, so every call the page lists is in the counts read after it.
	if u.Recent, err = c.deps.Usage.Recent(ctx, consumerID, metering.RecentFilter{KeyID: u.KeyID, RequestID: u.RequestID}, recentCalls); err != nil {
		c.fail(w, r, err)
		return usageView{}, false
	}
	now := c.now()
	if u.KeyID == 0 {
		if u.Analytics, err = c.deps.Usage.Analytics(ctx, consumerID, u.Range, now); err != nil {
			c.fail(w, r, err)
			return usageView{}, false
		}
		u.Status, u.Errors = newStatusChart(u.Analytics), newErrorChart(u.Analytics)
		u.Units, u.UnitRows = newUnitsChart(u.Analytics, cons.RatePerMinute, cons.Burst), unitRows(u.Analytics)
	}
	if days := u.Range.Days(); days > 0 {
		if u.Report, err = c.deps.Usage.Report(ctx, consumerID, u.KeyID, days, now); err != nil {
			c.fail(w, r, err)
			return usageView{}, false
		}
	}
	return u, true
}

// unitRows are the rows of the table behind the units chart: per hour in the 24-hour view (its
// units, busiest minute and 429s), per day otherwise (adding the busiest hour's average per minute).
func unitRows(a metering.Analytics) []unitsRow {
	var out []unitsRow
	if a.UnitsStep == time.Minute {
		for i := 0; i < len(a.UnitsPoints); i += 60 {
			row := unitsRow{Name: a.UnitsPoints[i].Start.UTC().Format("2006-01-02 15:04")}
			var peak int64
			for _, p := range a.UnitsPoints[i:min(i+60, len(a.UnitsPoints))] {
				row.Units += p.Units
				row.Limited += p.Limited
				peak = max(peak, p.Units)
			}
			row.Peak = num(peak)
			out = append(out, row)
		}
		return out
	}
	for i := 0; i < len(a.UnitsPoints); i += 24 {
		row := unitsRow{Name: a.UnitsPoints[i].Start.UTC().Format(time.DateOnly)}
		peak, known := int64(0), false
		for _, p := range a.UnitsPoints[i:min(i+24, len(a.UnitsPoints))] {
			row.Units += p.Units
			row.Limited += p.Limited
			row.BusiestHour = max(row.BusiestHour, perMinute(p, time.Hour))
			if p.Peak >= 0 {
				peak, known = max(peak, p.Peak), true
			}
		}
		row.Peak = "not kept"
		if known {
			row.Peak = num(peak)
		}
		out = append(out, row)
	}
	return out
}

// keyName names a key for the usage tables.
func (u usageView) keyName(id int) string {
	if n, ok := u.KeyNames[id]; ok {
		return n
	}
	return fmt.Sprintf("key %d", id)
}

// rangeURL is the page's URL for a range, keeping the key filter where the range allows one.
func (u usageView) rangeURL(rg metering.Range) string {
	v := url.Values{"range": {string(rg)}}
	if u.KeyID != 0 && rg != metering.Range24h {
		v.Set("key", strconv.Itoa(u.KeyID))
	}
	return u.Base + "?" + v.Encode()
}

// filterURL is the page's URL in its range with a key filter (0: all keys).
func (u usageView) filterURL(keyID int) string {
	v := url.Values{"range": {string(u.Range)}}
	if keyID != 0 {
		v.Set("key", strconv.Itoa(keyID))
	}
	return u.Base + "?" + v.Encode()
}

// csvURL is the daily usage export of the page's days (30 for the 24-hour view) and key filter.
func (u usageView) csvURL() string {
	rg := u.Range
	if rg == metering.Range24h {
		rg = metering.Range30d
	}
	v := url.Values{"range": {string(rg)}}
	if u.KeyID != 0 {
		v.Set("key", strconv.Itoa(u.KeyID))
	}
	return u.Base + ".csv?" + v.Encode()
}

// logURL is the request log beside the usage page (/console/log, or the operator's per consumer).
func (u usageView) logURL() string { return strings.TrimSuffix(u.Base, "/usage") + "/log" }

// csvDays is how many days the export link covers.
func (u usageView) csvDays() int {
	if u.Range == metering.Range24h {
		return metering.Range30d.Days()
	}
	return u.Range.Days()
}

// rangeName names a range for headings: "Last 24 hours", "Last 7 days".
func rangeName(rg metering.Range) string { return "Last " + rangeLabel(rg) }

// rangeLabel is a range's link text.
func rangeLabel(rg metering.Range) string {
	switch rg {
	case metering.Range24h:
		return "24 hours"
	case metering.Range7d:
		return "7 days"
	}
	return "30 days"
}

// pointLabel names a point in the tables: its hour or its day.
func (u usageView) pointLabel(t time.Time) string {
	if u.Analytics.Step < 24*time.Hour {
		return t.UTC().Format("2006-01-02 15:04")
	}
	return t.UTC().Format(time.DateOnly)
}

// stepName is what a point of the status chart is: "hour" or "day".
func (u usageView) stepName() string {
	if u.Analytics.Step < 24*time.Hour {
		return "hour"
	}
	return "day"
}

// ms formats a latency for the percentile table: "1.5 ms", "850 µs", "2.3 s".
func ms(d time.Duration) string {
	switch {
	case d <= 0:
		return "–"
	case d < time.Millisecond:
		return strconv.FormatInt(d.Microseconds(), 10) + " µs"
	case d < time.Second:
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
}

func (c *Console) usage(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	if u, ok := c.usageFor(w, r, v.actor, v.ConsumerID, "/console/usage"); ok {
		c.render(w, r, http.StatusOK, usagePage(c.page(r, "Usage"), u))
	}
}
