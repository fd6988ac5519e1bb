package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/idempotency"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
)

// The request pipeline (DESIGN.md section 4). The request id (stage 1) is set by the router for
// every response, including router 404s; the stages below are Huma middlewares composed in this
// order by Server.routes:
//
//	authenticate -> record usage -> authorize -> admit and settle -> idempotency (builders) -> deadline -> contain -> handler

// cacheControl is the Cache-Control of every authenticated response.
var cacheControl = []string{"private, no-store"}

// responseHeader returns the response header map. The pipeline sets its headers in it directly,
// spelled as the contract spells them (X-RateLimit-Limit, not Go's canonical X-Ratelimit-Limit).
func responseHeader(ctx huma.Context) http.Header {
	_, w := humachi.Unwrap(ctx)
	return w.Header()
}

// apiKeyHeader is X-API-Key as net/http stores it: reading a header by its canonical name
// allocates nothing.
var apiKeyHeader = http.CanonicalHeaderKey("X-API-Key")

// callKey is the context key of the per-call state shared by the stages.
type callKey struct{}

// call is what the stages learn about an authenticated call.
type call struct {
	spec      *opSpec
	principal access.Principal
	cost      int // charged cost once admitted
	chain     string
	// transient marks an answer that must not be replayed under its Idempotency-Key: a confirm
	// still pending, which the caller retries to see progress.
	transient bool
	// keep writes what a builder's answer hands out (its confirmation token) in the transaction
	// that stores the answer for replay (see idempotent).
	keep idempotency.Write

	// What the request log records beyond the status (see recordUsage).
	source        netip.Addr // the caller's address as authorize saw it
	rated         bool       // the limiter answered: rateRemaining is its state at admission
	rateRemaining int
	replayed      bool   // an idempotent replay
	errCode       string // the error envelope's code, when the answer is an error
	errBody       []byte // the error envelope, at most metering.MaxErrorBody bytes
}

// answeredError notes the error envelope the call answered with, for the request log.
func (c *call) answeredError(code string, body []byte) {
	c.errCode = code
	c.errBody = body[:min(len(body), metering.MaxErrorBody):min(len(body), metering.MaxErrorBody)]
}

func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// writeError writes err through Huma so the envelope gets its request id like every other body.
func (s *Server) writeError(ctx huma.Context, e *Error) {
	h := responseHeader(ctx)
	for name, values := range e.headers {
		h[name] = values
	}
	e.RequestID = requestIDOf(ctx)
	s.logError(ctx.Context(), e)
	ctx.SetHeader("Content-Type", "application/json")
	ctx.SetStatus(e.status)
	c := callOf(ctx.Context())
	if c == nil {
		if err := s.api.Marshal(ctx.BodyWriter(), "application/json", e); err != nil {
			s.log.Debug("write error body", "err", err)
		}
		return
	}
	// An authenticated call: the request log keeps the envelope as answered.
	var buf bytes.Buffer
	if err := s.api.Marshal(&buf, "application/json", e); err != nil {
		s.log.Debug("write error body", "err", err)
	}
	c.answeredError(string(e.Code), buf.Bytes())
	if _, err := ctx.BodyWriter().Write(buf.Bytes()); err != nil {
		s.log.Debug("write error body", "err", err)
	}
}

// logError logs errors with a private cause, and server-side failures; it counts internal errors.
func (s *Server) logError(ctx context.Context, e *Error) {
	if e.Code == CodeInternal {
		s.internalErrors.Add(1)
	}
	if e.cause == nil && e.status < 500 {
		return
	}
	level := slog.LevelWarn
	if e.status >= 500 && e.status != http.StatusServiceUnavailable {
		level = slog.LevelError
	}
	if e.Code == CodeUnavailable {
		// A store outage fails every call closed: one line a second says so, with how many more.
		if more, ok := s.unavailable.take(time.Now()); ok {
			s.log.Log(ctx, level, "request failed", "requestId", e.RequestID, "code", e.Code, "status", e.status, "cause", e.cause,
				"alsoUnavailableSinceLastLine", more)
		}
		return
	}
	s.log.Log(ctx, level, "request failed", "requestId", e.RequestID, "code", e.Code, "status", e.status, "cause", e.cause)
}

