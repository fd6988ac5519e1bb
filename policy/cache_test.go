package policy

import (
	"errors"
	"strconv"
	"testing"

	"github.com/casbin/casbin/v2/persist/cache"
)

func TestBoundedCache(t *testing.T) {
	const bound = 1024
	c := newBoundedCache(bound)
	if _, err := c.Get("k"); !errors.Is(err, cache.ErrNoSuchKey) {
		t.Fatalf("Get on empty cache: %v, want ErrNoSuchKey", err)
	}
	if err := c.Set("hot", true); err != nil {
		t.Fatal(err)
	}
	for i := range 20 * bound {
		k := strconv.Itoa(i)
		if err := c.Set(k, i%2 == 0); err != nil {
			t.Fatal(err)
		}
		if v, err := c.Get(k); err != nil || v != (i%2 == 0) {
			t.Fatalf("Get(%q) = %v, %v right after Set", k, v, err)
		}
		if _, err := c.Get("hot"); err != nil { // in use: must survive turnover
			t.Fatalf("hot key evicted after %d sets", i)
		}
		if n := c.len(); n > bound {
			t.Fatalf("after %d sets the cache holds %d entries, bound %d", i, n, bound)
		}
	}
	if err := c.Delete("hot"); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("hot"); !errors.Is(err, cache.ErrNoSuchKey) {
		t.Fatalf("second Delete: %v, want ErrNoSuchKey", err)
	}
	if err := c.Clear(); err != nil || c.len() != 0 {
		t.Fatalf("Clear: %v, %d entries left", err, c.len())
	}
}
