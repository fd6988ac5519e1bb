package metering

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"
)

// UsageWriter persists recorded calls.
type UsageWriter interface {
	// WriteUsage stores a batch: its raw calls, its rollup increments and keys' last use, all or nothing.
	// It must not keep b.Calls once it returns: the Recorder fills the same slice again.
	WriteUsage(ctx context.Context, b UsageBatch) error
}

// Recorder defaults.
const (
	// DefaultFlushInterval bounds what a crash can lose: at most the calls of one interval (more only
	// while the store is failing, when nothing can be written).
	DefaultFlushInterval = time.Second
	// DefaultBufferSize bounds the raw calls held in memory, queued or being written. Beyond it the raw
	// row of a call is shed (counted in Stats) while its count still goes into the rollups.
	DefaultBufferSize = 100_000
	// MaxBatch bounds the raw calls of one write (one transaction), so a flush that falls behind writes
	// more batches of the same size, never larger ones. A write's rollup increments cost the same
	// however many calls it carries (they are per key, operation, hour and latency bucket), and its
	// raw calls go into pages of up to MaxPageCalls: four full pages' worth spreads the rollups over
	// many calls while a write still takes tens of milliseconds.
	MaxBatch = 4 * MaxPageCalls
	// batchTimeout bounds one write of the background flusher.
	batchTimeout = 10 * time.Second
)

// minChunk is the least room a new chunk of raw calls starts with; each chunk that follows a full one
// has twice its room, up to MaxBatch.
const minChunk = 256

// maxSpares is how many written chunks a Recorder keeps for reuse.
const maxSpares = 2

