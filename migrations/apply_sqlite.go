package migrations

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"entgo.io/ent/dialect"
)

// applySQLite applies f in one BEGIN IMMEDIATE transaction, so a second process migrating the same
// file waits for the write lock (busy_timeout) and then finds f applied.
//
// Foreign keys are switched off around the transaction, as SQLite's table-rebuild procedure requires
// (PRAGMA foreign_keys is a no-op inside a transaction, so the pragmas Atlas writes into such files
// do nothing), and PRAGMA foreign_key_check must pass before the commit.
func applySQLite(ctx context.Context, conn *sql.Conn, f pendingFile) (ok bool, err error) {
	var fk int
	if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return false, fmt.Errorf("read foreign_keys: %w", err)
	}
	if fk == 1 {
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
			return false, fmt.Errorf("foreign_keys off: %w", err)
		}
		defer func() {
			if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON"); rerr != nil {
				discard(conn)
				err = errors.Join(err, fmt.Errorf("foreign_keys on: %w", rerr))
			}
		}()
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return false, fmt.Errorf("begin: %w", err)
	}
	committed := false
	defer func() {
		if committed {
			return
		}
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
			discard(conn)
			err = errors.Join(err, fmt.Errorf("rollback: %w", rerr))
		}
	}()
	if ok, err = runFile(ctx, conn, dialect.SQLite, f); err != nil || !ok {
		return false, err
	}
	if err := foreignKeyCheck(ctx, conn); err != nil {
		return false, err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	committed = true
	return true, nil
}

// foreignKeyCheck fails when any row violates a foreign key.
func foreignKeyCheck(ctx context.Context, conn *sql.Conn) error {
	rows, err := conn.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return fmt.Errorf("foreign_key_check: %w", err)
	}
	defer rows.Close()
	if rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fkid int
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			return fmt.Errorf("foreign_key_check: %w", err)
		}
		return fmt.Errorf("foreign key violation: a row of %s (rowid %d) references a missing row of %s", table, rowid.Int64, parent)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("foreign_key_check: %w", err)
	}
	return nil
}
