package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/api"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
	"github.com/partner-platform/partnerd/store"
)

// cliActor is who the audit log says made a CLI change.
var cliActor = access.Operator("cli")

// admin is an open store and the access service for one admin command.
type admin struct {
	store *store.Store
	svc   *access.Service
}

func openAdmin(ctx context.Context, url string) (*admin, error) {
	st, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, op := range api.Operations() {
		ids = append(ids, op.ID)
	}
	return &admin{store: st, svc: access.NewService(st.Client, access.WithOperations(ids))}, nil
}

// withAdmin parses a command's flags, opens the store, runs fn and prints its result as one JSON object.
func withAdmin(ctx context.Context, fs *flag.FlagSet, url *string, args []string, stdout io.Writer, fn func(*admin) (any, error)) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	a, err := openAdmin(ctx, *url)
	if err != nil {
		return err
	}
	defer a.store.Close()
	out, err := fn(a)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// consumerFlags binds the flags that change a consumer.
type consumerFlags struct {
	name, scopes, allow, disable, price, reason string
	rpm, burst                                  int
	enable                                      bool
}

func (f *consumerFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.name, "name", "", "consumer name")
	fs.StringVar(&f.scopes, "scopes", "", "comma-separated scopes: "+strings.Join(access.Scopes, ","))
	fs.IntVar(&f.rpm, "rpm", 0, "rate per minute")
	fs.IntVar(&f.burst, "burst", 0, "burst")
	fs.StringVar(&f.allow, "allow", "", "comma-separated source CIDRs (empty: any source)")
	fs.StringVar(&f.disable, "disable-endpoints", "", "comma-separated operation ids switched off (empty: none)")
	fs.StringVar(&f.price, "price", "", "negotiated price, free text")
}

// change builds the change of the flags that were given.
func (f *consumerFlags) change(fs *flag.FlagSet) (access.ConsumerChange, error) {
	var ch access.ConsumerChange
	var err error
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "name":
			ch.Name = &f.name
		case "scopes":
			s := splitList(f.scopes)
			ch.Scopes = &s
		case "rpm":
			ch.RatePerMinute = &f.rpm
		case "burst":
			ch.Burst = &f.burst
		case "allow":
			p, perr := policy.ParseCIDRs(f.allow)
			if perr != nil {
				err = fmt.Errorf("--allow: %w", perr)
			}
			ch.Allow = &p
		case "disable-endpoints":
			s := splitList(f.disable)
			ch.DisabledOperations = &s
		case "price":
			ch.Price = &f.price
		}
	})
	return ch, err
}

func consumerCommand(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		return errors.New("consumer: want create, update, enable, disable, list or show")
	}
	var url string
	var f consumerFlags
	fs := newFlags("consumer "+args[0], &url, getenv)
	switch args[0] {
	case "create":
		f.bind(fs)
		fs.BoolVar(&f.enable, "enable", false, "switch access on")
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			if err := noArgs(fs); err != nil {
				return nil, err
			}
			if f.name == "" {
				return nil, errors.New("consumer create: --name is required")
			}
			ch, err := f.change(fs)
			if err != nil {
				return nil, err
			}
			ch.AccessEnabled = &f.enable
			return a.svc.CreateConsumer(ctx, cliActor, f.name, ch)
		})
	case "update":
		f.bind(fs)
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			id, err := oneID(fs)
			if err != nil {
				return nil, err
			}
			ch, err := f.change(fs)
			if err != nil {
				return nil, err
			}
			return a.svc.UpdateConsumer(ctx, cliActor, id, ch, "")
		})
	case "enable", "disable":
		fs.StringVar(&f.reason, "reason", "", "why, for the audit log")
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			id, err := oneID(fs)
			if err != nil {
				return nil, err
			}
			return a.svc.SetAccess(ctx, cliActor, id, args[0] == "enable", f.reason)
		})
	case "list":
		var search string
		fs.StringVar(&search, "search", "", "only consumers whose name contains this")
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			if err := noArgs(fs); err != nil {
				return nil, err
			}
			list, err := a.svc.ListConsumers(ctx, cliActor, search)
			return map[string]any{"consumers": list}, err
		})
	case "show":
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			id, err := oneID(fs)
			if err != nil {
				return nil, err
			}
			return a.svc.Consumer(ctx, cliActor, id)
		})
	}
	return fmt.Errorf("consumer: unknown subcommand %q", args[0])
}

