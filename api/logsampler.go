package api

import (
	"sync"
	"time"
)

// logSampler lets one log line through per second and counts the ones it holds back, so that an
// outage failing thousands of calls a second writes one line a second rather than thousands.
type logSampler struct {
	mu   sync.Mutex
	last time.Time
	held int
}

// take reports whether a line may be written at now and, if so, how many were held back since the
// last one.
func (l *logSampler) take(now time.Time) (held int, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.last) < time.Second {
		l.held++
		return 0, false
	}
	held, l.held, l.last = l.held, 0, now
	return held, true
}
