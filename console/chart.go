package console

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/metering"
)

// Chart geometry, in SVG user units.
const (
	chartW, chartH            = 760, 260
	padLeft, padRight, padTop = 56, 56, 16
	padBottom                 = 36
	plotW, plotH              = chartW - padLeft - padRight, chartH - padTop - padBottom
)

// chart is a server-rendered daily bar chart: calls per day as bars with errors drawn apart in
// their own color at the foot of each bar, and cost as a line on its own scale (right axis).
type chart struct {
	Bars      []bar
	CostLine  string // polyline points
	MaxCalls  int64
	MaxCost   int64
	CallTicks []tick
	CostTicks []tick
	DayLabels []tick
	ViewBox   string
}

type bar struct {
	X, W             string
	CallsY, CallsH   string
	ErrorsY, ErrorsH string
	Title            string // tooltip and accessible text
}

type tick struct {
	Pos   string
	Label string
}

func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func newChart(days []metering.DayTotals) chart {
	c := chart{ViewBox: fmt.Sprintf("0 0 %d %d", chartW, chartH)}
	for _, d := range days {
		c.MaxCalls = max(c.MaxCalls, d.Calls)
		c.MaxCost = max(c.MaxCost, d.Cost)
	}
	callScale := niceMax(c.MaxCalls)
	costScale := niceMax(c.MaxCost)
	n := max(len(days), 1)
	slot := float64(plotW) / float64(n)
	bottom := float64(padTop + plotH)
	var points []string
	for i, d := range days {
		x := float64(padLeft) + float64(i)*slot
		ch := float64(plotH) * float64(d.Calls) / float64(callScale)
		eh := float64(plotH) * float64(d.Errors) / float64(callScale)
		c.Bars = append(c.Bars, bar{
			X: f(x + slot*0.15), W: f(slot * 0.7),
			CallsY: f(bottom - ch), CallsH: f(ch),
			ErrorsY: f(bottom - eh), ErrorsH: f(eh),
			Title: fmt.Sprintf("%s: %d calls, %d errors, cost %d", d.Day, d.Calls, d.Errors, d.Cost),
		})
		cy := bottom - float64(plotH)*float64(d.Cost)/float64(costScale)
		points = append(points, f(x+slot/2)+","+f(cy))
		if i%5 == 0 || i == len(days)-1 {
			c.DayLabels = append(c.DayLabels, tick{Pos: f(x + slot/2), Label: d.Day[5:]})
		}
	}
	c.CostLine = strings.Join(points, " ")
	for i := 0; i <= 4; i++ {
		y := f(bottom - float64(plotH)*float64(i)/4)
		c.CallTicks = append(c.CallTicks, tick{Pos: y, Label: strconv.FormatInt(callScale*int64(i)/4, 10)})
		c.CostTicks = append(c.CostTicks, tick{Pos: y, Label: strconv.FormatInt(costScale*int64(i)/4, 10)})
	}
	return c
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
