package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/consumer"
	entmigrate "github.com/partner-platform/partnerd/ent/migrate"
	"github.com/partner-platform/partnerd/ent/scopegrant"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// tables lists the tables of the store's schema as the database reports them.
func tables(t *testing.T, s *store.Store) []string {
	t.Helper()
	q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	if s.Dialect == dialect.Postgres {
		q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
	}
	rows, err := s.DB.QueryContext(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

func TestOpenCreatesSchema(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		got := tables(t, s)
		want := []string{"partner_schema_migrations"}
		for _, tb := range entmigrate.Tables {
			want = append(want, tb.Name)
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("table %s missing; have %v", w, got)
			}
		}
		if err := s.Ping(t.Context()); err != nil {
			t.Fatal(err)
		}
	})
}

func TestConsumerRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := t.Context()
		created := time.Date(2026, 3, 4, 5, 6, 7, 123456000, time.UTC)
		c, err := s.Client.Consumer.Create().
			SetName("Acme").
			SetAccessEnabled(true).
			SetRatePerMinute(600).
			SetBurst(50).
			SetDisabledOperations([]string{"getTrending"}).
			SetCreatedAt(created).
			Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Client.ScopeGrant.Create().SetConsumer(c).SetScope("market:read").Save(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := s.Client.Consumer.Query().Where(consumer.Name("Acme")).WithScopes().Only(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != c.ID || !got.AccessEnabled || got.RatePerMinute != 600 || got.Burst != 50 || got.Price != "" {
			t.Errorf("got %+v, want %+v", got, c)
		}
		if !slices.Equal(got.DisabledOperations, []string{"getTrending"}) {
			t.Errorf("disabled operations %v", got.DisabledOperations)
		}
		if !got.CreatedAt.Equal(created) {
			t.Errorf("created_at %v, want %v", got.CreatedAt, created)
		}
		if len(got.Edges.Scopes) != 1 || got.Edges.Scopes[0].Scope != "market:read" {
			t.Errorf("scopes %v", got.Edges.Scopes)
		}
		// Times compare in SQL, not only in Go.
		n, err := s.Client.Consumer.Query().Where(consumer.CreatedAtLT(created.Add(time.Microsecond)), consumer.CreatedAtGT(created.Add(-time.Microsecond))).Count(ctx)
		if err != nil || n != 1 {
			t.Errorf("time range query: %d, %v", n, err)
		}
		// Foreign keys are enforced.
		if _, err := s.Client.ScopeGrant.Create().SetConsumerID(c.ID + 1000).SetScope("tx:build").Save(ctx); err == nil {
			t.Error("scope grant for a missing consumer was accepted")
		}
		if _, err := s.Client.Consumer.Create().SetName("Acme").Save(ctx); !ent.IsConstraintError(err) {
			t.Errorf("duplicate name: %v, want a constraint error", err)
		}
		n, err = s.Client.ScopeGrant.Query().Where(scopegrant.ConsumerID(c.ID)).Count(ctx)
		if err != nil || n != 1 {
			t.Errorf("scope grants: %d, %v", n, err)
		}
	})
}

