package store

import (
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL pool limits: a cap per replica so many replicas stay under the server's
// max_connections (default 100), idle connections recycled so a quiet replica gives them back.
const (
	pgMaxOpenConns    = 20
	pgMaxIdleConns    = 10
	pgConnMaxIdleTime = 5 * time.Minute
	pgConnMaxLifetime = time.Hour
)

// openPostgres opens a pool over pgx v5. The URL is parsed here; nothing connects yet.
func openPostgres(rawURL string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(rawURL)
	if err != nil {
		// pgx quotes the whole URL ("cannot parse `…`: reason"), masking the password at best effort:
		// keep only the reason. Open scrubs the known secrets from it as well.
		msg := err.Error()
		if rest, ok := strings.CutPrefix(msg, "cannot parse `"); ok {
			if i := strings.LastIndex(rest, "`: "); i >= 0 {
				msg = rest[i+len("`: "):]
			} else {
				msg = "malformed"
			}
		}
		return nil, errors.New("invalid postgres URL: " + msg)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(pgMaxOpenConns)
	db.SetMaxIdleConns(pgMaxIdleConns)
	db.SetConnMaxIdleTime(pgConnMaxIdleTime)
	db.SetConnMaxLifetime(pgConnMaxLifetime)
	return db, nil
}
