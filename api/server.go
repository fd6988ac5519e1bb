// Package api is the partner API: the Huma operations of the /v1 contract, one file per
// capability, and the request pipeline every call passes through.
package api

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	mathrand "math/rand/v2"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/idempotency"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
	"github.com/partner-platform/partnerd/portfolio"
	"github.com/partner-platform/partnerd/trade"
)

// Version is the contract version declared in the OpenAPI document.
const Version = "1.0.0"

// KeyVerifier authenticates API keys.
type KeyVerifier interface {
	Verify(ctx context.Context, rawKey string) (access.Principal, error)
}

// Policy decides scope, endpoint availability and source for a consumer's call.
type Policy interface {
	Decide(consumerID int, operationID string, src netip.Addr) policy.Decision
	// Known reports whether the consumer is in the loaded policy.
	Known(consumerID int) bool
}

// UsageRecorder records calls off the hot path.
type UsageRecorder interface {
	Record(metering.Call)
}

// Deps is what the API needs from the rest of the service.
type Deps struct {
	Keys        KeyVerifier
	Policy      Policy
	Limiter     metering.Limiter
	Usage       UsageRecorder
	Idempotency idempotency.Store
	Chains      *chain.Registry
	// Market and Portfolio serve the market and portfolio reads of the chains they read (nil: none).
	Market    *market.Service
	Portfolio *portfolio.Service
	// Trade serves quotes, builders, confirm and transaction status on the chains it trades on (nil: none).
	Trade *trade.Service
	// RefreshPolicy reloads the policy from the store now (for consumers created since the last load).
	RefreshPolicy func(context.Context) error
	// Ready reports whether the store answers; /readyz fails while it does not.
	Ready func(context.Context) error
	// StoreHealth is nil while the database answers and otherwise the private cause; while it
	// reports an error every authenticated call answers 503 unavailable with Retry-After before any
	// other stage (fail closed). It is read on every call, so it must not do I/O (store.Health.Err
	// reads an atomic value). Nil: never refuse.
	StoreHealth func() error
	// TrustedProxies are the peers whose X-Forwarded-For is believed. Empty: the TCP peer is the client.
	TrustedProxies []netip.Prefix
	// BodyUploadTimeout bounds a request body's upload (default 15 s, the contract's limit; tests shorten it).
	BodyUploadTimeout time.Duration
	// PendingWait bounds how long a builder call whose Idempotency-Key is in flight waits for the
	// original's answer before 409 idempotency_pending (default 5 s; tests shorten it).
	PendingWait time.Duration
	// AccessLog writes one info line per call (accesslog.go).
	AccessLog bool
	Logger    *slog.Logger
}

// Server serves the partner API.
type Server struct {
	deps   Deps
	log    *slog.Logger
	router chi.Router
	api    huma.API
	specs  []*opSpec

	unavailable    logSampler   // 503 unavailable lines, at most one a second
	internalErrors atomic.Int64 // answers 502 internal_error (InternalErrors)
}

// InternalErrors is how many calls were answered internal_error since start: failures the service
// did not recognise (bugs), each logged at ERROR with its cause. /metrics reports it.
func (s *Server) InternalErrors() int64 { return s.internalErrors.Load() }

// New builds the API with every operation of the contract registered.
func New(deps Deps) *Server {
	log := deps.Logger
	if log == nil {
		log = slog.Default()
	}
	if deps.BodyUploadTimeout == 0 {
		deps.BodyUploadTimeout = bodyUploadTimeout
	}
	s := &Server{deps: deps, log: log, router: chi.NewRouter()}
	s.router.Use(requestID)
	if deps.AccessLog {
		s.router.Use(s.accessLog)
	}
	s.router.NotFound(s.routerError(Errorf(CodeNotFound, "no such endpoint")))
	s.router.MethodNotAllowed(s.wrongMethod)
	s.router.Get("/healthz", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusOK, map[string]any{"ok": true}) })
	s.router.Get("/readyz", s.readyz)

	cfg := humaConfig()
	cfg.Transformers = append(cfg.Transformers, s.answerError)
	s.api = humachi.New(s.router, cfg)
	s.api.UseMiddleware(s.authenticate, s.recordUsage, s.authorize, s.admit, s.idempotent, s.deadline, s.contain)
	s.registerMeta()
	s.registerMarket()
	s.registerPortfolio()
	s.registerQuotes()
	s.registerBuilders()
	omitOpenAdditionalProperties(s.api.OpenAPI())
	addRequestExamples(s.api.OpenAPI())
	addMediaExamples(s.api.OpenAPI())
	return s
}

// ServeHTTP serves the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }

