package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"

	"entgo.io/ent/dialect"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
	"github.com/partner-platform/partnerd/store"
)

// Config is everything serve reads from flags and environment. Flags override environment.
type Config struct {
	Addr           string         // PARTNER_ADDR, --addr
	DatabaseURL    string         // PARTNER_DATABASE_URL, --database-url
	RedisURL       string         // PARTNER_REDIS_URL: redis://host:port/db shares rate limits across replicas; empty keeps them in-process
	TrustedProxies []netip.Prefix // PARTNER_TRUSTED_PROXIES: comma-separated CIDRs
	SyncInterval   time.Duration  // PARTNER_SYNC_INTERVAL: how often to poll the store for changes
	LogLevel       slog.Level     // PARTNER_LOG_LEVEL: debug, info, warn, error
	PublicURL      string         // PARTNER_PUBLIC_URL: the console's base URL in links handed to people
	// OpsAddr (PARTNER_OPS_ADDR, e.g. 127.0.0.1:9090; empty, the default: off) is the operator
	// listener's address: /metrics (Prometheus text format) and /debug/pprof/, never on Addr. It has
	// no authentication: bind it to loopback or a private network.
	OpsAddr string
	// InsecureCookies (PARTNER_INSECURE_COOKIES=1) drops the console cookie's Secure attribute, for
	// plain-HTTP deployments reached by a name other than localhost or 127.0.0.1.
	InsecureCookies bool
	// OperatorTwoFactor (PARTNER_CONSOLE_OPERATOR_2FA=required; default optional) requires operators
	// to sign in to the console with a TOTP code after the password: an operator without
	// two-factor sign-in is sent to set it up before any other page, and cannot switch it off.
	OperatorTwoFactor bool
	// SecretKey (PARTNER_SECRET_KEY: 32 random bytes in base64) seals the secrets the service stores
	// and must read back (TOTP seeds). Unset, SQLite keeps one in a file beside the database;
	// replicas on PostgreSQL must share one, or two-factor sign-in cannot be set up.
	SecretKey []byte
	// AccessLog (PARTNER_ACCESS_LOG, default 1) logs one info line per API call; 0 turns it off for
	// the highest throughput.
	AccessLog bool
	// Chains (PARTNER_CHAINS: path of a JSON chain configuration, see chain.Config) are the chains
	// served. Without an EVM chain among them the service runs in local mode: an in-process devnet
	// backs DevnetChain (PARTNER_DEVNET_CHAIN, default base), serving JSON-RPC on DevnetAddr
	// (PARTNER_DEVNET_ADDR, default 127.0.0.1:8545; empty picks a free port), with a background
	// trader swapping every DevnetTradeInterval (PARTNER_DEVNET_TRADE_INTERVAL, default 3s; 0 stops it).
	Chains              chain.Config
	DevnetChain         string
	DevnetAddr          string
	DevnetTradeInterval time.Duration
}

// Defaults.
const (
	defaultAddr        = "127.0.0.1:8080"
	defaultDatabaseURL = "sqlite:./data/partner.db"
)

// newFlags returns a flag set for a command with --database-url bound to *url.
func newFlags(name string, url *string, getenv func(string) string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(url, "database-url", envOr(getenv, "PARTNER_DATABASE_URL", defaultDatabaseURL), "database URL: sqlite:<path> or postgres://…")
	return fs
}

// addrFlag binds serve's --addr to *addr.
func addrFlag(fs *flag.FlagSet, addr *string, getenv func(string) string) {
	fs.StringVar(addr, "addr", envOr(getenv, "PARTNER_ADDR", defaultAddr), "listen address")
}

// flagEnv is the environment variable each flag accepted before the command stands for.
var flagEnv = map[string]string{"database-url": "PARTNER_DATABASE_URL", "addr": "PARTNER_ADDR"}

