package policy

import (
	"fmt"
	"net/netip"
)

// specOperations is the protected operation table of the partner API spec
// (section 4): 16 market reads, 4 portfolio reads, 3 quote/status, 13
// builders.
func specOperations() []Operation {
	var ops []Operation
	add := func(scope string, ids ...string) {
		for _, id := range ids {
			ops = append(ops, Operation{ID: id, Scope: scope})
		}
	}
	add("market:read",
		"tokens.search", "tokens.get", "tokens.price", "tokens.history",
		"tokens.stats", "tokens.holders", "tokens.trades", "tokens.topTraders",
		"markets.trending", "pools.hot", "pools.new", "pools.get",
		"pools.reserves", "pools.bins", "pools.chart", "pools.audit")
	add("portfolio:read",
		"portfolio.holdings", "portfolio.holdingsBatch",
		"portfolio.positions", "portfolio.positionsBatch")
	add("quote:read", "quotes.swap", "quotes.bridge", "transactions.status")
	add("tx:build",
		"build.swap", "build.bridge", "build.transfer",
		"build.lp.create", "build.lp.add", "build.lp.increase", "build.lp.remove",
		"build.lp.harvest", "build.lp.compound", "build.lp.rebalance",
		"build.lp.migrate", "build.lp.farm", "build.confirm")
	return ops
}

var allScopes = []string{"market:read", "portfolio:read", "quote:read", "tx:build"}

// manyConsumers returns n consumers with 2-4 scopes, two disabled
// operations and three CIDRs each (every other consumer unrestricted).
func manyConsumers(n int) []Consumer {
	ops := specOperations()
	cs := make([]Consumer, n)
	for i := range cs {
		c := Consumer{ID: i + 1}
		c.Scopes = append(c.Scopes, allScopes[:2+i%3]...)
		c.DisabledOperations = []string{ops[(i*7)%len(ops)].ID, ops[(i*11+3)%len(ops)].ID}
		if i%2 == 0 {
			c.Sources = []netip.Prefix{
				netip.MustParsePrefix(fmt.Sprintf("10.%d.%d.0/24", i/256, i%256)),
				netip.MustParsePrefix(fmt.Sprintf("192.0.2.%d/32", i%256)),
				netip.MustParsePrefix(fmt.Sprintf("2001:db8:%x::/48", i)),
			}
		}
		cs[i] = c
	}
	return cs
}
