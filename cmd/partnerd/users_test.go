package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
)

const cliPassword = "correct horse battery staple"

// withStdin makes `operator create` read r as its standard input for the rest of the test. Tests
// that use it must not be parallel (stdin is package state).
func withStdin(t *testing.T, r io.Reader) {
	t.Helper()
	old := stdin
	stdin = r
	t.Cleanup(func() { stdin = old })
}

// errReader fails every read.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

// userLinkOut is what `user create` and `user link` print.
type userLinkOut struct {
	access.User
	SetPasswordURL string    `json:"setPasswordUrl"`
	ExpiresAt      time.Time `json:"expiresAt"`
	PublicURL      string    `json:"publicUrl"`
	PublicURLFrom  string    `json:"publicUrlFrom"`
	Note           string    `json:"note"`
}

var linkURL = regexp.MustCompile(`^(.*)/console/set-password/([A-Za-z0-9_-]{43})$`)

// token checks the set-password URL's shape and base and returns its token.
func token(t *testing.T, out userLinkOut, base string) string {
	t.Helper()
	m := linkURL.FindStringSubmatch(out.SetPasswordURL)
	if m == nil || m[1] != base {
		t.Fatalf("setPasswordUrl %q, want %s/console/set-password/<43 base64url characters>", out.SetPasswordURL, base)
	}
	return m[2]
}

func (c *cli) service() *access.Service {
	c.t.Helper()
	return access.NewService(c.openStore().Client)
}

func TestOperatorCreate(t *testing.T) {
	for name, newCLI := range map[string]func(*testing.T) *cli{"sqlite": sqliteCLI, "postgres": postgresCLI} {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t)
			ctx := context.Background()

			// From standard input, as `echo pw | partnerd operator create --email E` gives it.
			withStdin(t, strings.NewReader(cliPassword+"\r\nignored second line\n"))
			raw := c.ok("operator", "create", "--email", " Root@Example.com")
			hasFields(t, raw, "id", "email", "role", "passwordSet", "createdAt", "lastSignInAt")
			if strings.Contains(string(raw), "argon") || strings.Contains(string(raw), cliPassword) {
				t.Fatalf("output holds the password or its hash: %s", raw)
			}
			u := as[access.User](t, raw)
			if u.Email != "root@example.com" || u.Role != access.RoleOperator || !u.PasswordSet || u.ConsumerID != 0 {
				t.Fatalf("operator create = %+v", u)
			}
			if _, err := c.service().SignIn(ctx, "root@example.com", cliPassword, netip.Addr{}); err != nil {
				t.Fatalf("SignIn with the password from stdin: %v", err)
			}

			// From the environment, which wins over standard input.
			withStdin(t, errReader{})
			c.env["PARTNER_OPERATOR_PASSWORD"] = "another long passphrase"
			u2 := as[access.User](t, c.ok("operator", "create", "--email", "ops@example.com"))
			if _, err := c.service().SignIn(ctx, "ops@example.com", "another long passphrase", netip.Addr{}); err != nil || u2.ID == u.ID {
				t.Fatalf("SignIn with the password from the environment: %v", err)
			}
			recs := c.audit(0)
			if len(recs) < 2 || recs[0].Action != "user.create" || recs[0].Actor != "cli" || recs[0].Target != "ops@example.com" {
				t.Fatalf("newest audit entries %+v", recs)
			}
		})
	}
}

func TestOperatorCreateFails(t *testing.T) {
	c := sqliteCLI(t)
	withStdin(t, strings.NewReader(""))
	c.failWith("no password", "operator", "create", "--email", "a@example.com")
	withStdin(t, strings.NewReader("\n"))
	c.failWith("no password", "operator", "create", "--email", "a@example.com")
	withStdin(t, errReader{})
	c.failWith("broken pipe", "operator", "create", "--email", "a@example.com")
	withStdin(t, strings.NewReader("short\n"))
	c.failWith("password must be", "operator", "create", "--email", "a@example.com")
	withStdin(t, strings.NewReader(strings.Repeat("x", 10_000)+"\n"))
	c.failWith("password must be", "operator", "create", "--email", "a@example.com")

	c.env["PARTNER_OPERATOR_PASSWORD"] = cliPassword
	c.failWith("--email is required", "operator", "create")
	c.failWith("not an email address", "operator", "create", "--email", "Bob <bob@example.com>")
	c.failWith("unexpected argument", "operator", "create", "--email", "a@example.com", "extra")
	c.ok("operator", "create", "--email", "a@example.com")
	c.failWith("exists", "operator", "create", "--email", "A@example.com")
	c.fail("operator")
	c.failWith("unknown subcommand", "operator", "delete")
	if l := as[map[string][]access.User](t, c.ok("user", "list"))["users"]; len(l) != 1 {
		t.Fatalf("users after failed creates: %+v", l)
	}
}

