package metering_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

var discard = slog.New(slog.DiscardHandler)

// never is a flush interval no test outlives: only Flush, Close and full batches write.
const never = time.Hour

// testWriter is a UsageWriter that keeps what it was given (or hands it to next), can be told to
// fail, and can be held inside WriteCalls until released.
type testWriter struct {
	next metering.UsageWriter // nil: keep calls in memory

	fail     atomic.Bool
	attempts atomic.Int64
	entered  chan struct{} // receives once per WriteCalls, if not nil (never blocks)
	gate     chan struct{} // WriteCalls waits for it to close, if not nil

	mu      sync.Mutex
	written []metering.Call
	counted metering.Totals // the rollup increments written
}

var errWriterDown = errors.New("usage store down")

func (w *testWriter) WriteUsage(ctx context.Context, b metering.UsageBatch) error {
	w.attempts.Add(1)
	if w.entered != nil {
		select {
		case w.entered <- struct{}{}:
		default:
		}
	}
	if w.gate != nil {
		select {
		case <-w.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if w.fail.Load() {
		return errWriterDown
	}
	if w.next != nil {
		if err := w.next.WriteUsage(ctx, b); err != nil {
			return err
		}
	}
	if len(b.Calls) > metering.MaxBatch {
		return fmt.Errorf("batch of %d raw calls, more than MaxBatch", len(b.Calls))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.written = append(w.written, b.Calls...)
	t := b.Rollups.Total()
	w.counted.Calls += t.Calls
	w.counted.Cost += t.Cost
	w.counted.Errors += t.Errors
	return nil
}

func (w *testWriter) countedCalls() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.counted.Calls
}

func (w *testWriter) requestIDs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]string, len(w.written))
	for i, c := range w.written {
		ids[i] = c.RequestID
	}
	return ids
}

func call(i int) metering.Call {
	return metering.Call{ConsumerID: 1, KeyID: 1, Operation: "getTrending", Status: 200, Cost: 1,
		Latency: time.Millisecond, RequestID: fmt.Sprintf("req-%06d", i), At: day0.Add(time.Duration(i) * time.Millisecond)}
}

func ids(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, call(i).RequestID)
	}
	return out
}

// storedIDs returns the request ids of every raw call in the store, sorted.
func storedIDs(t *testing.T, st *store.Store) []string {
	t.Helper()
	got := meteringtest.StoredRequestIDs(t, st.DB)
	slices.Sort(got)
	return got
}

// newRecorder starts a recorder that is closed when the test ends; the test must not close it.
func newRecorder(t *testing.T, w metering.UsageWriter, interval time.Duration, buffer int) *metering.Recorder {
	r := metering.NewRecorder(w, discard, interval, buffer)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.Close(ctx)
	})
	return r
}

// closeRecorder closes a recorder made by metering.NewRecorder (not newRecorder).
func closeRecorder(t *testing.T, r *metering.Recorder) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	return r.Close(ctx)
}

// within fails the test when fn does not return within a generous bound: it detects blocking, it
// does not measure speed.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

