package policy

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
)

// Operation names an API operation and the scope it requires.
type Operation struct{ ID, Scope string }

// Consumer is the policy-relevant part of a consumer.
type Consumer struct {
	ID                 int
	Scopes             []string       // granted scopes, e.g. "market:read"
	DisabledOperations []string       // operation ids switched off for this consumer
	Sources            []netip.Prefix // allowlist; empty means any source
}

// defaultCacheEntries bounds the decision cache of each loaded policy.
// An entry is a key of a few dozen bytes plus map overhead, so the cache
// stays around 10 MiB at most however many source addresses call.
const defaultCacheEntries = 1 << 16

// Enforcer decides stage 4 of the request pipeline with casbin. It is safe
// for concurrent use.
type Enforcer struct {
	opLines      [][]string          // the p lines: operation -> scope
	ops          map[string]any      // operation id -> the id boxed once
	scopes       map[string]struct{} // scopes some operation requires
	cacheEntries int                 // decision cache bound per loaded policy

	loadMu sync.Mutex // serializes Load
	cur    atomic.Pointer[snapshot]
}

// New returns an Enforcer for the given operation table, with no consumers
// loaded (every decision is ScopeRequired until Load). It returns an error
// for an operation with an empty id or scope, an id listed twice, or an id
// or scope beginning with "c:" (reserved for consumers in casbin).
func New(ops []Operation) (*Enforcer, error) {
	e := &Enforcer{
		opLines:      make([][]string, 0, len(ops)),
		ops:          make(map[string]any, len(ops)),
		scopes:       make(map[string]struct{}),
		cacheEntries: defaultCacheEntries,
	}
	for _, op := range ops {
		if op.ID == "" || op.Scope == "" {
			return nil, errors.New("new policy: operation with empty id or scope")
		}
		if strings.HasPrefix(op.ID, subjectPrefix) || strings.HasPrefix(op.Scope, subjectPrefix) {
			return nil, fmt.Errorf("new policy: operation %q: id or scope begins with %q", op.ID, subjectPrefix)
		}
		if _, dup := e.ops[op.ID]; dup {
			return nil, fmt.Errorf("new policy: duplicate operation %q", op.ID)
		}
		e.ops[op.ID] = op.ID
		e.scopes[op.Scope] = struct{}{}
		e.opLines = append(e.opLines, []string{"p", op.ID, op.Scope})
	}
	if err := e.Load(nil); err != nil {
		return nil, err
	}
	return e, nil
}

// Load replaces the whole consumer policy atomically (called at start and
// whenever the store changes); it clears the decision cache. Scopes no
// operation requires and unknown disabled operations are ignored. It builds a
// new casbin enforcer and swaps it in, so concurrent Decide calls see the
// old policy or the new one, never neither. On error (a duplicate consumer
// id or an invalid source prefix) the current policy stays in force.
func (e *Enforcer) Load(consumers []Consumer) error {
	e.loadMu.Lock()
	defer e.loadMu.Unlock()
	s, err := e.buildSnapshot(consumers)
	if err != nil {
		return err
	}
	e.cur.Store(s)
	return nil
}

// Decide is safe for concurrent use. It says whether consumer consumerID
// may call operation operationID from src. When several checks fail the
// first in this order wins: scope, endpoint availability, source. Unknown
// consumers and unknown operations get ScopeRequired. IPv4-mapped IPv6
// sources are compared as IPv4, and an IPv6 zone is ignored.
func (e *Enforcer) Decide(consumerID int, operationID string, src netip.Addr) Decision {
	s := e.cur.Load()
	sub, ok := s.subjects[consumerID]
	if !ok {
		return ScopeRequired
	}
	op, ok := e.ops[operationID]
	if !ok {
		return ScopeRequired
	}
	return s.decide(consumerID, sub, operationID, op, src)
}

// Known reports whether the loaded policy has the consumer. A valid key whose consumer is not
// known means the policy is older than the consumer; callers reload rather than refuse.
func (e *Enforcer) Known(consumerID int) bool {
	_, ok := e.cur.Load().subjects[consumerID]
	return ok
}
