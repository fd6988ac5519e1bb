package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Timing of a Health watcher.
const (
	// HealthInterval is how often the watcher probes the database. It bounds how long a database
	// that refuses connections goes unnoticed, and how long calls are still refused after it is
	// back.
	HealthInterval = 250 * time.Millisecond
	// HealthTimeout bounds one probe: a database that does not answer within it (a network
	// partition, a server stuck) counts as unreachable.
	HealthTimeout = time.Second
)

// HealthApplicationName is the application_name of a watcher's connection, as pg_stat_activity
// shows it.
const HealthApplicationName = "partnerd-health"

// Health watches whether the database answers, so that the request path can fail closed while it
// does not without doing any I/O of its own: Err reads one atomic value.
//
// On PostgreSQL the watcher holds one connection of its own, outside the pool (so a pool busy
// with calls never delays a probe or makes it fail), and pings it every HealthInterval. A
// ping that fails is retried at once on a new connection, so one connection lost while the
// server is fine (an idle timeout, a backend restarted) is not an outage; only a server that
// refuses or does not answer a new connection within HealthTimeout is. The database is then
// reported unreachable until a probe succeeds again. Bounds: an outage is noticed within
// HealthInterval when connections are refused, HealthInterval + HealthTimeout when the server does
// not answer; the end of one within HealthInterval plus one connect.
//
// On SQLite the database is a file of this process: there is nothing to become unreachable, and a
// probe through the pool could only fail because the pool is busy. The watcher never reports an
// error there; failed writes surface as the errors of their own calls.
type Health struct {
	store    *Store
	pg       *pgx.ConnConfig // nil on SQLite
	conn     *pgx.Conn       // the probe connection, Run's goroutine only
	interval time.Duration
	log      *slog.Logger
	state    atomic.Pointer[healthState]
}

// healthState is what the last probe found.
type healthState struct {
	err   error     // nil: the database answered
	since time.Time // when this state began
}

// NewHealth returns a watcher of s's database, reporting healthy until its first failed probe (Open
// has just reached the database). Run it with Run. interval 0 means HealthInterval. Its errors and
// log lines never contain the URL's password.
func (s *Store) NewHealth(log *slog.Logger, interval time.Duration) (*Health, error) {
	if interval <= 0 {
		interval = HealthInterval
	}
	if log == nil {
		log = slog.Default()
	}
	h := &Health{store: s, interval: interval, log: log}
	h.state.Store(&healthState{since: time.Now()})
	if s.Dialect == dialect.Postgres {
		cfg, err := pgx.ParseConfig(s.target.url)
		if err != nil {
			return nil, fmt.Errorf("store health: invalid postgres URL %s", s.target.display) // pgx quotes the URL
		}
		cfg.RuntimeParams["application_name"] = HealthApplicationName
		cfg.ConnectTimeout = HealthTimeout
		h.pg = cfg
	}
	return h, nil
}

// Err is nil while the database answered the last probe, and otherwise says since when it has
// not and why (the private cause: log it, never send it). It does no I/O and is safe for
// concurrent use: read it on every call.
func (h *Health) Err() error { return h.state.Load().err }

// Ready is a readiness check: Err, and then a ping through the connection pool.
func (h *Health) Ready(ctx context.Context) error {
	if err := h.Err(); err != nil {
		return err
	}
	return h.store.Ping(ctx)
}

// Run probes the database every interval until ctx ends, logging when it becomes unreachable and
// when it answers again. On SQLite it returns at once.
func (h *Health) Run(ctx context.Context) {
	if h.pg == nil {
		return
	}
	defer h.closeConn()
	t := time.NewTicker(h.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, HealthTimeout)
		err := h.probe(pctx)
		cancel()
		if ctx.Err() != nil {
			return
		}
		h.set(err)
	}
}

// probe pings the probe connection, connecting first when there is none, and once more on a new
// connection when the ping fails.
func (h *Health) probe(ctx context.Context) error {
	if h.conn != nil {
		if err := h.conn.Ping(ctx); err == nil {
			return nil
		}
		h.closeConn()
	}
	// A fresh connection, twice: one lost on its own (terminated by an administrator, reset) can
	// take the next one with it, and that alone is no outage. A server that answered with a
	// refusal of its own (the database does not accept connections, does not exist, too many
	// clients) is not asked twice: that is the outage, and noticing it sooner is the point.
	err := h.connect(ctx)
	if err != nil && !refused(err) {
		err = h.connect(ctx)
	}
	return h.store.target.scrub(err)
}

// refused reports whether a connection failed because the server refused it with an error of
// its own (a SQLSTATE), other than terminating it by an administrator's command (57P01).
func refused(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code != "57P01"
}

// connect opens the probe's connection and pings on it. Its error may hold the URL's password:
// scrub it.
func (h *Health) connect(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, h.pg)
	if err != nil {
		return err
	}
	if err := conn.Ping(ctx); err != nil {
		h.conn = conn
		h.closeConn()
		return err
	}
	h.conn = conn
	return nil
}

func (h *Health) closeConn() {
	if h.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), HealthTimeout)
	defer cancel()
	_ = h.conn.Close(ctx)
	h.conn = nil
}

// set records a probe's result, logging a change of state.
func (h *Health) set(err error) {
	now := time.Now()
	prev := h.state.Load()
	switch {
	case err == nil && prev.err == nil:
		return
	case err == nil:
		h.state.Store(&healthState{since: now})
		h.log.Info("database answers again: calls are served", "database", h.store.target.display,
			"unreachableFor", now.Sub(prev.since).Round(time.Millisecond).String())
	case prev.err == nil:
		h.state.Store(&healthState{err: unreachable(err, now), since: now})
		h.log.Warn("database unreachable: authenticated calls answer 503 until it answers again",
			"database", h.store.target.display, "err", err)
	default:
		h.state.Store(&healthState{err: unreachable(err, prev.since), since: prev.since})
	}
}

// ErrUnreachable is matched (errors.Is) by Health.Err's errors.
var ErrUnreachable = errors.New("database unreachable")

func unreachable(cause error, since time.Time) error {
	return fmt.Errorf("%w since %s: %w", ErrUnreachable, since.UTC().Format(time.RFC3339Nano), cause)
}
