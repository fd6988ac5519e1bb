package migrations_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/partner-platform/partnerd/migrations"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// memDir builds a migration directory from name/content pairs, with a correct atlas.sum.
func memDir(t *testing.T, files ...string) *migrate.MemDir {
	t.Helper()
	dir := &migrate.MemDir{}
	for i := 0; i < len(files); i += 2 {
		if err := dir.WriteFile(files[i], []byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := dir.Checksum()
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate.WriteSumFile(dir, sum); err != nil {
		t.Fatal(err)
	}
	return dir
}

// versions lists the recorded versions.
func versions(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "SELECT version FROM "+migrations.VersionTable+" ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var vs []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	return vs
}

// tableExists reports whether the table exists in the store's current schema.
func tableExists(t *testing.T, s *store.Store, name string) bool {
	t.Helper()
	q := "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
	if s.Dialect == dialect.Postgres {
		q = "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
	}
	var n int
	if err := s.DB.QueryRowContext(context.Background(), q, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// embeddedVersions lists the versions of the embedded directory of a dialect.
func embeddedVersions(t *testing.T, d string) []string {
	t.Helper()
	dir, err := migrations.EmbeddedDir(d)
	if err != nil {
		t.Fatal(err)
	}
	files, err := dir.Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no embedded %s migrations", d)
	}
	var vs []string
	for _, f := range files {
		vs = append(vs, f.Version())
	}
	return vs
}

func TestApplyTwiceIsNoop(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		// store.Open applied everything already.
		want := embeddedVersions(t, s.Dialect)
		if got := versions(t, s.DB); !slices.Equal(got, want) {
			t.Fatalf("recorded %v, want %v", got, want)
		}
		for range 2 {
			applied, err := migrations.Apply(t.Context(), s.DB, s.Dialect)
			if err != nil || len(applied) != 0 {
				t.Fatalf("Apply again = %v, %v; want nothing applied", applied, err)
			}
		}
		if got := versions(t, s.DB); !slices.Equal(got, want) {
			t.Errorf("recorded %v after reapplying, want %v", got, want)
		}
	})
}

func TestApplyDirAppliesInOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		dir := memDir(t,
			"2_second.sql", "CREATE TABLE t_second (id integer PRIMARY KEY, first_id integer REFERENCES t_first (id));",
			"1_first.sql", "-- a comment; with a semicolon\nCREATE TABLE t_first (id integer PRIMARY KEY);\nINSERT INTO t_first (id) VALUES (1);",
		)
		applied, err := migrations.ApplyDir(t.Context(), s.DB, s.Dialect, dir)
		if err != nil || !slices.Equal(applied, []string{"1", "2"}) {
			t.Fatalf("ApplyDir = %v, %v; want [1 2]", applied, err)
		}
		applied, err = migrations.ApplyDir(t.Context(), s.DB, s.Dialect, dir)
		if err != nil || len(applied) != 0 {
			t.Fatalf("ApplyDir again = %v, %v; want nothing", applied, err)
		}
	})
}

func TestApplyDirBadStatementLeavesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		good := "CREATE TABLE t_good (id integer PRIMARY KEY);"
		bad := "CREATE TABLE t_half (id integer PRIMARY KEY);\nINSERT INTO t_half (id) VALUES (1);\nINSERT INTO t_missing (id) VALUES (1);"
		applied, err := migrations.ApplyDir(t.Context(), s.DB, s.Dialect, memDir(t, "10_good.sql", good, "11_bad.sql", bad))
		if err == nil || !strings.Contains(err.Error(), "11_bad.sql") || !strings.Contains(err.Error(), "statement 3") {
			t.Fatalf("ApplyDir error = %v, want one naming 11_bad.sql, statement 3", err)
		}
		if !slices.Equal(applied, []string{"10"}) {
			t.Errorf("applied %v, want [10]", applied)
		}
		if !tableExists(t, s, "t_good") || tableExists(t, s, "t_half") {
			t.Error("want t_good kept and t_half rolled back")
		}
		if vs := versions(t, s.DB); slices.Contains(vs, "11") || !slices.Contains(vs, "10") {
			t.Errorf("recorded %v", vs)
		}
		// The store still works.
		if _, err := s.Client.Consumer.Create().SetName("after failure").Save(t.Context()); err != nil {
			t.Fatal(err)
		}
		// Fixed, the file applies.
		fixed := strings.Replace(bad, "t_missing", "t_half", 1)
		fixed = strings.Replace(fixed, "VALUES (1);\n", "VALUES (2);\n", 1)
		applied, err = migrations.ApplyDir(t.Context(), s.DB, s.Dialect, memDir(t, "10_good.sql", good, "11_bad.sql", fixed))
		if err != nil || !slices.Equal(applied, []string{"11"}) {
			t.Fatalf("ApplyDir fixed = %v, %v; want [11]", applied, err)
		}
	})
}

