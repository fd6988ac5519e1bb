// Package store opens the service's database, SQLite or PostgreSQL, applies the versioned migrations
// and hands out the ent client over it.
//
// The URL picks the backend (DESIGN.md section 7):
//
//	sqlite:<path>, sqlite://<path>, file:<path>   embedded SQLite file (pure Go, modernc.org/sqlite)
//	postgres://… or postgresql://…                PostgreSQL through pgx v5
//
// Errors never contain the URL's password.
package store

import (
	"context"
	"database/sql"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/migrations"
)

// Store is an open database: the ent client, the *sql.DB beneath it and its dialect.
type Store struct {
	// Client is the ent client; its queries run on DB.
	Client *ent.Client
	// DB is the connection pool, for the rare query ent cannot express.
	DB *sql.DB
	// Dialect is dialect.SQLite or dialect.Postgres (entgo.io/ent/dialect).
	Dialect string

	target target
}

// Open connects to the database at url, checks it answers, applies any pending migrations and returns
// the store. url is sqlite:<path> (also sqlite://<path> or file:<path>; the file and its parent
// directory are created) or postgres://… (also postgresql://…). Errors name the operation and
// never contain a password.
func Open(ctx context.Context, url string) (*Store, error) {
	t, err := parseURL(url)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	var db *sql.DB
	switch t.dialect {
	case dialect.SQLite:
		db, err = openSQLite(t.path)
	default:
		db, err = openPostgres(t.url)
	}
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", t.display, t.scrub(err))
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: connect: %w", t.display, t.scrub(err))
	}
	if _, err := migrations.Apply(ctx, db, t.dialect); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", t.display, t.scrub(err))
	}
	drv := entsql.OpenDB(t.dialect, db)
	return &Store{
		Client:  ent.NewClient(ent.Driver(drv)),
		DB:      db,
		Dialect: t.dialect,
		target:  t,
	}, nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.DB.PingContext(ctx); err != nil {
		return fmt.Errorf("ping store: %w", s.target.scrub(err))
	}
	return nil
}

// SQLiteFile is the SQLite database's file, absolute; empty on PostgreSQL.
func (s *Store) SQLiteFile() string { return s.target.path }

// Close closes the ent client and the connection pool. Queries in flight fail.
func (s *Store) Close() error {
	if err := s.Client.Close(); err != nil {
		return fmt.Errorf("close store: %w", s.target.scrub(err))
	}
	return nil
}
