package policy

import (
	"net/netip"
	"slices"
	"testing"
)

// warmRequests returns n requests spread over the consumers of
// manyConsumers: allowed ones, or (denied) ones failing one of the checks.
func warmRequests(consumers []Consumer, n int, denied bool) []request {
	ops := specOperations()
	reqs := make([]request, 0, n)
	for i := 0; len(reqs) < n; i++ {
		c := consumers[(i*37)%len(consumers)]
		op := ops[i%len(ops)]
		src := netip.MustParseAddr("198.18.0.1")
		if len(c.Sources) > 0 {
			src = c.Sources[i%len(c.Sources)].Addr()
			if denied && i%3 == 0 {
				src = netip.MustParseAddr("198.18.0.1")
			}
		}
		r := request{c.ID, op.ID, src}
		if allowed := slices.Contains(c.Scopes, op.Scope) &&
			!slices.Contains(c.DisabledOperations, op.ID) &&
			(len(c.Sources) == 0 || src != netip.MustParseAddr("198.18.0.1")); allowed != denied {
			reqs = append(reqs, r)
		}
	}
	return reqs
}

type request struct {
	id  int
	op  string
	src netip.Addr
}

// BenchmarkDecide is a warm allowed decision with 1,000 consumers loaded:
// the request's key is already in the decision cache. Half the consumers
// have an allowlist, so half the requests carry a source in the key.
func BenchmarkDecide(b *testing.B) {
	consumers := manyConsumers(1000)
	benchmarkWarm(b, consumers, warmRequests(consumers, 4096, false), Allow)
}

// BenchmarkDecideDenied is a warm denial (any of the three reasons): the
// deny path re-asks casbin per check, each answer again from the cache.
func BenchmarkDecideDenied(b *testing.B) {
	consumers := manyConsumers(1000)
	benchmarkWarm(b, consumers, warmRequests(consumers, 4096, true), -1)
}

func benchmarkWarm(b *testing.B, consumers []Consumer, reqs []request, want Decision) {
	e := newTestEnforcer(b, consumers)
	for _, r := range reqs {
		if got := e.Decide(r.id, r.op, r.src); (want == Allow) != (got == Allow) {
			b.Fatalf("Decide(%d, %s, %v) = %v", r.id, r.op, r.src, got)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r := reqs[i%len(reqs)]
		e.Decide(r.id, r.op, r.src)
	}
}

// BenchmarkDecideCold is the first decision for its key after a Load, with
// 1,000 consumers loaded. Each iteration asks a (consumer, operation) pair
// not asked since the last Load; when all pairs are used the policy is
// reloaded outside the timer.
func BenchmarkDecideCold(b *testing.B) {
	consumers := manyConsumers(1000)
	e := newTestEnforcer(b, consumers)
	ops := specOperations()
	src := netip.MustParseAddr("10.0.0.9")
	pairs := len(consumers) * len(ops)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := i % pairs
		if k == 0 && i > 0 {
			b.StopTimer()
			if err := e.Load(consumers); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		e.Decide(1+k%len(consumers), ops[k/len(consumers)].ID, src)
	}
}

// BenchmarkLoad builds and swaps in a policy of 1,000 consumers.
func BenchmarkLoad(b *testing.B) {
	consumers := manyConsumers(1000)
	e := newTestEnforcer(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if err := e.Load(consumers); err != nil {
			b.Fatal(err)
		}
	}
}
