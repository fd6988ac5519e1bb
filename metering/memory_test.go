package metering_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
)

func TestMemoryLimiter(t *testing.T) {
	meteringtest.Run(t, func(t *testing.T, clock func() time.Time) metering.Limiter {
		return metering.NewMemoryLimiter(metering.WithClock(clock))
	})
}

// BenchmarkMemoryReserveSettle measures one admitted Reserve plus its Settle,
// from parallel goroutines, on the real clock.
func BenchmarkMemoryReserveSettle(b *testing.B) {
	lim := metering.Limit{RatePerMinute: 1_000_000_000, Burst: 1_000_000_000}
	for _, bc := range []struct {
		name      string
		consumers int64
	}{
		{"consumers=1000", 1000},
		{"consumers=1", 1},
	} {
		b.Run(bc.name, func(b *testing.B) {
			l := metering.NewMemoryLimiter()
			var next atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				id := int(next.Add(1) % bc.consumers)
				for pb.Next() {
					r, err := l.Reserve(b.Context(), id, 1, lim)
					if err != nil {
						b.Fatal(err)
					}
					if err := l.Settle(b.Context(), r, false); err != nil {
						b.Fatal(err)
					}
					id = (id + 1) % int(bc.consumers)
				}
			})
		})
	}
}
