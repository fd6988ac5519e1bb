package index

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/indexlease"
)

// LeaseTimings are how long a lease lasts and how its holder keeps it.
type LeaseTimings struct {
	// TTL: a lease not renewed for this long (by the database's clock) may be taken by another replica.
	TTL time.Duration
	// Renew: how often the holder renews its lease, and how often the others try to take it.
	Renew time.Duration
	// Deadline: a holder whose last successful renewal began this long ago stops what the lease
	// guards, before the lease can have expired (Deadline < TTL, by the holder's own clock, which
	// started counting before the database stamped the expiry).
	Deadline time.Duration
}

// DefaultLeaseTimings: a 15 s lease renewed every 5 s; a holder that could not renew for 10 s stops.
// A replica that dies is taken over within TTL + Renew (20 s); one that shuts down releases its
// leases, taken over within Renew (5 s).
var DefaultLeaseTimings = LeaseTimings{TTL: 15 * time.Second, Renew: 5 * time.Second, Deadline: 10 * time.Second}

func (t LeaseTimings) check() error {
	if t.Renew <= 0 || t.Deadline <= t.Renew || t.TTL <= t.Deadline {
		return fmt.Errorf("lease timings: want 0 < Renew < Deadline < TTL, got %v, %v, %v", t.Renew, t.Deadline, t.TTL)
	}
	return nil
}

// Leases are named leases in the store (the index_leases table), each held by at most one replica
// at a time: "index:<chain>" by the replica that indexes the chain, "devnet" by the replica that
// runs local mode's devnet on a shared PostgreSQL. A lease is a row (name, holder, expires_at),
// taken with a conditional UPDATE (the row's holder is us, or its expiry has passed) or an INSERT
// that the unique name lets only one replica win, so it works alike on SQLite and PostgreSQL and
// the holder can be named. Expiries are read on the database's clock (PostgreSQL's
// clock_timestamp(); on SQLite, whose processes share a machine, the local clock), so the replicas'
// clocks need not agree.
type Leases struct {
	db      *ent.Client
	dialect string
	holder  string
	timings LeaseTimings
	log     *slog.Logger
}

// NewLeases returns the leases of the store as holder (a name unique to this replica: NewHolderID).
func NewLeases(db *ent.Client, dialectName, holder string, t LeaseTimings, log *slog.Logger) (*Leases, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if holder == "" {
		return nil, errors.New("lease holder: want a name")
	}
	if log == nil {
		log = slog.Default()
	}
	return &Leases{db: db, dialect: dialectName, holder: holder, timings: t, log: log}, nil
}

// NewHolderID names this process among the replicas: host, process id and a random suffix (a
// restarted process is another holder).
func NewHolderID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return fmt.Sprintf("%s/pid-%d/%s", host, os.Getpid(), hex.EncodeToString(b))
}

// Holder is this replica's name in the leases it holds.
func (l *Leases) Holder() string { return l.holder }

// Timings are the leases' timings.
func (l *Leases) Timings() LeaseTimings { return l.timings }

// now is the database's clock in unix milliseconds.
func (l *Leases) now(ctx context.Context) (int64, error) {
	if l.dialect != dialect.Postgres {
		return time.Now().UnixMilli(), nil
	}
	rows, err := l.db.QueryContext(ctx, "SELECT CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)")
	if err != nil {
		return 0, fmt.Errorf("database clock: %w", err)
	}
	defer rows.Close()
	var ms int64
	if !rows.Next() {
		return 0, fmt.Errorf("database clock: %w", errors.Join(errors.New("no row"), rows.Err()))
	}
	if err := rows.Scan(&ms); err != nil {
		return 0, fmt.Errorf("database clock: %w", err)
	}
	return ms, rows.Close()
}

// LeaseState is a lease's row as last read.
type LeaseState struct {
	Holder    string // empty: released
	ExpiresAt int64  // unix milliseconds, database clock
}

