package store

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"entgo.io/ent/dialect"
)

// target is a parsed database URL: which dialect, where, and which secrets must never reach an error message.
type target struct {
	dialect string
	// path is the SQLite database file, absolute.
	path string
	// url is the PostgreSQL connection URL, as given.
	url string
	// display is the URL safe to show: no password, no query.
	display string
	// secrets are the passwords the URL carries, in every spelling an error might echo.
	secrets []string
}

// parseURL recognises sqlite:<path>, sqlite://<path>, file:<path> and postgres:// or postgresql:// URLs.
// Its errors never contain a password.
func parseURL(raw string) (target, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return target{}, errors.New("database URL is empty (want sqlite:<path> or postgres://…)")
	}
	lower := strings.ToLower(raw)
	switch {
	case strings.HasPrefix(lower, "postgres://"), strings.HasPrefix(lower, "postgresql://"):
		return parsePostgresURL(raw)
	case strings.HasPrefix(lower, "sqlite://"):
		return parseSQLitePath(raw[len("sqlite://"):])
	case strings.HasPrefix(lower, "sqlite:"):
		return parseSQLitePath(raw[len("sqlite:"):])
	case strings.HasPrefix(lower, "file://"):
		return parseSQLitePath(raw[len("file://"):])
	case strings.HasPrefix(lower, "file:"):
		return parseSQLitePath(raw[len("file:"):])
	}
	scheme, _, ok := strings.Cut(raw, ":")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "/@ ") {
		return target{}, errors.New("database URL has no scheme (want sqlite:<path> or postgres://…)")
	}
	return target{}, fmt.Errorf("unsupported database URL scheme %q (want sqlite:<path>, file:<path> or postgres://…)", scheme)
}

// DialectOf is the dialect of a database URL (dialect.SQLite or dialect.Postgres), without
// connecting. Its errors never contain a password.
func DialectOf(url string) (string, error) {
	t, err := parseURL(url)
	return t.dialect, err
}

// parseSQLitePath checks a SQLite file path and makes it absolute.
func parseSQLitePath(p string) (target, error) {
	switch {
	case p == "":
		return target{}, errors.New("sqlite URL has no file path (want sqlite:<path>)")
	case p == ":memory:":
		return target{}, errors.New("sqlite URL names an in-memory database, which each pooled connection would see empty; use a file")
	case strings.Contains(p, "?"):
		return target{}, fmt.Errorf("sqlite URL %q has query parameters; none are accepted: the store sets its own pragmas", p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return target{}, fmt.Errorf("sqlite path %q: %w", p, err)
	}
	return target{dialect: dialect.SQLite, path: abs, display: "sqlite:" + abs}, nil
}

// parsePostgresURL checks the URL's shape and collects its secrets. Connection details are left to pgx.
func parsePostgresURL(raw string) (target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error repeats the whole URL, password included: report only the reason,
		// and not even that for an escape error, whose fragment may come from the password.
		reason := "malformed URL"
		var ue *url.Error
		var ee url.EscapeError
		switch {
		case errors.As(err, &ee):
			reason = "invalid percent-escape"
		case errors.As(err, &ue):
			reason = ue.Err.Error()
		}
		return target{}, fmt.Errorf("invalid postgres URL: %s", reason)
	}
	t := target{dialect: dialect.Postgres, url: raw}
	if p, ok := u.User.Password(); ok && p != "" {
		t.secrets = append(t.secrets, p, url.PathEscape(p), url.QueryEscape(p), url.UserPassword("", p).String()[1:])
	}
	q, qerr := url.ParseQuery(u.RawQuery)
	for _, k := range []string{"password", "sslpassword"} {
		if v := q.Get(k); v != "" {
			t.secrets = append(t.secrets, v, url.QueryEscape(v))
		}
	}
	if qerr != nil && strings.Contains(strings.ToLower(u.RawQuery), "password") {
		// A query we cannot parse may still hold a password: treat the whole query as secret.
		t.secrets = append(t.secrets, u.RawQuery)
	}
	d := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	if u.User != nil {
		d.User = url.User(u.User.Username())
	}
	t.display = d.String()
	if u.Host == "" && u.Opaque != "" {
		return target{}, fmt.Errorf("invalid postgres URL %s: want postgres://[user[:password]@]host[:port]/database", t.display)
	}
	if qerr != nil {
		return target{}, fmt.Errorf("invalid postgres URL %s: malformed query", t.display)
	}
	return t, nil
}

// scrub replaces every secret of t in err's message. An error whose message held a secret is
// replaced by one that does not unwrap, so the original text cannot be printed by accident.
func (t target) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := msg
	for _, s := range t.secrets {
		if s != "" {
			clean = strings.ReplaceAll(clean, s, "xxxxx")
		}
	}
	if clean == msg {
		return err
	}
	return errors.New(clean)
}