// Recorder batches calls and writes them off the hot path. Record never blocks.
//
// Each call is counted twice in memory: its raw row joins a FIFO queue of chunks of at most MaxBatch
// calls, and its increments join the rollups pending (per key, UTC day and operation; per consumer and
// UTC hour; each key's last use). A write takes the oldest chunk and every pending increment and
// stores both in one transaction, so the rollups the console and the CLI read are never behind the raw
// rows, and a raw row that had to be shed still counts there. A failed write puts both back.
//
// Memory: the raw queue holds at most the buffer size (DefaultBufferSize); the pending increments hold
// one entry per (key, day, operation), (consumer, hour) and key seen since the last successful write,
// however many calls that is.
type Recorder struct {
	w        UsageWriter
	log      *slog.Logger
	interval time.Duration
	limit    int

	flushMu sync.Mutex // one write at a time, so chunks are written in order and once

	mu    sync.Mutex
	queue [][]Call // oldest first; the last chunk is the one Record appends to
	held  int      // raw calls queued or being written
	// lastChunk follows the size of the chunks taken for writing: the larger of the last one and half
	// the previous figure, so one chunk the ticker took part-filled does not shrink the next. A new
	// chunk starts with room for as many (at least minChunk), so a quiet service does not hold a whole
	// batch's room per second.
	lastChunk int
	// spares are the rooms of the last chunks written, emptied, for the next new chunks: a busy
	// service fills the same chunks over and over (one being written while the next fills) instead
	// of allocating (and zeroing) a batch's room a write. They hold no calls.
	spares  [][]Call
	rollups *Rollups // increments not yet taken by a write
	stats   Stats

	kick     chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

// Stats are a Recorder's counters since it started. Once Close has returned nil,
// Written + Shed == Recorded and Counted == Recorded.
type Stats struct {
	// Recorded is how many calls Record was given.
	Recorded int64
	// Counted is how many calls the store's rollups (daily, hourly, keys' last use) include.
	Counted int64
	// Written is how many raw calls (the recent-calls log, request-id lookups) are in the store.
	Written int64
	// Shed is how many raw calls were dropped because the buffer was full (the store failing or far
	// behind); each is counted in the rollups all the same.
	Shed int64
	// Pending is how many raw calls are queued or being written.
	Pending int64
	// Failures is how many writes failed (and were retried).
	Failures int64
	// RateLimited is how many of the recorded calls were refused by admission (answered 429).
	RateLimited int64
}

// NewRecorder starts a recorder writing to w every interval (0: DefaultFlushInterval), and at once
// whenever MaxBatch calls are queued, holding at most bufferSize raw calls (0: DefaultBufferSize).
// Close it to write what is left.
func NewRecorder(w UsageWriter, log *slog.Logger, interval time.Duration, bufferSize int) *Recorder {
	if interval <= 0 {
		interval = DefaultFlushInterval
	}
	if bufferSize <= 0 {
		bufferSize = DefaultBufferSize
	}
	r := &Recorder{w: w, log: log, interval: interval, limit: bufferSize, rollups: &Rollups{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go r.run()
	return r
}

// Record counts a call and queues its raw row for writing. It never blocks: when the buffer is full
// the raw row is shed (Stats.Shed) and only its count is kept.
func (r *Recorder) Record(c Call) {
	r.mu.Lock()
	r.stats.Recorded++
	if c.Status == http.StatusTooManyRequests {
		r.stats.RateLimited++
	}
	r.rollups.Add(c)
	if r.held >= r.limit {
		r.stats.Shed++
		r.mu.Unlock()
		return
	}
	batch := min(MaxBatch, r.limit)
	n := len(r.queue)
	if n == 0 || len(r.queue[n-1]) == cap(r.queue[n-1]) {
		// A full chunk is never grown: growing copies it, under the lock every call takes.
		grow := 0
		if n > 0 {
			grow = 2 * cap(r.queue[n-1])
		}
		r.queue = append(r.queue, r.newChunk(batch, grow))
		n++
	}
	r.queue[n-1] = append(r.queue[n-1], c)
	r.held++
	full := len(r.queue[n-1]) == batch
	r.mu.Unlock()
	if full {
		select {
		case r.kick <- struct{}{}:
		default:
		}
	}
}

// newChunk is an empty chunk with room for as many calls as lastChunk, or grow when that is more
// (at least minChunk, at most batch): a spare one that has that room, the latest first. r.mu is held.
func (r *Recorder) newChunk(batch, grow int) []Call {
	size := min(batch, max(minChunk, r.lastChunk, grow))
	for i := len(r.spares) - 1; i >= 0; i-- {
		if c := r.spares[i]; cap(c) >= size {
			r.spares = slices.Delete(r.spares, i, i+1) // Delete clears the slot it vacates
			return c
		}
	}
	return make([]Call, 0, size)
}

// Stats returns the recorder's counters.
func (r *Recorder) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stats
	s.Pending = int64(r.held)
	return s
}

// Close stops the background flusher and writes everything recorded so far, batch by batch, until
// nothing is left or ctx ends. The first batch carries every pending rollup increment, so the counts
// are complete as soon as it commits; only raw rows wait for later batches. When ctx ends first, Close
// returns an error wrapping ctx.Err() that says how many raw calls and counts were not written: they
// are lost when the process exits. Calls recorded after Close are never written. Closing twice is safe.
func (r *Recorder) Close(ctx context.Context) error {
	r.stopOnce.Do(func() { close(r.stop) })
	select {
	case <-r.done:
	case <-ctx.Done():
		return r.lost(ctx.Err())
	}
	if err := r.Flush(ctx); err != nil {
		return r.lost(err)
	}
	return nil
}

// lost wraps err with what is still unwritten.
func (r *Recorder) lost(err error) error {
	s := r.Stats()
	return fmt.Errorf("close usage recorder: %d raw calls and the counts of %d calls not written: %w",
		s.Pending, s.Recorded-s.Counted, err)
}

// Flush writes every call recorded before it was called, in batches of at most MaxBatch raw calls. It
// stops at the first failed write and returns its error; the batch stays queued for the next flush.
func (r *Recorder) Flush(ctx context.Context) error {
	return r.flush(func() (context.Context, context.CancelFunc) { return ctx, func() {} }, nil)
}

// flush writes until everything recorded before it started is written, each batch under a context
// from batchCtx; it returns early, without error, when quit closes.
func (r *Recorder) flush(batchCtx func() (context.Context, context.CancelFunc), quit <-chan struct{}) error {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	r.mu.Lock()
	target := r.stats.Written + int64(r.held) // every raw call queued now
	r.mu.Unlock()
	for {
		select {
		case <-quit:
			return nil
		default:
		}
		calls, rollups := r.take()
		if len(calls) == 0 && rollups.Calls() == 0 {
			return nil
		}
		ctx, cancel := batchCtx()
		err := r.w.WriteUsage(ctx, UsageBatch{Calls: calls, Rollups: rollups})
		cancel()
		if err == nil {
			clear(calls) // drop the strings and bodies it refers to before it is filled again
		}
		r.mu.Lock()
		if err != nil {
			r.stats.Failures++
			if len(calls) > 0 {
				r.queue = append([][]Call{calls}, r.queue...)
			}
			rollups.Merge(r.rollups)
			r.rollups = rollups
			r.mu.Unlock()
			return err
		}
		r.stats.Written += int64(len(calls))
		r.stats.Counted += rollups.Calls()
		r.held -= len(calls)
		if calls != nil && cap(calls) <= 4*r.lastChunk {
			// A chunk about the size of the recent ones is kept for a next one; a much larger one (a
			// service that has quietened) is left to the collector, so the spares shrink with the
			// traffic. Two are enough for one chunk being written while the next fills.
			if len(r.spares) == maxSpares {
				r.spares = slices.Delete(r.spares, 0, 1) // the oldest goes
			}
			r.spares = append(r.spares, calls[:0])
		}
		reached := r.stats.Written >= target
		r.mu.Unlock()
		if reached {
			return nil
		}
	}
}

// take removes the oldest chunk of raw calls and every pending increment from the queue for writing.
// Both still count as held (and Pending) until the write returns.
func (r *Recorder) take() ([]Call, *Rollups) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var calls []Call
	if len(r.queue) > 0 {
		calls = r.queue[0]
		r.queue[0] = nil
		r.queue = r.queue[1:]
		r.lastChunk = max(len(calls), r.lastChunk/2)
	}
	rollups := r.rollups
	r.rollups = &Rollups{}
	return calls, rollups
}

func (r *Recorder) run() {
	defer close(r.done)
	t := time.NewTicker(r.interval)
	defer t.Stop()
	batchCtx := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), batchTimeout)
	}
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		case <-r.kick:
		}
		if err := r.flush(batchCtx, r.stop); err != nil && !errors.Is(err, context.Canceled) {
			s := r.Stats()
			r.log.Warn("write usage", "err", err, "pending", s.Pending, "shed", s.Shed, "uncounted", s.Recorded-s.Counted)
		}
	}
}