// globalFlags parses the flags given before the command (partnerd --database-url URL consumer list)
// with the commands' own flag definitions: --database-url, and --addr before serve. A flag given
// there acts as its environment variable (flagEnv) for the command, so the command's defaults
// follow it and the same flag after the command still wins. It returns the command with its
// arguments and the environment the command sees; flag.ErrHelp for -h or --help.
func globalFlags(args []string, getenv func(string) string) ([]string, func(string) string, error) {
	var url, addr string
	fs := newFlags("partnerd", &url, getenv)
	addrFlag(fs, &addr, getenv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%w (before the command partnerd takes --database-url, and --addr for serve; see partnerd help)", err)
	}
	set := map[string]string{}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if f.Value.String() == "" {
			err = fmt.Errorf("--%s: want a value", f.Name)
		}
		set[flagEnv[f.Name]] = f.Value.String()
	})
	if err != nil {
		return nil, nil, err
	}
	rest := fs.Args()
	if len(set) > 0 && len(rest) == 0 {
		return nil, nil, errors.New("no command after the flags (see partnerd help)")
	}
	if _, ok := set["PARTNER_ADDR"]; ok && rest[0] != "serve" {
		err = fmt.Errorf("--addr is a flag of serve, not of %s", rest[0])
		if rest[0] == "user" {
			err = fmt.Errorf("%w; set-password links start with PARTNER_PUBLIC_URL (default http:// and PARTNER_ADDR)", err)
		}
		return nil, nil, err
	}
	return rest, func(name string) string {
		if v, ok := set[name]; ok {
			return v
		}
		return getenv(name)
	}, nil
}

// serveConfig parses serve's flags and environment.
func serveConfig(args []string, getenv func(string) string) (Config, error) {
	var cfg Config
	fs := newFlags("serve", &cfg.DatabaseURL, getenv)
	addrFlag(fs, &cfg.Addr, getenv)
	if err := parseFlags(fs, args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("serve: unexpected argument %q", fs.Arg(0))
	}
	if cfg.OpsAddr = getenv("PARTNER_OPS_ADDR"); cfg.OpsAddr != "" {
		if _, _, err := net.SplitHostPort(cfg.OpsAddr); err != nil {
			return Config{}, fmt.Errorf("PARTNER_OPS_ADDR: want host:port such as 127.0.0.1:9090: %w", err)
		}
		if cfg.OpsAddr == cfg.Addr {
			return Config{}, fmt.Errorf("PARTNER_OPS_ADDR: the operator listener needs an address of its own, not the public %s", cfg.Addr)
		}
	}
	cfg.RedisURL = getenv("PARTNER_REDIS_URL")
	if cfg.RedisURL != "" {
		if _, err := metering.ParseRedisURL(cfg.RedisURL); err != nil {
			return Config{}, fmt.Errorf("PARTNER_REDIS_URL: %w", err)
		}
	}
	var err error
	if cfg.TrustedProxies, err = policy.ParseCIDRs(getenv("PARTNER_TRUSTED_PROXIES")); err != nil {
		return Config{}, fmt.Errorf("PARTNER_TRUSTED_PROXIES: %w", err)
	}
	cfg.SyncInterval = 2 * time.Second
	if v := getenv("PARTNER_SYNC_INTERVAL"); v != "" {
		if cfg.SyncInterval, err = time.ParseDuration(v); err != nil || cfg.SyncInterval < 100*time.Millisecond || cfg.SyncInterval > 4*time.Second {
			return Config{}, fmt.Errorf("PARTNER_SYNC_INTERVAL: want a duration from 100ms to 4s, got %q", v)
		}
	}
	cfg.PublicURL = getenv("PARTNER_PUBLIC_URL")
	if cfg.InsecureCookies, err = envBool(getenv, "PARTNER_INSECURE_COOKIES", false); err != nil {
		return Config{}, err
	}
	if cfg.AccessLog, err = envBool(getenv, "PARTNER_ACCESS_LOG", true); err != nil {
		return Config{}, err
	}
	switch v := getenv("PARTNER_CONSOLE_OPERATOR_2FA"); v {
	case "", "optional":
	case "required":
		cfg.OperatorTwoFactor = true
	default:
		return Config{}, fmt.Errorf("PARTNER_CONSOLE_OPERATOR_2FA: want required or optional, got %q", v)
	}
	if v := getenv("PARTNER_SECRET_KEY"); v != "" {
		if cfg.SecretKey, err = parseSecretKey(v); err != nil {
			return Config{}, fmt.Errorf("PARTNER_SECRET_KEY: %w", err) // never the value
		}
	}
	if d, _ := store.DialectOf(cfg.DatabaseURL); cfg.OperatorTwoFactor && cfg.SecretKey == nil && d == dialect.Postgres {
		// SQLite has its key file (secretBox); replicas on PostgreSQL must be given one key.
		return Config{}, errors.New("PARTNER_CONSOLE_OPERATOR_2FA=required needs PARTNER_SECRET_KEY on PostgreSQL (the same on every replica): " + secretKeyHint)
	}
	if path := getenv("PARTNER_CHAINS"); path != "" {
		if cfg.Chains, err = chain.LoadConfig(path); err != nil {
			return Config{}, fmt.Errorf("PARTNER_CHAINS: %w", err)
		}
	}
	cfg.DevnetChain = envOr(getenv, "PARTNER_DEVNET_CHAIN", "base")
	if info, ok := chain.Lookup(cfg.DevnetChain); !ok || info.Kind != chain.KindEVM {
		return Config{}, fmt.Errorf("PARTNER_DEVNET_CHAIN: want an EVM chain (ethereum, base, bsc, robinhood, arc), got %q", cfg.DevnetChain)
	}
	cfg.DevnetAddr = envOr(getenv, "PARTNER_DEVNET_ADDR", "127.0.0.1:8545")
	cfg.DevnetTradeInterval = 3 * time.Second
	if v := getenv("PARTNER_DEVNET_TRADE_INTERVAL"); v != "" {
		if cfg.DevnetTradeInterval, err = time.ParseDuration(v); err != nil || cfg.DevnetTradeInterval < 0 {
			return Config{}, fmt.Errorf("PARTNER_DEVNET_TRADE_INTERVAL: want a duration such as 3s (0 stops the trader), got %q", v)
		}
	}
	if v := getenv("PARTNER_LOG_LEVEL"); v != "" {
		if err := cfg.LogLevel.UnmarshalText([]byte(v)); err != nil {
			return Config{}, fmt.Errorf("PARTNER_LOG_LEVEL: %w", err)
		}
	}
	return cfg, nil
}

