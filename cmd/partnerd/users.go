package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/access"
)

// stdin is where `operator create` reads the password when PARTNER_OPERATOR_PASSWORD is unset
// (tests replace it).
var stdin io.Reader = os.Stdin

// userLink is a console user with a one-time set-password link, as `user create` and
// `user link` print it, with the base URL the link assumes and where that base came from.
type userLink struct {
	access.User
	SetPasswordURL string    `json:"setPasswordUrl"`
	ExpiresAt      time.Time `json:"expiresAt"`
	linkBase
	// Note, when the base was not configured (PARTNER_PUBLIC_URL unset), says which base the
	// link assumes and how to set it.
	Note string `json:"note,omitempty"`
}

// linkBase is the console's base URL in set-password links.
type linkBase struct {
	URL string `json:"publicUrl"`
	// From is where URL came from: PARTNER_PUBLIC_URL, PARTNER_ADDR (http:// and the listen
	// address) or default (http:// and the default listen address).
	From string `json:"publicUrlFrom"`
}

// newUserLink is u with its set-password link on base.
func newUserLink(u access.User, base linkBase, link access.PasswordLink) userLink {
	out := userLink{User: u, SetPasswordURL: base.URL + "/console/set-password/" + link.Token, // base64url needs no escaping
		ExpiresAt: link.ExpiresAt, linkBase: base}
	if base.From != "PARTNER_PUBLIC_URL" {
		how := "PARTNER_ADDR"
		if base.From == "default" {
			how = "the default listen address; PARTNER_ADDR is unset"
		}
		out.Note = fmt.Sprintf("The link assumes that people reach the console at %s (from %s). If not, set "+
			"PARTNER_PUBLIC_URL to its base URL (e.g. PARTNER_PUBLIC_URL=https://partners.example.com) "+
			"and run partnerd user link %d for a new link.", base.URL, how, u.ID)
	}
	return out
}

func operatorCommand(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		return errors.New("operator: want create")
	}
	var dbURL, email string
	fs := newFlags("operator "+args[0], &dbURL, getenv)
	switch args[0] {
	case "create":
		fs.StringVar(&email, "email", "", "the operator's email")
		return withAdmin(ctx, fs, &dbURL, args[1:], stdout, func(a *admin) (any, error) {
			if err := noArgs(fs); err != nil {
				return nil, err
			}
			if email == "" {
				return nil, errors.New("operator create: --email is required")
			}
			pw, err := operatorPassword(getenv)
			if err != nil {
				return nil, err
			}
			return a.svc.CreateOperator(ctx, cliActor, email, pw)
		})
	}
	return fmt.Errorf("operator: unknown subcommand %q", args[0])
}

