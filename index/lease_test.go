package index_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent/indexlease"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// Short timings keep the tests fast; the ratios are the production ones (15 s, 5 s, 10 s).
var testTimings = index.LeaseTimings{TTL: 1500 * time.Millisecond, Renew: 250 * time.Millisecond, Deadline: time.Second}

// eachShared runs fn on SQLite and PostgreSQL with open, which opens another store (its own
// connection pool, as another replica would have) on one fresh database.
func eachShared(t *testing.T, fn func(t *testing.T, open func() *store.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		url := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
		fn(t, func() *store.Store { return openStore(t, url) })
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		url, _ := storetest.CreatePostgresDB(t)
		fn(t, func() *store.Store { return openStore(t, url) })
	})
}

func openStore(t *testing.T, url string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newLeases(t *testing.T, s *store.Store, holder string) *index.Leases {
	t.Helper()
	l, err := index.NewLeases(s.Client, s.Dialect, holder, testTimings, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLeaseOneHolder: of several replicas contending for a lease, exactly one runs what it guards at
// any time; when the holder shuts down (releasing it) or dies (its renewals stop), another takes
// over, and each holder's run has stopped before the next one's starts.
func TestLeaseOneHolder(t *testing.T) {
	t.Parallel()
	eachShared(t, func(t *testing.T, open func() *store.Store) {
		const n = 4
		var (
			mu      sync.Mutex
			running = map[string]bool{}
			overlap []string
			terms   []string // who ran, in order
		)
		run := func(holder string) func(ctx context.Context) {
			return func(ctx context.Context) {
				mu.Lock()
				for other := range running {
					overlap = append(overlap, fmt.Sprintf("%s started while %s ran", holder, other))
				}
				running[holder] = true
				terms = append(terms, holder)
				mu.Unlock()
				<-ctx.Done()
				time.Sleep(20 * time.Millisecond) // a step finishing
				mu.Lock()
				delete(running, holder)
				mu.Unlock()
			}
		}
		type replica struct {
			store  *store.Store
			cancel context.CancelFunc
			done   chan struct{}
		}
		replicas := map[string]*replica{}
		for i := range n {
			holder := fmt.Sprintf("replica-%d", i)
			s := open()
			ctx, cancel := context.WithCancel(context.Background())
			r := &replica{store: s, cancel: cancel, done: make(chan struct{})}
			replicas[holder] = r
			l := newLeases(t, s, holder)
			go func() { defer close(r.done); l.Hold(ctx, "index:base", run(holder)) }()
		}
		t.Cleanup(func() {
			for _, r := range replicas {
				r.cancel()
				<-r.done
			}
		})
		current := func() string {
			mu.Lock()
			defer mu.Unlock()
			if len(running) != 1 {
				return ""
			}
			for h := range running {
				return h
			}
			return ""
		}
		waitHolder := func(what string, not string, within time.Duration) string {
			t.Helper()
			deadline := time.Now().Add(within)
			for time.Now().Before(deadline) {
				if h := current(); h != "" && h != not {
					return h
				}
				time.Sleep(20 * time.Millisecond)
			}
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("%s: no single new holder within %v (running %v)", what, within, running)
			return ""
		}
		first := waitHolder("start", "", 2*testTimings.Renew+time.Second)
		time.Sleep(3 * testTimings.TTL) // several renewals: the holder keeps it
		if h := current(); h != first {
			t.Fatalf("holder changed from %s to %q without a reason", first, h)
		}

		// Shutdown: the lease is released, another takes it within Renew (plus slack).
		replicas[first].cancel()
		<-replicas[first].done
		second := waitHolder("after a shutdown", first, testTimings.Renew+time.Second)

		// Death: the holder's database goes away, so its renewals fail; it stops within Deadline and
		// another takes over once the lease expired, within TTL + Renew (plus slack).
		replicas[second].store.Close()
		waitHolder("after a death", second, testTimings.TTL+testTimings.Renew+time.Second)

		mu.Lock()
		defer mu.Unlock()
		if len(overlap) > 0 {
			t.Errorf("two holders ran at once: %v", overlap)
		}
		t.Logf("terms: %v", terms)
	})
}

// TestLeaseTakeoverAfterExpiry: a lease whose holder stops renewing (a replica that died without
// releasing it) cannot be taken before it expired, and is taken after.
func TestLeaseTakeoverAfterExpiry(t *testing.T) {
	t.Parallel()
	eachShared(t, func(t *testing.T, open func() *store.Store) {
		ctx := t.Context()
		a, b := newLeases(t, open(), "a"), newLeases(t, open(), "b")
		taken := time.Now()
		if held, _, err := a.TryAcquire(ctx, "index:base"); err != nil || !held {
			t.Fatalf("a takes a free lease: %v %v", held, err)
		}
		if held, cur, err := b.TryAcquire(ctx, "index:base"); err != nil || held || cur.Holder != "a" {
			t.Fatalf("b takes a's live lease: held %v, holder %q, %v", held, cur.Holder, err)
		}
		time.Sleep(testTimings.TTL / 2)
		if held, _, err := b.TryAcquire(ctx, "index:base"); err != nil || held {
			t.Fatalf("b takes a's lease half way through its TTL: %v %v", held, err)
		}
		for {
			held, cur, err := b.TryAcquire(ctx, "index:base")
			if err != nil {
				t.Fatal(err)
			}
			if held {
				break
			}
			if since := time.Since(taken); since > testTimings.TTL+time.Second {
				t.Fatalf("b still cannot take a's expired lease after %v (holder %q)", since, cur.Holder)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if since := time.Since(taken); since < testTimings.TTL-100*time.Millisecond {
			t.Errorf("b took a's lease %v after a did, before its TTL %v", since, testTimings.TTL)
		}
		if held, err := a.Renew(ctx, "index:base"); err != nil || held {
			t.Errorf("a renews the lease b took: %v %v", held, err)
		}
	})
}

// TestLeaseLostStops: a holder stops what it runs when another replica holds its lease (at its next
// renewal), and when it cannot renew (its database is gone) before the lease can have expired.
func TestLeaseLostStops(t *testing.T) {
	t.Parallel()
	eachShared(t, func(t *testing.T, open func() *store.Store) {
		for _, how := range []string{"taken", "unreachable"} {
			t.Run(how, func(t *testing.T) {
				name := "index:" + how
				s, other := open(), open()
				l := newLeases(t, s, "holder")
				started, stopped := make(chan struct{}), make(chan time.Time, 1)
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				var terms atomic.Int32
				go func() {
					defer close(done)
					l.Hold(ctx, name, func(ctx context.Context) {
						if terms.Add(1) > 1 { // the lease is someone else's, or the store is gone: no second term
							t.Errorf("the holder ran again after losing the lease")
							<-ctx.Done()
							return
						}
						close(started)
						<-ctx.Done()
						stopped <- time.Now()
					})
				}()
				t.Cleanup(func() { cancel(); <-done })
				select {
				case <-started:
				case <-time.After(5 * time.Second):
					t.Fatal("the holder never started")
				}
				time.Sleep(2 * testTimings.Renew) // a renewal or two
				var lost time.Time
				var expires int64
				switch how {
				case "taken":
					lost = time.Now()
					if _, err := other.Client.IndexLease.Update().Where(indexlease.Name(name)).SetHolder("intruder").
						SetExpiresAt(time.Now().Add(time.Hour).UnixMilli()).Save(t.Context()); err != nil {
						t.Fatal(err)
					}
				case "unreachable":
					row, err := other.Client.IndexLease.Query().Where(indexlease.Name(name)).Only(t.Context())
					if err != nil {
						t.Fatal(err)
					}
					lost, expires = time.Now(), row.ExpiresAt
					s.Close()
				}
				select {
				case at := <-stopped:
					took := at.Sub(lost)
					switch how {
					case "taken":
						if took > testTimings.Renew+500*time.Millisecond {
							t.Errorf("stopped %v after the lease was taken; want within Renew %v", took, testTimings.Renew)
						}
					case "unreachable":
						if at.UnixMilli() >= expires {
							t.Errorf("stopped at %d ms, not before its lease expired at %d ms", at.UnixMilli(), expires)
						}
					}
					t.Logf("%s: stopped %v after losing the lease", how, took)
				case <-time.After(testTimings.TTL + 2*time.Second):
					t.Fatal("the holder never stopped")
				}
			})
		}
	})
}

// TestLeaseClaim: Claim takes a free or released lease at once, waits out one its dead holder left,
// and refuses, naming the holder, one whose holder renews it.
func TestLeaseClaim(t *testing.T) {
	t.Parallel()
	eachShared(t, func(t *testing.T, open func() *store.Store) {
		ctx := t.Context()
		a, b := newLeases(t, open(), "a"), newLeases(t, open(), "b")
		if err := a.Claim(ctx, "devnet"); err != nil {
			t.Fatalf("claim a free lease: %v", err)
		}
		// a is alive: it renews.
		hctx, stop := context.WithCancel(ctx)
		held := make(chan struct{})
		go func() { defer close(held); a.Hold(hctx, "devnet", func(ctx context.Context) { <-ctx.Done() }) }()
		start := time.Now()
		err := b.Claim(ctx, "devnet")
		var he *index.HeldError
		if !errors.As(err, &he) || he.Holder != "a" {
			t.Fatalf("claim a live holder's lease: %v, want a *HeldError naming a", err)
		}
		if took := time.Since(start); took > testTimings.Renew+time.Second {
			t.Errorf("refused after %v; want within about Renew %v", took, testTimings.Renew)
		}
		// a shuts down: released, b claims at once.
		stop()
		<-held
		start = time.Now()
		if err := b.Claim(ctx, "devnet"); err != nil {
			t.Fatalf("claim a released lease: %v", err)
		}
		if took := time.Since(start); took > 500*time.Millisecond {
			t.Errorf("claiming a released lease took %v", took)
		}
		// b dies holding it: a waits it out.
		start = time.Now()
		if err := a.Claim(ctx, "devnet"); err != nil {
			t.Fatalf("claim a dead holder's lease: %v", err)
		}
		if took := time.Since(start); took < testTimings.TTL/2 || took > testTimings.TTL+testTimings.Renew+time.Second {
			t.Errorf("claimed a dead holder's lease after %v; want about its TTL %v", took, testTimings.TTL)
		}
	})
}

// TestLeaseTermSink: after a new term, the first Apply tells the indexer that the cursor moved, so
// that it re-reads what another replica indexed meanwhile; the next ones write.
func TestLeaseTermSink(t *testing.T) {
	t.Parallel()
	s := storetest.SQLite(t)
	ix := newIndex(t, s)
	sink := index.NewTermSink(ix)
	sink.NewTerm()
	if err := sink.Apply(t.Context(), genesisBatch()); !errors.Is(err, chain.ErrCursorMoved) {
		t.Fatalf("first Apply of a new term: %v, want ErrCursorMoved", err)
	}
	if c, _, _ := ix.Cursor(t.Context(), "base"); c.Block != -1 {
		t.Fatalf("the refused batch landed: cursor %d", c.Block)
	}
	if err := sink.Apply(t.Context(), genesisBatch()); err != nil {
		t.Fatalf("second Apply: %v", err)
	}
}

// TestLeaseFence: a fenced index write goes ahead only while the writer holds the chain's lease; a
// replica whose lease another took over (it was paused past its lease) cannot write, not even a
// Reset. On PostgreSQL the check locks the lease row until the write commits, so a takeover waits.
func TestLeaseFence(t *testing.T) {
	eachShared(t, func(t *testing.T, open func() *store.Store) {
		ctx := t.Context()
		sa, sb := open(), open()
		a, b := newLeases(t, sa, "replica-a"), newLeases(t, sb, "replica-b")
		leaseOf := func(c string) string { return "index:" + c }
		ix := index.New(sa.Client, sa.Dialect, nil)
		ix.SetFence(a.Fence(leaseOf))

		if err := ix.Reset(ctx, "base"); !errors.Is(err, index.ErrLeaseLost) {
			t.Fatalf("Reset before the lease was ever taken = %v, want ErrLeaseLost", err)
		}
		if held, _, err := a.TryAcquire(ctx, "index:base"); err != nil || !held {
			t.Fatalf("a takes the lease: %v %v", held, err)
		}
		if err := ix.Reset(ctx, "base"); err != nil {
			t.Fatalf("Reset by the holder: %v", err)
		}

		if sa.Dialect == "postgres" {
			// A write in progress holds the lease row: b's takeover (forced here by expiring the
			// lease) waits for it to commit.
			tx, err := sa.Client.Tx(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Fence(leaseOf)(ctx, tx, "base"); err != nil {
				t.Fatal(err)
			}
			blocked, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			_, err = sb.Client.IndexLease.Update().Where(indexlease.Name("index:base")).SetExpiresAt(0).Save(blocked)
			cancel()
			if err == nil {
				t.Fatal("the lease row changed while a fenced write was in progress")
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}

		// a is paused past its lease; b takes it over. a's writes are refused from then on.
		if _, err := sb.Client.IndexLease.Update().Where(indexlease.Name("index:base")).SetExpiresAt(0).Save(ctx); err != nil {
			t.Fatal(err)
		}
		if held, _, err := b.TryAcquire(ctx, "index:base"); err != nil || !held {
			t.Fatalf("b takes the expired lease: %v %v", held, err)
		}
		if err := ix.Reset(ctx, "base"); !errors.Is(err, index.ErrLeaseLost) {
			t.Fatalf("Reset by the replica that lost the lease = %v, want ErrLeaseLost", err)
		}
		if err := ix.Rollback(ctx, "base", 0, "0x00"); !errors.Is(err, index.ErrLeaseLost) {
			t.Fatalf("Rollback by the replica that lost the lease = %v, want ErrLeaseLost", err)
		}
		ib := index.New(sb.Client, sb.Dialect, nil)
		ib.SetFence(b.Fence(leaseOf))
		if err := ib.Reset(ctx, "base"); err != nil {
			t.Fatalf("Reset by the new holder: %v", err)
		}
	})
}