// TryAcquire takes the lease name, or renews it when this replica holds it. When another replica
// holds it, held is false and cur says who.
func (l *Leases) TryAcquire(ctx context.Context, name string) (held bool, cur LeaseState, err error) {
	if held, err = l.Renew(ctx, name); err != nil || held {
		return held, LeaseState{Holder: l.holder}, err
	}
	now, err := l.now(ctx)
	if err != nil {
		return false, LeaseState{}, err
	}
	expires := now + l.timings.TTL.Milliseconds()
	n, err := l.db.IndexLease.Update().Where(indexlease.Name(name), indexlease.ExpiresAtLTE(now)).
		SetHolder(l.holder).SetExpiresAt(expires).SetAcquiredAt(now).Save(ctx)
	if err != nil {
		return false, LeaseState{}, fmt.Errorf("take lease %s: %w", name, err)
	}
	if n == 1 {
		return true, LeaseState{Holder: l.holder, ExpiresAt: expires}, nil
	}
	err = l.db.IndexLease.Create().SetName(name).SetHolder(l.holder).SetExpiresAt(expires).SetAcquiredAt(now).Exec(ctx)
	switch {
	case err == nil:
		return true, LeaseState{Holder: l.holder, ExpiresAt: expires}, nil
	case !ent.IsConstraintError(err):
		return false, LeaseState{}, fmt.Errorf("take lease %s: %w", name, err)
	}
	// The row exists and is held, unexpired, by another replica.
	row, err := l.db.IndexLease.Query().Where(indexlease.Name(name)).Only(ctx)
	if err != nil {
		return false, LeaseState{}, fmt.Errorf("read lease %s: %w", name, err)
	}
	return false, LeaseState{Holder: row.Holder, ExpiresAt: row.ExpiresAt}, nil
}

// Renew extends the lease name by TTL when this replica holds it; held is false when it does not
// (another replica took it, or it was never taken).
func (l *Leases) Renew(ctx context.Context, name string) (held bool, err error) {
	now, err := l.now(ctx)
	if err != nil {
		return false, err
	}
	n, err := l.db.IndexLease.Update().Where(indexlease.Name(name), indexlease.Holder(l.holder)).
		SetExpiresAt(now + l.timings.TTL.Milliseconds()).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("renew lease %s: %w", name, err)
	}
	return n == 1, nil
}

// Release gives the lease name up when this replica holds it, so that another takes it at once.
func (l *Leases) Release(ctx context.Context, name string) error {
	if _, err := l.db.IndexLease.Update().Where(indexlease.Name(name), indexlease.Holder(l.holder)).
		SetHolder("").SetExpiresAt(0).Save(ctx); err != nil {
		return fmt.Errorf("release lease %s: %w", name, err)
	}
	return nil
}

// Current reads the lease name; ok is false when nobody ever took it.
func (l *Leases) Current(ctx context.Context, name string) (cur LeaseState, ok bool, err error) {
	row, err := l.db.IndexLease.Query().Where(indexlease.Name(name)).Only(ctx)
	if ent.IsNotFound(err) {
		return LeaseState{}, false, nil
	}
	if err != nil {
		return LeaseState{}, false, fmt.Errorf("read lease %s: %w", name, err)
	}
	return LeaseState{Holder: row.Holder, ExpiresAt: row.ExpiresAt}, true, nil
}

// HeldError is Claim's answer when a live replica holds the lease.
type HeldError struct {
	Name   string
	Holder string
}

func (e *HeldError) Error() string { return fmt.Sprintf("lease %s is held by %s", e.Name, e.Holder) }

