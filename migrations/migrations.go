// Package migrations holds the versioned SQL migrations generated from the ent schema, one directory
// per dialect (sqlite/, postgres/) in Atlas's directory format with its atlas.sum, and applies them.
//
// Apply is a small applier of our own; no Atlas binary is needed at run time. It records applied
// versions in the table partner_schema_migrations, checks atlas.sum before doing anything, runs each
// pending file in one transaction, and on PostgreSQL holds an advisory lock meanwhile so replicas
// starting together apply each file once.
//
// New migrations are generated from ent/schema with
//
//	go run ./migrations/diff.go -name <name>
//
// and drift between schema and directory is checked with
//
//	go run ./migrations/diff.go -check
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
)

//go:embed sqlite postgres
var embedded embed.FS

// Apply applies the embedded migrations of dialectName (dialect.SQLite or dialect.Postgres from
// entgo.io/ent/dialect) that db has not applied yet, in version order, and returns the versions it
// applied: none when db is current, so applying twice is a no-op. On error, the versions before the
// failing one stay applied and are returned with it; the failing file leaves nothing behind.
func Apply(ctx context.Context, db *sql.DB, dialectName string) (applied []string, err error) {
	dir, err := embeddedDir(dialectName)
	if err != nil {
		return nil, fmt.Errorf("apply migrations: %w", err)
	}
	return applyDir(ctx, db, dialectName, dir)
}

// embeddedDir returns the embedded directory of a dialect as an Atlas directory.
func embeddedDir(dialectName string) (migrate.Dir, error) {
	var sub string
	switch dialectName {
	case dialect.SQLite:
		sub = "sqlite"
	case dialect.Postgres:
		sub = "postgres"
	default:
		return nil, fmt.Errorf("unsupported dialect %q (want %q or %q)", dialectName, dialect.SQLite, dialect.Postgres)
	}
	entries, err := fs.ReadDir(embedded, sub)
	if err != nil {
		return nil, fmt.Errorf("read embedded %s migrations: %w", sub, err)
	}
	dir := &migrate.MemDir{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := fs.ReadFile(embedded, sub+"/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("read embedded migration %s/%s: %w", sub, e.Name(), err)
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, fmt.Errorf("load embedded migration %s/%s: %w", sub, e.Name(), err)
		}
	}
	return dir, nil
}
