package migrations

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
)

// versionTable records applied migrations: one row per version.
const versionTable = "partner_schema_migrations"

// advisoryLockKey is the PostgreSQL advisory lock held while migrating: "partnerd" as a big-endian
// int64. Advisory locks are per database, so separate databases on one server do not contend.
const advisoryLockKey int64 = 0x706172746e657264

// pendingFile is a migration file, lexed into statements before anything is applied.
type pendingFile struct {
	version, name string
	stmts         []string
}

// sqlConn is what both *sql.Conn and *sql.Tx offer.
type sqlConn interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// applyDir is Apply over any migration directory: it validates atlas.sum, lexes every file, then
// applies the pending ones on one dedicated connection.
func applyDir(ctx context.Context, db *sql.DB, dialectName string, dir migrate.Dir) (applied []string, err error) {
	if dialectName != dialect.SQLite && dialectName != dialect.Postgres {
		return nil, fmt.Errorf("apply migrations: unsupported dialect %q (want %q or %q)", dialectName, dialect.SQLite, dialect.Postgres)
	}
	files, err := readDir(dir)
	if err != nil {
		return nil, fmt.Errorf("apply migrations: %w", err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("apply migrations: connect: %w", err)
	}
	defer conn.Close()
	if dialectName == dialect.Postgres {
		unlock, err := lockPostgres(ctx, conn)
		if err != nil {
			return nil, fmt.Errorf("apply migrations: %w", err)
		}
		defer unlock()
	}
	if _, err := conn.ExecContext(ctx, createVersionTable(dialectName)); err != nil {
		return nil, fmt.Errorf("apply migrations: create %s: %w", versionTable, err)
	}
	for _, f := range files {
		var ok bool
		if dialectName == dialect.SQLite {
			ok, err = applySQLite(ctx, conn, f)
		} else {
			ok, err = applyPostgres(ctx, conn, f)
		}
		if err != nil {
			return applied, fmt.Errorf("apply migration %s: %w", f.name, err)
		}
		if ok {
			applied = append(applied, f.version)
		}
	}
	return applied, nil
}

// readDir checks atlas.sum against the files and lexes each file into statements.
func readDir(dir migrate.Dir) ([]pendingFile, error) {
	if err := migrate.Validate(dir); err != nil {
		return nil, sumError(err)
	}
	files, err := dir.Files()
	if err != nil {
		return nil, fmt.Errorf("list migration files: %w", err)
	}
	seen := make(map[string]string, len(files))
	out := make([]pendingFile, 0, len(files))
	for _, f := range files {
		v := f.Version()
		if v == "" {
			return nil, fmt.Errorf("migration %s has no version", f.Name())
		}
		if other, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %s and %s share version %s", other, f.Name(), v)
		}
		seen[v] = f.Name()
		if d, ok := f.(interface{ Directive(string) []string }); ok {
			if m := d.Directive("txmode"); len(m) > 0 && m[0] != "file" {
				return nil, fmt.Errorf("migration %s: atlas:txmode %s is not supported: every file runs in one transaction", f.Name(), m[0])
			}
		}
		stmts, err := f.Stmts()
		if err != nil {
			return nil, fmt.Errorf("migration %s: split statements: %w", f.Name(), err)
		}
		out = append(out, pendingFile{version: v, name: f.Name(), stmts: stmts})
	}
	return out, nil
}

// sumError explains an atlas.sum failure.
func sumError(err error) error {
	var ce *migrate.ChecksumError
	switch {
	case errors.As(err, &ce):
		return fmt.Errorf("atlas.sum does not match the migration files (%s %s; regenerate with go run ./migrations/diff.go, never edit a migration by hand): %w", ce.File, ce.Reason, err)
	case errors.Is(err, migrate.ErrChecksumNotFound):
		return fmt.Errorf("atlas.sum is missing: %w", err)
	case errors.Is(err, migrate.ErrChecksumMismatch), errors.Is(err, migrate.ErrChecksumFormat):
		return fmt.Errorf("atlas.sum is corrupt: %w", err)
	}
	return fmt.Errorf("validate migration directory: %w", err)
}

// createVersionTable is the DDL of the version table in a dialect.
func createVersionTable(dialectName string) string {
	ts := "timestamp"
	if dialectName == dialect.Postgres {
		ts = "timestamptz"
	}
	return "CREATE TABLE IF NOT EXISTS " + versionTable +
		" (version text NOT NULL PRIMARY KEY, applied_at " + ts + " NOT NULL DEFAULT CURRENT_TIMESTAMP)"
}

// runFile checks, inside the open transaction, that f is still pending, runs its statements and
// records its version. It reports false when f was applied already (by a concurrent process).
func runFile(ctx context.Context, c sqlConn, dialectName string, f pendingFile) (bool, error) {
	ph := "?"
	if dialectName == dialect.Postgres {
		ph = "$1"
	}
	var n int
	if err := c.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+versionTable+" WHERE version = "+ph, f.version).Scan(&n); err != nil {
		return false, fmt.Errorf("read %s: %w", versionTable, err)
	}
	if n > 0 {
		return false, nil
	}
	for i, s := range f.stmts {
		if _, err := c.ExecContext(ctx, s); err != nil {
			return false, fmt.Errorf("statement %d: %w", i+1, err)
		}
	}
	if _, err := c.ExecContext(ctx, "INSERT INTO "+versionTable+" (version) VALUES ("+ph+")", f.version); err != nil {
		return false, fmt.Errorf("record version: %w", err)
	}
	return true, nil
}

// discard makes database/sql close conn instead of returning it to the pool, for a connection left
// in a state the pool must not see (a lock held, a pragma off, a transaction open).
func discard(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
}