// operatorPassword is PARTNER_OPERATOR_PASSWORD, else the first line of standard input (without
// its line ending).
func operatorPassword(getenv func(string) string) (string, error) {
	if pw := getenv("PARTNER_OPERATOR_PASSWORD"); pw != "" {
		return pw, nil
	}
	// A little more than the longest password: a longer line is reported as too long, not cut.
	line, err := bufio.NewReader(io.LimitReader(stdin, access.MaxPasswordLen+3)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("operator create: read password from standard input: %w", err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", errors.New("operator create: no password: set PARTNER_OPERATOR_PASSWORD or write it on standard input")
	}
	return line, nil
}

func userCommand(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		return errors.New("user: want create, link or list")
	}
	var dbURL, email, ttl string
	var consumerID int
	fs := newFlags("user "+args[0], &dbURL, getenv)
	switch args[0] {
	case "create":
		fs.IntVar(&consumerID, "consumer", 0, "consumer id")
		fs.StringVar(&email, "email", "", "the user's email")
		fs.StringVar(&ttl, "ttl", "72h", "how long the set-password link is valid: up to 7d")
		return withAdmin(ctx, fs, &dbURL, args[1:], stdout, func(a *admin) (any, error) {
			if err := noArgs(fs); err != nil {
				return nil, err
			}
			if consumerID == 0 || email == "" {
				return nil, errors.New("user create: --consumer and --email are required")
			}
			d, base, err := linkSettings(ttl, getenv) // before creating: a user whose link is lost helps nobody
			if err != nil {
				return nil, err
			}
			u, link, err := a.svc.CreateConsumerUser(ctx, cliActor, consumerID, email, d)
			if err != nil {
				return nil, err
			}
			return newUserLink(u, base, link), nil
		})
	case "link":
		fs.StringVar(&ttl, "ttl", "72h", "how long the set-password link is valid: up to 7d")
		return withAdmin(ctx, fs, &dbURL, args[1:], stdout, func(a *admin) (any, error) {
			id, err := oneID(fs)
			if err != nil {
				return nil, err
			}
			d, base, err := linkSettings(ttl, getenv)
			if err != nil {
				return nil, err
			}
			link, err := a.svc.NewPasswordLink(ctx, cliActor, id, d)
			if err != nil {
				return nil, err
			}
			u, err := a.svc.User(ctx, cliActor, id)
			if err != nil {
				return nil, err
			}
			return newUserLink(u, base, link), nil
		})
	case "list":
		fs.IntVar(&consumerID, "consumer", 0, "consumer id (default: every user, operators included)")
		return withAdmin(ctx, fs, &dbURL, args[1:], stdout, func(a *admin) (any, error) {
			if err := noArgs(fs); err != nil {
				return nil, err
			}
			users, err := a.svc.ListUsers(ctx, cliActor, consumerID)
			return map[string]any{"users": users}, err
		})
	}
	return fmt.Errorf("user: unknown subcommand %q", args[0])
}

// linkSettings parses --ttl and finds the public base URL.
func linkSettings(ttl string, getenv func(string) string) (time.Duration, linkBase, error) {
	d, err := parseTTL(ttl)
	if err != nil {
		return 0, linkBase{}, err
	}
	base, err := publicBaseURL(getenv)
	if err != nil {
		return 0, linkBase{}, err
	}
	return d, base, nil
}

// publicBaseURL is where people reach the console: PARTNER_PUBLIC_URL, else http:// and
// PARTNER_ADDR (default 127.0.0.1:8080), with an unspecified host (":8080", "0.0.0.0:8080")
// replaced by the loopback address.
func publicBaseURL(getenv func(string) string) (linkBase, error) {
	if v := getenv("PARTNER_PUBLIC_URL"); v != "" {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			u.RawQuery != "" || u.Fragment != "" {
			return linkBase{}, fmt.Errorf("PARTNER_PUBLIC_URL: want an http:// or https:// URL without query, got %q", v)
		}
		return linkBase{strings.TrimRight(v, "/"), "PARTNER_PUBLIC_URL"}, nil
	}
	from, addr := "PARTNER_ADDR", getenv("PARTNER_ADDR")
	if addr == "" {
		from, addr = "default", defaultAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return linkBase{}, fmt.Errorf("PARTNER_ADDR: want HOST:PORT, got %q (or set PARTNER_PUBLIC_URL)", addr)
	}
	if ip, err := netip.ParseAddr(host); host == "" || (err == nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if err == nil && ip.Is6() {
			host = "::1"
		}
	}
	return linkBase{"http://" + net.JoinHostPort(host, port), from}, nil
}

// parseTTL parses a link lifetime: a Go duration, or whole days as "3d"; from 1m to 7d.
func parseTTL(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		if days, err = strconv.Atoi(n); err == nil && days >= 0 && days <= int(access.MaxPasswordLinkTTL/(24*time.Hour)) {
			d = time.Duration(days) * 24 * time.Hour
		} else {
			d = -1
		}
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d < time.Minute || d > access.MaxPasswordLinkTTL {
		return 0, fmt.Errorf("--ttl: want a duration from 1m to 7d, got %q", s)
	}
	return d, nil
}
