package access

// The change feed: every change made through a Service is announced when it commits, and each
// replica's ChangeFeed reloads its policy and purges its key cache (Sync) on the announcement,
// within milliseconds instead of one sync interval. The periodic Sync.Run stays as the fallback
// for whatever the feed misses (a listener reconnecting, a change made without the Service).
//
//   - PostgreSQL: the transaction that writes the change's audit entry also runs
//     pg_notify('partnerd_access', '<audit id>'), so the notification is sent if and only if the
//     change commits, and only after it is visible. Each replica's ChangeFeed holds one dedicated
//     pgx connection that LISTENs on the channel; it reconnects with backoff when the connection
//     is lost and reloads once after every (re)connection, which covers whatever was committed
//     while it was not listening. Any process can make the change: a replica, the console, the
//     admin CLI.
//   - SQLite: one process by nature, so there is nothing to listen to: the Service tells the
//     ChangeFeeds of its own process after the commit. A change made by another process on the
//     same file (the admin CLI beside a running server) reaches the server on its next poll.
//
// Reloads run on the ChangeFeed's own goroutine, never on a request's: an announcement is a
// non-blocking kick, and a burst of them coalesces into one reload running and at most one more
// queued after it.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	"github.com/jackc/pgx/v5"

	"github.com/partner-platform/partnerd/ent"
)

// Channel is the PostgreSQL notification channel of access changes. The payload is the change's
// audit entry id (informational: a notification always means "reload").
const Channel = "partnerd_access"

// ListenerName is the application_name of a ChangeFeed's connection, as pg_stat_activity shows it.
const ListenerName = "partnerd-access-listener"

// Timing of a ChangeFeed.
const (
	// feedMinGap is the least time between two reloads of one replica: under a burst of changes a
	// replica reloads at most 20 times a second.
	feedMinGap = 50 * time.Millisecond
	// feedReloadTimeout bounds one reload.
	feedReloadTimeout = 30 * time.Second
	// feedMinBackoff and feedMaxBackoff bound the wait before reconnecting the listener (doubling
	// from the first to the second while connecting keeps failing) and before retrying a reload
	// that failed.
	feedMinBackoff = 100 * time.Millisecond
	feedMaxBackoff = 10 * time.Second
	// feedIdleCheck is how long the listener waits for a notification before checking that its
	// connection still answers: a connection lost without a word (a network partition) is noticed
	// within this plus feedConnectTimeout.
	feedIdleCheck = 30 * time.Second
	// feedConnectTimeout bounds connecting, LISTEN and the idle check.
	feedConnectTimeout = 10 * time.Second
)

// Dialects as a Service finds them (changes.dialect).
const (
	dialectUnknown int32 = iota
	dialectPostgres
	dialectSQLite
)

// changes is a Service's side of the feed: which database it writes to (found on the first
// change) and the ChangeFeeds of this process to tell on SQLite.
type changes struct {
	dialect atomic.Int32

	mu   sync.Mutex
	next int
	subs map[int]func()
}

// announce makes the change written in tx known to every replica once tx commits: on PostgreSQL
// by pg_notify in tx itself, on SQLite by telling this process's ChangeFeeds after the commit.
// The Service's dialect is found on its first change (pg_notify fails on SQLite and leaves the
// transaction usable there), so every way of building a Service announces, the CLI's included.
func (s *Service) announce(ctx context.Context, tx *ent.Tx, rev int) error {
	switch s.changes.dialect.Load() {
	case dialectPostgres:
		return pgNotify(ctx, tx, rev)
	case dialectSQLite:
		s.afterCommit(tx)
		return nil
	}
	err := pgNotify(ctx, tx, rev)
	if err == nil {
		s.changes.dialect.Store(dialectPostgres)
		return nil
	}
	// Not PostgreSQL, or PostgreSQL failing (its transaction is then aborted and the next
	// statement fails too): only a database answering as SQLite is taken for SQLite.
	var v string
	rows, qerr := tx.QueryContext(ctx, "SELECT sqlite_version()")
	if qerr == nil {
		if rows.Next() {
			qerr = rows.Scan(&v)
		}
		qerr = errors.Join(qerr, rows.Err(), rows.Close())
	}
	if qerr != nil || v == "" {
		return err
	}
	s.changes.dialect.Store(dialectSQLite)
	s.afterCommit(tx)
	return nil
}

// pgNotify queues the notification of a change in tx; PostgreSQL sends it when tx commits.
func pgNotify(ctx context.Context, tx *ent.Tx, rev int) error {
	if _, err := tx.ExecContext(ctx, "SELECT pg_notify($1, $2)", Channel, strconv.Itoa(rev)); err != nil {
		return fmt.Errorf("announce change: %w", err)
	}
	return nil
}

// afterCommit tells this process's ChangeFeeds once tx has committed (not when it rolls back).
func (s *Service) afterCommit(tx *ent.Tx) {
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			if err := next.Commit(ctx, tx); err != nil {
				return err
			}
			s.changed()
			return nil
		})
	})
}

// subscribe calls fn after every change this Service commits on SQLite, until the returned
// function is called. fn must not block.
func (s *Service) subscribe(fn func()) (cancel func()) {
	c := &s.changes
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subs == nil {
		c.subs = map[int]func(){}
	}
	id := c.next
	c.next++
	c.subs[id] = fn
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.subs, id)
	}
}