func TestApplyDirRejectsTamperedSum(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		dir := memDir(t, "20_a.sql", "CREATE TABLE t_a (id integer PRIMARY KEY);", "21_b.sql", "CREATE TABLE t_b (id integer PRIMARY KEY);")
		// Edit a file after the sum was written.
		if err := dir.WriteFile("21_b.sql", []byte("CREATE TABLE t_b (id integer PRIMARY KEY, evil text);")); err != nil {
			t.Fatal(err)
		}
		applied, err := migrations.ApplyDir(t.Context(), s.DB, s.Dialect, dir)
		if err == nil || !errors.Is(err, migrate.ErrChecksumMismatch) || !strings.Contains(err.Error(), "atlas.sum") || !strings.Contains(err.Error(), "21_b.sql") {
			t.Fatalf("ApplyDir = %v, want a checksum error naming 21_b.sql", err)
		}
		if len(applied) != 0 || tableExists(t, s, "t_a") || tableExists(t, s, "t_b") {
			t.Errorf("a rejected directory applied %v", applied)
		}

		// A file added without updating the sum, and a missing or corrupt sum, fail alike.
		dir = memDir(t, "20_a.sql", "CREATE TABLE t_a (id integer PRIMARY KEY);")
		dir.WriteFile("22_c.sql", []byte("CREATE TABLE t_c (id integer PRIMARY KEY);"))
		if _, err := migrations.ApplyDir(t.Context(), s.DB, s.Dialect, dir); err == nil || !strings.Contains(err.Error(), "22_c.sql added") {
			t.Errorf("added file: %v", err)
		}
		dir = &migrate.MemDir{}
		dir.WriteFile("20_a.sql", []byte("CREATE TABLE t_a (id integer PRIMARY KEY);"))
		if _, err := migrations.ApplyDir(t.Context(), s.DB, s.Dialect, dir); err == nil || !strings.Contains(err.Error(), "atlas.sum is missing") {
			t.Errorf("missing sum: %v", err)
		}
		dir.WriteFile(migrate.HashFileName, []byte("h1:AAAA\n20_a.sql h1:BBBB\n"))
		if _, err := migrations.ApplyDir(t.Context(), s.DB, s.Dialect, dir); err == nil || !strings.Contains(err.Error(), "atlas.sum is corrupt") {
			t.Errorf("corrupt sum: %v", err)
		}
		if tableExists(t, s, "t_a") || tableExists(t, s, "t_c") {
			t.Error("a rejected directory left tables behind")
		}
	})
}

func TestApplyDirSQLiteForeignKeys(t *testing.T) {
	s := storetest.SQLite(t)
	// A table rebuild, the way Atlas writes one for SQLite: it drops a table others reference.
	rebuild := memDir(t,
		"30_parent.sql", "CREATE TABLE t_parent (id integer PRIMARY KEY, name text);\nCREATE TABLE t_child (id integer PRIMARY KEY, parent_id integer NOT NULL REFERENCES t_parent (id));\nINSERT INTO t_parent VALUES (1, 'p');\nINSERT INTO t_child VALUES (1, 1);",
		"31_rebuild.sql", "PRAGMA foreign_keys = off;\nCREATE TABLE new_t_parent (id integer PRIMARY KEY, name text NOT NULL DEFAULT '');\nINSERT INTO new_t_parent (id, name) SELECT id, name FROM t_parent;\nDROP TABLE t_parent;\nALTER TABLE new_t_parent RENAME TO t_parent;\nPRAGMA foreign_keys = on;",
	)
	if applied, err := migrations.ApplyDir(t.Context(), s.DB, s.Dialect, rebuild); err != nil || len(applied) != 2 {
		t.Fatalf("rebuild: %v, %v", applied, err)
	}
	var n int
	if err := s.DB.QueryRow("SELECT COUNT(*) FROM t_child JOIN t_parent ON t_parent.id = t_child.parent_id").Scan(&n); err != nil || n != 1 {
		t.Fatalf("child rows after rebuild: %d, %v", n, err)
	}
	// A migration that leaves a dangling reference is rolled back.
	dangling := memDir(t, "32_dangling.sql", "INSERT INTO t_child VALUES (2, 99);")
	if _, err := migrations.ApplyDir(t.Context(), s.DB, s.Dialect, dangling); err == nil || !strings.Contains(err.Error(), "foreign key violation") {
		t.Fatalf("dangling reference: %v", err)
	}
	if err := s.DB.QueryRow("SELECT COUNT(*) FROM t_child").Scan(&n); err != nil || n != 1 {
		t.Errorf("child rows after rollback: %d, %v", n, err)
	}
	// Foreign keys are back on for every pooled connection.
	for range 8 {
		var fk int
		if err := s.DB.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
			t.Fatalf("foreign_keys = %d, %v", fk, err)
		}
	}
}

func TestApplyUnsupportedDialect(t *testing.T) {
	s := storetest.SQLite(t)
	if _, err := migrations.Apply(t.Context(), s.DB, "mysql"); err == nil || !strings.Contains(err.Error(), "unsupported dialect") {
		t.Errorf("Apply(mysql) = %v", err)
	}
}

