package api

import (
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestRequestIDsSortByTime: ids keep the contract's shape, are unique, and ids made in a later
// millisecond sort after earlier ones (the usage log's request id index relies on it).
func TestRequestIDsSortByTime(t *testing.T) {
	shape := regexp.MustCompile(`^req_[0-9a-f]{32}$`)
	var ids []string
	seen := map[string]bool{}
	for i := range 2000 {
		if i%500 == 0 {
			time.Sleep(2 * time.Millisecond)
		}
		before := time.Now().UnixMilli()
		id := newRequestID(time.Now())
		after := time.Now().UnixMilli()
		if !shape.MatchString(id) {
			t.Fatalf("request id %q does not match %v", id, shape)
		}
		if ms, err := strconv.ParseInt(id[4:16], 16, 64); err != nil || ms < before || ms > after {
			t.Fatalf("request id %q leads with millisecond %d, made between %d and %d", id, ms, before, after)
		}
		if seen[id] {
			t.Fatalf("request id %q made twice", id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	// Within one millisecond the random part orders ids arbitrarily; across milliseconds they sort.
	prefix := func(id string) string { return id[:4+12] }
	for i := 1; i < len(ids); i++ {
		if prefix(ids[i]) < prefix(ids[i-1]) {
			t.Fatalf("id %d (%s) sorts before id %d (%s)", i, ids[i], i-1, ids[i-1])
		}
	}
	if first, last := prefix(ids[0]), prefix(ids[len(ids)-1]); first == last {
		t.Fatalf("ids over 8 ms share their time prefix %s", first)
	}
}

// TestRequestIDAllocatesOnce: the id is made on every request, as one string.
func TestRequestIDAllocatesOnce(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = newRequestID(time.Now()) }); n != 1 {
		t.Fatalf("newRequestID allocates %v times, want 1", n)
	}
}

// TestDateHeader: a response's Date is its second, in HTTP's format; the value is made once a second.
func TestDateHeader(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 10, 59, 59, 900_000_000, time.FixedZone("CET", 3600))
	first := dateHeader(t0)
	if got, want := first[0], "Fri, 27 Nov 2026 09:59:59 GMT"; got != want {
		t.Fatalf("Date at %v = %q, want %q", t0, got, want)
	}
	if again := dateHeader(t0.Add(99 * time.Millisecond)); &again[0] != &first[0] {
		t.Fatalf("Date later in the same second was made again")
	}
	if next := dateHeader(t0.Add(100 * time.Millisecond)); next[0] != "Fri, 27 Nov 2026 10:00:00 GMT" {
		t.Fatalf("Date in the next second = %q", next[0])
	}

	e := newEnv(t)
	before := time.Now().Truncate(time.Second)
	res := e.do(request{path: "/healthz"})
	after := time.Now()
	got, err := http.ParseTime(res.header.Get("Date"))
	if err != nil || got.Before(before) || got.After(after) {
		t.Fatalf("Date %q (%v), want a time between %v and %v", res.header.Get("Date"), err, before, after)
	}
	if n := len(res.header.Values("Date")); n != 1 {
		t.Fatalf("%d Date headers, want 1", n)
	}
}
