package policy

import (
	"net/netip"
	"sync"
	"sync/atomic"
)

// memoEntries bounds a snapshot's memo; past it, decisions still come from casbin's own cache.
const memoEntries = 1 << 16

// memoKey names one decision. src is the zero Addr for consumers without an allowlist, so such a
// consumer has one entry per operation whatever address it calls from.
type memoKey struct {
	consumer int
	op       string
	src      netip.Addr
}

// memo remembers a snapshot's decisions without allocating on a hit. Casbin's cached enforcer
// builds its cache key by joining strings (four allocations per decision); the memo sits in front
// of it and answers warm decisions from a comparable struct key. It lives and dies with its
// snapshot, so a Load clears it.
type memo struct {
	m sync.Map // memoKey -> Decision
	n atomic.Int64
}

func (m *memo) get(k memoKey) (Decision, bool) {
	v, ok := m.m.Load(k)
	if !ok {
		return 0, false
	}
	return v.(Decision), true
}

func (m *memo) put(k memoKey, d Decision) {
	if m.n.Load() >= memoEntries {
		return
	}
	if _, loaded := m.m.LoadOrStore(k, d); !loaded {
		m.n.Add(1)
	}
}