// changed calls the subscribers.
func (s *Service) changed() {
	c := &s.changes
	c.mu.Lock()
	fns := make([]func(), 0, len(c.subs))
	for _, fn := range c.subs {
		fns = append(fns, fn)
	}
	c.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// ChangeFeed reloads a replica's Sync as soon as a change is committed anywhere (see the top of
// this file). Build it with NewChangeFeed and run it with Run beside Sync.Run, which stays as the
// fallback.
type ChangeFeed struct {
	sync *Sync
	log  *slog.Logger
	pg   *pgx.ConnConfig // nil on SQLite

	kicks      chan struct{} // capacity 1: a reload is wanted
	minBackoff time.Duration // feedMinBackoff; tests lengthen it
	idleCheck  time.Duration // feedIdleCheck; tests shorten it

	reloads     atomic.Int64 // reloads done, for tests and logs
	mu          sync.Mutex
	listenerPID uint32 // backend pid of the listening connection, 0 when not listening
}

// NewChangeFeed returns the change feed of the replica whose Sync is s. storeDialect is the
// store's dialect (store.Store.Dialect); databaseURL its URL, read on PostgreSQL only, to open
// the listener's own connection. Errors never contain the URL's password.
func NewChangeFeed(s *Sync, storeDialect, databaseURL string, log *slog.Logger) (*ChangeFeed, error) {
	f := &ChangeFeed{sync: s, log: log, kicks: make(chan struct{}, 1), minBackoff: feedMinBackoff,
		idleCheck: feedIdleCheck}
	switch storeDialect {
	case dialect.SQLite:
	case dialect.Postgres:
		cfg, err := pgx.ParseConfig(databaseURL)
		if err != nil {
			return nil, errors.New("change feed: invalid postgres URL") // pgx's error quotes the URL
		}
		cfg.RuntimeParams["application_name"] = ListenerName
		cfg.ConnectTimeout = feedConnectTimeout
		f.pg = cfg
	default:
		return nil, fmt.Errorf("change feed: unknown store dialect %q", storeDialect)
	}
	return f, nil
}

// Run listens for changes and reloads on each (coalescing bursts) until ctx ends. On SQLite it
// follows the changes made through this process's Service.
func (f *ChangeFeed) Run(ctx context.Context) {
	defer f.sync.svc.subscribe(f.kick)()
	var wg sync.WaitGroup
	if f.pg != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.listen(ctx)
		}()
	}
	f.reloadLoop(ctx)
	wg.Wait()
}

// kick asks for a reload without blocking; kicks while one is pending fold into it.
func (f *ChangeFeed) kick() {
	select {
	case f.kicks <- struct{}{}:
	default:
	}
}

// reloadLoop reloads once per kick (folded), at most once per feedMinGap, retrying with backoff
// while reloading fails.
func (f *ChangeFeed) reloadLoop(ctx context.Context) {
	backoff := feedMinBackoff
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.kicks:
		}
		rctx, cancel := context.WithTimeout(ctx, feedReloadTimeout)
		err := f.sync.reload(rctx)
		cancel()
		wait := feedMinGap
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			f.log.Warn("change feed: reload policy and key cache", "err", err, "retryIn", backoff)
			wait, backoff = backoff, min(2*backoff, feedMaxBackoff)
			f.kick()
		default:
			f.reloads.Add(1)
			backoff = feedMinBackoff
		}
		if !sleep(ctx, wait) {
			return
		}
	}
}

// listen keeps one connection listening on Channel until ctx ends, reconnecting with backoff.
func (f *ChangeFeed) listen(ctx context.Context) {
	backoff := f.minBackoff
	for {
		listened, err := f.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		if listened {
			backoff = f.minBackoff
		}
		f.log.Warn("change feed: listener connection lost; reconnecting (the periodic sync covers the gap)",
			"err", err, "retryIn", backoff)
		if !sleep(ctx, backoff) {
			return
		}
		backoff = max(min(2*backoff, feedMaxBackoff), f.minBackoff)
	}
}

// listenOnce connects, listens and kicks a reload per notification until the connection fails
// or ctx ends. listened says whether LISTEN took effect.
func (f *ChangeFeed) listenOnce(ctx context.Context) (listened bool, err error) {
	cctx, cancel := context.WithTimeout(ctx, feedConnectTimeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, f.pg)
	if err != nil {
		return false, fmt.Errorf("connect: %w", scrubPassword(err, f.pg.Password))
	}
	defer func() {
		f.setListener(0)
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		conn.Close(closeCtx)
	}()
	if _, err := conn.Exec(cctx, "LISTEN "+Channel); err != nil {
		return false, fmt.Errorf("listen: %w", err)
	}
	f.setListener(conn.PgConn().PID())
	// Anything committed while this replica was not listening: reload once now.
	f.kick()
	for {
		wctx, cancel := context.WithTimeout(ctx, f.idleCheck)
		_, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			f.kick()
		case ctx.Err() != nil:
			return true, nil
		case errors.Is(err, context.DeadlineExceeded) && !conn.IsClosed():
			// Quiet for a while: make sure the connection still answers.
			pctx, cancel := context.WithTimeout(ctx, feedConnectTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil && ctx.Err() == nil {
				return true, fmt.Errorf("check idle connection: %w", err)
			}
		default:
			return true, fmt.Errorf("wait for notification: %w", err)
		}
	}
}

func (f *ChangeFeed) setListener(pid uint32) {
	f.mu.Lock()
	f.listenerPID = pid
	f.mu.Unlock()
}

// ListenerPID is the PostgreSQL backend pid of the feed's listening connection, 0 while it is
// not listening (and always on SQLite).
func (f *ChangeFeed) ListenerPID() uint32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.listenerPID
}

// Reloads is the number of reloads the feed has done.
func (f *ChangeFeed) Reloads() int64 { return f.reloads.Load() }

// sleep waits d or until ctx ends; it reports whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// scrubPassword removes a password from an error's text, should a driver ever include it.
func scrubPassword(err error, password string) error {
	if password == "" || !strings.Contains(err.Error(), password) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), password, "xxxxx"))
}