// rateLimits is the rate-limit store serve runs with: in-process, or Redis when RedisURL is set.
// The console's sign-in throttle follows it.
type rateLimits struct {
	limiter metering.Limiter
	signIn  *access.Throttle                // nil in-process: the access.Service's own
	kind    string                          // "in-process" or "redis", for the start log line
	ping    func(ctx context.Context) error // nil in-process
	close   func() error
}

// redisStartTimeout bounds the check at start that Redis answers.
const redisStartTimeout = 2 * time.Second

// openRateLimits selects the rate-limit store. With RedisURL set it connects to Redis and refuses
// to start when Redis does not answer, as for the database; later outages fail calls closed (503)
// and /readyz, and need no restart. Failed console sign-ins are then counted in the same Redis, so
// their limits hold across replicas; while Redis is down, sign-in is refused (503, try again).
func (cfg Config) openRateLimits(ctx context.Context, log *slog.Logger) (*rateLimits, error) {
	if cfg.RedisURL == "" {
		return &rateLimits{limiter: metering.NewMemoryLimiter(), kind: "in-process", close: func() error { return nil }}, nil
	}
	metering.LogRedisTo(log)
	client, err := metering.NewRedisClient(cfg.RedisURL)
	if err != nil {
		return nil, fmt.Errorf("PARTNER_REDIS_URL: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, redisStartTimeout)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		client.Close()
		return nil, fmt.Errorf("PARTNER_REDIS_URL: Redis at %s does not answer, and rate limits fail closed without it: %w", client.Options().Addr, err)
	}
	l := metering.NewRedisLimiter(client)
	signIn := access.NewThrottle(access.WithThrottleStore(access.NewRedisThrottleStore(client)))
	return &rateLimits{limiter: l, signIn: signIn, kind: "redis", ping: l.Ping, close: client.Close}, nil
}

// ready is the readiness check: the store answers, and so does Redis when it is configured.
func (r *rateLimits) ready(store func(context.Context) error) func(context.Context) error {
	if r.ping == nil {
		return store
	}
	return func(ctx context.Context) error {
		if err := store(ctx); err != nil {
			return err
		}
		return r.ping(ctx)
	}
}

// parseFlags parses args, allowing flags after positional arguments (partnerd key rotate 3 --grace 1h).
func parseFlags(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return fmt.Errorf("%s: %w", fs.Name(), err)
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return fs.Parse(append([]string{"--"}, positional...))
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

// splitList splits a comma-separated flag value, dropping empty elements.
func splitList(s string) []string {
	out := []string{}
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// envBool reads a 1/0 (or true/false) setting; empty means def.
func envBool(getenv func(string) string, name string, def bool) (bool, error) {
	switch v := getenv(name); v {
	case "":
		return def, nil
	case "1", "true":
		return true, nil
	case "0", "false":
		return false, nil
	default:
		return false, fmt.Errorf("%s: want 1 or 0, got %q", name, v)
	}
}