func TestUserCreate(t *testing.T) {
	t.Parallel()
	for name, newCLI := range map[string]func(*testing.T) *cli{"sqlite": sqliteCLI, "postgres": postgresCLI} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newCLI(t)
			ctx := context.Background()
			acme := c.createConsumer("Acme")

			before := time.Now()
			raw := c.ok("user", "create", "--consumer", id(acme.ID), "--email", "Bob@Acme.example")
			hasFields(t, raw, "id", "email", "role", "consumerId", "passwordSet", "setPasswordUrl", "expiresAt")
			out := as[userLinkOut](t, raw)
			if out.Email != "bob@acme.example" || out.Role != access.RoleConsumer || out.ConsumerID != acme.ID || out.PasswordSet {
				t.Fatalf("user create = %+v", out)
			}
			if d := out.ExpiresAt.Sub(before); d < access.DefaultPasswordLinkTTL || d > access.DefaultPasswordLinkTTL+time.Minute {
				t.Fatalf("expiresAt %v is not 72h from now", out.ExpiresAt)
			}
			tok := token(t, out, "http://127.0.0.1:8080")
			svc := c.service()
			if u, err := svc.PasswordLinkUser(ctx, tok); err != nil || u.ID != out.ID {
				t.Fatalf("the printed link: %+v, %v", u, err)
			}
			recs := c.audit(acme.ID)
			if len(recs) == 0 || recs[0].Action != "user.create" || recs[0].Actor != "cli" {
				t.Fatalf("audit %+v", recs)
			}
			if b, _ := json.Marshal(recs); strings.Contains(string(b), tok) {
				t.Fatal("the audit log holds the token")
			}

			// user link re-issues: the old link stops working.
			c.env["PARTNER_PUBLIC_URL"] = "https://partners.example.com/base/"
			re := as[userLinkOut](t, c.ok("user", "link", id(out.ID), "--ttl", "2d"))
			tok2 := token(t, re, "https://partners.example.com/base")
			if re.ID != out.ID || re.Email != out.Email || time.Until(re.ExpiresAt) < 47*time.Hour {
				t.Fatalf("user link = %+v", re)
			}
			if _, err := svc.PasswordLinkUser(ctx, tok); !errors.Is(err, access.ErrNotFound) {
				t.Fatalf("old link after user link: %v, want ErrNotFound", err)
			}
			if _, err := svc.PasswordLinkUser(ctx, tok2); err != nil {
				t.Fatalf("new link: %v", err)
			}

			list := as[map[string][]access.User](t, c.ok("user", "list", "--consumer", id(acme.ID)))["users"]
			if len(list) != 1 || list[0].ID != out.ID {
				t.Fatalf("user list = %+v", list)
			}
		})
	}
}

