package metering

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/apikey"
	"github.com/partner-platform/partnerd/ent/usagedaily"
	"github.com/partner-platform/partnerd/ent/usagehourly"
	"github.com/partner-platform/partnerd/ent/usagelatencyband"
	"github.com/partner-platform/partnerd/ent/usageminute"
	"github.com/partner-platform/partnerd/ent/usagepage"
)

// UsageRetention is how long usage is kept and shown.
const UsageRetention = 30 * 24 * time.Hour

// MinuteRetention is how long the units-per-minute rollups are kept: the 24-hour view reads them.
const MinuteRetention = 48 * time.Hour

// UsageStore keeps usage in the database: raw calls in pages (usage_page.go) for the request log
// and request-id lookups; daily rollups per key and operation, and hourly rollups per consumer,
// which the console's usage page, the operators' consumer list and the CLI read (Report, Summaries,
// Daily), never the raw calls.
type UsageStore struct {
	db      *ent.Client
	dialect string
	sqlDB   *stdsql.DB // the pool beneath db, when given (WithDB): prepared inserts, one pipelined batch on PostgreSQL
	// latCache keeps the latency sums of settled hours (Analytics).
	latCache latencyCache
	// stmts keeps the write statements prepared on sqlDB (prepared): stmtKey to *sql.Stmt.
	stmts sync.Map
}

// UsageOption configures a UsageStore.
type UsageOption func(*UsageStore)

// WithDB gives the usage store the connection pool beneath its ent client (store.Store.DB). Writes
// then prepare their multi-row inserts once per transaction and, on PostgreSQL, send the whole write
// as one pipelined pgx batch. Without it they run through the ent client: multi-row inserts, unprepared.
func WithDB(db *stdsql.DB) UsageOption { return func(s *UsageStore) { s.sqlDB = db } }

