package metering

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"entgo.io/ent/dialect"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/usagerecord"
)

// moveBatch is how many raw rows one step of MoveRawCalls pages. Deleting a row with its indexes
// costs far more than paging it, so a step of 5,000 holds SQLite's write lock about as long as a
// recorder's write does.
const moveBatch = 5_000

// MoveRawCalls moves the calls that releases before usage pages kept one row each (the
// usage_records table) into pages, and returns how many it moved. Each step takes the oldest rows
// (by id), deletes them and writes their pages in one transaction, so a step that fails leaves
// them where they were, and replicas moving at once never page a row twice: on PostgreSQL each
// claims rows the others have not locked; SQLite has one writer. Their rollups were counted when
// they were written and are left alone. It stops when none is left or ctx ends.
func (s *UsageStore) MoveRawCalls(ctx context.Context) (int, error) {
	moved := 0
	for {
		start := time.Now()
		n, err := s.moveRawStep(ctx)
		moved += n
		if err != nil {
			return moved, fmt.Errorf("move raw calls into pages: %w", err)
		}
		if err := s.yieldWriteLock(ctx, time.Since(start)); err != nil {
			return moved, fmt.Errorf("move raw calls into pages: %w", err)
		}
		if n == 0 {
			left, err := s.db.UsageRecord.Query().Exist(ctx)
			if err != nil || !left {
				return moved, err
			}
			// Rows are left that another mover holds (SKIP LOCKED): wait for its step to end.
			if err := sleep(ctx, 100*time.Millisecond); err != nil {
				return moved, fmt.Errorf("move raw calls into pages: %w", err)
			}
		}
	}
}

// yieldWriteLock pauses, on SQLite, as long as the write before it took: SQLite's busy handler
// polls, so a loop of back-to-back transactions would keep its write lock from the recorder's
// writes (and another mover's) until they gave up with SQLITE_BUSY. PostgreSQL locks rows, not
// the database, and does not pause.
func (s *UsageStore) yieldWriteLock(ctx context.Context, took time.Duration) error {
	if s.dialect != dialect.SQLite {
		return nil
	}
	return sleep(ctx, took)
}

// sleep waits d, or less when ctx ends first (then its error).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// moveRawQuery deletes the oldest raw rows and returns them.
func (s *UsageStore) moveRawQuery() string {
	pick := `SELECT "id" FROM "` + usagerecord.Table + `" ORDER BY "id" LIMIT ` + strconv.Itoa(moveBatch)
	if s.dialect == dialect.Postgres {
		pick += ` FOR UPDATE SKIP LOCKED`
	}
	return `DELETE FROM "` + usagerecord.Table + `" WHERE "id" IN (` + pick + `) RETURNING "consumer_id", "key_id", "operation", ` +
		`"status", "cost", "latency_us", "chain", "request_id", "at", "method", "path", "error_code", "source", "rate_remaining", ` +
		`"replayed", "error_body"`
}

func (s *UsageStore) moveRawStep(ctx context.Context) (int, error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return 0, err
	}
	calls, err := s.takeRawRows(ctx, tx.QueryContext)
	if err == nil {
		_, err = s.insertPages(ctx, tx, calls)
	}
	if err != nil {
		return 0, fmt.Errorf("%w (rolled back: %v)", err, tx.Rollback())
	}
	return len(calls), tx.Commit()
}

// insertPages writes calls as pages (pagesOf) in tx, without rollups, and returns how many.
func (s *UsageStore) insertPages(ctx context.Context, tx *ent.Tx, calls []Call) (int, error) {
	pages, err := pagesOf(calls)
	if err != nil {
		return 0, err
	}
	return len(pages), s.writeRows(ctx, execer{exec: tx.ExecContext}, pages, &Rollups{})
}

// takeRawRows runs moveRawQuery and reads the rows it deleted as calls.
func (s *UsageStore) takeRawRows(ctx context.Context, query func(context.Context, string, ...any) (*stdsql.Rows, error)) ([]Call, error) {
	rows, err := query(ctx, s.moveRawQuery())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var calls []Call
	for rows.Next() {
		var c Call
		var latency int64
		var source string
		var rate stdsql.NullInt64
		if err := rows.Scan(&c.ConsumerID, &c.KeyID, &c.Operation, &c.Status, &c.Cost, &latency, &c.Chain, &c.RequestID, &c.At,
			&c.Method, &c.Path, &c.ErrorCode, &source, &rate, &c.Replayed, &c.ErrorBody); err != nil {
			return nil, err
		}
		c.Latency = time.Duration(latency) * time.Microsecond
		c.Source, _ = netip.ParseAddr(source) // "" (unknown) stays the zero address
		if rate.Valid {
			n := int(rate.Int64)
			c.RateRemaining = &n
		}
		calls = append(calls, c)
	}
	return calls, rows.Err()
}
