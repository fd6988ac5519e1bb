package metering_test

import (
	"context"
	"crypto/rand"
	"strconv"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/ent/usagedaily"
	"github.com/partner-platform/partnerd/ent/usagehourly"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// Shape of the BenchmarkReport1M fixture.
const (
	benchCalls     = 1_000_000
	benchKeys      = 5
	benchOps       = 30
	benchConsumers = 50     // one page of the operators' consumer list
	benchBatch     = 50_000 // calls per WriteCalls, one transaction each
)

// BenchmarkReport1M times the usage page's queries for a consumer with 1,000,000 recorded calls
// spread over the last 30 days across 5 keys and 30 operations, on SQLite: Report for 30 days over
// all keys and over one key, and Summaries for a page of 50 consumers (the 49 others with a call in
// every hour of the 30 days, so each has the most hourly rollups a consumer can have).
//
// The fixture is written through WriteCalls, so raw calls, daily and hourly rollups all exist. It is
// seeded once per run of the benchmark, before any timing; benchmarks run only under -bench, so plain
// `go test` never seeds it. Seeding takes tens of seconds; its duration and row counts are logged
// (shown with -v).
func BenchmarkReport1M(b *testing.B) {
	ctx := context.Background()
	st := storetest.SQLite(b)
	us := metering.NewUsageStore(st.Client, st.Dialect)
	now := time.Date(2030, time.May, 10, 17, 42, 0, 0, time.UTC)

	started := time.Now()
	big, keys, page, others := seedReport1M(b, st, us, now)
	seeded := time.Since(started)
	daily, err := st.Client.UsageDaily.Query().Where(usagedaily.ConsumerID(big)).Count(ctx)
	if err != nil {
		b.Fatal(err)
	}
	hourly, err := st.Client.UsageHourly.Query().Where(usagehourly.ConsumerID(big)).Count(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d calls for one consumer (+%d for %d others) in %v; its rollups: %d daily, %d hourly rows",
		benchCalls, others, benchConsumers-1, seeded.Round(time.Millisecond), daily, hourly)

	r, err := us.Report(ctx, big, 0, 30, now)
	if err != nil || r.Total.Calls != benchCalls || len(r.ByKey) != benchKeys || len(r.ByOperation) != benchOps {
		b.Fatalf("Report(30 days) = total %+v, %d keys, %d operations, %v", r.Total, len(r.ByKey), len(r.ByOperation), err)
	}

	b.Run("Report30d/all-keys", func(b *testing.B) {
		for b.Loop() {
			if _, err := us.Report(ctx, big, 0, 30, now); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Report30d/one-key", func(b *testing.B) {
		for b.Loop() {
			if _, err := us.Report(ctx, big, keys[2], 30, now); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Summaries/50-consumers", func(b *testing.B) {
		for b.Loop() {
			if _, err := us.Summaries(ctx, page, now); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// seedReport1M writes the fixture and returns the big consumer, its keys and the page of consumers.
func seedReport1M(b *testing.B, st *store.Store, us *metering.UsageStore, now time.Time) (big int, keys, page []int, others int) {
	ctx := context.Background()
	newConsumer := func(name string) int {
		c, err := st.Client.Consumer.Create().SetName(name).SetCreatedAt(now).SetUpdatedAt(now).Save(ctx)
		if err != nil {
			b.Fatal(err)
		}
		return c.ID
	}
	newKey := func(consumer int) int {
		h := make([]byte, 32)
		rand.Read(h)
		k, err := st.Client.APIKey.Create().SetConsumerID(consumer).SetName("k").SetHash(h).
			SetPrefix("pk_live_bench").SetCreatedAt(now).Save(ctx)
		if err != nil {
			b.Fatal(err)
		}
		return k.ID
	}
	ops := make([]string, benchOps)
	for i := range ops {
		ops[i] = "operation" + strconv.Itoa(i)
	}

	big = newConsumer("big")
	for range benchKeys {
		keys = append(keys, newKey(big))
	}
	// Evenly over the 30 UTC days ending today, up to now, in time order (as the recorder writes).
	y, m, d := now.Date()
	from := time.Date(y, m, d-29, 0, 0, 0, 0, time.UTC)
	step := now.Sub(from) / benchCalls
	batch := make([]metering.Call, 0, benchBatch)
	for i := range benchCalls {
		status := 200
		if i%50 == 0 {
			status = 502
		}
		batch = append(batch, metering.Call{ConsumerID: big, KeyID: keys[i%benchKeys], Operation: ops[i/benchKeys%benchOps],
			Status: status, Cost: 1 + i%3, Latency: time.Duration(i%900) * time.Microsecond, Chain: "base",
			RequestID: "req-" + strconv.Itoa(i), At: from.Add(time.Duration(i) * step)})
		if len(batch) == benchBatch || i == benchCalls-1 {
			if err := us.WriteCalls(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}

	page = append(page, big)
	hours := int(now.Sub(from)/time.Hour) + 1 // up to now's hour
	for i := 1; i < benchConsumers; i++ {
		c := newConsumer("other" + strconv.Itoa(i))
		k := newKey(c)
		page = append(page, c)
		for h := range hours { // one call in every hour of the 30 days
			batch = append(batch, metering.Call{ConsumerID: c, KeyID: k, Operation: ops[h%benchOps], Status: 200, Cost: 1,
				RequestID: "o" + strconv.Itoa(h), At: from.Add(time.Duration(h) * time.Hour)})
		}
	}
	if err := us.WriteCalls(ctx, batch); err != nil {
		b.Fatal(err)
	}
	return big, keys, page, len(batch)
}
