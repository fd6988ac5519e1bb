package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// The access log: one JSON line per call at info level, written when the response is done, with the
// request id, method, path, status, latency and, once the pipeline knows them, the operation, the
// consumer, the key's id, the cost charged and the chain. It never holds the key, a header or a
// body. Deps.AccessLog switches it on (PARTNER_ACCESS_LOG, on by default in serve); off, a call
// pays nothing for it.

// accessKey is the context key of a call's accessEntry.
type accessKey struct{}

// accessEntry is what the pipeline learns of a call for its access log line.
type accessEntry struct {
	operation string
	call      *call // set once authenticated
}

// accessEntryOf returns the call's access log entry, nil when the log is off.
func accessEntryOf(ctx context.Context) *accessEntry {
	a, _ := ctx.Value(accessKey{}).(*accessEntry)
	return a
}

// statusWriter remembers the status written through it.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (read deadlines, flushing).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// accessLog writes the access log line of every call that passes through it.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		entry := &accessEntry{}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), accessKey{}, entry)))

		status := sw.status
		if cancelled(r.Context()) {
			status = StatusClientClosedRequest
		}
		attrs := []slog.Attr{
			slog.String("requestId", w.Header().Get("X-Request-Id")),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", status),
			slog.Float64("latencyMs", float64(time.Since(start).Microseconds())/1000),
		}
		if entry.operation != "" {
			attrs = append(attrs, slog.String("operation", entry.operation))
		}
		if c := entry.call; c != nil {
			attrs = append(attrs, slog.Int("consumer", c.principal.ConsumerID), slog.Int("keyId", c.principal.KeyID), slog.Int("cost", c.cost))
			if c.chain != "" {
				attrs = append(attrs, slog.String("chain", c.chain))
			}
		}
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "call", attrs...)
	})
}
