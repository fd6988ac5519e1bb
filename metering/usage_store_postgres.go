package metering

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/partner-platform/partnerd/ent/apikey"
	"github.com/partner-platform/partnerd/ent/usagedaily"
	"github.com/partner-platform/partnerd/ent/usagehourly"
	"github.com/partner-platform/partnerd/ent/usagelatency"
	"github.com/partner-platform/partnerd/ent/usageminute"
	"github.com/partner-platform/partnerd/ent/usagerecord"
)

// rawColumns are the raw-call columns every write sets, in the order of its arguments: the call,
// then the request log's detail (appendLogArgs).
var rawColumns = []string{"consumer_id", "key_id", "operation", "status", "cost", "latency_us", "chain", "request_id", "at",
	"method", "path", "status_group", "error_code", "source", "rate_remaining", "replayed", "error_body"}

// PostgreSQL rollup upserts take one array per column, so each is one statement, the same text
// (prepared once per connection) whatever the number of rows; unnest yields the rows in array order,
// so rows are locked in the order dailyRows and hourlyRows sort them.
var (
	pgDailyUpsert = `INSERT INTO "` + usagedaily.Table + `" ("consumer_id", "key_id", "day", "operation", "calls", "cost", "errors") ` +
		`SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[])` +
		dailyUpsertTail
	pgHourlyUpsert = `INSERT INTO "` + usagehourly.Table + `" ("consumer_id", "hour", "calls", "cost", "errors", "calls_2xx", "calls_4xx", "calls_429", "calls_5xx") ` +
		`SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[])` +
		hourlyUpsertTail
	pgMinuteUpsert = `INSERT INTO "` + usageminute.Table + `" ("consumer_id", "minute", "calls", "cost", "limited") ` +
		`SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[])` +
		minuteUpsertTail
	pgLatencyUpsert = `INSERT INTO "` + usagelatency.Table + `" ("consumer_id", "hour", "operation", "bucket", "calls") ` +
		`SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::bigint[], $5::bigint[])` +
		latencyUpsertTail
	pgLastUsed = `UPDATE "` + apikey.Table + `" SET "last_used_at" = $1 WHERE "id" = $2 AND ("last_used_at" IS NULL OR "last_used_at" < $1)`
)

// errNotPgx is copyUsage's answer on a pool whose driver is not pgx's stdlib: the caller writes
// through database/sql instead.
var errNotPgx = errors.New("not a pgx connection")

// copyUsage writes b in one pgx transaction on a connection of the pool: the raw calls through COPY
// (binary), then the rollup upserts and the keys' last use in one pipelined batch.
func (s *UsageStore) copyUsage(ctx context.Context, b UsageBatch) error {
	conn, err := s.sqlDB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errNotPgx
		}
		return pgx.BeginFunc(ctx, sc.Conn(), func(tx pgx.Tx) error {
			if len(b.Calls) > 0 {
				row := make([]any, len(rawColumns))
				src := pgx.CopyFromFunc(func() func() ([]any, error) {
					i := 0
					return func() ([]any, error) {
						if i == len(b.Calls) {
							return nil, nil
						}
						c := &b.Calls[i]
						i++
						row[0], row[1], row[2], row[3], row[4] = int64(c.ConsumerID), int64(c.KeyID), c.Operation, int64(c.Status), int64(c.Cost)
						row[5], row[6], row[7], row[8] = c.Latency.Microseconds(), c.Chain, c.RequestID, c.At
						appendLogArgs(row[:9], c)
						return row, nil
					}
				}())
				n, err := tx.CopyFrom(ctx, pgx.Identifier{usagerecord.Table}, rawColumns, src)
				if err != nil {
					return fmt.Errorf("copy raw calls: %w", err)
				}
				if n != int64(len(b.Calls)) {
					return fmt.Errorf("copy raw calls: copied %d of %d rows", n, len(b.Calls))
				}
			}
			batch := &pgx.Batch{}
			if daily := b.Rollups.dailyRows(); len(daily) > 0 {
				var cons, keys, calls, cost, errs []int64
				var days, ops []string
				for _, r := range daily {
					cons, keys = append(cons, int64(r.consumerID)), append(keys, int64(r.keyID))
					days, ops = append(days, r.day), append(ops, r.operation)
					calls, cost, errs = append(calls, r.Calls), append(cost, r.Cost), append(errs, r.Errors)
				}
				batch.Queue(pgDailyUpsert, cons, keys, days, ops, calls, cost, errs)
			}
			if hourly := b.Rollups.hourlyRows(); len(hourly) > 0 {
				var cons, calls, cost, errs, g2, g4, g429, g5 []int64
				var hours []time.Time
				for _, r := range hourly {
					cons, hours = append(cons, int64(r.consumerID)), append(hours, r.hour)
					calls, cost, errs = append(calls, r.Calls), append(cost, r.Cost), append(errs, r.Errors)
					g2, g4 = append(g2, r.groups.OK), append(g4, r.groups.Client)
					g429, g5 = append(g429, r.groups.Limited), append(g5, r.groups.Server)
				}
				batch.Queue(pgHourlyUpsert, cons, hours, calls, cost, errs, g2, g4, g429, g5)
			}
			if minutes := b.Rollups.minuteRows(); len(minutes) > 0 {
				var cons, calls, cost, limited []int64
				var at []time.Time
				for _, r := range minutes {
					cons, at = append(cons, int64(r.consumerID)), append(at, r.minute)
					calls, cost, limited = append(calls, r.calls), append(cost, r.cost), append(limited, r.limited)
				}
				batch.Queue(pgMinuteUpsert, cons, at, calls, cost, limited)
			}
			if lats := b.Rollups.latencyRows(); len(lats) > 0 {
				var cons, buckets, calls []int64
				var hours []time.Time
				var ops []string
				for _, r := range lats {
					cons, hours, ops = append(cons, int64(r.consumerID)), append(hours, r.hour), append(ops, r.operation)
					buckets, calls = append(buckets, int64(r.bucket)), append(calls, r.calls)
				}
				batch.Queue(pgLatencyUpsert, cons, hours, ops, buckets, calls)
			}
			for _, u := range b.Rollups.keyUses() {
				batch.Queue(pgLastUsed, u.at, int64(u.keyID))
			}
			if batch.Len() == 0 {
				return nil
			}
			if err := tx.SendBatch(ctx, batch).Close(); err != nil {
				return fmt.Errorf("upsert rollups: %w", err)
			}
			return nil
		})
	})
}