// Claim takes the lease name for this replica, or fails with a *HeldError when another replica
// holds it and is alive. A lease left behind by a replica that died is waited out (at most TTL
// plus Renew); a live holder is told by its renewal (within Renew), so a refusal comes within about
// Renew. The caller keeps the lease with Hold.
func (l *Leases) Claim(ctx context.Context, name string) error {
	give := time.Now().Add(l.timings.TTL + l.timings.Renew)
	var first *LeaseState
	for {
		held, cur, err := l.TryAcquire(ctx, name)
		if err != nil || held {
			return err
		}
		switch {
		case first == nil:
			first = &cur
		case cur != *first || time.Now().After(give): // renewed, or taken by another: alive
			return &HeldError{Name: name, Holder: cur.Holder}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// Hold runs fn while this replica holds the lease name, until ctx ends: it tries to take the lease
// every Renew; once it holds it, it runs fn and renews the lease every Renew (retrying every second
// when a renewal fails). When the lease is lost (another replica took it, or no renewal succeeded
// within Deadline of the last good one), fn's context is cancelled and Hold waits for fn to return
// before it contends again. When ctx ends, it stops fn and releases the lease. When fn returns on
// its own, Hold releases the lease and returns. Taking and losing the lease are logged at INFO.
func (l *Leases) Hold(ctx context.Context, name string, fn func(ctx context.Context)) {
	log := l.log.With("lease", name, "holder", l.holder)
	var waitingOn string // the other holder last logged
	for ctx.Err() == nil {
		start := time.Now()
		held, cur, err := l.TryAcquire(ctx, name)
		switch {
		case err != nil:
			if ctx.Err() == nil {
				log.Warn("lease: cannot reach the store; retrying", "err", err, "retry_in", l.timings.Renew)
			}
		case !held:
			if cur.Holder != waitingOn {
				log.Info("lease held by another replica: this one stands by", "held_by", cur.Holder)
				waitingOn = cur.Holder
			}
		default:
			waitingOn = ""
			log.Info("lease taken: this replica runs it")
			why, returned := l.keep(ctx, name, start, fn)
			if ctx.Err() != nil || returned {
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.timings.Renew)
				if err := l.Release(rctx, name); err != nil {
					log.Warn("lease: release failed; it expires by itself", "err", err, "ttl", l.timings.TTL)
				} else {
					log.Info("lease released")
				}
				cancel()
				return
			}
			log.Info("lease lost: this replica stopped running it", "why", why)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(l.timings.Renew):
		}
	}
}

// keep runs fn and renews the lease until it is lost (why says how), ctx ends or fn returns; fn has
// returned when keep does.
func (l *Leases) keep(ctx context.Context, name string, start time.Time, fn func(context.Context)) (why string, returned bool) {
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(fctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	valid := start.Add(l.timings.Deadline) // stop by then unless renewed
	wait := l.timings.Renew
	for {
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return "", false
		case <-done:
			timer.Stop()
			return "", true
		case <-timer.C:
		}
		begin := time.Now()
		rctx, rcancel := context.WithDeadline(ctx, valid) // a renewal cannot outlive the lease
		held, err := l.Renew(rctx, name)
		rcancel()
		switch {
		case ctx.Err() != nil:
			return "", false
		case err == nil && held:
			valid, wait = begin.Add(l.timings.Deadline), l.timings.Renew
			continue
		case err == nil:
			return "another replica holds it (this one could not renew in time)", false
		case !time.Now().Before(valid):
			return fmt.Sprintf("no renewal succeeded for %v: %v", l.timings.Deadline, err), false
		}
		l.log.Warn("lease: renewal failed; retrying", "lease", name, "err", err, "stops_in", time.Until(valid).Round(time.Millisecond))
		wait = min(time.Second, time.Until(valid))
	}
}

// ErrLeaseLost is a fenced write's error when this replica no longer holds the chain's lease.
var ErrLeaseLost = errors.New("index lease lost: another replica indexes this chain")

// Fence is the index's write fence for the chain leases named by leaseOf: a write goes ahead only
// while this replica holds the chain's lease, unexpired by the database's clock. On PostgreSQL the
// lease row is locked for the rest of the write's transaction, so no replica can take the lease
// over between the check and the commit (its takeover waits for the commit, and a renewal by this
// replica too). A replica paused past its lease (a stopped process, a frozen VM) thus cannot write
// over the index its successor is building when it wakes up, not even a Rollback or a Reset.
func (l *Leases) Fence(leaseOf func(chainName string) string) Fence {
	return func(ctx context.Context, tx *ent.Tx, chainName string) error {
		name := leaseOf(chainName)
		q := tx.IndexLease.Query().Where(indexlease.Name(name))
		if l.dialect == dialect.Postgres {
			q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if ent.IsNotFound(err) {
			return fmt.Errorf("%w (lease %s was never taken)", ErrLeaseLost, name)
		}
		if err != nil {
			return fmt.Errorf("check lease %s: %w", name, err)
		}
		now, err := l.now(ctx)
		if err != nil {
			return err
		}
		if row.Holder != l.holder || row.ExpiresAt <= now {
			return fmt.Errorf("%w (lease %s: holder %q, expires %d, now %d)", ErrLeaseLost, name, row.Holder, row.ExpiresAt, now)
		}
		return nil
	}
}

// TermSink is the index as a chain indexer that runs under a lease sees it: after the replica
// took the lease back (NewTerm), another replica may have moved the index meanwhile, so the first
// Apply answers chain.ErrCursorMoved without writing, and the indexer re-reads the cursor and what
// it watches (new pools included) before it carries on.
type TermSink struct {
	chain.Sink
	stale atomic.Bool
}

// NewTermSink wraps sink.
func NewTermSink(sink chain.Sink) *TermSink { return &TermSink{Sink: sink} }

// NewTerm marks what the indexer holds as stale.
func (s *TermSink) NewTerm() { s.stale.Store(true) }

// Apply implements chain.Sink.
func (s *TermSink) Apply(ctx context.Context, b chain.Batch) error {
	if s.stale.Swap(false) {
		return chain.ErrCursorMoved
	}
	return s.Sink.Apply(ctx, b)
}