// TestUserCreateBaseURL: the link's base comes from PARTNER_PUBLIC_URL, else PARTNER_ADDR, else the
// default listen address; user create and user link say which base they used and where it came
// from, and, when PARTNER_PUBLIC_URL is unset, that setting it changes the base and how to get a
// new link.
func TestUserCreateBaseURL(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	acme := c.createConsumer("Acme")
	for i, tc := range []struct{ publicURL, addr, base, from string }{
		{"", "", "http://127.0.0.1:8080", "default"},
		{"", "0.0.0.0:9090", "http://127.0.0.1:9090", "PARTNER_ADDR"},
		{"", ":9091", "http://127.0.0.1:9091", "PARTNER_ADDR"},
		{"", "[::]:9092", "http://[::1]:9092", "PARTNER_ADDR"},
		{"", "partners.internal:80", "http://partners.internal:80", "PARTNER_ADDR"},
		{"https://console.example.com", "0.0.0.0:1", "https://console.example.com", "PARTNER_PUBLIC_URL"},
	} {
		c.env["PARTNER_PUBLIC_URL"], c.env["PARTNER_ADDR"] = tc.publicURL, tc.addr
		what := fmt.Sprintf("PARTNER_PUBLIC_URL=%q PARTNER_ADDR=%q", tc.publicURL, tc.addr)
		check := func(cmd string, raw json.RawMessage) userLinkOut {
			t.Helper()
			hasFields(t, raw, "publicUrl", "publicUrlFrom")
			out := as[userLinkOut](t, raw)
			token(t, out, tc.base)
			if out.PublicURL != tc.base || out.PublicURLFrom != tc.from {
				t.Errorf("%s, %s: publicUrl %q from %q, want %q from %q", what, cmd, out.PublicURL, out.PublicURLFrom, tc.base, tc.from)
			}
			switch {
			case tc.from == "PARTNER_PUBLIC_URL" && out.Note != "":
				t.Errorf("%s, %s: note %q, want none (the base is configured)", what, cmd, out.Note)
			case tc.from != "PARTNER_PUBLIC_URL":
				for _, w := range []string{tc.base, "PARTNER_PUBLIC_URL=", "partnerd user link " + id(out.ID)} {
					if !strings.Contains(out.Note, w) {
						t.Errorf("%s, %s: note %q does not mention %q", what, cmd, out.Note, w)
					}
				}
			}
			if d := time.Until(out.ExpiresAt); d < 59*time.Minute || d > time.Hour {
				t.Errorf("%s, %s: --ttl 1h: expires in %v", what, cmd, d)
			}
			return out
		}
		u := check("user create", c.ok("user", "create", "--consumer", id(acme.ID), "--email", "u"+id(i)+"@acme.example", "--ttl", "1h"))
		check("user link", c.ok("user", "link", id(u.ID), "--ttl", "1h"))
	}
}

func TestUserCreateFails(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	acme := c.createConsumer("Acme")
	c.failWith("--consumer and --email are required", "user", "create", "--email", "a@acme.example")
	c.failWith("--consumer and --email are required", "user", "create", "--consumer", id(acme.ID))
	c.failWith("not found", "user", "create", "--consumer", id(acme.ID+1), "--email", "a@acme.example")
	c.failWith("not an email address", "user", "create", "--consumer", id(acme.ID), "--email", "nope")
	c.failWith("--ttl", "user", "create", "--consumer", id(acme.ID), "--email", "a@acme.example", "--ttl", "8d")
	c.failWith("--ttl", "user", "create", "--consumer", id(acme.ID), "--email", "a@acme.example", "--ttl", "30s")
	c.failWith("--ttl", "user", "create", "--consumer", id(acme.ID), "--email", "a@acme.example", "--ttl", "soon")
	// A bad base URL fails before the user is created: a user whose link is lost helps nobody.
	c.env["PARTNER_PUBLIC_URL"] = "ftp://example.com"
	c.failWith("PARTNER_PUBLIC_URL", "user", "create", "--consumer", id(acme.ID), "--email", "a@acme.example")
	c.env["PARTNER_PUBLIC_URL"] = ""
	c.env["PARTNER_ADDR"] = "no-port"
	c.failWith("PARTNER_ADDR", "user", "create", "--consumer", id(acme.ID), "--email", "a@acme.example")
	if l := as[map[string][]access.User](t, c.ok("user", "list"))["users"]; len(l) != 0 {
		t.Fatalf("users after failed creates: %+v", l)
	}
	c.env["PARTNER_ADDR"] = ""
	c.ok("user", "create", "--consumer", id(acme.ID), "--email", "a@acme.example")
	c.failWith("exists", "user", "create", "--consumer", id(acme.ID), "--email", "A@acme.example")

	c.failWith("want exactly one ID", "user", "link")
	c.failWith("not found", "user", "link", "999")
	c.failWith("not found", "user", "list", "--consumer", "999")
	c.fail("user")
	c.failWith("unknown subcommand", "user", "frobnicate")
}

func TestUsageMentionsUserCommands(t *testing.T) {
	t.Parallel()
	_, out, _ := sqliteCLI(t).exec("help")
	for _, want := range []string{"partnerd operator create --email", "partnerd user create --consumer ID --email", "PARTNER_OPERATOR_PASSWORD", "PARTNER_PUBLIC_URL"} {
		if !strings.Contains(out, want) {
			t.Errorf("usage does not mention %q", want)
		}
	}
}
