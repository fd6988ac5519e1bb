package access_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// Shape of the audit benchmark's log.
const (
	benchAuditEntries   = 200_000
	benchAuditConsumers = 100
	benchAuditActors    = 5
)

var benchAuditActions = []string{"consumer.update", "consumer.disable", "consumer.enable", "key.create", "key.revoke", "key.rename", "user.create", "key.end_grace"}

// BenchmarkAuditPage times one page (50 entries) of the operators' audit log over 200,000 entries
// (100 consumers, 5 actors, 8 actions), on SQLite and PostgreSQL: the newest page unfiltered, by
// consumer, by actor, by action, by all three, and a page deep in the log (by its cursor). Seeding
// runs before any timing, only under -bench.
func BenchmarkAuditPage(b *testing.B) {
	for _, backend := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(backend.name, func(b *testing.B) {
			ctx := context.Background()
			st := backend.open(b)
			started := time.Now()
			at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
			const batch = 2000
			for i := 0; i < benchAuditEntries; i += batch {
				rows := make([]*ent.AuditEntryCreate, 0, batch)
				for j := i; j < i+batch; j++ {
					rows = append(rows, st.Client.AuditEntry.Create().SetActor(fmt.Sprintf("operator:op%d@example.com", j%benchAuditActors)).
						SetAction(benchAuditActions[j%len(benchAuditActions)]).SetConsumerID(1+j%benchAuditConsumers).
						SetTarget(fmt.Sprintf("key %d", 1+j%500)).SetAt(at.Add(time.Duration(j)*time.Second)))
				}
				if err := st.Client.AuditEntry.CreateBulk(rows...).Exec(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.Logf("seeded %d audit entries in %v", benchAuditEntries, time.Since(started).Round(time.Millisecond))
			svc := access.NewService(st.Client)
			op := access.Operator("bench")
			// A cursor 80,000 entries down: the position after entry j (ids are 1..n in seeding order),
			// written as AuditPageOf writes it.
			j := benchAuditEntries - 80_000
			deep := access.AuditPage{Next: fmt.Sprintf("%d-%d", at.Add(time.Duration(j)*time.Second).UnixNano(), j+1)}
			for _, c := range []struct {
				name   string
				f      access.AuditFilter
				cursor string
			}{
				{"newest", access.AuditFilter{}, ""},
				{"consumer", access.AuditFilter{ConsumerID: 42}, ""},
				{"actor", access.AuditFilter{Actor: "operator:op3@example.com"}, ""},
				{"action", access.AuditFilter{Action: "key.revoke"}, ""},
				{"all-three", access.AuditFilter{ConsumerID: 42, Actor: "operator:op1@example.com", Action: "consumer.disable"}, ""},
				{"deep", access.AuditFilter{}, deep.Next},
				{"deep-consumer", access.AuditFilter{ConsumerID: 42}, deep.Next},
			} {
				b.Run(c.name, func(b *testing.B) {
					for b.Loop() {
						p, err := svc.AuditPageOf(ctx, op, c.f, c.cursor, access.DefaultAuditPageSize)
						if err != nil || len(p.Entries) == 0 {
							b.Fatalf("AuditPageOf(%+v): %d entries, %v", c.f, len(p.Entries), err)
						}
					}
				})
			}
		})
	}
}
