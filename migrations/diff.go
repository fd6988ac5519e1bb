//go:build ignore

// Command diff writes the next versioned migration for each dialect from the ent schema, or checks
// that the checked-in directories are current. It uses ent's Atlas integration; no Atlas binary.
//
//	go run ./migrations/diff.go -name add_widgets    # write migrations/{sqlite,postgres}/<version>_add_widgets.sql
//	go run ./migrations/diff.go -check               # exit 1 on drift or a wrong atlas.sum
//
// The migration directory is replayed on a clean dev database and diffed against the schema: an
// in-memory SQLite database, and a temporary database created on the PostgreSQL server at
// PARTNER_DEV_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)
// and dropped afterwards.
package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	atlas "ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/partner-platform/partnerd/ent/migrate"
)

const defaultDevPostgres = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// dialects maps a migration subdirectory to its ent dialect.
var dialects = []struct{ dir, name string }{
	{"sqlite", dialect.SQLite},
	{"postgres", dialect.Postgres},
}

func main() {
	name := flag.String("name", "", "name of the new migration, e.g. add_widgets (required unless -check)")
	check := flag.Bool("check", false, "write nothing; exit 1 if the schema would produce a migration or atlas.sum is wrong")
	root := flag.String("dir", sourceDir(), "the migrations directory holding sqlite/ and postgres/")
	only := flag.String("dialect", "", "only this dialect: sqlite or postgres (default both)")
	flag.Parse()
	if !*check && *name == "" {
		fmt.Fprintln(os.Stderr, "diff: -name is required (or -check)")
		flag.Usage()
		os.Exit(2)
	}
	// Both dialects' files of one run share a version, so they pair up by name.
	version := atlas.NewVersion()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	failed := false
	for _, d := range dialects {
		if *only != "" && *only != d.dir {
			continue
		}
		dir := filepath.Join(*root, d.dir)
		var err error
		if *check {
			err = checkDir(ctx, d.name, dir, version)
		} else {
			err = generate(ctx, d.name, dir, *name, version)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "diff: %s: %v\n", d.dir, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// sourceDir is the directory of this file, so the command works from any working directory.
func sourceDir() string {
	if _, file, _, ok := runtime.Caller(0); ok {
		return filepath.Dir(file)
	}
	return "migrations"
}

// generate writes the migration named name into dir, if the schema changed since its last file.
func generate(ctx context.Context, dialectName, dir, name, version string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	before, err := sqlFiles(dir)
	if err != nil {
		return err
	}
	if err := diff(ctx, dialectName, dir, name, version); err != nil {
		return err
	}
	after, err := sqlFiles(dir)
	if err != nil {
		return err
	}
	if added := newFiles(before, after); len(added) > 0 {
		fmt.Printf("%s: wrote %s\n", filepath.Base(dir), filepath.Join(dir, added[0]))
	} else {
		fmt.Printf("%s: schema unchanged, no migration written\n", filepath.Base(dir))
	}
	return nil
}

// checkDir validates dir's atlas.sum, then diffs into a temporary copy of dir: any new file is drift.
func checkDir(ctx context.Context, dialectName, dir, version string) error {
	local, err := atlas.NewLocalDir(dir)
	if err != nil {
		return err
	}
	if err := atlas.Validate(local); err != nil {
		var ce *atlas.ChecksumError
		if errors.As(err, &ce) {
			return fmt.Errorf("atlas.sum does not match the files (%s %s): %w", ce.File, ce.Reason, err)
		}
		return fmt.Errorf("atlas.sum: %w", err)
	}
	tmp, err := os.MkdirTemp("", "partner-migrations-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	before, err := sqlFiles(tmp)
	if err != nil {
		return err
	}
	if err := diff(ctx, dialectName, tmp, "drift", version); err != nil {
		return err
	}
	after, err := sqlFiles(tmp)
	if err != nil {
		return err
	}
	if added := newFiles(before, after); len(added) > 0 {
		b, _ := os.ReadFile(filepath.Join(tmp, added[0]))
		return fmt.Errorf("schema drift: ent/schema needs a new migration; run go run ./migrations/diff.go -name <name>. It would contain:\n%s", b)
	}
	fmt.Printf("%s: up to date\n", filepath.Base(dir))
	return nil
}

// diff replays dir on a clean dev database and writes the changes the schema needs as a new file.
func diff(ctx context.Context, dialectName, dir, name, version string) error {
	local, err := atlas.NewLocalDir(dir)
	if err != nil {
		return err
	}
	db, done, err := devDB(ctx, dialectName)
	if err != nil {
		return err
	}
	defer done()
	m, err := schema.NewMigrate(entsql.OpenDB(dialectName, db),
		schema.WithDir(local),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithDialect(dialectName),
		schema.WithFormatter(versionFormatter(version)),
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
	)
	if err != nil {
		return fmt.Errorf("set up ent migrate: %w", err)
	}
	if err := m.NamedDiff(ctx, name, migrate.Tables...); err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	return nil
}

// versionFormatter is Atlas's DefaultFormatter with the version fixed rather than taken from the clock.
type versionFormatter string

// Format implements atlas.Formatter.
func (v versionFormatter) Format(p *atlas.Plan) ([]atlas.File, error) {
	p.Version = string(v)
	return atlas.DefaultFormatter.Format(p)
}

// devDB opens a clean database of the dialect and returns the function that disposes of it.
func devDB(ctx context.Context, dialectName string) (*sql.DB, func(), error) {
	if dialectName == dialect.SQLite {
		// One connection: each connection to a private in-memory database sees its own database.
		db, err := sql.Open("sqlite", "file:dev?mode=memory&_pragma=foreign_keys(1)")
		if err != nil {
			return nil, nil, err
		}
		db.SetMaxOpenConns(1)
		return db, func() { db.Close() }, nil
	}
	serverURL := os.Getenv("PARTNER_DEV_POSTGRES_URL")
	if serverURL == "" {
		serverURL = defaultDevPostgres
	}
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		return nil, nil, fmt.Errorf("PARTNER_DEV_POSTGRES_URL: %w", err)
	}
	admin := stdlib.OpenDB(*cfg)
	name := "partner_dev_" + randomHex()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return nil, nil, fmt.Errorf("create dev database on %s:%d (set PARTNER_DEV_POSTGRES_URL): %w", cfg.Host, cfg.Port, err)
	}
	devCfg := cfg.Copy()
	devCfg.Database = name
	db := stdlib.OpenDB(*devCfg)
	return db, func() {
		db.Close()
		if _, err := admin.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			fmt.Fprintf(os.Stderr, "diff: drop dev database %s: %v\n", name, err)
		}
		admin.Close()
	}, nil
}

// sqlFiles lists the .sql files of dir.
func sqlFiles(dir string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m, nil
}

// newFiles lists the names in after that are not in before.
func newFiles(before, after []string) []string {
	var added []string
	for _, f := range after {
		if !slices.Contains(before, f) {
			added = append(added, f)
		}
	}
	return added
}

// randomHex is 8 random bytes in hex, for a database name nobody else uses.
func randomHex() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}
