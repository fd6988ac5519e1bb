package metering

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/partner-platform/partnerd/ent/apikey"
)

// PostgreSQL rollup upserts take one array per column, so each is one statement, the same text
// (prepared once per connection) whatever the number of rows; unnest yields the rows in array order,
// so rows are locked in the order dailyRows and hourlyRows sort them.
var (
	pgDailyUpsert  = pgUnnestUpsert(dailyUpsertHead, dailyUpsertTail, "bigint", "bigint", "text", "text", "bigint", "bigint", "bigint")
	pgHourlyUpsert = pgUnnestUpsert(hourlyUpsertHead, hourlyUpsertTail, "bigint", "timestamptz",
		"bigint", "bigint", "bigint", "bigint", "bigint", "bigint", "bigint")
	pgMinuteUpsert  = pgUnnestUpsert(minuteUpsertHead, minuteUpsertTail, "bigint", "timestamptz", "bigint", "bigint", "bigint")
	pgLatencyUpsert = pgUnnestUpsert(latencyUpsertHead, latencyUpsertTail,
		append([]string{"bigint", "timestamptz", "text", "bigint"}, slices.Repeat([]string{"bigint"}, latencyBandWidth)...)...)
	pgPageInsert = (&UsageStore{dialect: dialect.Postgres}).valuesQuery(pageInsertHead, len(pageColumnsWritten), 1, "")
	pgLastUsed   = `UPDATE "` + apikey.Table + `" SET "last_used_at" = $1 WHERE "id" = $2 AND ("last_used_at" IS NULL OR "last_used_at" < $1)`
)

// pgUnnestUpsert is the upsert of head and tail (a multi-row INSERT's, less its VALUES) with its
// rows from parameters $1, $2, ...: one array each, of the column types.
func pgUnnestUpsert(head, tail string, types ...string) string {
	params := make([]string, len(types))
	for i, t := range types {
		params[i] = "$" + strconv.Itoa(i+1) + "::" + t + "[]"
	}
	return strings.TrimSuffix(head, "VALUES ") + "SELECT * FROM unnest(" + strings.Join(params, ", ") + ")" + tail
}

// errNotPgx is copyUsage's answer on a pool whose driver is not pgx's stdlib: the caller writes
// through database/sql instead.
var errNotPgx = errors.New("not a pgx connection")

// batchUsage writes pages and rollup increments in one pgx transaction on a connection of the
// pool: every statement in one pipelined batch, so the write costs one round trip and the commit.
func (s *UsageStore) batchUsage(ctx context.Context, pages []pageRow, r *Rollups) error {
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
			batch := &pgx.Batch{}
			for i := range pages {
				batch.Queue(pgPageInsert, pages[i].args(nil)...)
			}
			if daily := r.dailyRows(); len(daily) > 0 {
				var cons, keys, calls, cost, errs []int64
				var days, ops []string
				for _, r := range daily {
					cons, keys = append(cons, int64(r.consumerID)), append(keys, int64(r.keyID))
					days, ops = append(days, r.day), append(ops, r.operation)
					calls, cost, errs = append(calls, r.Calls), append(cost, r.Cost), append(errs, r.Errors)
				}
				batch.Queue(pgDailyUpsert, cons, keys, days, ops, calls, cost, errs)
			}
			if hourly := r.hourlyRows(); len(hourly) > 0 {
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
			if minutes := r.minuteRows(); len(minutes) > 0 {
				var cons, calls, cost, limited []int64
				var at []time.Time
				for _, r := range minutes {
					cons, at = append(cons, int64(r.consumerID)), append(at, r.minute)
					calls, cost, limited = append(calls, r.calls), append(cost, r.cost), append(limited, r.limited)
				}
				batch.Queue(pgMinuteUpsert, cons, at, calls, cost, limited)
			}
			if lats := r.latencyRows(); len(lats) > 0 {
				var cons, bands []int64
				var calls [latencyBandWidth][]int64 // by bucket of the band
				var hours []time.Time
				var ops []string
				for _, r := range lats {
					cons, hours, ops = append(cons, int64(r.consumerID)), append(hours, r.hour), append(ops, r.operation)
					bands = append(bands, int64(r.band))
					for i, n := range r.calls {
						calls[i] = append(calls[i], n)
					}
				}
				args := []any{cons, hours, ops, bands}
				for _, c := range calls {
					args = append(args, c)
				}
				batch.Queue(pgLatencyUpsert, args...)
			}
			for _, u := range r.keyUses() {
				batch.Queue(pgLastUsed, u.at, int64(u.keyID))
			}
			if batch.Len() == 0 {
				return nil
			}
			if err := tx.SendBatch(ctx, batch).Close(); err != nil {
				return fmt.Errorf("write pages and rollups: %w", err)
			}
			return nil
		})
	})
}