// answerError puts the request id into every error body Huma writes (a handler's, or Huma's own
// validation errors), and logs it as writeError does the pipeline's.
func (s *Server) answerError(ctx huma.Context, _ string, v any) (any, error) {
	if e, ok := v.(*Error); ok {
		e.RequestID = requestIDOf(ctx)
		s.logError(ctx.Context(), e)
		if c := callOf(ctx.Context()); c != nil {
			// The request log keeps the envelope, encoded as Huma's JSON format will send it.
			var buf bytes.Buffer
			if huma.DefaultJSONFormat.Marshal(&buf, e) == nil {
				c.answeredError(string(e.Code), buf.Bytes())
			}
		}
	}
	return v, nil
}

// requestID gives every response a fresh X-Request-Id (stage 1), and its Date. Later stages read
// the id back from the response header rather than from a copy of the request with a new context.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		h := w.Header()
		h["X-Request-Id"] = []string{newRequestID(now)}
		h["Date"] = dateHeader(now)
		next.ServeHTTP(w, r)
	})
}

// dateHeader is the Date header value of now's second, made once a second and shared by the
// responses of that second (net/http would format it for each; it copies header values as it
// writes them, and nothing appends to this one).
func dateHeader(now time.Time) []string {
	sec := now.Unix()
	if d := currentDate.Load(); d != nil && d.unix == sec {
		return d.value
	}
	d := &datedValue{unix: sec, value: []string{now.UTC().Format(http.TimeFormat)}}
	currentDate.Store(d)
	return d.value
}

// datedValue is a header value and the Unix second it is for.
type datedValue struct {
	unix  int64
	value []string
}

var currentDate atomic.Pointer[datedValue]

// newRequestID is "req_" and 32 hex digits: now's Unix time in milliseconds (48 bits), then 80 random
// bits. Ids made later sort later, so the usage log's index on (consumer, request id) grows at its
// end like the others instead of splitting pages at random places (random ids cost the usage writer
// twice the CPU per row); ids made in the same millisecond differ in their 80 random bits. An id
// names a call and grants nothing, so its bits come from math/rand/v2's generator (ChaCha8, seeded
// by the OS), which costs a tenth of crypto/rand; the id is one allocation.
func newRequestID(now time.Time) string {
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[:8], uint64(now.UnixMilli())<<16|uint64(mathrand.Uint32()>>16))
	binary.BigEndian.PutUint64(raw[8:], mathrand.Uint64())
	var id [len(requestIDPrefix) + 32]byte
	copy(id[:], requestIDPrefix)
	hex.Encode(id[len(requestIDPrefix):], raw[:])
	return string(id[:])
}

// requestIDPrefix starts every request id.
const requestIDPrefix = "req_"

// requestIDOf returns the request id of a call inside Huma.
func requestIDOf(ctx huma.Context) string {
	_, w := humachi.Unwrap(ctx)
	return w.Header().Get("X-Request-Id")
}

func (s *Server) routerError(proto *Error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		e := *proto
		e.RequestID = w.Header().Get("X-Request-Id")
		writeJSON(w, e.status, &e)
	}
}

// wrongMethod answers a path called with a method it does not serve. The contract's statuses have no
// 405, so it is a 404 (no such endpoint) that names the path's methods, also in an Allow header.
func (s *Server) wrongMethod(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		if s.router.Match(chi.NewRouteContext(), m, r.URL.Path) {
			allowed = append(allowed, m)
		}
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	s.routerError(Errorf(CodeNotFound, "no %s operation at %s; it takes %s", r.Method, r.URL.Path, strings.Join(allowed, " or ")))(w, r)
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if err := s.deps.Ready(r.Context()); err != nil {
		s.log.Warn("not ready", "err", err)
		e := Errorf(CodeUnavailable, "a store the service needs (the database, or Redis when configured) is unreachable")
		e.RequestID = w.Header().Get("X-Request-Id")
		writeJSON(w, e.status, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = jsonEncoder(w).Encode(v)
}

// clientAddr is the TCP peer, unless the peer is a trusted proxy: then the right-most
// X-Forwarded-For entry that is not itself a trusted proxy.
func (s *Server) clientAddr(ctx huma.Context) netip.Addr {
	peer, err := netip.ParseAddrPort(ctx.RemoteAddr())
	if err != nil {
		return netip.Addr{}
	}
	addr := peer.Addr().Unmap()
	if !s.trusted(addr) {
		return addr
	}
	hops := strings.Split(ctx.Header("X-Forwarded-For"), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr
		}
		hop = hop.Unmap()
		if !s.trusted(hop) {
			return hop
		}
		addr = hop
	}
	return addr
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.deps.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
