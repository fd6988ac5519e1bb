package console

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/metering"
)

// Chart geometry, in SVG user units. Charts scale with their viewBox; on narrow screens the style
// sheet enlarges their text (in user units) and hides the minor axis labels, so labels stay
// readable at 390 px wide. Value labels sit inside the plot, above their grid line, so no label
// size can push them off the chart.
const (
	chartW, chartH      = 760, 290
	padLeft, padRight   = 40, 40
	padTop, padBottom   = 34, 40
	plotW, plotH        = chartW - padLeft - padRight, chartH - padTop - padBottom
	chartBottom         = padTop + plotH
	chartRight          = padLeft + plotW
	xLabelY             = chartBottom + 26
	statusGroupsStacked = 4
)

// tick is an axis label at a position (y for value ticks, x for time labels); Minor labels are
// hidden on narrow screens.
type tick struct {
	Pos    string
	LabelY string // value ticks: where the label sits
	Label  string
	Minor  bool
}

// seg is one rectangle of a bar.
type seg struct{ Class, X, Y, W, H string }

// stackBar is one point of the status chart: its segments bottom up and its accessible text.
type stackBar struct {
	Title string
	Segs  []seg
}

// statusGroup names a status group as the page shows it; Class styles its segment (a fill
// pattern as well as a colour, so the legend does not rely on colour alone).
type statusGroup struct{ Class, Label string }

// statusGroups are the groups stacked from the bottom up.
var statusGroups = [statusGroupsStacked]statusGroup{
	{"g2xx", "2xx success"}, {"g4xx", "4xx client error"}, {"g429", "429 rate limited"}, {"g5xx", "5xx server error"},
}

// counts are the calls of each stacked group.
func counts(s metering.StatusCounts) [statusGroupsStacked]int64 {
	return [statusGroupsStacked]int64{s.OK, s.Client, s.Limited, s.Server}
}

// statusChart is the calls chart: one bar per hour or day, stacked by status group.
type statusChart struct {
	ViewBox string
	YTicks  []tick
	XLabels []tick
	Bars    []stackBar
}

// lineChart is the error-rate chart: a line through one dot per point.
type lineChart struct {
	ViewBox string
	YTicks  []tick
	XLabels []tick
	Line    string // polyline points
	Dots    []dot
}

// dot is a point of a line, or a marker, with its accessible text.
type dot struct{ X, Y, Title string }

// unitsChart is the units chart: units per minute (or the hour's average per minute) as an area,
// the plan's rate per minute and burst as lines, and a marker above each point with 429s.
type unitsChart struct {
	ViewBox                 string
	YTicks                  []tick
	XLabels                 []tick
	Area                    string // path data
	RateY, BurstY           string // "" when off the scale (never: the scale covers both)
	RateLabel, BurstLabel   string
	RateLabelY, BurstLabelY string
	Marks                   []dot
	MarkY                   string
}

func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// slotX is the left edge and width of point i of n across the plot.
func slotX(i, n int) (x, w float64) {
	w = float64(plotW) / float64(max(n, 1))
	return float64(padLeft) + float64(i)*w, w
}

// yOf is the y of value v on a scale of 0..top.
func yOf(v, top int64) float64 { return float64(chartBottom) - float64(plotH)*float64(v)/float64(top) }

// axis is a value axis: the top of the scale and the step between grid lines, a 1, 2 or 5 times
// a power of ten, with at most four steps up to the top.
func axis(v int64) (top, step int64) {
	step = niceStep(max((v+3)/4, 1))
	n := max((v+step-1)/step, 1)
	return n * step, step
}

