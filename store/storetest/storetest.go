// Package storetest gives tests a fresh, migrated store on every backend: a SQLite file in the
// test's temporary directory and a PostgreSQL database of its own (DESIGN.md section 9).
//
// PostgreSQL is the server at PARTNER_TEST_POSTGRES_URL (default
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable). When it cannot be reached the
// PostgreSQL test is skipped with the reason, unless PARTNER_TEST_REQUIRE_ALL=1, where it fails.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/partner-platform/partnerd/store"
)

// DefaultPostgresURL is the server used when PARTNER_TEST_POSTGRES_URL is unset.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// connectTimeout bounds how long an unreachable server delays the test before it skips.
const connectTimeout = 5 * time.Second

// Each runs fn as the subtests "sqlite" and "postgres", each with a fresh, migrated store that is
// closed (and, for PostgreSQL, dropped) when the subtest ends.
func Each(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite opens a store on a new SQLite file in t.TempDir(), closed when the test ends.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "partner.db")
	s, err := store.Open(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Postgres creates a database partner_test_<random> on the test server, opens a store on it (which
// applies the production migrations) and drops the database when the test ends. It skips the test
// when the server cannot be reached, or fails it under PARTNER_TEST_REQUIRE_ALL=1.
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	u, name := CreatePostgresDB(t)
	s, err := store.Open(context.Background(), u)
	if err != nil {
		t.Fatalf("storetest: database %s: %v", name, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// CreatePostgresDB creates an empty database partner_test_<random> on the test server, dropped when
// the test ends, and returns its URL and name; nothing is migrated. It skips or fails like Postgres.
func CreatePostgresDB(t testing.TB) (dbURL, name string) {
	t.Helper()
	serverURL := os.Getenv("PARTNER_TEST_POSTGRES_URL")
	if serverURL == "" {
		serverURL = DefaultPostgresURL
	}
	u, err := url.Parse(serverURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("storetest: PARTNER_TEST_POSTGRES_URL must be a postgres:// URL")
	}
	display := u.Redacted()
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		t.Fatalf("storetest: PARTNER_TEST_POSTGRES_URL %s: cannot parse", display)
	}
	cfg.ConnectTimeout = connectTimeout
	admin := stdlib.OpenDB(*cfg)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		admin.Close()
		unreachable(t, display, err)
	}
	b := make([]byte, 8)
	rand.Read(b)
	name = "partner_test_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(context.Background(), "CREATE DATABASE "+name); err != nil {
		admin.Close()
		t.Fatalf("storetest: create database %s on %s: %v", name, display, err)
	}
	t.Cleanup(func() { dropDB(t, admin, name) })
	u.Path = "/" + name
	return u.String(), name
}

// dropDB drops the test database, disconnecting whoever is still connected, and closes admin.
func dropDB(t testing.TB, admin *sql.DB, name string) {
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		t.Errorf("storetest: drop database %s: %v", name, err)
	}
}

// unreachable skips the test, or fails it when every service is required.
func unreachable(t testing.TB, display string, err error) {
	t.Helper()
	if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
		t.Fatalf("storetest: PostgreSQL at %s is unreachable and PARTNER_TEST_REQUIRE_ALL=1: %v", display, err)
	}
	t.Skipf("storetest: skipping, PostgreSQL at %s is unreachable (set PARTNER_TEST_POSTGRES_URL, or PARTNER_TEST_REQUIRE_ALL=1 to fail): %v", display, err)
}

// DiskBytes is the size of the store's database: on SQLite the pages in use (the free list left
// out), on PostgreSQL pg_database_size (tables, indexes and their TOAST, not the WAL).
func DiskBytes(tb testing.TB, s *store.Store) int64 {
	tb.Helper()
	q := `SELECT (page_count - freelist_count) * page_size FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()`
	if s.Dialect == dialect.Postgres {
		q = `SELECT pg_database_size(current_database())`
	}
	var n int64
	if err := s.DB.QueryRow(q).Scan(&n); err != nil {
		tb.Fatalf("storetest: database size: %v", err)
	}
	return n
}