// keyCommand runs partnerd key create, rotate, end-grace, revoke or list.
func keyCommand(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		return errors.New("key: want create, rotate, end-grace, revoke or list")
	}
	var url, name, grace string
	var consumerID int
	fs := newFlags("key "+args[0], &url, getenv)
	switch args[0] {
	case "create":
		var scopes, sources, expires string
		fs.IntVar(&consumerID, "consumer", 0, "consumer id")
		fs.StringVar(&name, "name", "", "key name")
		fs.StringVar(&scopes, "scopes", "", "restrict the key to these of its consumer's scopes, comma-separated (default: all of them)")
		fs.StringVar(&sources, "source", "", "the key's own source allowlist, comma-separated CIDRs, applied with the consumer's (default: none)")
		fs.StringVar(&expires, "expires", "", "when the key stops working: an RFC 3339 time, or YYYY-MM-DD: it works through that day, UTC (default: never)")
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			if err := noArgs(fs); err != nil {
				return nil, err
			}
			if consumerID == 0 || name == "" {
				return nil, errors.New("key create: --consumer and --name are required")
			}
			o, err := keyOptions(scopes, sources, expires)
			if err != nil {
				return nil, err
			}
			return a.svc.CreateKeyWith(ctx, cliActor, consumerID, name, o)
		})
	case "rotate":
		fs.StringVar(&grace, "grace", "24h", "how long the old key keeps working: 0 to 7d")
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			id, err := oneID(fs)
			if err != nil {
				return nil, err
			}
			g, err := parseGrace(grace)
			if err != nil {
				return nil, err
			}
			issued, old, err := a.svc.RotateKey(ctx, cliActor, id, g)
			if err != nil {
				return nil, err
			}
			return struct {
				access.IssuedKey
				Replaced access.KeyInfo `json:"replaced"`
			}{issued, old}, nil
		})
	case "end-grace":
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			id, err := oneID(fs)
			if err != nil {
				return nil, err
			}
			return a.svc.EndGrace(ctx, cliActor, id)
		})
	case "revoke":
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			id, err := oneID(fs)
			if err != nil {
				return nil, err
			}
			return a.svc.RevokeKey(ctx, cliActor, id)
		})
	case "list":
		fs.IntVar(&consumerID, "consumer", 0, "consumer id")
		return withAdmin(ctx, fs, &url, args[1:], stdout, func(a *admin) (any, error) {
			if err := noArgs(fs); err != nil {
				return nil, err
			}
			if consumerID == 0 {
				return nil, errors.New("key list: --consumer is required")
			}
			keys, err := a.svc.ListKeys(ctx, cliActor, consumerID)
			return map[string]any{"keys": keys}, err
		})
	}
	return fmt.Errorf("key: unknown subcommand %q", args[0])
}

func usageCommand(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	var url string
	var consumerID, days int
	fs := newFlags("usage", &url, getenv)
	fs.IntVar(&consumerID, "consumer", 0, "consumer id")
	fs.IntVar(&days, "days", 30, "days of history, 1 to 30")
	return withAdmin(ctx, fs, &url, args, stdout, func(a *admin) (any, error) {
		if err := noArgs(fs); err != nil {
			return nil, err
		}
		if consumerID == 0 {
			return nil, errors.New("usage: --consumer is required")
		}
		if days < 1 || days > 30 {
			return nil, errors.New("usage: --days must be 1 to 30")
		}
		if _, err := a.svc.Consumer(ctx, cliActor, consumerID); err != nil {
			return nil, err
		}
		since := time.Now().UTC().AddDate(0, 0, -(days - 1))
		rows, err := metering.NewUsageStore(a.store.Client, a.store.Dialect).Daily(ctx, consumerID, since)
		return map[string]any{"consumerId": consumerID, "days": days, "since": metering.Day(since), "rows": rows}, err
	})
}

func migrate(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	var url string
	fs := newFlags("migrate", &url, getenv)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	st, err := store.Open(ctx, url) // Open applies pending migrations
	if err != nil {
		return err
	}
	defer st.Close()
	// The data migration serve also runs, in the background: calls recorded a row each by a
	// release before usage pages move into pages.
	moved, err := metering.NewUsageStore(st.Client, st.Dialect).MoveRawCalls(ctx)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(map[string]any{"ok": true, "dialect": st.Dialect, "rawCallsMoved": moved})
}

// noArgs rejects positional arguments of a command that takes none (an unquoted
// `--name Acme Corp` must not silently create "Acme").
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

// oneID returns the single positional id argument.
func oneID(fs *flag.FlagSet) (int, error) {
	if fs.NArg() != 1 {
		return 0, fmt.Errorf("%s: want exactly one ID argument", fs.Name())
	}
	id, err := strconv.Atoi(fs.Arg(0))
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("%s: ID must be a positive integer, got %q", fs.Name(), fs.Arg(0))
	}
	return id, nil
}

// parseGrace parses a rotation grace: a Go duration, or whole days as "7d".
func parseGrace(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		days, err = strconv.Atoi(n)
		if days < 0 || days > int(access.MaxRotationGrace/(24*time.Hour)) {
			days = -1 // out of range: also keeps the multiplication below from overflowing into range
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d < 0 || d > access.MaxRotationGrace {
		return 0, fmt.Errorf("--grace: want a duration from 0 to 7d, got %q", s)
	}
	return d, nil
}
