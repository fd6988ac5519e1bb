package console

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// num formats a count with thousands separators.
func num(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// latency formats microseconds for people.
func latency(us int64) string {
	d := time.Duration(us) * time.Microsecond
	if d < time.Millisecond {
		return strconv.FormatInt(us, 10) + " µs"
	}
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

// compact renders an audit record's state on one line.
func compact(m map[string]any) string {
	if len(m) == 0 {
		return ""
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "?"
	}
	return string(b)
}

// searchSuffix completes "No consumers" for a search.
func searchSuffix(q string) string {
	if q == "" {
		return ""
	}
	return " matching “" + q + "”"
}