// niceStep rounds v (at least 1) up to 1, 2 or 5 times a power of ten.
func niceStep(v int64) int64 {
	p := int64(1)
	for p*10 <= v {
		p *= 10
	}
	for _, m := range []int64{1, 2, 5} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// valueTicks label the grid lines from 0 to top, every step, compactly. Each label sits just above
// its line, inside the plot (Pos is the line's y; LabelY is the label's).
func valueTicks(top, step int64, label func(int64) string) []tick {
	var out []tick
	for v := int64(0); v <= top; v += step {
		y := yOf(v, top)
		out = append(out, tick{Pos: f(y), LabelY: f(y - 5), Label: label(v)})
	}
	return out
}

// timeLabels labels every step-th of n points (minor: every other one of those) at its centre.
func timeLabels(n, every int, name func(i int) string) []tick {
	var out []tick
	for i := 0; i < n; i += every {
		x, w := slotX(i, n)
		out = append(out, tick{Pos: f(x + w/2), Label: name(i), Minor: (i/every)%2 == 1})
	}
	return out
}

// pointName is how a point's start is labelled: the hour in the 24-hour view, the day otherwise.
func pointName(t time.Time, step time.Duration) string {
	if step < 24*time.Hour {
		return t.UTC().Format("15:04")
	}
	return t.UTC().Format("01-02")
}

// labelEvery is how many points apart time labels are.
func labelEvery(n int) int {
	switch {
	case n <= 7:
		return 1
	case n <= 24:
		return 3
	case n <= 30:
		return 5
	}
	return n / 8
}

func newStatusChart(a metering.Analytics) statusChart {
	c := statusChart{ViewBox: fmt.Sprintf("0 0 %d %d", chartW, chartH)}
	var most int64
	for _, p := range a.Points {
		most = max(most, p.Status.Calls())
	}
	top, step := axis(most)
	n := len(a.Points)
	for i, p := range a.Points {
		x, w := slotX(i, n)
		b := stackBar{Title: fmt.Sprintf("%s: %s calls (%s 2xx, %s 4xx, %s 429, %s 5xx), error rate %s",
			pointTitle(p.Start, a.Step), num(p.Status.Calls()), num(p.Status.OK), num(p.Status.Client), num(p.Status.Limited),
			num(p.Status.Server), percent(p.Status.ErrorRate()))}
		var below int64
		for g, v := range counts(p.Status) {
			if v == 0 {
				continue
			}
			y0, y1 := yOf(below, top), yOf(below+v, top)
			b.Segs = append(b.Segs, seg{Class: statusGroups[g].Class, X: f(x + w*0.15), W: f(w * 0.7), Y: f(y1), H: f(y0 - y1)})
			below += v
		}
		c.Bars = append(c.Bars, b)
	}
	c.YTicks = valueTicks(top, step, compact)
	c.XLabels = timeLabels(n, labelEvery(n), func(i int) string { return pointName(a.Points[i].Start, a.Step) })
	return c
}

func newErrorChart(a metering.Analytics) lineChart {
	c := lineChart{ViewBox: fmt.Sprintf("0 0 %d %d", chartW, chartH)}
	// The scale in tenths of a percent, so small rates get a readable axis.
	var most int64
	for _, p := range a.Points {
		most = max(most, int64(p.Status.ErrorRate()*1000+0.5))
	}
	top, step := axis(max(most, 10))
	n := len(a.Points)
	var pts []string
	for i, p := range a.Points {
		x, w := slotX(i, n)
		y := float64(chartBottom) - float64(plotH)*p.Status.ErrorRate()*1000/float64(top)
		pts = append(pts, f(x+w/2)+","+f(y))
		c.Dots = append(c.Dots, dot{X: f(x + w/2), Y: f(y), Title: fmt.Sprintf("%s: error rate %s (%s of %s calls)",
			pointTitle(p.Start, a.Step), percent(p.Status.ErrorRate()), num(p.Status.Errors()), num(p.Status.Calls()))})
	}
	c.Line = strings.Join(pts, " ")
	c.YTicks = valueTicks(top, step, func(v int64) string { return strconv.FormatFloat(float64(v)/10, 'f', -1, 64) + "%" })
	c.XLabels = timeLabels(n, labelEvery(n), func(i int) string { return pointName(a.Points[i].Start, a.Step) })
	return c
}

// perMinute is a units point's figure on the chart: the minute's units, or the hour's average per
// minute (rounded up, so a busy hour never shows as 0).
func perMinute(p metering.UnitsPoint, step time.Duration) int64 {
	if step <= time.Minute {
		return p.Units
	}
	return (p.Units + 59) / 60
}

func newUnitsChart(a metering.Analytics, ratePerMinute, burst int) unitsChart {
	c := unitsChart{ViewBox: fmt.Sprintf("0 0 %d %d", chartW, chartH), MarkY: f(padTop - 2)}
	most := max(int64(ratePerMinute), int64(burst))
	for _, p := range a.UnitsPoints {
		most = max(most, perMinute(p, a.UnitsStep))
	}
	top, step := axis(most)
	n := len(a.UnitsPoints)
	var d strings.Builder
	fmt.Fprintf(&d, "M%d,%d", padLeft, chartBottom)
	for i, p := range a.UnitsPoints {
		x, w := slotX(i, n)
		y := f(yOf(perMinute(p, a.UnitsStep), top))
		fmt.Fprintf(&d, "L%s,%sL%s,%s", f(x), y, f(x+w), y)
		if p.Limited > 0 {
			what := "minute"
			if a.UnitsStep > time.Minute {
				what = "hour"
			}
			c.Marks = append(c.Marks, dot{X: f(x + w/2), Title: fmt.Sprintf("%s: %s refused with 429 in this %s, %s units",
				a.UnitsPoints[i].Start.UTC().Format("01-02 15:04"), num(p.Limited), what, num(p.Units))})
		}
	}
	fmt.Fprintf(&d, "L%d,%dZ", chartRight, chartBottom)
	c.Area = d.String()
	c.RateY, c.RateLabel = f(yOf(int64(ratePerMinute), top)), "rate "+compact(int64(ratePerMinute))+"/min"
	c.BurstY, c.BurstLabel = f(yOf(int64(burst), top)), "burst "+compact(int64(burst))
	c.RateLabelY, c.BurstLabelY = f(yOf(int64(ratePerMinute), top)-5), f(yOf(int64(burst), top)-5)
	if ratePerMinute == burst {
		c.RateLabel, c.BurstLabel = c.RateLabel+", "+c.BurstLabel, ""
	}
	c.YTicks = valueTicks(top, step, compact)
	every := 3 * 60 // minutes: every 3 hours
	if a.UnitsStep >= time.Hour {
		every = 24 * max(1, labelEvery(a.Range.Days()))
	}
	c.XLabels = timeLabels(n, every, func(i int) string {
		if a.UnitsStep >= time.Hour {
			return a.UnitsPoints[i].Start.UTC().Format("01-02")
		}
		return a.UnitsPoints[i].Start.UTC().Format("15:04")
	})
	return c
}

// pointTitle names a point in accessible text: "2025-06-15 13:00 UTC" or "2025-06-15".
func pointTitle(t time.Time, step time.Duration) string {
	if step < 24*time.Hour {
		return t.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	return t.UTC().Format(time.DateOnly)
}

// percent formats a share as a percentage with one decimal ("2.5%").
func percent(v float64) string { return strconv.FormatFloat(v*100, 'f', 1, 64) + "%" }

// compact is an axis label: 950, 1.2k, 12k, 1.5M.
func compact(v int64) string {
	switch {
	case v >= 1_000_000:
		return strings.TrimSuffix(strconv.FormatFloat(float64(v)/1e6, 'f', 1, 64), ".0") + "M"
	case v >= 1_000:
		return strings.TrimSuffix(strconv.FormatFloat(float64(v)/1e3, 'f', 1, 64), ".0") + "k"
	}
	return strconv.FormatInt(v, 10)
}

// niceMax rounds an axis maximum up to 1, 2 or 5 times a power of ten (at least 4, so ticks are whole).
func niceMax(v int64) int64 {
	if v <= 4 {
		return 4
	}
	p := int64(1)
	for p*10 <= v {
		p *= 10
	}
	for _, m := range []int64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
