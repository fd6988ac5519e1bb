package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/api"
	"github.com/partner-platform/partnerd/console"
	"github.com/partner-platform/partnerd/idempotency"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/telemetry"
)

// shutdownGrace is how long in-flight calls get to finish on shutdown.
const shutdownGrace = 20 * time.Second

// Main is the running service: Run starts it, Close stops it gracefully.
type Main struct {
	Config Config
	Log    *slog.Logger

	store    *store.Store
	server   *http.Server
	listener net.Listener
	usage    *metering.Recorder
	chains   *chains
	limits   *rateLimits
	ops      *telemetry.Server // the operator listener; nil when Config.OpsAddr is empty
	stop     context.CancelFunc
	loops    sync.WaitGroup
}

func serve(ctx context.Context, args []string, stderr io.Writer, getenv func(string) string) error {
	cfg, err := serveConfig(args, getenv)
	if err != nil {
		return err
	}
	tuneGC(getenv)
	m := &Main{Config: cfg, Log: slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))}
	if err := m.Run(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	m.Log.Info("shutting down")
	return m.Close()
}

// defaultGCPercent is the collector's target heap growth when GOGC is not set: 200, where Go's
// default is 100. The service's live heap is small (tens of MB) beside the garbage its calls leave,
// so at 100 the collector runs often for little: at 200 it runs half as often, for about 7% less CPU
// per call under load (the load test's cached price read), and the heap peaks at three times its
// live size, not twice.
const defaultGCPercent = 200

// tuneGC sets the collector's target to defaultGCPercent unless the environment sets GOGC.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
}

// Run opens the store (applying migrations), wires the pipeline and starts serving on Config.Addr.
func (m *Main) Run(ctx context.Context) (err error) {
	st, err := store.Open(ctx, m.Config.DatabaseURL)
	if err != nil {
		return err
	}
	m.store = st
	defer func() {
		if err != nil {
			err = errors.Join(err, m.Close())
		}
	}()
	ops := api.Operations()
	ids := make([]string, len(ops))
	for i, op := range ops {
		ids[i] = op.ID
	}
	enforcer, err := policy.New(ops)
	if err != nil {
		return err
	}
	// Rate limits, and with them the sign-in throttle, before the Service that counts sign-ins.
	if m.limits, err = m.Config.openRateLimits(ctx, m.Log); err != nil {
		return err
	}
	box, keySource, err := secretBox(m.Config, st)
	if err != nil {
		return err
	}
	if box == nil {
		m.Log.Warn("two-factor sign-in cannot be set up: no secret key; set PARTNER_SECRET_KEY, the same on every replica")
	} else {
		m.Log.Info("secrets are sealed with the secret key", "from", keySource)
	}
	svc := access.NewService(st.Client, access.WithOperations(ids), access.WithSignInThrottle(m.limits.signIn), access.WithSecretBox(box))
	verifier := access.NewVerifier(svc.LookupKey)
	sync := access.NewSync(svc, enforcer, verifier, m.Log)
	if err := sync.Refresh(ctx); err != nil {
		return err
	}
	// Access changes reach this replica at once through the store's change feed (LISTEN/NOTIFY on
	// PostgreSQL); the periodic sync stays as the fallback.
	feed, err := access.NewChangeFeed(sync, st.Dialect, m.Config.DatabaseURL, m.Log)
	if err != nil {
		return err
	}
	m.chains, err = m.openChains(ctx)
	if err != nil {
		return err
	}
	chains := m.chains.registry
	limiter := m.limits.limiter
	usageStore := metering.NewUsageStore(st.Client, st.Dialect, metering.WithDB(st.DB))
	m.usage = metering.NewRecorder(usageStore, m.Log, 0, 0)
	idem := idempotency.NewSQLStore(st.Client)
	// While the database is unreachable, calls fail closed (503) and /readyz fails; both recover on
	// their own when it answers again (store.Health).
	health, err := st.NewHealth(m.Log, 0)
	if err != nil {
		return err
	}

	partnerAPI := api.New(api.Deps{
		Keys: verifier, Policy: enforcer, Limiter: limiter, Usage: m.usage, Idempotency: idem, Chains: chains,
		Market: m.chains.market, Portfolio: m.chains.portfolio, Trade: m.chains.trade,
		RefreshPolicy: sync.Refresh, Ready: m.limits.ready(health.Ready), StoreHealth: health.Err, TrustedProxies: m.Config.TrustedProxies,
		AccessLog: m.Config.AccessLog, Logger: m.Log,
	})
	endpoints, err := consoleEndpoints()
	if err != nil {
		return err
	}
	web := console.New(console.Deps{
		Access: svc, Usage: usageStore, UsageStats: m.usage.Stats, DB: st.Client, Applied: sync.Refresh, Operations: ids, Endpoints: endpoints,
		PublicURL: m.Config.PublicURL, InsecureCookies: m.Config.InsecureCookies, Logger: m.Log,
		OperatorTwoFactor: m.Config.OperatorTwoFactor,
	})
	// One listener: the console at /, /console and /static; everything else is the partner API. Each
	// request goes through one router, the one that serves it.
	consoleRouter := chi.NewRouter()
	web.Mount(consoleRouter)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if console.Owns(r) {
			consoleRouter.ServeHTTP(w, r)
			return
		}
		partnerAPI.ServeHTTP(w, r)
	})

	if m.Config.OpsAddr != "" {
		m.ops, err = telemetry.Start(m.Config.OpsAddr, telemetry.Sources{Usage: m.usage.Stats, UsageBuffer: metering.DefaultBufferSize,
			DB: st.DB.Stats, AccessReloads: feed.Reloads, InternalErrors: partnerAPI.InternalErrors}, m.Log)
		if err != nil {
			return err
		}
		m.Log.Info("operator listener serving /metrics and /debug/pprof/", "addr", m.ops.Addr())
	}
	m.listener, err = net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", m.Config.Addr, err)
	}
	m.server = &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(m.Log.Handler(), slog.LevelWarn),
	}
	loopCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	m.stop = stop
	m.every(loopCtx, 0, func(ctx context.Context) error { sync.Run(ctx, m.Config.SyncInterval); return nil })
	m.every(loopCtx, 0, func(ctx context.Context) error { feed.Run(ctx); return nil })
	m.every(loopCtx, 0, func(ctx context.Context) error { health.Run(ctx); return nil })
	m.every(loopCtx, 10*time.Second, m.reportUsageShedding())
	m.every(loopCtx, 30*time.Second, func(ctx context.Context) error { _, err := limiter.Reclaim(ctx, time.Now()); return err })
	m.every(loopCtx, time.Minute, func(ctx context.Context) error { _, err := idem.Sweep(ctx, time.Now()); return err })
	m.every(loopCtx, time.Minute, func(ctx context.Context) error { _, err := m.chains.trade.Sweep(ctx); return err })
	m.every(loopCtx, time.Hour, func(ctx context.Context) error { _, err := usageStore.Prune(ctx, time.Now()); return err })
	m.every(loopCtx, 0, func(ctx context.Context) error { return m.moveRawCalls(ctx, usageStore) })
	m.every(loopCtx, time.Minute, func(ctx context.Context) error { _, err := usageStore.CompactPages(ctx, time.Now()); return err })
	m.every(loopCtx, 10*time.Minute, func(ctx context.Context) error { _, err := web.SweepSessions(ctx); return err })
	m.chains.run(loopCtx, m)
	go func() {
		if err := m.server.Serve(m.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.Log.Error("serve", "err", err)
		}
	}()
	m.Log.Info("partnerd serving", "addr", m.listener.Addr().String(), "database", st.Dialect,
		"chainsEnabled", len(chains.Enabled()), "rateLimits", m.limits.kind)
	return nil
}

