package store

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// sqliteBusyTimeoutMS is how long a connection waits for another's write lock before SQLITE_BUSY.
const sqliteBusyTimeoutMS = 5000

// sqliteParams are applied by the driver to every new pooled connection:
//
//   - busy_timeout: writers queue for the lock instead of failing at once;
//   - foreign_keys: enforced (SQLite's default is off);
//   - journal_mode WAL: readers never block the writer nor each other;
//   - synchronous NORMAL: safe with WAL (a power loss may drop the last commits, never corrupt);
//   - _txlock=immediate: a read-write transaction takes the write lock at BEGIN, so two writers
//     queue under busy_timeout instead of one failing with SQLITE_BUSY when it upgrades its read
//     lock (read-only transactions, sql.TxOptions{ReadOnly: true}, stay deferred);
//   - _time_format=sqlite, _timezone=UTC: times are written as "2006-01-02 15:04:05.999999999+00:00"
//     in UTC, so they sort as text and carry no monotonic clock reading, and are read back in UTC.
var sqliteParams = url.Values{
	"_pragma": {
		fmt.Sprintf("busy_timeout(%d)", sqliteBusyTimeoutMS),
		"foreign_keys(1)",
		"journal_mode(WAL)",
		"synchronous(NORMAL)",
	},
	"_txlock":      {"immediate"},
	"_time_format": {"sqlite"},
	"_timezone":    {"UTC"},
}

// openSQLite opens the database file at path (absolute), creating it and its directory.
func openSQLite(path string) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("create database directory: %w", err)
	}
	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	// WAL admits any number of readers beside one writer; writers queue under busy_timeout and
	// _txlock=immediate. A few connections keep reads concurrent without many idle file handles.
	n := max(4, runtime.GOMAXPROCS(0))
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	return db, nil
}

// sqliteDSN is the driver's data source name: a file: URI (so any path character is escaped) with
// the connection parameters.
func sqliteDSN(path string) string {
	return "file:" + (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath() + "?" + sqliteParams.Encode()
}
