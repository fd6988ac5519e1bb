package policy

import (
	_ "embed"
	"errors"
	"fmt"
	"net/netip"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"
	"github.com/casbin/casbin/v2/persist"
)

// modelConf is the casbin model; see the comments in model.conf.
//
//go:embed model.conf
var modelConf string

// sourceAllowedFunc is the name model.conf uses for the CIDR group check.
const sourceAllowedFunc = "sourceAllowed"

// Request values and enforce contexts, boxed once so that passing them to
// casbin's variadic ...interface{} does not allocate per decision.
var (
	// anySource stands for the source of a consumer without an allowlist,
	// and for the explain matchers that ignore the source. It keeps such
	// decisions to one cache entry per (consumer, operation).
	anySource any = "*"
	// scopeCheck selects matcher m2: does the consumer hold the scope?
	scopeCheck any = casbin.EnforceContext{RType: "r", PType: "p", EType: "e", MType: "m2"}
	// availabilityCheck selects matcher m3: is the operation switched on?
	availabilityCheck any = casbin.EnforceContext{RType: "r", PType: "p", EType: "e", MType: "m3"}
)

// newCasbin builds a cached casbin enforcer over the given policy lines
// (each starting with its ptype: "p", "g" or "g2"), with sources as the
// CIDR groups keyed by subject, and c as its decision cache.
func newCasbin(lines [][]string, sources map[string][]netip.Prefix, c *boundedCache) (*casbin.SyncedCachedEnforcer, error) {
	m, err := model.NewModelFromString(modelConf)
	if err != nil {
		return nil, fmt.Errorf("policy model: %w", err)
	}
	ce, err := casbin.NewSyncedCachedEnforcer(m, memoryAdapter(lines))
	if err != nil {
		return nil, fmt.Errorf("policy enforcer: %w", err)
	}
	ce.SetCache(c)
	ce.AddFunction(sourceAllowedFunc, sourceAllowed(sources))
	return ce, nil
}

// sourceAllowed returns the matcher function sourceAllowed(sub, src): true
// when sub has no CIDR group or src (an address string) is in one of its
// prefixes. It runs only on a cache miss.
func sourceAllowed(sources map[string][]netip.Prefix) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		if len(args) != 2 {
			return false, fmt.Errorf("%s: want 2 arguments, got %d", sourceAllowedFunc, len(args))
		}
		sub, _ := args[0].(string)
		src, _ := args[1].(string)
		prefixes := sources[sub]
		if len(prefixes) == 0 {
			return true, nil
		}
		a, err := netip.ParseAddr(src)
		if err != nil {
			return false, nil
		}
		a = a.Unmap()
		for _, p := range prefixes {
			if p.Contains(a) {
				return true, nil
			}
		}
		return false, nil
	}
}

// memoryAdapter hands prepared policy lines to casbin. It is read-only:
// policy changes by building a new enforcer (Enforcer.Load), never by
// editing a live one.
type memoryAdapter [][]string

var _ persist.Adapter = memoryAdapter(nil)

var errReadOnly = errors.New("policy adapter is read-only")

// LoadPolicy loads every line into m.
func (a memoryAdapter) LoadPolicy(m model.Model) error {
	for _, line := range a {
		if err := persist.LoadPolicyArray(line, m); err != nil {
			return err
		}
	}
	return nil
}

// SavePolicy is not supported.
func (memoryAdapter) SavePolicy(model.Model) error { return errReadOnly }

// AddPolicy is not supported.
func (memoryAdapter) AddPolicy(string, string, []string) error { return errReadOnly }

// RemovePolicy is not supported.
func (memoryAdapter) RemovePolicy(string, string, []string) error { return errReadOnly }

// RemoveFilteredPolicy is not supported.
func (memoryAdapter) RemoveFilteredPolicy(string, string, int, ...string) error {
	return errReadOnly
}