// Addr is the address the service listens on (useful with port 0).
func (m *Main) Addr() string { return m.listener.Addr().String() }

// OpsAddr is the operator listener's address, empty when it is off.
func (m *Main) OpsAddr() string {
	if m.ops == nil {
		return ""
	}
	return m.ops.Addr()
}

// every runs fn every interval until ctx ends (interval 0: once, for loops that block themselves).
func (m *Main) every(ctx context.Context, interval time.Duration, fn func(context.Context) error) {
	m.loops.Add(1)
	go func() {
		defer m.loops.Done()
		if interval == 0 {
			_ = fn(ctx)
			return
		}
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := fn(ctx); err != nil && ctx.Err() == nil {
					m.Log.Warn("background task", "err", err)
				}
			}
		}
	}()
}

// moveRawCalls moves what a release before usage pages recorded one row a call into pages, in the
// background: the request log shows those calls as they move.
func (m *Main) moveRawCalls(ctx context.Context, us *metering.UsageStore) error {
	n, err := us.MoveRawCalls(ctx)
	if err != nil && ctx.Err() == nil {
		m.Log.Error("move raw calls into usage pages", "moved", n, "err", err)
	} else if n > 0 {
		m.Log.Info("moved raw calls into usage pages", "calls", n)
	}
	return nil
}

// Close stops accepting calls, lets in-flight calls finish, flushes usage and closes the store.
func (m *Main) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	var errs []error
	if m.server != nil {
		errs = append(errs, m.server.Shutdown(ctx))
	}
	if m.ops != nil { // a scrape gets a moment; a profile under way is cut
		opsCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		errs = append(errs, m.ops.Close(opsCtx))
		cancel()
	}
	if m.stop != nil {
		m.stop()
		m.loops.Wait()
	}
	if m.usage != nil {
		errs = append(errs, m.usage.Close(ctx))
	}
	if m.chains != nil {
		errs = append(errs, m.chains.close())
	}
	if m.limits != nil {
		errs = append(errs, m.limits.close())
	}
	if m.store != nil {
		errs = append(errs, m.store.Close())
	}
	return errors.Join(errs...)
}

// reportUsageShedding returns a check, run every few seconds, that warns operators when the usage
// recorder had to shed raw call rows since the last check (the store failing or far behind; the
// calls stay counted in the rollups), and when writes fail.
func (m *Main) reportUsageShedding() func(context.Context) error {
	var last metering.Stats
	return func(context.Context) error {
		st := m.usage.Stats()
		if st.Shed > last.Shed || st.Failures > last.Failures {
			m.Log.Warn("usage recording is behind: raw call rows were shed (their calls are still counted)",
				"shed", st.Shed-last.Shed, "shedTotal", st.Shed, "failedWrites", st.Failures-last.Failures, "pending", st.Pending)
		}
		last = st
		return nil
	}
}