// authenticate checks X-API-Key (stage 3): format and checksum, then the cache, then the store.
// Public operations skip it and every later stage (stage 2). While the database is unreachable
// (Deps.StoreHealth) it answers every call 503 unavailable first: fail closed.
func (s *Server) authenticate(ctx huma.Context, next func(huma.Context)) {
	spec := specOf(ctx)
	entry := accessEntryOf(ctx.Context())
	if entry != nil {
		entry.operation = spec.ID
	}
	if spec.Scope == "" {
		next(ctx)
		return
	}
	responseHeader(ctx)["Cache-Control"] = cacheControl
	if s.deps.StoreHealth != nil {
		if err := s.deps.StoreHealth(); err != nil {
			s.writeError(ctx, storeDown(err)) // the database is unreachable: fail closed
			return
		}
	}
	raw := ctx.Header(apiKeyHeader)
	if raw == "" {
		s.writeError(ctx, Errorf(CodeInvalidAPIKey, "missing X-API-Key header"))
		return
	}
	p, err := s.deps.Keys.Verify(ctx.Context(), raw)
	if err != nil {
		s.writeError(ctx, keyError(err))
		return
	}
	c := &call{spec: spec, principal: p}
	if entry != nil {
		entry.call = c
	}
	next(huma.WithValue(ctx, callKey{}, c))
}

// keyError maps a key verification failure to its 401 (or 503 when the store failed: fail closed).
func keyError(err error) *Error {
	switch {
	case errors.Is(err, access.ErrMalformedKey), errors.Is(err, access.ErrUnknownKey):
		return Errorf(CodeInvalidAPIKey, "invalid API key")
	case errors.Is(err, access.ErrExpiredKey):
		return Errorf(CodeInvalidAPIKey, "API key expired")
	case errors.Is(err, access.ErrRevokedKey):
		return Errorf(CodeRevokedAPIKey, "API key revoked")
	case errors.Is(err, access.ErrAccessDisabled):
		return Errorf(CodeAccessDisabled, "access is switched off for this consumer")
	case errors.Is(err, context.Canceled):
		return Errorf(CodeClientClosedRequest, "the caller cancelled the request")
	default:
		return unexpected("key verification", err)
	}
}

// recordUsage records every authenticated call after it ends (stage 9), off the hot path.
func (s *Server) recordUsage(ctx huma.Context, next func(huma.Context)) {
	c := callOf(ctx.Context())
	if c == nil {
		next(ctx)
		return
	}
	start := time.Now()
	next(ctx)
	status := ctx.Status()
	if cancelled(ctx.Context()) {
		status = StatusClientClosedRequest
		if c.errCode == "" {
			c.errCode = string(CodeClientClosedRequest)
		}
	}
	rec := metering.Call{
		ConsumerID: c.principal.ConsumerID,
		KeyID:      c.principal.KeyID,
		Operation:  c.spec.ID,
		Status:     status,
		Cost:       c.cost,
		Latency:    time.Since(start),
		Chain:      c.chain,
		RequestID:  requestIDOf(ctx),
		At:         start,
		Method:     methodName(ctx.Method()),
		Path:       ctx.URL().Path,
		ErrorCode:  c.errCode,
		Replayed:   c.replayed,
		ErrorBody:  c.errBody,
		Source:     c.source,
	}
	if c.rated {
		rec.RateRemaining = &c.rateRemaining // c is on the heap already: no allocation
	}
	s.deps.Usage.Record(rec)
}

// methods are the request methods as net/http spells them.
var methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
	http.MethodHead, http.MethodOptions}

// methodName is m as net/http's constant spells it, when it is one: one string for every call,
// where a request's method is a slice of its request line. The usage log numbers a page's methods
// by their address (metering).
func methodName(m string) string {
	for _, k := range methods {
		if m == k {
			return k
		}
	}
	return m
}

// cancelled reports whether the caller went away (not our own deadline).
func cancelled(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), context.Canceled)
}

