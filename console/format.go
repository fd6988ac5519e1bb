package console

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
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

// changes lists what an audit entry changed, field by field: "burst: 60 → 100". A record created
// or deleted shows its fields with only one side.
func changes(before, after map[string]any) []string {
	keys := map[string]bool{}
	for k := range before {
		keys[k] = true
	}
	for k := range after {
		keys[k] = true
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if bookkeeping[k] {
			continue
		}
		b, inBefore := before[k]
		a, inAfter := after[k]
		bs, as := value(b), value(a)
		switch {
		case inBefore && inAfter && bs == as:
		case !inBefore:
			if !empty(as) {
				out = append(out, k+": "+as)
			}
		case !inAfter:
			out = append(out, k+": "+bs+" → (none)")
		default:
			out = append(out, k+": "+bs+" → "+as)
		}
	}
	return out
}

// bookkeeping fields are shown elsewhere on the row or change with everything.
var bookkeeping = map[string]bool{"id": true, "consumerId": true, "createdAt": true, "updatedAt": true}

func empty(v string) bool { return v == "" || v == "null" || v == "[]" || v == "{}" }

// value renders one audit field compactly.
func value(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
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

// humanDuration says how long d is for people, rounded up: "45 seconds", "15 minutes",
// "1 hour 5 minutes".
func humanDuration(d time.Duration) string {
	secs := int64(math.Ceil(d.Seconds()))
	if secs < 60 {
		return plural(max(secs, 1), "second")
	}
	mins := (secs + 59) / 60
	if mins < 60 {
		return plural(mins, "minute")
	}
	out := plural(mins/60, "hour")
	if mins%60 != 0 {
		out += " " + plural(mins%60, "minute")
	}
	return out
}

// plural is "1 minute" or "n minutes".
func plural(n int64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.FormatInt(n, 10) + " " + unit + "s"
}
