package metering_test

import (
	"context"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// benchListConsumers is how many consumers the consumer-list benchmark seeds, each with an hourly
// rollup in every hour of the 30 days (the most a consumer can have).
const benchListConsumers = 1000

// BenchmarkConsumerActivities times the operators' consumer list query (ConsumerActivities: every
// consumer's 24-hour figures in one GROUP BY) over 1,000 consumers × 720 hourly rollups
// (720,000 rows), on SQLite and PostgreSQL. Seeding runs before any timing, only under -bench.
func BenchmarkConsumerActivities(b *testing.B) {
	for _, backend := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(backend.name, func(b *testing.B) {
			ctx := context.Background()
			st := backend.open(b)
			now := time.Date(2030, time.May, 10, 17, 42, 0, 0, time.UTC)
			hours := metering.MaxReportDays * 24
			started := time.Now()
			for c := 1; c <= benchListConsumers; c++ {
				rows := make([]*ent.UsageHourlyCreate, 0, hours)
				for h := range hours {
					rows = append(rows, st.Client.UsageHourly.Create().SetConsumerID(c).SetHour(metering.Hour(now).Add(-time.Duration(h)*time.Hour)).
						SetCalls(10).SetCost(12).SetErrors(2).SetCalls429(1).SetCalls4xx(1).SetCalls2xx(8))
				}
				if err := st.Client.UsageHourly.CreateBulk(rows...).Exec(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.Logf("seeded %d hourly rollups in %v", benchListConsumers*hours, time.Since(started).Round(time.Millisecond))
			us := metering.NewUsageStore(st.Client, st.Dialect)
			b.ResetTimer()
			for b.Loop() {
				acts, err := us.ConsumerActivities(ctx, now)
				if err != nil || len(acts) != benchListConsumers || acts[1].Last24h.Calls != 240 {
					b.Fatalf("ConsumerActivities: %d consumers, %+v, %v", len(acts), acts[1], err)
				}
			}
		})
	}
}
