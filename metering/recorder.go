package metering

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// UsageWriter persists recorded calls.
type UsageWriter interface {
	// WriteCalls stores a batch of calls: raw records, daily rollups and keys' last use, all or nothing.
	WriteCalls(ctx context.Context, calls []Call) error
}

// Recorder defaults.
const (
	// DefaultFlushInterval bounds what a crash can lose: at most the calls of one interval.
	DefaultFlushInterval = time.Second
	// DefaultBufferSize bounds memory while the store is down; calls beyond it are dropped and counted.
	DefaultBufferSize = 100_000
	flushBatch        = 2_000
)

// Recorder batches calls and writes them off the hot path. Record never blocks.
type Recorder struct {
	w        UsageWriter
	log      *slog.Logger
	interval time.Duration

	flushMu sync.Mutex // one flush at a time, so no batch is written twice
	mu      sync.Mutex
	pending []Call
	limit   int

	dropped  atomic.Int64
	kick     chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

// NewRecorder starts a recorder flushing to w every interval (0: DefaultFlushInterval) and holding
// at most bufferSize unwritten calls (0: DefaultBufferSize). Close it to flush what is left.
func NewRecorder(w UsageWriter, log *slog.Logger, interval time.Duration, bufferSize int) *Recorder {
	if interval <= 0 {
		interval = DefaultFlushInterval
	}
	if bufferSize <= 0 {
		bufferSize = DefaultBufferSize
	}
	r := &Recorder{w: w, log: log, interval: interval, limit: bufferSize,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go r.run()
	return r
}

// Record queues a call for writing. When the buffer is full (the store has been failing), the call
// is dropped and counted in Dropped.
func (r *Recorder) Record(c Call) {
	r.mu.Lock()
	if len(r.pending) >= r.limit {
		r.mu.Unlock()
		r.dropped.Add(1)
		return
	}
	r.pending = append(r.pending, c)
	full := len(r.pending) >= flushBatch
	r.mu.Unlock()
	if full {
		select {
		case r.kick <- struct{}{}:
		default:
		}
	}
}

// Dropped returns how many calls were dropped because the buffer was full.
func (r *Recorder) Dropped() int64 { return r.dropped.Load() }

// Close stops the recorder after writing every queued call, or when ctx ends. Closing twice is safe.
func (r *Recorder) Close(ctx context.Context) error {
	r.stopOnce.Do(func() { close(r.stop) })
	select {
	case <-r.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return r.Flush(ctx)
}

// Flush writes every queued call now.
func (r *Recorder) Flush(ctx context.Context) error {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	for {
		r.mu.Lock()
		n := min(len(r.pending), flushBatch)
		batch := r.pending[:n:n]
		r.mu.Unlock()
		if n == 0 {
			return nil
		}
		if err := r.w.WriteCalls(ctx, batch); err != nil {
			return err // the batch stays queued for the next flush
		}
		r.mu.Lock()
		r.pending = append(r.pending[:0:0], r.pending[n:]...)
		r.mu.Unlock()
	}
}

func (r *Recorder) run() {
	defer close(r.done)
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		case <-r.kick:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := r.Flush(ctx); err != nil {
			r.log.Warn("write usage", "err", err, "dropped", r.dropped.Load())
		}
		cancel()
	}
}
