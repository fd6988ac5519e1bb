package store_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// syncBuffer is a bytes.Buffer safe for a logger and the test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestHealthSQLite: on SQLite the watcher never reports the database unreachable and Run returns
// at once; Ready pings the pool.
func TestHealthSQLite(t *testing.T) {
	s := storetest.SQLite(t)
	h, err := s.NewHealth(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { h.Run(t.Context()); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run on SQLite did not return")
	}
	if err := h.Err(); err != nil {
		t.Errorf("Err = %v", err)
	}
	if err := h.Ready(t.Context()); err != nil {
		t.Errorf("Ready = %v", err)
	}
}

// TestHealthPostgres: the watcher of a PostgreSQL store reports the database unreachable while it
// refuses connections, and healthy again once it allows them, each within a few probe intervals,
// logging each change once. Losing only its own connection is not an outage.
func TestHealthPostgres(t *testing.T) {
	s, name, cfg := postgresUnderTest(t)
	admin, err := pgx.ConnectConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := pgx.Identifier{name}.Sanitize()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := admin.Exec(context.Background(), sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(context.Background(), "ALTER DATABASE "+db+" ALLOW_CONNECTIONS true")
		admin.Close(context.Background())
	})

	log := &syncBuffer{}
	const interval = 20 * time.Millisecond
	h, err := s.NewHealth(slog.New(slog.NewJSONHandler(log, nil)), interval)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { h.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })

	// within waits until cond holds, for at most d, and returns how long that took.
	within := func(what string, d time.Duration, cond func() bool) time.Duration {
		t.Helper()
		start := time.Now()
		for !cond() {
			if time.Since(start) > d {
				t.Fatalf("%s: not within %v", what, d)
			}
			time.Sleep(time.Millisecond)
		}
		return time.Since(start)
	}
	probeConns := func() int {
		var n int
		if err := admin.QueryRow(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2", name, store.HealthApplicationName).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	within("the probe connection", 5*time.Second, func() bool { return probeConns() == 1 })

	// Its own connection lost while the server is fine: the next probe reconnects, no outage.
	exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2", name, store.HealthApplicationName)
	for end := time.Now().Add(10 * interval); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if err := h.Err(); err != nil {
			t.Fatalf("the probe connection was terminated, the server is fine: Err = %v", err)
		}
	}
	within("a new probe connection", 5*time.Second, func() bool { return probeConns() == 1 })

	exec("ALTER DATABASE " + db + " ALLOW_CONNECTIONS false")
	exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name)
	took := within("unreachable reported", time.Second, func() bool { return h.Err() != nil })
	t.Logf("unreachable reported %v after the database refused connections (probe every %v)", took, interval)
	if err := h.Err(); !errors.Is(err, store.ErrUnreachable) {
		t.Errorf("Err = %v, want ErrUnreachable", err)
	}
	if err := h.Ready(t.Context()); err == nil {
		t.Error("Ready with the database unreachable: nil")
	}
	time.Sleep(5 * interval) // still down: no new log line per probe

	exec("ALTER DATABASE " + db + " ALLOW_CONNECTIONS true")
	took = within("healthy again", time.Second, func() bool { return h.Err() == nil })
	t.Logf("healthy again %v after the database allowed connections", took)
	within("Ready", 5*time.Second, func() bool { return h.Ready(t.Context()) == nil })

	out := log.String()
	if n := strings.Count(out, "database unreachable"); n != 1 {
		t.Errorf("%d lines saying the database is unreachable, want 1:\n%s", n, out)
	}
	if n := strings.Count(out, "database answers again"); n != 1 {
		t.Errorf("%d lines saying the database answers again, want 1:\n%s", n, out)
	}
}

// TestHealthRefused: a server's own refusal of a connection (a database that does not accept
// connections or does not exist) ends a probe at once, while a connection that never reached a
// server, or one an administrator terminated, is tried once more.
func TestHealthRefused(t *testing.T) {
	_, name, cfg := postgresUnderTest(t)
	connect := func(database string, port uint16) error {
		c := cfg.Copy()
		c.Database, c.Port = database, port
		conn, err := pgx.ConnectConfig(t.Context(), c)
		if err == nil {
			conn.Close(t.Context())
		}
		return err
	}
	admin, err := pgx.ConnectConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	db := pgx.Identifier{name}.Sanitize()
	if _, err := admin.Exec(t.Context(), "ALTER DATABASE "+db+" ALLOW_CONNECTIONS false"); err != nil {
		t.Fatal(err)
	}
	notAccepting := connect(name, cfg.Port)
	if _, err := admin.Exec(context.Background(), "ALTER DATABASE "+db+" ALLOW_CONNECTIONS true"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		err  error
		want bool
	}{
		{"a database that does not accept connections", notAccepting, true},
		{"a database that does not exist", connect("partner_test_missing_database", cfg.Port), true},
		{"a port nobody listens on", connect(name, 1), false},
		{"a connection terminated by an administrator", &pgconn.PgError{Code: "57P01"}, false},
	} {
		if c.err == nil {
			t.Errorf("%s: connected", c.what)
			continue
		}
		if got := store.Refused(c.err); got != c.want {
			t.Errorf("%s (%v): refused = %v, want %v", c.what, c.err, got, c.want)
		}
	}
}

// postgresUnderTest opens a test database and returns its store, its name and the connection
// settings of the server it is on (as an administrator, to the server's own database).
func postgresUnderTest(t *testing.T) (*store.Store, string, *pgx.ConnConfig) {
	t.Helper()
	s := storetest.Postgres(t)
	var name string
	if err := s.DB.QueryRowContext(t.Context(), "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	server := os.Getenv("PARTNER_TEST_POSTGRES_URL")
	if server == "" {
		server = storetest.DefaultPostgresURL
	}
	cfg, err := pgx.ParseConfig(server)
	if err != nil {
		t.Fatal(err)
	}
	return s, name, cfg
}