func TestOpenAgainIsCurrent(t *testing.T) {
	open := func(t *testing.T, u string) *store.Store {
		t.Helper()
		s, err := store.Open(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	check := func(t *testing.T, u string) {
		first := open(t, u)
		if _, err := first.Client.Consumer.Create().SetName("kept").Save(t.Context()); err != nil {
			t.Fatal(err)
		}
		second := open(t, u)
		if n, err := second.Client.Consumer.Query().Count(t.Context()); err != nil || n != 1 {
			t.Errorf("after reopening: %d consumers, %v", n, err)
		}
	}
	t.Run("sqlite", func(t *testing.T) { check(t, "sqlite:"+filepath.Join(t.TempDir(), "p.db")) })
	t.Run("postgres", func(t *testing.T) {
		u, _ := storetest.CreatePostgresDB(t)
		check(t, u)
	})
}

func TestSQLiteURLForms(t *testing.T) {
	dir := t.TempDir()
	for _, u := range []string{
		"sqlite:" + filepath.Join(dir, "a", "b", "one.db"),
		"sqlite://" + filepath.Join(dir, "two.db"),
		"file:" + filepath.Join(dir, "three.db"),
		"SQLITE:" + filepath.Join(dir, "odd name #1%.db"),
	} {
		s, err := store.Open(t.Context(), u)
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		if s.Dialect != dialect.SQLite {
			t.Errorf("%s: dialect %q", u, s.Dialect)
		}
		s.Close()
	}
	for _, f := range []string{"a/b/one.db", "two.db", "three.db", "odd name #1%.db"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// A relative path is relative to the working directory.
	t.Chdir(dir)
	s, err := store.Open(t.Context(), "sqlite:rel/four.db")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, "rel", "four.db")); err != nil {
		t.Error(err)
	}
}

func TestSQLitePragmasOnEveryConnection(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := t.Context()
	// Hold several connections at once so the pool has to open new ones.
	var conns []interface{ Close() error }
	for i := range 4 {
		c, err := s.DB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		for pragma, want := range map[string]string{
			"journal_mode": "wal", "foreign_keys": "1", "busy_timeout": "5000", "synchronous": "1",
		} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("connection %d: %s = %s, want %s", i, pragma, got, want)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

func TestSQLiteConcurrentWrites(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := t.Context()
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				tx, err := s.Client.Tx(ctx)
				if err != nil {
					errs <- err
					return
				}
				// Read, then write, in one transaction: the pattern that fails with SQLITE_BUSY
				// under deferred transactions.
				if _, err := tx.Consumer.Query().Count(ctx); err != nil {
					tx.Rollback()
					errs <- err
					return
				}
				if _, err := tx.Consumer.Create().SetName(fmt.Sprintf("c-%d-%d", w, i)).Save(ctx); err != nil {
					tx.Rollback()
					errs <- err
					return
				}
				if err := tx.Commit(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n, err := s.Client.Consumer.Query().Count(ctx); err != nil || n != writers*each {
		t.Errorf("%d consumers, %v; want %d", n, err, writers*each)
	}
}

func TestOpenURLErrors(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"", "database URL is empty"},
		{"   ", "database URL is empty"},
		{"mysql://root@localhost/db", `unsupported database URL scheme "mysql"`},
		{"/var/lib/partner.db", "no scheme"},
		{"sqlite:", "no file path"},
		{"sqlite://", "no file path"},
		{"sqlite::memory:", "in-memory"},
		{"file::memory:", "in-memory"},
		{"sqlite:data.db?_pragma=foreign_keys(0)", "query parameters"},
		{"postgres://u@127.0.0.1:notaport/db", "invalid postgres URL"},
		{"postgres://u@127.0.0.1/db?sslmode=bogus", "invalid postgres URL"},
	} {
		_, err := store.Open(t.Context(), tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "open store") {
			t.Errorf("Open(%q) = %v, want an error containing %q", tc.url, err, tc.want)
		}
	}
}

func TestPasswordNeverInError(t *testing.T) {
	const secret = "s3cr3tPassw0rd"
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	for _, u := range []string{
		// Parse failures, in our code and in pgx.
		"postgres://admin:" + secret + "@127.0.0.1:notaport/db",
		"postgres://admin:" + secret + "%zz@127.0.0.1/db",
		"postgres://admin:" + secret + "@127.0.0.1/db?sslmode=bogus",
		"postgresql://admin@127.0.0.1/db?sslmode=bogus&password=" + secret,
		"postgres://admin:" + secret + "@127.0.0.1/db?connect_timeout=x",
		// Connection failures: nothing listens on port 1.
		"postgres://admin:" + secret + "@127.0.0.1:1/db?sslmode=disable",
		"postgres://admin@127.0.0.1:1/db?sslmode=disable&password=" + secret,
		"postgres://admin:s3cr3t%2FPassw0rd@127.0.0.1:1/db?sslmode=disable",
	} {
		_, err := store.Open(ctx, u)
		if err == nil {
			t.Errorf("Open(%s) succeeded", u)
			continue
		}
		msg := fmt.Sprintf("%v %+v %#v", err, err, err.Error())
		if strings.Contains(msg, secret) || strings.Contains(msg, "s3cr3t") {
			t.Errorf("error leaks the password: %s", msg)
		}
		if !strings.Contains(msg, "open store") {
			t.Errorf("error does not name the operation: %s", msg)
		}
		t.Log(err)
	}
}

func TestCloseStopsQueries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Ping(t.Context()); err == nil || !strings.Contains(err.Error(), "ping store") {
			t.Errorf("ping after close: %v", err)
		}
	})
}

// TestPageDataStoredWithoutCompression: on PostgreSQL a usage page's data, zstd-compressed already,
// is kept out of line without TOAST's compression (attstorage 'e', EXTERNAL).
func TestPageDataStoredWithoutCompression(t *testing.T) {
	s := storetest.Postgres(t)
	var storage string
	err := s.DB.QueryRowContext(t.Context(), `SELECT attstorage FROM pg_attribute
		WHERE attrelid = 'usage_pages'::regclass AND attname = 'data'`).Scan(&storage)
	if err != nil {
		t.Fatal(err)
	}
	if storage != "e" {
		t.Fatalf("usage_pages.data storage %q, want e (EXTERNAL)", storage)
	}
}
