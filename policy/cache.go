package policy

import (
	"hash/maphash"
	"sync"

	"github.com/casbin/casbin/v2/persist/cache"
)

// cacheShards spreads lock traffic of concurrent Decide callers.
const cacheShards = 16

// boundedCache is the decision cache handed to casbin's cached enforcer in
// place of its default, which grows without bound (one entry per distinct
// consumer, operation and source address). It holds at most max entries:
// each shard keeps two generations of at most max/(2*cacheShards) entries;
// when the current generation is full it becomes the previous one and the
// old previous one is dropped. Hits in the previous generation are
// promoted, so keys in use survive a turnover.
//
// TTLs passed by casbin are ignored: decisions change only on Load, which
// replaces the enforcer and its cache together.
type boundedCache struct {
	seed   maphash.Seed
	shards [cacheShards]cacheShard
}

type cacheShard struct {
	mu       sync.RWMutex
	cur, old map[string]bool
	limit    int // entries per generation
}

var _ cache.Cache = (*boundedCache)(nil)

// newBoundedCache returns a cache of at most maxEntries entries (at least
// 2*cacheShards).
func newBoundedCache(maxEntries int) *boundedCache {
	limit := maxEntries / (2 * cacheShards)
	if limit < 1 {
		limit = 1
	}
	c := &boundedCache{seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].limit = limit
		c.shards[i].cur = make(map[string]bool)
	}
	return c
}

func (c *boundedCache) shard(key string) *cacheShard {
	return &c.shards[maphash.String(c.seed, key)%cacheShards]
}

// Get returns the cached decision for key or cache.ErrNoSuchKey.
func (c *boundedCache) Get(key string) (bool, error) {
	s := c.shard(key)
	s.mu.RLock()
	v, ok := s.cur[key]
	if ok {
		s.mu.RUnlock()
		return v, nil
	}
	v, ok = s.old[key]
	s.mu.RUnlock()
	if !ok {
		return false, cache.ErrNoSuchKey
	}
	s.mu.Lock()
	s.put(key, v)
	s.mu.Unlock()
	return v, nil
}

// Set stores a decision; extra (casbin's TTL) is ignored.
func (c *boundedCache) Set(key string, value bool, _ ...any) error {
	s := c.shard(key)
	s.mu.Lock()
	s.put(key, value)
	s.mu.Unlock()
	return nil
}

// put stores key in the current generation, turning generations over when
// it is full. The caller holds s.mu for writing.
func (s *cacheShard) put(key string, value bool) {
	if _, ok := s.cur[key]; !ok && len(s.cur) >= s.limit {
		s.old = s.cur
		s.cur = make(map[string]bool, s.limit)
	}
	s.cur[key] = value
}

// Delete removes key, or returns cache.ErrNoSuchKey.
func (c *boundedCache) Delete(key string) error {
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	_, inCur := s.cur[key]
	_, inOld := s.old[key]
	if !inCur && !inOld {
		return cache.ErrNoSuchKey
	}
	delete(s.cur, key)
	delete(s.old, key)
	return nil
}

// Clear drops every entry.
func (c *boundedCache) Clear() error {
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		s.cur, s.old = make(map[string]bool), nil
		s.mu.Unlock()
	}
	return nil
}

// len returns the number of entries, for tests.
func (c *boundedCache) len() int {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.RLock()
		n += len(s.cur) + len(s.old)
		s.mu.RUnlock()
	}
	return n
}
