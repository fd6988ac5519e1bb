package migrations

import (
	"context"
	"database/sql"
	"fmt"

	"entgo.io/ent/dialect"
)

// lockPostgres takes the migration advisory lock on conn, waiting for a replica that holds it, and
// returns the function releasing it. A lock that cannot be released is dropped with its connection.
func lockPostgres(ctx context.Context, conn *sql.Conn) (unlock func(), err error) {
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", advisoryLockKey); err != nil {
		return nil, fmt.Errorf("take advisory lock: %w", err)
	}
	return func() {
		var released bool
		err := conn.QueryRowContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", advisoryLockKey).Scan(&released)
		if err != nil || !released {
			discard(conn)
		}
	}, nil
}

// applyPostgres applies f in one transaction; PostgreSQL's DDL is transactional, so a failing
// statement leaves nothing behind.
func applyPostgres(ctx context.Context, conn *sql.Conn, f pendingFile) (bool, error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	ok, err := runFile(ctx, tx, dialect.Postgres, f)
	if err != nil || !ok {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	return true, nil
}