func TestRecorderRecordNeverBlocks(t *testing.T) {
	// The writer hangs: the first flush (timer or full batch) sits in WriteCalls until released.
	w := &testWriter{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	const buffer = 5_000 // below MaxBatch: a chunk is full at the buffer size, which kicks the flusher too
	r := metering.NewRecorder(w, discard, time.Millisecond, buffer)

	within(t, "Record while the writer hangs", func() {
		for i := range 3 * buffer {
			r.Record(call(i))
		}
	})
	<-w.entered // a flush is stuck in the writer; nothing has been written
	if got, want := r.Stats(), (metering.Stats{Recorded: 3 * buffer, Shed: 2 * buffer, Pending: buffer}); got != want {
		t.Fatalf("Stats = %+v, want %+v (raw rows beyond the buffer shed)", got, want)
	}

	close(w.gate)
	within(t, "Close after the writer recovers", func() {
		if err := closeRecorder(t, r); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	if got := w.requestIDs(); !slices.Equal(got, ids(0, buffer)) {
		t.Fatalf("written %d calls (first %v), want the %d calls that fit the buffer, in order", len(got), got[:min(3, len(got))], buffer)
	}
	if got := w.countedCalls(); got != 3*buffer {
		t.Fatalf("rollups count %d calls, want all %d recorded (shed raw rows still count)", got, 3*buffer)
	}
	if got, want := r.Stats(), (metering.Stats{Recorded: 3 * buffer, Counted: 3 * buffer, Written: buffer, Shed: 2 * buffer}); got != want {
		t.Fatalf("Stats after Close = %+v, want %+v", got, want)
	}
}

// idWriter keeps the request ids of the calls it is given in room made beforehand, so a test can
// count what the Recorder allocates.
type idWriter struct {
	mu  sync.Mutex
	ids []string
}

// check fails t unless w was given the calls numbered 0 to n-1, in order.
func (w *idWriter) check(t *testing.T, n int) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if !slices.Equal(w.ids, ids(0, n)) {
		t.Fatalf("written %d calls, want the %d recorded, in order", len(w.ids), n)
	}
}

func (w *idWriter) WriteUsage(_ context.Context, b metering.UsageBatch) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range b.Calls {
		w.ids = append(w.ids, c.RequestID)
	}
	return nil
}

// TestRecorderReusesChunks: once a chunk is written, the next one fills the same room instead of a
// new batch's worth, and every call is still written as recorded, in order.
func TestRecorderReusesChunks(t *testing.T) {
	const rounds, each = 3, metering.MaxBatch - 1 // one short of a full chunk: only Flush writes
	w := &idWriter{ids: make([]string, 0, rounds*each)}
	r := newRecorder(t, w, never, 0)
	calls := calls(rounds * each)
	var most uint64 // bytes allocated while recording a round after the first
	for round := range rounds {
		n := allocated(func() { record(r, calls[round*each:(round+1)*each]) })
		if round > 0 {
			most = max(most, n)
		}
		if err := r.Flush(t.Context()); err != nil {
			t.Fatalf("Flush: %v", err)
		}
	}
	w.check(t, rounds*each)
	if chunk := uint64(each) * uint64(unsafe.Sizeof(metering.Call{})); most > chunk/4 {
		t.Fatalf("recording a round after a written one allocated %d bytes, want the written chunk's room (%d bytes) filled again", most, chunk)
	}
}

// TestRecorderSteadyTrafficRefillsChunks: at a steady rate above a batch an interval, a full chunk is
// written as it fills and the ticker takes the next part-filled (here Flush does); neither shrinks
// the room of the chunks that follow, so recording reuses the written chunks instead of allocating
// (and copying, under the lock every call takes) new ones, and every call is written in order.
func TestRecorderSteadyTrafficRefillsChunks(t *testing.T) {
	const rounds, full, part = 5, metering.MaxBatch, metering.MaxBatch / 8
	const each = full + part
	w := &idWriter{ids: make([]string, 0, rounds*each)}
	r := newRecorder(t, w, never, 0)
	calls := calls(rounds * each)
	var most uint64 // bytes allocated while recording a round after the first two
	for round := range rounds {
		n := allocated(func() { record(r, calls[round*each:round*each+full]) })
		if round > 0 {
			// From the second round on, those calls fill a chunk to a batch (the first round
			// starts from minChunk), and the background flusher writes it; wait for that, so the
			// part-filled chunk the ticker takes holds only the calls recorded after.
			within(t, "the full chunk written", func() {
				for r.Stats().Pending > 0 {
					time.Sleep(time.Millisecond)
				}
			})
		}
		n += allocated(func() { record(r, calls[round*each+full:(round+1)*each]) })
		if round > 1 {
			most = max(most, n)
		}
		if err := r.Flush(t.Context()); err != nil {
			t.Fatalf("Flush: %v", err)
		}
	}
	w.check(t, rounds*each)
	if chunk := uint64(metering.MaxBatch) * uint64(unsafe.Sizeof(metering.Call{})); most > chunk/4 {
		t.Fatalf("recording a round allocated %d bytes, want the written chunks' room (%d bytes each) filled again", most, chunk)
	}
}

// calls returns the calls numbered 0 to n-1.
func calls(n int) []metering.Call {
	out := make([]metering.Call, n)
	for i := range out {
		out[i] = call(i)
	}
	return out
}

// record records calls into r.
func record(r *metering.Recorder, calls []metering.Call) {
	for _, c := range calls {
		r.Record(c)
	}
}

// allocated returns the bytes allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestRecorderCloseFlushesEverything(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		r := metering.NewRecorder(metering.NewUsageStore(st.Client, st.Dialect), discard, never, 0)
		const n = 4_500 // more than two flush batches
		for i := range n {
			r.Record(call(i))
		}
		if err := closeRecorder(t, r); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if got := storedIDs(t, st); !slices.Equal(got, ids(0, n)) {
			t.Fatalf("store holds %d calls after Close, want exactly the %d recorded", len(got), n)
		}
		if s := r.Stats(); s.Shed != 0 || s.Written != s.Recorded || s.Counted != s.Recorded {
			t.Fatalf("Stats = %+v, want every call written and counted", s)
		}
	})
}

