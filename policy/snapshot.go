package policy

import (
	"fmt"
	"net/netip"
	"strconv"

	"github.com/casbin/casbin/v2"
)

// snapshot is one immutable generation of policy: a casbin enforcer with
// its own decision cache, and the consumer index Decide needs before it
// calls casbin. Load replaces the whole snapshot.
type snapshot struct {
	ce       *casbin.SyncedCachedEnforcer
	cache    *boundedCache // ce's decision cache
	subjects map[int]subject
	memo     memo
}

// subject is a consumer as casbin sees it.
type subject struct {
	name       any  // "c:<id>", boxed once
	restricted bool // has a non-empty source allowlist
}

// subjectPrefix begins every casbin subject. Scopes and operation ids may
// not begin with it, so that a role link can never make one consumer
// inherit another's grants.
const subjectPrefix = "c:"

// subjectName is the casbin subject for a consumer id.
func subjectName(id int) string { return subjectPrefix + strconv.Itoa(id) }

// buildSnapshot turns e's operation table (p lines) and the consumers into
// a snapshot. Only known scopes and operations become role links. It fails
// on a duplicate consumer id or an invalid prefix.
func (e *Enforcer) buildSnapshot(consumers []Consumer) (*snapshot, error) {
	lines := make([][]string, 0, len(e.opLines)+4*len(consumers))
	lines = append(lines, e.opLines...)
	subjects := make(map[int]subject, len(consumers))
	sources := make(map[string][]netip.Prefix)
	for _, c := range consumers {
		if _, dup := subjects[c.ID]; dup {
			return nil, fmt.Errorf("load policy: duplicate consumer %d", c.ID)
		}
		name := subjectName(c.ID)
		for _, scope := range c.Scopes {
			if _, ok := e.scopes[scope]; ok {
				lines = append(lines, []string{"g", name, scope})
			}
		}
		for _, op := range c.DisabledOperations {
			if _, ok := e.ops[op]; ok {
				lines = append(lines, []string{"g2", name, op})
			}
		}
		prefixes := make([]netip.Prefix, 0, len(c.Sources))
		for _, p := range c.Sources {
			if !p.IsValid() {
				return nil, fmt.Errorf("load policy: consumer %d: invalid source prefix", c.ID)
			}
			prefixes = append(prefixes, canonical(p))
		}
		if len(prefixes) > 0 {
			sources[name] = prefixes
		}
		subjects[c.ID] = subject{name: name, restricted: len(prefixes) > 0}
	}
	c := newBoundedCache(e.cacheEntries)
	ce, err := newCasbin(lines, sources, c)
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	return &snapshot{ce: ce, cache: c, subjects: subjects}, nil
}

// decide answers for a known consumer and a known operation (op is the
// boxed operation id), from the memo when it can.
func (s *snapshot) decide(consumerID int, sub subject, opID string, op any, src netip.Addr) Decision {
	key := memoKey{consumer: consumerID, op: opID}
	if sub.restricted {
		key.src = src.Unmap().WithZone("")
	}
	if d, ok := s.memo.get(key); ok {
		return d
	}
	d := s.enforce(sub, op, key.src)
	s.memo.put(key, d)
	return d
}

// enforce asks casbin.
func (s *snapshot) enforce(sub subject, op any, src netip.Addr) Decision {
	source := anySource
	if src.IsValid() {
		source = src.String()
	}
	ok, err := s.ce.Enforce(sub.name, op, source)
	switch {
	case err != nil:
		return ScopeRequired // fail closed; the model is tested, so this is a bug
	case ok:
		return Allow
	}
	return s.explain(sub, op)
}

// explain finds why the model denied: the first failing check in order of
// precedence. Each check is itself a cached Enforce call, keyed without the
// source, so repeated denials stay cheap.
func (s *snapshot) explain(sub subject, op any) Decision {
	if ok, err := s.ce.Enforce(scopeCheck, sub.name, op, anySource); err != nil || !ok {
		return ScopeRequired
	}
	if ok, err := s.ce.Enforce(availabilityCheck, sub.name, op, anySource); err != nil || !ok {
		return EndpointUnavailable
	}
	return SourceNotAllowed
}