// authorize applies the casbin policy (stage 4): scope, endpoint availability, source; then, for a
// restricted key, the key's own scopes and allowlist (the narrower of the key and its consumer).
func (s *Server) authorize(ctx huma.Context, next func(huma.Context)) {
	c := callOf(ctx.Context())
	if c == nil {
		next(ctx)
		return
	}
	src := s.clientAddr(ctx)
	c.source = src
	d := s.deps.Policy.Decide(c.principal.ConsumerID, c.spec.ID, src)
	if d != policy.Allow && !s.deps.Policy.Known(c.principal.ConsumerID) {
		// A consumer created since the last policy load: load now rather than refuse a valid key.
		if err := s.deps.RefreshPolicy(ctx.Context()); err != nil {
			s.writeError(ctx, unexpected("authorization", err))
			return
		}
		d = s.deps.Policy.Decide(c.principal.ConsumerID, c.spec.ID, src)
	}
	if d == policy.Allow && c.principal.Restriction != nil {
		d = c.principal.Restriction.Check(c.spec.Scope, src)
	}
	switch d {
	case policy.Allow:
		next(ctx)
	case policy.KeyScopeRequired:
		s.writeError(ctx, Errorf(CodeScopeRequired, "this API key is restricted to scopes %s; this operation requires scope %s "+
			"(create a key with that scope in the console)", c.principal.Restriction.ScopeList(), c.spec.Scope))
	case policy.KeySourceNotAllowed:
		s.writeError(ctx, Errorf(CodeSourceNotAllowed, "source address %s is not on this API key's own allowlist (the key is restricted)", src))
	case policy.EndpointUnavailable:
		s.writeError(ctx, Errorf(CodeEndpointUnavailable, "operation %s is not available to this consumer", c.spec.ID))
	case policy.SourceNotAllowed:
		s.writeError(ctx, Errorf(CodeSourceNotAllowed, "source address %s is not on this consumer's allowlist", src))
	default:
		s.writeError(ctx, Errorf(CodeScopeRequired, "this operation requires scope %s", c.spec.Scope))
	}
}

// admit reserves the call's cost against the consumer's bucket (stage 5) and settles it when the
// call ends (stage 8): the cost is kept, or refunded when the caller cancelled.
func (s *Server) admit(ctx huma.Context, next func(huma.Context)) {
	c := callOf(ctx.Context())
	if c == nil {
		next(ctx)
		return
	}
	cost := 1
	if c.spec.Cost != nil {
		var e *Error
		if cost, e = c.spec.Cost(ctx); e != nil {
			s.writeError(ctx, e)
			return
		}
	}
	limit := c.principal.Limit
	r, err := s.deps.Limiter.Reserve(ctx.Context(), c.principal.ConsumerID, cost, limit)
	if err != nil {
		var refusal *metering.Refusal
		if !errors.As(err, &refusal) {
			s.writeError(ctx, unexpected("admission", err))
			return
		}
		c.rated, c.rateRemaining = true, refusal.Remaining
		s.writeError(ctx, rateLimited(refusal, cost, limit))
		return
	}
	c.rated, c.rateRemaining = true, r.Remaining
	h := responseHeader(ctx)
	lh := limitHeadersOf(limit)
	h["X-RateLimit-Limit"] = lh.limit
	h["X-RateLimit-Remaining"] = []string{strconv.Itoa(r.Remaining)}
	h["RateLimit-Policy"] = lh.policy
	c.cost = cost
	next(ctx)
	refund := cancelled(ctx.Context())
	if refund {
		c.cost = 0
	}
	// Settle even when the caller is gone; the store bounds its own calls.
	sctx := ctx.Context()
	if sctx.Err() != nil {
		sctx = context.WithoutCancel(sctx)
	}
	if err := s.deps.Limiter.Settle(sctx, r, refund); err != nil {
		// The sweeper reclaims the reservation later (keeping its cost).
		s.log.Warn("settle reservation", "requestId", requestIDOf(ctx), "err", err)
	}
}