// TestRecorderCrashLosesAtMostOneInterval models a crash as "the process stops without Close":
// everything recorded before a flush is in the store after it, and the recorder flushes by itself
// every interval, so a crash loses only what was recorded since the last one.
func TestRecorderCrashLosesAtMostOneInterval(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		us := metering.NewUsageStore(st.Client, st.Dialect)

		t.Run("flush makes recorded calls durable", func(t *testing.T) {
			r := newRecorder(t, us, never, 0)
			for i := range 10 {
				r.Record(call(i))
			}
			if err := r.Flush(t.Context()); err != nil {
				t.Fatalf("Flush: %v", err)
			}
			if got := storedIDs(t, st); !slices.Equal(got, ids(0, 10)) {
				t.Fatalf("store after Flush = %v, want calls 0-9", got)
			}
			r.Record(call(10))
			if err := r.Flush(t.Context()); err != nil {
				t.Fatalf("Flush: %v", err)
			}
			if got := storedIDs(t, st); !slices.Equal(got, ids(0, 11)) {
				t.Fatalf("store after second Flush = %v, want calls 0-10, each once", got)
			}
			if err := r.Flush(t.Context()); err != nil { // nothing queued
				t.Fatalf("empty Flush: %v", err)
			}
		})

		t.Run("the interval flushes without Flush or Close", func(t *testing.T) {
			r := newRecorder(t, us, 20*time.Millisecond, 0)
			for i := 100; i < 105; i++ {
				r.Record(call(i))
			}
			waitUntil(t, "the interval's flush stores the calls", func() bool { return len(storedIDs(t, st)) == 16 })
			if got := storedIDs(t, st); !slices.Equal(got, append(ids(0, 11), ids(100, 105)...)) {
				t.Fatalf("store = %v", got)
			}
		})
	})
}

func TestRecorderFailingWriterKeepsCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		t.Run("explicit flushes", func(t *testing.T) {
			w := &testWriter{next: metering.NewUsageStore(st.Client, st.Dialect)}
			w.fail.Store(true)
			r := newRecorder(t, w, never, 0)
			for i := range 3 {
				r.Record(call(i))
			}
			if err := r.Flush(t.Context()); !errors.Is(err, errWriterDown) {
				t.Fatalf("Flush with a failing writer = %v, want its error", err)
			}
			for i := 3; i < 5; i++ {
				r.Record(call(i))
			}
			if err := r.Flush(t.Context()); !errors.Is(err, errWriterDown) {
				t.Fatalf("Flush with a failing writer = %v, want its error", err)
			}
			if got := storedIDs(t, st); len(got) != 0 {
				t.Fatalf("store holds %v while the writer fails", got)
			}
			w.fail.Store(false)
			if err := r.Flush(t.Context()); err != nil {
				t.Fatalf("Flush after recovery: %v", err)
			}
			if got := storedIDs(t, st); !slices.Equal(got, ids(0, 5)) {
				t.Fatalf("store after recovery = %v, want calls 0-4 each once", got)
			}
			if s := r.Stats(); s.Shed != 0 || s.Written != 5 || s.Counted != 5 || s.Failures != 2 {
				t.Fatalf("Stats = %+v, want 5 written and counted after 2 failures", s)
			}
		})

		t.Run("the background loop retries", func(t *testing.T) {
			w := &testWriter{next: metering.NewUsageStore(st.Client, st.Dialect)}
			w.fail.Store(true)
			r := metering.NewRecorder(w, discard, 5*time.Millisecond, 0)
			for i := 10; i < 60; i++ {
				r.Record(call(i))
			}
			waitUntil(t, "the loop tries and fails a few times", func() bool { return w.attempts.Load() >= 3 })
			w.fail.Store(false)
			waitUntil(t, "the loop writes once the writer recovers", func() bool { return len(storedIDs(t, st)) == 5+50 })
			if err := closeRecorder(t, r); err != nil {
				t.Fatalf("Close: %v", err)
			}
			if got := storedIDs(t, st); !slices.Equal(got, append(ids(0, 5), ids(10, 60)...)) {
				t.Fatalf("store = %d calls, want calls 0-4 and 10-59 each once", len(got))
			}
		})

		t.Run("Close reports a writer that is still down", func(t *testing.T) {
			w := &testWriter{}
			w.fail.Store(true)
			r := metering.NewRecorder(w, discard, never, 0)
			r.Record(call(0))
			if err := closeRecorder(t, r); !errors.Is(err, errWriterDown) {
				t.Fatalf("Close with a failing writer = %v, want its error (the calls were not written)", err)
			}
		})
	})
}