// concurrentApply runs Apply from two pools on one fresh database at once and checks that every
// version was applied exactly once.
func concurrentApply(t *testing.T, d string, open func() *sql.DB) {
	want := embeddedVersions(t, d)
	const replicas = 4
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		all []string
	)
	start := make(chan struct{})
	for range replicas {
		db := open()
		t.Cleanup(func() { db.Close() })
		wg.Go(func() {
			<-start
			applied, err := migrations.Apply(t.Context(), db, d)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			all = append(all, applied...)
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	slices.Sort(all)
	if !slices.Equal(all, want) {
		t.Errorf("applied %v across replicas, want each of %v once", all, want)
	}
	db := open()
	defer db.Close()
	if got := versions(t, db); !slices.Equal(got, want) {
		t.Errorf("recorded %v, want %v", got, want)
	}
}

func TestConcurrentApplyPostgres(t *testing.T) {
	u, _ := storetest.CreatePostgresDB(t)
	concurrentApply(t, dialect.Postgres, func() *sql.DB {
		db, err := sql.Open("pgx", u)
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}

func TestConcurrentApplySQLite(t *testing.T) {
	// Separate pools stand in for separate processes on one file.
	dsn := "file:" + t.TempDir() + "/p.db?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)"
	concurrentApply(t, dialect.SQLite, func() *sql.DB {
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}

// TestLatencyBandsMigration applies the migrations before usage_latency_bands, writes latency
// histogram rows of one bucket each, applies the rest, and checks that every count moved into
// its band and column, summed per consumer, hour, operation and band, and that the old table is
// gone.
func TestLatencyBandsMigration(t *testing.T) {
	const bands = "20261127071607"
	hour := time.Date(2030, time.May, 10, 12, 0, 0, 0, time.UTC)
	old := []struct {
		consumer int
		hour     time.Time
		op       string
		bucket   int
		calls    int64
	}{
		{1, hour, "getQuote", 0, 3}, {1, hour, "getQuote", 7, 5}, {1, hour, "getQuote", 8, 2},
		{1, hour, "getQuote", 61, 1}, {1, hour, "getToken", 13, 4}, {1, hour.Add(time.Hour), "getQuote", 13, 6},
		{2, hour, "getQuote", 13, 9},
	}
	want := []string{ // consumer hour operation band: calls0..calls7
		"1 12 getQuote 0: [3 0 0 0 0 0 0 5]", "1 12 getQuote 1: [2 0 0 0 0 0 0 0]", "1 12 getQuote 7: [0 0 0 0 0 1 0 0]",
		"1 12 getToken 1: [0 0 0 0 0 4 0 0]", "1 13 getQuote 1: [0 0 0 0 0 6 0 0]", "2 12 getQuote 1: [0 0 0 0 0 9 0 0]",
	}
	for _, d := range []string{dialect.SQLite, dialect.Postgres} {
		t.Run(d, func(t *testing.T) {
			var db *sql.DB
			var err error
			if d == dialect.SQLite {
				db, err = sql.Open("sqlite", "file:"+t.TempDir()+"/m.db?_pragma=foreign_keys(1)")
			} else {
				u, _ := storetest.CreatePostgresDB(t)
				db, err = sql.Open("pgx", u)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			all, err := migrations.EmbeddedDir(d)
			if err != nil {
				t.Fatal(err)
			}
			files, err := all.Files()
			if err != nil {
				t.Fatal(err)
			}
			var before []string
			for _, f := range files {
				if f.Version() < bands {
					before = append(before, f.Name(), string(f.Bytes()))
				}
			}
			if _, err := migrations.ApplyDir(t.Context(), db, d, memDir(t, before...)); err != nil {
				t.Fatal(err)
			}
			insert := `INSERT INTO usage_latencies (consumer_id, hour, operation, bucket, calls) VALUES ($1, $2, $3, $4, $5)`
			if d == dialect.SQLite {
				insert = strings.NewReplacer("$1", "?", "$2", "?", "$3", "?", "$4", "?", "$5", "?").Replace(insert)
			}
			for _, r := range old {
				if _, err := db.ExecContext(t.Context(), insert, r.consumer, r.hour, r.op, r.bucket, r.calls); err != nil {
					t.Fatal(err)
				}
			}
			if applied, err := migrations.ApplyDir(t.Context(), db, d, all); err != nil || !slices.Contains(applied, bands) {
				t.Fatalf("applied %v, %v; want %s among them", applied, err, bands)
			}
			rows, err := db.QueryContext(t.Context(), `SELECT consumer_id, hour, operation, band, calls0, calls1, calls2, calls3, `+
				`calls4, calls5, calls6, calls7 FROM usage_latency_bands ORDER BY consumer_id, hour, operation, band`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []string
			for rows.Next() {
				var (
					consumer, band int
					at             time.Time
					op             string
					calls          [8]int64
				)
				dest := []any{&consumer, &at, &op, &band}
				for i := range calls {
					dest = append(dest, &calls[i])
				}
				if err := rows.Scan(dest...); err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%d %d %s %d: %v", consumer, at.UTC().Hour(), op, band, calls))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("bands\n got %q\nwant %q", got, want)
			}
			if _, err := db.ExecContext(t.Context(), `SELECT 1 FROM usage_latencies`); err == nil {
				t.Error("usage_latencies still exists")
			}
		})
	}
}