// NewUsageStore returns a usage store on the client; dialect is the store's (entgo.io/ent/dialect).
func NewUsageStore(db *ent.Client, dialect string, opts ...UsageOption) *UsageStore {
	s := &UsageStore{db: db, dialect: dialect}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Hour is the start of the UTC hour of t, as hourly rollups name it.
func Hour(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

// Statement sizes: rows per multi-row statement, under SQLite's (32,766) and PostgreSQL's (65,535)
// bound-parameter limits.
const (
	pageRowsPerStmt   = 100   // 15 parameters a row
	rollupRowsPerStmt = 1_000 // at most 12 parameters a row
)

// WriteCalls stores calls and their rollup increments in one transaction (see WriteUsage).
func (s *UsageStore) WriteCalls(ctx context.Context, calls []Call) error {
	return s.WriteUsage(ctx, UsageBatch{Calls: calls, Rollups: RollupsOf(calls)})
}

// WriteUsage implements UsageWriter: the raw calls are encoded as pages (one or more per consumer,
// pagesOf) before anything is written; then one transaction inserts the pages, adds the rollup
// increments to the daily rollups (per key, UTC day and operation) and the hourly rollups (per
// consumer and UTC hour), and moves each key's last use forward. Rows are updated in a fixed order
// (daily rollups by key, day and operation, hourly rollups by consumer and hour, then keys by id), so
// replicas writing at once for the same consumer wait for each other's locks instead of deadlocking.
//
// Statements are multi-row INSERTs and upserts (ent's bulk create reads every new id back, which no
// one needs), prepared once per transaction when the store has its pool (WithDB); on PostgreSQL with
// the pool, one pipelined batch.
func (s *UsageStore) WriteUsage(ctx context.Context, b UsageBatch) error {
	if len(b.Calls) == 0 && b.Rollups.Calls() == 0 {
		return nil
	}
	if b.Rollups == nil {
		b.Rollups = &Rollups{}
	}
	pages, err := pagesOf(b.Calls)
	if err != nil {
		return fmt.Errorf("write usage: %w", err)
	}
	switch {
	case s.sqlDB != nil && s.dialect == dialect.Postgres:
		if err = s.batchUsage(ctx, pages, b.Rollups); errors.Is(err, errNotPgx) {
			err = s.writeSQLTx(ctx, pages, b.Rollups)
		}
	case s.sqlDB != nil:
		err = s.writeSQLTx(ctx, pages, b.Rollups)
	default:
		err = s.writeEntTx(ctx, pages, b.Rollups)
	}
	if err != nil {
		return fmt.Errorf("write usage: %w", err)
	}
	return nil
}

// execer runs statements in one transaction.
type execer struct {
	exec func(ctx context.Context, query string, args ...any) (stdsql.Result, error)
	// stmt runs a statement of the store's pool in the transaction (sql.Tx.StmtContext); nil
	// when the transaction is not on that pool.
	stmt func(ctx context.Context, st *stdsql.Stmt) *stdsql.Stmt
}

func (s *UsageStore) writeEntTx(ctx context.Context, pages []pageRow, r *Rollups) error {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return err
	}
	if err := s.writeRows(ctx, execer{exec: tx.ExecContext}, pages, r); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

func (s *UsageStore) writeSQLTx(ctx context.Context, pages []pageRow, r *Rollups) error {
	tx, err := s.sqlDB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := s.writeRows(ctx, execer{exec: tx.ExecContext, stmt: tx.StmtContext}, pages, r); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// Statement heads and tails; VALUES rows go between them.
var (
	dailyUpsertHead  = `INSERT INTO "` + usagedaily.Table + `" ("consumer_id", "key_id", "day", "operation", "calls", "cost", "errors") VALUES `
	dailyUpsertTail  = ` ON CONFLICT ("key_id", "day", "operation") DO UPDATE SET ` + addExcluded(usagedaily.Table, "calls", "cost", "errors")
	hourlyUpsertHead = `INSERT INTO "` + usagehourly.Table + `" ("consumer_id", "hour", "calls", "cost", "errors", "calls_2xx", "calls_4xx", "calls_429", "calls_5xx") VALUES `
	hourlyUpsertTail = ` ON CONFLICT ("consumer_id", "hour") DO UPDATE SET ` +
		addExcluded(usagehourly.Table, "calls", "cost", "errors", "calls_2xx", "calls_4xx", "calls_429", "calls_5xx")
	minuteUpsertHead  = `INSERT INTO "` + usageminute.Table + `" ("consumer_id", "minute", "calls", "cost", "limited") VALUES `
	minuteUpsertTail  = ` ON CONFLICT ("consumer_id", "minute") DO UPDATE SET ` + addExcluded(usageminute.Table, "calls", "cost", "limited")
	latencyUpsertHead = `INSERT INTO "` + usagelatencyband.Table + `" ("consumer_id", "hour", "operation", "band", "` +
		strings.Join(latencyBandColumns, `", "`) + `") VALUES `
	latencyUpsertTail = ` ON CONFLICT ("consumer_id", "hour", "operation", "band") DO UPDATE SET ` +
		addExcluded(usagelatencyband.Table, latencyBandColumns...)
)

// latencyBandColumns are a latency band's counts, bucket by bucket, as the schema names them.
var latencyBandColumns = func() []string {
	cols := make([]string, latencyBandWidth)
	for i := range cols {
		cols[i] = "calls" + strconv.Itoa(i)
	}
	return cols
}()

// addExcluded is the SET list adding the excluded row's columns to the table's.
func addExcluded(table string, cols ...string) string {
	var parts []string
	for _, c := range cols {
		parts = append(parts, fmt.Sprintf(`"%s" = "%s"."%s" + excluded."%s"`, c, table, c, c))
	}
	return strings.Join(parts, ", ")
}

// lastUsedUpdate moves a key's last use forward: args at, id, at.
func (s *UsageStore) lastUsedUpdate() string {
	return fmt.Sprintf(`UPDATE "%s" SET "last_used_at" = %s WHERE "id" = %s AND ("last_used_at" IS NULL OR "last_used_at" < %s)`,
		apikey.Table, s.param(1), s.param(2), s.param(3))
}

// param is the n-th (1-based) bound parameter in the store's dialect.
func (s *UsageStore) param(n int) string {
	if s.dialect == dialect.Postgres {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

// valuesQuery is head, rows tuples of cols parameters, then tail.
func (s *UsageStore) valuesQuery(head string, cols, rows int, tail string) string {
	var q strings.Builder
	q.Grow(len(head) + len(tail) + rows*cols*7)
	q.WriteString(head)
	n := 0
	for r := range rows {
		if r > 0 {
			q.WriteByte(',')
		}
		q.WriteByte('(')
		for c := range cols {
			if c > 0 {
				q.WriteByte(',')
			}
			n++
			q.WriteString(s.param(n))
		}
		q.WriteByte(')')
	}
	q.WriteString(tail)
	return q.String()
}

// execRows inserts n rows (appendArgs appends row i's cols arguments) in statements of at most
// perStmt rows, and below that of a power of two rows each, so a write uses a few statement texts
// of a few sizes. With the store's pool (x.stmt set) each text is prepared once per connection
// and kept (prepared), so a write parses no SQL.
func (s *UsageStore) execRows(ctx context.Context, x execer, head, tail string, cols, perStmt, n int,
	appendArgs func(args []any, i int) []any) error {
	args := make([]any, 0, min(n, perStmt)*cols)
	for i := 0; i < n; {
		m := min(perStmt, 1<<(bits.Len(uint(n-i))-1))
		args = args[:0]
		for j := i; j < i+m; j++ {
			args = appendArgs(args, j)
		}
		var err error
		if x.stmt != nil {
			var st *stdsql.Stmt
			if st, err = s.prepared(ctx, stmtKey{head, m}, func() string { return s.valuesQuery(head, cols, m, tail) }); err == nil {
				_, err = x.stmt(ctx, st).ExecContext(ctx, args...)
			}
		} else {
			_, err = x.exec(ctx, s.valuesQuery(head, cols, m, tail), args...)
		}
		if err != nil {
			return err
		}
		i += m
	}
	return nil
}

// stmtKey names a write statement: its head and its number of rows (the head names its tail), or
// a whole statement and 0.
type stmtKey struct {
	head string
	rows int
}

// prepared returns the statement named key, prepared on the store's pool from query() the first
// time (each connection prepares it when it first runs it) and kept for the store's life.
func (s *UsageStore) prepared(ctx context.Context, key stmtKey, query func() string) (*stdsql.Stmt, error) {
	if st, ok := s.stmts.Load(key); ok {
		return st.(*stdsql.Stmt), nil
	}
	st, err := s.sqlDB.PrepareContext(ctx, query())
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(key, st); loaded {
		st.Close()
		return prev.(*stdsql.Stmt), nil
	}
	return st, nil
}

func (s *UsageStore) writeRows(ctx context.Context, x execer, pages []pageRow, r *Rollups) error {
	err := s.execRows(ctx, x, pageInsertHead, "", len(pageColumnsWritten), pageRowsPerStmt, len(pages), func(a []any, i int) []any {
		return pages[i].args(a)
	})
	if err != nil {
		return err
	}
	daily := r.dailyRows()
	err = s.execRows(ctx, x, dailyUpsertHead, dailyUpsertTail, 7, rollupRowsPerStmt, len(daily), func(a []any, i int) []any {
		r := &daily[i]
		return append(a, r.consumerID, r.keyID, r.day, r.operation, r.Calls, r.Cost, r.Errors)
	})
	if err != nil {
		return err
	}
	hourly := r.hourlyRows()
	err = s.execRows(ctx, x, hourlyUpsertHead, hourlyUpsertTail, 9, rollupRowsPerStmt, len(hourly), func(a []any, i int) []any {
		r := &hourly[i]
		return append(a, r.consumerID, r.hour, r.Calls, r.Cost, r.Errors, r.groups.OK, r.groups.Client, r.groups.Limited, r.groups.Server)
	})
	if err != nil {
		return err
	}
	minutes := r.minuteRows()
	err = s.execRows(ctx, x, minuteUpsertHead, minuteUpsertTail, 5, rollupRowsPerStmt, len(minutes), func(a []any, i int) []any {
		r := &minutes[i]
		return append(a, r.consumerID, r.minute, r.calls, r.cost, r.limited)
	})
	if err != nil {
		return err
	}
	lats := r.latencyRows()
	err = s.execRows(ctx, x, latencyUpsertHead, latencyUpsertTail, 4+latencyBandWidth, rollupRowsPerStmt, len(lats), func(a []any, i int) []any {
		r := &lats[i]
		a = append(a, r.consumerID, r.hour, r.operation, r.band)
		for _, n := range r.calls {
			a = append(a, n)
		}
		return a
	})
	if err != nil {
		return err
	}
	uses := r.keyUses()
	if len(uses) == 0 {
		return nil
	}
	q := s.lastUsedUpdate()
	exec := x.exec
	if x.stmt != nil {
		st, err := s.prepared(ctx, stmtKey{head: q}, func() string { return q })
		if err != nil {
			return err
		}
		exec = func(ctx context.Context, _ string, args ...any) (stdsql.Result, error) {
			return x.stmt(ctx, st).ExecContext(ctx, args...)
		}
	}
	for _, u := range uses {
		at := u.at.UTC()
		if _, err := exec(ctx, q, at, u.keyID, at); err != nil {
			return err
		}
	}
	return nil
}

// prunePages deletes the consumer's pages whose last call is before cutoff and returns how many
// calls they held.
func (s *UsageStore) prunePages(ctx context.Context, consumerID int, cutoff time.Time) (int, error) {
	rows, err := s.db.QueryContext(ctx, `DELETE FROM "`+usagepage.Table+`" WHERE "consumer_id" = `+s.param(1)+
		` AND "last_at" < `+s.param(2)+` RETURNING "calls"`, consumerID, cutoff.UTC())
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var calls int
		if err := rows.Scan(&calls); err != nil {
			return n, err
		}
		n += calls
	}
	return n, rows.Err()
}

// Day is the UTC day of t as rollups name it.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// DailyUsage is one rollup row.
type DailyUsage struct {
	Day       string `json:"day"`
	KeyID     int    `json:"keyId"`
	Operation string `json:"operation"`
	Calls     int64  `json:"calls"`
	Cost      int64  `json:"cost"`
	Errors    int64  `json:"errors"`
}

// Daily returns the consumer's rollups for the days since `since` (inclusive), oldest first (by
// key and operation within a day); EachDaily streams them.
func (s *UsageStore) Daily(ctx context.Context, consumerID int, since time.Time) ([]DailyUsage, error) {
	out := []DailyUsage{}
	err := s.EachDaily(ctx, consumerID, 0, since, func(d DailyUsage) error {
		out = append(out, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RecentCall is one raw call of the recent-calls log.
type RecentCall struct {
	At        time.Time `json:"at"`
	KeyID     int       `json:"keyId"`
	Operation string    `json:"operation"`
	Status    int       `json:"status"`
	Cost      int       `json:"cost"`
	LatencyUs int64     `json:"latencyUs"`
	Chain     string    `json:"chain,omitempty"`
	RequestID string    `json:"requestId"`
}

// RecentFilter narrows the recent-calls log.
type RecentFilter struct {
	KeyID     int    // 0: every key of the consumer
	RequestID string // "": every call
}

// Recent returns the consumer's newest calls matching f, newest first.
func (s *UsageStore) Recent(ctx context.Context, consumerID int, f RecentFilter, limit int) ([]RecentCall, error) {
	out := []RecentCall{}
	if limit <= 0 {
		return out, nil
	}
	r := &logRead{consumerID: consumerID, f: LogFilter{KeyID: f.KeyID}, requestID: f.RequestID, older: true, chunk: 4}
	err := s.eachCall(ctx, r, func(c LogCall) bool {
		out = append(out, RecentCall{At: c.At, KeyID: c.KeyID, Operation: c.Operation, Status: c.Status, Cost: c.Cost,
			LatencyUs: c.LatencyUs, Chain: c.Chain, RequestID: c.RequestID})
		return len(out) < limit
	})
	if err != nil {
		return nil, fmt.Errorf("read recent calls: %w", err)
	}
	return out, nil
}

// Prune deletes usage older than the retention before now and returns how many raw calls it deleted:
// the pages whose calls are all before now-UsageRetention (a page straddling the cutoff stays until
// its last call is that old), and the rollups wholly before it (the daily rollups of earlier
// UTC days, the hourly rollups and latency histograms of earlier UTC hours; the rollups of the
// cutoff's own day and hour stay), and the units-per-minute rollups older than MinuteRetention.
func (s *UsageStore) Prune(ctx context.Context, now time.Time) (int, error) {
	cutoff := now.Add(-UsageRetention)
	// Consumer by consumer, on the (consumer_id, last_at) index: the table has no index on time
	// alone. Consumers are never deleted, so none is missed.
	consumers, err := s.db.Consumer.Query().IDs(ctx)
	if err != nil {
		return 0, fmt.Errorf("prune usage: %w", err)
	}
	n := 0
	for _, id := range consumers {
		m, err := s.prunePages(ctx, id, cutoff)
		if err != nil {
			return n, fmt.Errorf("prune usage: %w", err)
		}
		n += m
	}
	if _, err := s.db.UsageDaily.Delete().Where(usagedaily.DayLT(Day(cutoff))).Exec(ctx); err != nil {
		return n, fmt.Errorf("prune usage rollups: %w", err)
	}
	if _, err := s.db.UsageHourly.Delete().Where(usagehourly.HourLT(Hour(cutoff))).Exec(ctx); err != nil {
		return n, fmt.Errorf("prune hourly usage rollups: %w", err)
	}
	if _, err := s.db.UsageLatencyBand.Delete().Where(usagelatencyband.HourLT(Hour(cutoff))).Exec(ctx); err != nil {
		return n, fmt.Errorf("prune latency rollups: %w", err)
	}
	if _, err := s.db.UsageMinute.Delete().Where(usageminute.MinuteLT(now.Add(-MinuteRetention).UTC().Truncate(time.Minute))).Exec(ctx); err != nil {
		return n, fmt.Errorf("prune minute rollups: %w", err)
	}
	return n, nil
}
