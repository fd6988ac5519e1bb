package api

import (
	"regexp"
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
		id := newRequestID()
		if !shape.MatchString(id) {
			t.Fatalf("request id %q does not match %v", id, shape)
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
