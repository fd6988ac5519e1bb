package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Unavailable reports whether err says that a store the service depends on (the database, or Redis)
// could not be reached or could not serve for a moment: an outage a caller may retry, answered 503.
// Anything else (a constraint the code broke, a row that cannot be decoded, a mistake in a query) is
// a bug, never dressed up as an outage.
//
// Outages are: errors wrapping ErrUnavailable (a store that is not SQL says so itself, as the Redis
// limiter does) or the health watcher's ErrUnreachable; a store call past its deadline; network failures (refused, reset, timed out,
// a connection closed mid-answer); a connection database/sql or the server closed; PostgreSQL's
// connection exception (08), insufficient resources (53), operator intervention (57: shutdown,
// cannot connect now, query cancelled) and system error (58) classes, and pgx's connect errors;
// SQLite's busy, locked, out of memory, read-only, I/O, full, cannot open and protocol results.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var (
		pgErr      *pgconn.PgError
		connectErr *pgconn.ConnectError
		sqliteErr  *sqlite.Error
		netErr     net.Error
	)
	switch {
	case errors.Is(err, ErrUnavailable), errors.Is(err, ErrUnreachable), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, sql.ErrConnDone), errors.Is(err, driver.ErrBadConn), poolClosed(err),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	case errors.As(err, &connectErr), errors.As(err, &netErr):
		return true
	case errors.As(err, &pgErr):
		switch pgErr.Code[:min(2, len(pgErr.Code))] {
		case "08", "53", "57", "58":
			return true
		}
		return false
	case errors.As(err, &sqliteErr):
		switch sqliteErr.Code() & 0xff { // the primary result code
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_READONLY,
			sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PROTOCOL:
			return true
		}
	}
	return false
}

// errDBClosed is database/sql's error for a call on a closed pool, which it does not export: a
// replica shutting down, never a bug of the call.
const errDBClosed = "sql: database is closed"

// poolClosed reports whether err wraps database/sql's error for a closed pool.
func poolClosed(err error) bool {
	if err == nil {
		return false
	}
	if err.Error() == errDBClosed {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return poolClosed(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if poolClosed(e) {
				return true
			}
		}
	}
	return false
}

// ErrUnavailable is wrapped by a store's error that is an outage (see Unavailable).
var ErrUnavailable = errors.New("store unavailable")