// rateLimited is the 429 for a refused admission, with Retry-After and the rate-limit headers. A
// call whose cost exceeds the burst can never be admitted: reason cost_exceeds_burst and the message
// say that waiting will not help, and Retry-After is the time the whole burst takes to refill (when
// a retry of the same call is refused again at no cost).
func rateLimited(r *metering.Refusal, cost int, limit metering.Limit) *Error {
	var e *Error
	wait := r.RetryAfter
	if r.Never {
		e = Errorf(CodeRateLimited, "this call costs %d rate-limit units, more than the consumer's burst of %d: it can never be admitted, "+
			"and waiting will not help; split it into calls of at most %d units (a batch portfolio call costs 10 per distinct owner), "+
			"or ask the operators for a larger burst", cost, limit.Burst, limit.Burst)
		e.Reason = "cost_exceeds_burst"
		if limit.RatePerMinute > 0 {
			wait = min(metering.MaxRetryAfter, time.Duration(limit.Burst-r.Remaining)*time.Minute/time.Duration(limit.RatePerMinute))
		} else {
			wait = metering.MaxRetryAfter
		}
	}
	secs := max(1, int(math.Ceil(wait.Seconds())))
	if !r.Never {
		e = Errorf(CodeRateLimited, "rate limit exceeded; retry after %d s", secs)
	}
	e.RetryAfterSec = &secs
	return e.WithHeader("Retry-After", strconv.Itoa(secs)).
		WithHeader("X-RateLimit-Limit", strconv.Itoa(limit.Burst)).
		WithHeader("X-RateLimit-Remaining", strconv.Itoa(r.Remaining)).
		WithHeader("RateLimit-Policy", rateLimitPolicy(limit))
}

// limitHeaders are a limit's X-RateLimit-Limit and RateLimit-Policy values. They are made once per
// limit and shared by every answer under it: net/http copies a response's header as it writes it,
// and nothing appends to these two.
type limitHeaders struct{ limit, policy []string }

// limitHeaderCache maps a metering.Limit to its limitHeaders; limitHeaderCount bounds it to
// maxLimitHeaders limits (a plan's limit each), beyond which values are made per call.
var (
	limitHeaderCache sync.Map
	limitHeaderCount atomic.Int32
)

const maxLimitHeaders = 1024

func limitHeadersOf(l metering.Limit) limitHeaders {
	if v, ok := limitHeaderCache.Load(l); ok {
		return v.(limitHeaders)
	}
	lh := limitHeaders{limit: []string{strconv.Itoa(l.Burst)}, policy: []string{rateLimitPolicy(l)}}
	if limitHeaderCount.Add(1) <= maxLimitHeaders {
		limitHeaderCache.Store(l, lh)
	}
	return lh
}

// rateLimitPolicy states the consumer's limits as an IETF RateLimit-Policy list
// (draft-ietf-httpapi-ratelimit-headers): the burst at once, the rate per minute.
func rateLimitPolicy(l metering.Limit) string {
	return `"burst";q=` + strconv.Itoa(l.Burst) + `, "rate";q=` + strconv.Itoa(l.RatePerMinute) + `;w=60`
}

// contain turns a handler's panic into 502 internal_error (stage 7's guard), its value and stack
// logged at ERROR and counted like every internal error, so the call is still answered in the
// envelope, settled and recorded. http.ErrAbortHandler, net/http's way to abort a response, passes.
func (s *Server) contain(ctx huma.Context, next func(huma.Context)) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.writeError(ctx, internalError(fmt.Errorf("panic in %s: %v\n%s", specOf(ctx).ID, v, debug.Stack())))
		}
	}()
	next(ctx)
}

// deadline runs the handler under its class's deadline (stage 7). Its timer starts only when the
// handler waits on something (lazyDeadline).
func (s *Server) deadline(ctx huma.Context, next func(huma.Context)) {
	d := specOf(ctx).deadline()
	if d == 0 {
		next(ctx)
		return
	}
	dctx := withLazyDeadline(ctx.Context(), d)
	defer dctx.release()
	next(huma.WithContext(ctx, dctx))
}
