package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestUnavailable classifies real failures of both databases: a server or file that cannot serve
// is an outage; a broken constraint or a bad query is a bug.
func TestUnavailable(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		if _, err := s.DB.ExecContext(ctx, `CREATE TABLE probe (id INTEGER PRIMARY KEY)`); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DB.ExecContext(ctx, `INSERT INTO probe (id) VALUES (1)`); err != nil {
			t.Fatal(err)
		}
		_, dup := s.DB.ExecContext(ctx, `INSERT INTO probe (id) VALUES (1)`)
		_, syntax := s.DB.ExecContext(ctx, `SELEC 1`)
		_, missing := s.DB.ExecContext(ctx, `SELECT nope FROM probe`)
		var id int
		scan := s.DB.QueryRowContext(ctx, `SELECT id FROM probe WHERE id = 2`).Scan(&id)
		for name, err := range map[string]error{"unique violation": dup, "syntax error": syntax, "unknown column": missing, "no rows": scan} {
			if err == nil || store.Unavailable(err) {
				t.Errorf("%s (%v) is classed as an outage", name, err)
			}
		}
		timeout, cancel := context.WithTimeout(ctx, time.Nanosecond)
		defer cancel()
		<-timeout.Done()
		if _, err := s.DB.ExecContext(timeout, `SELECT 1`); !store.Unavailable(err) {
			t.Errorf("a query past its deadline (%v) is not classed as an outage", err)
		}
	})

	t.Run("sqlite busy", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "busy.db")
		a, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		b, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if _, err := a.Exec(`CREATE TABLE t (x INTEGER)`); err != nil {
			t.Fatal(err)
		}
		tx, err := a.Begin()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.Exec(`INSERT INTO t VALUES (1)`); err != nil {
			t.Fatal(err)
		}
		_, err = b.Exec(`INSERT INTO t VALUES (2)`)
		if err == nil || !store.Unavailable(err) {
			t.Errorf("a write while another holds the lock (%v) is not classed as an outage", err)
		}
		b.Close()
		if _, err := b.Exec(`SELECT 1`); !store.Unavailable(fmt.Errorf("read: %w", err)) {
			t.Errorf("a call on a closed pool (%v) is not classed as an outage", err)
		}
	})

	t.Run("postgres refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nobody listens there now
		_, err = pgx.Connect(ctx, "postgres://postgres@"+addr+"/x?sslmode=disable&connect_timeout=2")
		if err == nil || !store.Unavailable(err) {
			t.Errorf("a refused connection (%v) is not classed as an outage", err)
		}
	})

	for _, err := range []error{
		fmt.Errorf("wrapped: %w", store.ErrUnavailable), fmt.Errorf("probe: %w", store.ErrUnreachable), sql.ErrConnDone,
	} {
		if !store.Unavailable(err) {
			t.Errorf("%v is not classed as an outage", err)
		}
	}
	if store.Unavailable(errors.New("decode: unexpected type")) || store.Unavailable(nil) {
		t.Error("a plain error or nil is classed as an outage")
	}
}
