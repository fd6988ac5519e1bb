package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
)

// TestUnrecognisedErrors: an error no case recognises is a bug, not an outage: 502 internal_error
// with a generic message (never the cause), logged at ERROR with its cause and request id, and
// counted (Server.InternalErrors, /metrics); a panic is answered the same way and the call is still
// recorded. A store outage (PostgreSQL shutting down, a refused connection, a store saying
// store.ErrUnavailable) stays 503 unavailable with Retry-After; so does a limiter that is down,
// while a limiter failing for another reason is internal.
func TestUnrecognisedErrors(t *testing.T) {
	logs := &syncBuffer{}
	e := newEnv(t, withTestOp("testFail", ScopeMarketRead), withDeps(func(d *Deps) {
		d.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	}))
	causes := map[string]error{
		"bug":      fmt.Errorf("decode pool row: %w", errors.New("secret internal detail")),
		"shutdown": fmt.Errorf("read pools: %w", &pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}),
		"refused":  fmt.Errorf("read pools: %w", errConnRefused),
		"redis":    fmt.Errorf("metering: reserve: redis: %w: i/o timeout", store.ErrUnavailable),
	}
	register(e.server, opSpec{ID: "testFail", Method: http.MethodGet, Path: "/v1/test/fail/{what}", Scope: ScopeMarketRead, Class: ClassProvider},
		func(_ context.Context, in *struct {
			What string `path:"what"`
		}) (*slowOutput, error) {
			if in.What == "panic" {
				panic("index out of range [3] with length 3")
			}
			return nil, readError(causes[in.What])
		})

	for _, tc := range []struct {
		what   string
		status int
		code   Code
	}{
		{"bug", http.StatusBadGateway, CodeInternal},
		{"panic", http.StatusBadGateway, CodeInternal},
		{"shutdown", http.StatusServiceUnavailable, CodeUnavailable},
		{"refused", http.StatusServiceUnavailable, CodeUnavailable},
		{"redis", http.StatusServiceUnavailable, CodeUnavailable},
	} {
		r := e.do(request{path: "/v1/test/fail/" + tc.what, key: e.key})
		checkEnvelope(t, r)
		if r.status != tc.status || r.code() != string(tc.code) {
			t.Errorf("%s: %d %s, want %d %s", tc.what, r.status, r.rawBody, tc.status, tc.code)
		}
		if strings.Contains(r.rawBody, "secret internal detail") || strings.Contains(r.rawBody, "index out of range") {
			t.Errorf("%s: the cause leaked into the answer: %s", tc.what, r.rawBody)
		}
		if tc.code == CodeUnavailable && r.header.Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", tc.what)
		}
		if tc.code == CodeInternal {
			id := r.header.Get("X-Request-Id")
			var logged bool
			for line := range strings.Lines(logs.String()) {
				logged = logged || strings.Contains(line, `"level":"ERROR"`) && strings.Contains(line, id) &&
					(strings.Contains(line, "secret internal detail") || strings.Contains(line, "index out of range"))
			}
			if !logged {
				t.Errorf("%s: no ERROR line with request id %s and the cause:\n%s", tc.what, id, logs.String())
			}
		}
	}
	if n := e.server.InternalErrors(); n != 2 {
		t.Errorf("InternalErrors = %d, want 2 (the bug and the panic)", n)
	}
	if c := e.waitForCall(e.consumer, "testFail"); c.Status == 0 {
		t.Errorf("calls not recorded")
	}

	t.Run("limiter", func(t *testing.T) {
		for _, tc := range []struct {
			err    error
			status int
		}{
			{fmt.Errorf("metering: reserve: redis: %w: %w", store.ErrUnavailable, errConnRefused), http.StatusServiceUnavailable},
			{errors.New("metering: reserve: redis answered [1 2]"), http.StatusBadGateway},
		} {
			e := newEnv(t, withLimiter(erringLimiter{tc.err}))
			if r := e.do(request{path: "/v1/pools/hot", key: e.key}); r.status != tc.status {
				t.Errorf("limiter failing with %v: %d %s, want %d", tc.err, r.status, r.rawBody, tc.status)
			}
		}
	})
}

// erringLimiter fails every reservation with err.
type erringLimiter struct{ err error }

func (l erringLimiter) Reserve(context.Context, int, int, metering.Limit) (metering.Reservation, error) {
	return metering.Reservation{}, l.err
}
func (erringLimiter) Settle(context.Context, metering.Reservation, bool) error { return nil }
func (erringLimiter) Reclaim(context.Context, time.Time) (int, error)          { return 0, nil }