func TestRecorderDropsBeyondBuffer(t *testing.T) {
	w := &testWriter{}
	w.fail.Store(true)
	r := metering.NewRecorder(w, discard, never, 10)
	for i := range 25 {
		r.Record(call(i))
	}
	if s := r.Stats(); s.Shed != 15 {
		t.Fatalf("Shed = %d, want 15", s.Shed)
	}
	if err := r.Flush(t.Context()); !errors.Is(err, errWriterDown) {
		t.Fatalf("Flush = %v", err)
	}
	r.Record(call(25)) // still full
	if s := r.Stats(); s.Shed != 16 {
		t.Fatalf("Shed = %d, want 16", s.Shed)
	}

	w.fail.Store(false)
	if err := r.Flush(t.Context()); err != nil {
		t.Fatalf("Flush after recovery: %v", err)
	}
	if got := w.requestIDs(); !slices.Equal(got, ids(0, 10)) {
		t.Fatalf("written = %v, want the first 10 calls", got)
	}
	for i := 30; i < 40; i++ { // room again
		r.Record(call(i))
	}
	if err := closeRecorder(t, r); err != nil {
		t.Fatal(err)
	}
	if got := w.requestIDs(); !slices.Equal(got, append(ids(0, 10), ids(30, 40)...)) {
		t.Fatalf("written = %v", got)
	}
	got := r.Stats()
	got.Failures = 0 // the explicit Flush's, and the background flusher's when a full chunk kicked it
	if want := (metering.Stats{Recorded: 36, Counted: 36, Written: 20, Shed: 16}); got != want {
		t.Fatalf("Stats after recovery = %+v, want %+v (shed raw rows still counted)", got, want)
	}
	if got := w.countedCalls(); got != 36 {
		t.Fatalf("rollups count %d calls, want 36", got)
	}
}

func TestRecorderConcurrentRecord(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		r := metering.NewRecorder(metering.NewUsageStore(st.Client, st.Dialect), discard, 5*time.Millisecond, 0)
		const goroutines, each = 50, 200
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i := range each {
					r.Record(call(g*each + i))
				}
			})
		}
		// Explicit flushes race with the loop's.
		stop := make(chan struct{})
		var flushes sync.WaitGroup
		flushes.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := r.Flush(t.Context()); err != nil {
					t.Errorf("Flush: %v", err)
					return
				}
				time.Sleep(time.Millisecond)
			}
		})
		wg.Wait()
		close(stop)
		flushes.Wait()
		if err := closeRecorder(t, r); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if got := storedIDs(t, st); !slices.Equal(got, ids(0, goroutines*each)) {
			t.Fatalf("store holds %d calls, want each of the %d recorded exactly once", len(got), goroutines*each)
		}
		if s := r.Stats(); s.Shed != 0 || s.Written != s.Recorded || s.Counted != s.Recorded {
			t.Fatalf("Stats = %+v, want every call written and counted", s)
		}
	})
}

func TestRecorderCloseGivesUpWhenContextEnds(t *testing.T) {
	w := &testWriter{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	r := metering.NewRecorder(w, discard, time.Millisecond, 0)
	r.Record(call(0))
	<-w.entered // the loop's flush hangs in the writer
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if err := r.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close = %v, want context.DeadlineExceeded", err)
	}
	close(w.gate) // let the loop finish
}

// waitUntil polls cond until it holds, failing the test after a generous deadline.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRecorderCountsRateLimited: Stats counts the recorded calls admission refused (429), for the
// operators' metrics.
func TestRecorderCountsRateLimited(t *testing.T) {
	st := storetest.SQLite(t)
	r := newRecorder(t, metering.NewUsageStore(st.Client, st.Dialect), never, 0)
	for i := range 10 {
		c := call(i)
		if i%3 == 0 {
			c.Status = http.StatusTooManyRequests
		}
		r.Record(c)
	}
	if s := r.Stats(); s.Recorded != 10 || s.RateLimited != 4 {
		t.Fatalf("Stats = %+v, want 10 recorded of which 4 rate limited", s)
	}
}
