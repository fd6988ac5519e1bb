// Package telemetrytest reads what the operator listener's /metrics serves, for tests: it checks
// every line against the Prometheus text format (version 0.0.4) and partnerd's naming, and returns
// the samples.
package telemetrytest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Family is one metric: its TYPE, its HELP and its samples.
type Family struct {
	Type, Help string
	Samples    []Sample
}

// Sample is one line `name{labels} value`; Labels is the braces' content, empty without labels.
type Sample struct {
	Labels string
	Value  float64
}

// Metrics are the families of one scrape, by name.
type Metrics map[string]*Family

// Value is the value of name's first sample, and whether there is one.
func (m Metrics) Value(name string) (float64, bool) {
	f, ok := m[name]
	if !ok || len(f.Samples) == 0 {
		return 0, false
	}
	return f.Samples[0].Value, true
}

var (
	metricName = `[a-zA-Z_:][a-zA-Z0-9_:]*`
	label      = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"`
	sampleLine = regexp.MustCompile(`^(` + metricName + `)(?:\{((?:` + label + `)(?:,` + label + `)*,?)?\})? (\S+)(?: -?[0-9]+)?$`)
	helpLine   = regexp.MustCompile(`^# HELP (` + metricName + `) (.*)$`)
	typeLine   = regexp.MustCompile(`^# TYPE (` + metricName + `) (counter|gauge|histogram|summary|untyped)$`)
)

// Parse reads a scrape. Every line must be a HELP, a TYPE, another comment, empty, or a sample
// `name{labels} value [timestamp]` with a value strconv.ParseFloat reads (NaN and ±Inf too). Beyond
// the format it holds partnerd's conventions: every name starts with partnerd_, every family has
// HELP and TYPE once and before its samples, and counters end in _total. The first violation is
// the error, naming its line.
func Parse(body string) (Metrics, error) {
	m := Metrics{}
	if body != "" && !strings.HasSuffix(body, "\n") {
		return nil, fmt.Errorf("the last line does not end with a line feed")
	}
	for i, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("line %d %q: %s", i+1, line, fmt.Sprintf(format, args...))
		}
		family := func(name string) (*Family, error) {
			if !strings.HasPrefix(name, "partnerd_") {
				return nil, bad("the name does not start with partnerd_")
			}
			f := m[name]
			if f == nil {
				f = &Family{}
				m[name] = f
			}
			return f, nil
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "# HELP "):
			g := helpLine.FindStringSubmatch(line)
			if g == nil {
				return nil, bad("not a HELP line")
			}
			f, err := family(g[1])
			if err != nil {
				return nil, err
			}
			if f.Help != "" || len(f.Samples) > 0 {
				return nil, bad("HELP repeated or after the samples")
			}
			if f.Help = g[2]; f.Help == "" {
				return nil, bad("empty HELP")
			}
		case strings.HasPrefix(line, "# TYPE "):
			g := typeLine.FindStringSubmatch(line)
			if g == nil {
				return nil, bad("not a TYPE line")
			}
			f, err := family(g[1])
			if err != nil {
				return nil, err
			}
			if f.Type != "" || len(f.Samples) > 0 {
				return nil, bad("TYPE repeated or after the samples")
			}
			f.Type = g[2]
			if f.Type == "counter" && !strings.HasSuffix(g[1], "_total") {
				return nil, bad("a counter's name must end in _total")
			}
		case strings.HasPrefix(line, "#"):
		default:
			g := sampleLine.FindStringSubmatch(line)
			if g == nil {
				return nil, bad("not a sample `name{labels} value`")
			}
			v, err := strconv.ParseFloat(g[3], 64)
			if err != nil {
				return nil, bad("value: %v", err)
			}
			f, err := family(g[1])
			if err != nil {
				return nil, err
			}
			if f.Type == "" || f.Help == "" {
				return nil, bad("a sample without HELP and TYPE before it")
			}
			f.Samples = append(f.Samples, Sample{Labels: g[2], Value: v})
		}
	}
	for name, f := range m {
		if len(f.Samples) == 0 {
			return nil, fmt.Errorf("%s: HELP or TYPE without a sample", name)
		}
	}
	return m, nil
}
