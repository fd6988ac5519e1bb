package access_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// Passwords of the tests: every hash costs an argon2id run (~0.5 s under -race), so tests use few.
const (
	goodPassword  = "correct horse battery staple"
	otherPassword = "another long passphrase"
)

var (
	srcA = netip.MustParseAddr("192.0.2.10")
	srcB = netip.MustParseAddr("2001:db8:1:2::7")
)

// operator creates an operator user as the test operator or fails the test.
func (e *svcEnv) operator(email, password string) access.User {
	e.t.Helper()
	u, err := e.svc.CreateOperator(e.t.Context(), e.op, email, password)
	if err != nil {
		e.t.Fatalf("CreateOperator(%q): %v", email, err)
	}
	return u
}

// consumerUser creates a consumer's user with the default link TTL or fails the test.
func (e *svcEnv) consumerUser(consumerID int, email string) (access.User, access.PasswordLink) {
	e.t.Helper()
	u, l, err := e.svc.CreateConsumerUser(e.t.Context(), e.op, consumerID, email, 0)
	if err != nil {
		e.t.Fatalf("CreateConsumerUser(%d, %q): %v", consumerID, email, err)
	}
	return u, l
}

// assertNoSecret fails when an audit entry carries any of the secrets.
func assertNoSecret(t *testing.T, r access.AuditRecord, secrets ...string) {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(secrets, "$argon2id", "passwordHash", "password_hash", "token") {
		if s != "" && bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(s))) {
			t.Fatalf("audit entry contains %q: %s", s, b)
		}
	}
}

// tokenSecrets are the forms a link's secret could leak in: the token and its hash.
func tokenSecrets(t *testing.T, token string) []string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != 32 {
		t.Fatalf("token %q is not 32 bytes of base64url: %v", token, err)
	}
	h := sha256.Sum256(raw)
	return []string{token, hex.EncodeToString(h[:]), base64.StdEncoding.EncodeToString(h[:]), base64.RawURLEncoding.EncodeToString(h[:])}
}

func TestCreateOperator(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		var u access.User
		entry := e.oneAudit("user.create", func() (err error) {
			u, err = e.svc.CreateOperator(t.Context(), e.op, "  Alice@Example.COM ", goodPassword)
			return err
		})
		want := access.User{ID: u.ID, Email: "alice@example.com", Role: access.RoleOperator, PasswordSet: true, CreatedAt: e.clk.Now()}
		assertUser(t, u, want)
		if got, err := e.svc.User(t.Context(), e.op, u.ID); err != nil {
			t.Fatalf("User: %v", err)
		} else {
			assertUser(t, got, want)
		}
		if entry.Actor != e.op.Name || entry.ConsumerID != 0 || entry.Target != "alice@example.com" || entry.Before != nil ||
			entry.After["email"] != "alice@example.com" || entry.After["role"] != "operator" {
			t.Fatalf("audit entry %+v", entry)
		}
		assertNoSecret(t, entry, goodPassword)
		// The JSON of a User never has a hash in it either.
		if b, _ := json.Marshal(u); bytes.Contains(b, []byte("argon")) || !bytes.Contains(b, []byte(`"passwordSet":true`)) {
			t.Fatalf("User JSON %s", b)
		}

		c := e.consumer("acme", access.ConsumerChange{})
		userA := access.Actor{Name: "user:x@acme.example", ConsumerID: c.ID}
		for _, tc := range []struct {
			name, email, password string
			actor                 access.Actor
			want                  error
		}{
			{"consumer's user", "bob@example.com", goodPassword, userA, access.ErrInvalid},
			{"empty email", "  ", goodPassword, e.op, access.ErrInvalid},
			{"no at", "bob.example.com", goodPassword, e.op, access.ErrInvalid},
			{"display name", "Bob <bob@example.com>", goodPassword, e.op, access.ErrInvalid},
			{"angle brackets", "<bob@example.com>", goodPassword, e.op, access.ErrInvalid},
			{"two addresses", "bob@example.com, eve@example.com", goodPassword, e.op, access.ErrInvalid},
			{"too long", strings.Repeat("b", 243) + "@example.com", goodPassword, e.op, access.ErrInvalid},
			{"short password", "bob@example.com", "short", e.op, access.ErrWeakPassword},
			{"long password", "bob@example.com", strings.Repeat("p", access.MaxPasswordLen+1), e.op, access.ErrWeakPassword},
			{"taken, other case", "ALICE@example.com", goodPassword, e.op, access.ErrConflict},
		} {
			e.noChange(tc.name, tc.want, func() error {
				_, err := e.svc.CreateOperator(t.Context(), tc.actor, tc.email, tc.password)
				return err
			})
		}
		// 254 characters is the limit, not beyond.
		if _, err := access.NormalizeEmail(strings.Repeat("b", 242) + "@example.com"); err != nil {
			t.Fatalf("254-character email: %v", err)
		}
	})
}

func TestCreateConsumerUser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{})
		other := e.consumer("other", access.ConsumerChange{})
		var u access.User
		var link access.PasswordLink
		entry := e.oneAudit("user.create", func() (err error) {
			u, link, err = e.svc.CreateConsumerUser(t.Context(), e.op, c.ID, "Bob@Acme.example", 0)
			return err
		})
		assertUser(t, u, access.User{ID: u.ID, Email: "bob@acme.example", Role: access.RoleConsumer, ConsumerID: c.ID, CreatedAt: e.clk.Now()})
		if !link.ExpiresAt.Equal(e.clk.Now().Add(access.DefaultPasswordLinkTTL)) {
			t.Fatalf("link expires %v, want now+72h", link.ExpiresAt)
		}
		secrets := tokenSecrets(t, link.Token)
		if entry.ConsumerID != c.ID || entry.Target != "bob@acme.example" || entry.After["consumerId"] != float64(c.ID) ||
			entry.After["linkExpiresAt"] == nil || entry.After["role"] != "owner" {
			t.Fatalf("audit entry %+v", entry)
		}
		assertNoSecret(t, entry, secrets...)
		// The link's JSON carries its expiry, never its token.
		if b, _ := json.Marshal(link); bytes.Contains(b, []byte(link.Token)) || !bytes.Contains(b, []byte("expiresAt")) {
			t.Fatalf("PasswordLink JSON %s", b)
		}

		// A chosen TTL.
		_, l2, err := e.svc.CreateConsumerUser(t.Context(), e.op, c.ID, "carol@acme.example", time.Hour)
		if err != nil || !l2.ExpiresAt.Equal(e.clk.Now().Add(time.Hour)) {
			t.Fatalf("TTL 1h: %v, expires %v", err, l2.ExpiresAt)
		}
		if l2.Token == link.Token {
			t.Fatal("two links share a token")
		}

		userA := access.Actor{Name: "user:bob@acme.example", ConsumerID: c.ID}
		for _, tc := range []struct {
			name     string
			actor    access.Actor
			consumer int
			email    string
			ttl      time.Duration
			want     error
		}{
			{"unknown consumer", e.op, other.ID + 100, "dan@acme.example", 0, access.ErrNotFound},
			{"own consumer's user", userA, c.ID, "dan@acme.example", 0, access.ErrInvalid},
			{"another tenant", userA, other.ID, "dan@acme.example", 0, access.ErrNotFound},
			{"bad email", e.op, c.ID, "dan at acme", 0, access.ErrInvalid},
			{"ttl too long", e.op, c.ID, "dan@acme.example", access.MaxPasswordLinkTTL + time.Second, access.ErrInvalid},
			{"taken", e.op, other.ID, " BOB@acme.example", 0, access.ErrConflict},
		} {
			e.noChange(tc.name, tc.want, func() error {
				_, _, err := e.svc.CreateConsumerUser(t.Context(), tc.actor, tc.consumer, tc.email, tc.ttl)
				return err
			})
		}
		if _, _, err := e.svc.CreateConsumerUser(t.Context(), e.op, c.ID, "max@acme.example", access.MaxPasswordLinkTTL); err != nil {
			t.Fatalf("TTL of exactly the maximum: %v", err)
		}
	})
}

func TestPasswordLink(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		c := e.consumer("acme", access.ConsumerChange{})
		u, link := e.consumerUser(c.ID, "bob@acme.example")

		got, err := e.svc.PasswordLinkUser(ctx, link.Token)
		if err != nil || got.ID != u.ID || got.PasswordSet {
			t.Fatalf("PasswordLinkUser = %+v, %v; want user %d without password", got, err, u.ID)
		}
		// Not a link: every one ErrNotFound, nothing changed.
		flipped := []byte(link.Token)
		flipped[5] ^= 1
		for _, tok := range []string{"", "x", string(flipped), link.Token + "A", link.Token[1:],
			strings.Repeat("*", len(link.Token)), base64.RawURLEncoding.EncodeToString(make([]byte, 32))} {
			if _, err := e.svc.PasswordLinkUser(ctx, tok); !errors.Is(err, access.ErrNotFound) {
				t.Errorf("PasswordLinkUser(%q) = %v, want ErrNotFound", tok, err)
			}
			e.noChange("SetPassword "+tok, access.ErrNotFound, func() error {
				_, err := e.svc.SetPassword(ctx, tok, goodPassword)
				return err
			})
		}

		// A weak password is refused and leaves the link usable.
		e.noChange("weak password", access.ErrWeakPassword, func() error {
			_, err := e.svc.SetPassword(ctx, link.Token, "short")
			return err
		})
		e.clk.Add(time.Minute)
		var set access.User
		entry := e.oneAudit("user.password_set", func() (err error) {
			set, err = e.svc.SetPassword(ctx, link.Token, goodPassword)
			return err
		})
		if set.ID != u.ID || !set.PasswordSet {
			t.Fatalf("SetPassword = %+v, want user %d with password", set, u.ID)
		}
		if entry.Actor != "user:bob@acme.example" || entry.ConsumerID != c.ID {
			t.Fatalf("audit entry %+v", entry)
		}
		assertNoSecret(t, entry, append(tokenSecrets(t, link.Token), goodPassword)...)

		// Single use.
		if _, err := e.svc.PasswordLinkUser(ctx, link.Token); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("used link: PasswordLinkUser = %v, want ErrNotFound", err)
		}
		e.noChange("used link", access.ErrNotFound, func() error {
			_, err := e.svc.SetPassword(ctx, link.Token, otherPassword)
			return err
		})
		if in, err := e.svc.SignIn(ctx, "bob@acme.example", goodPassword, srcA); err != nil || in.ID != u.ID {
			t.Fatalf("SignIn with the password set: %+v, %v", in, err)
		}
	})
}

func TestPasswordLinkExpiry(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		c := e.consumer("acme", access.ConsumerChange{})
		_, link, err := e.svc.CreateConsumerUser(ctx, e.op, c.ID, "bob@acme.example", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		e.clk.Add(time.Hour - time.Second)
		if _, err := e.svc.PasswordLinkUser(ctx, link.Token); err != nil {
			t.Fatalf("a second before expiry: %v", err)
		}
		e.clk.Add(time.Second)
		if _, err := e.svc.PasswordLinkUser(ctx, link.Token); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("at expiry: PasswordLinkUser = %v, want ErrNotFound", err)
		}
		e.noChange("expired link", access.ErrNotFound, func() error {
			_, err := e.svc.SetPassword(ctx, link.Token, goodPassword)
			return err
		})
	})
}

func TestNewPasswordLink(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		c := e.consumer("acme", access.ConsumerChange{})
		other := e.consumer("other", access.ConsumerChange{})
		u, old := e.consumerUser(c.ID, "bob@acme.example")
		ou, _ := e.consumerUser(other.ID, "olga@other.example")

		e.clk.Add(time.Hour)
		var link access.PasswordLink
		entry := e.oneAudit("user.password_link", func() (err error) {
			link, err = e.svc.NewPasswordLink(ctx, e.op, u.ID, 2*time.Hour)
			return err
		})
		if !link.ExpiresAt.Equal(e.clk.Now().Add(2 * time.Hour)) {
			t.Fatalf("expires %v, want now+2h", link.ExpiresAt)
		}
		if entry.ConsumerID != c.ID || entry.Target != "bob@acme.example" || entry.After["userId"] != float64(u.ID) ||
			entry.After["expiresAt"] == nil {
			t.Fatalf("audit entry %+v", entry)
		}
		assertNoSecret(t, entry, append(tokenSecrets(t, link.Token), tokenSecrets(t, old.Token)...)...)

		// The earlier link is void; the new one works.
		if _, err := e.svc.PasswordLinkUser(ctx, old.Token); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("old link after re-issue: %v, want ErrNotFound", err)
		}
		if got, err := e.svc.PasswordLinkUser(ctx, link.Token); err != nil || got.ID != u.ID {
			t.Fatalf("new link: %+v, %v", got, err)
		}

		userA := access.Actor{Name: "user:bob@acme.example", ConsumerID: c.ID}
		op := e.operator("root@example.com", goodPassword)
		for _, tc := range []struct {
			name  string
			actor access.Actor
			user  int
			ttl   time.Duration
			want  error
		}{
			{"unknown user", e.op, ou.ID + 100, 0, access.ErrNotFound},
			{"ttl too long", e.op, u.ID, access.MaxPasswordLinkTTL + 1, access.ErrInvalid},
			{"own consumer's user", userA, u.ID, 0, access.ErrInvalid},
			{"another tenant's user", userA, ou.ID, 0, access.ErrNotFound},
			{"an operator, to a consumer's user", userA, op.ID, 0, access.ErrNotFound},
		} {
			e.noChange(tc.name, tc.want, func() error {
				_, err := e.svc.NewPasswordLink(ctx, tc.actor, tc.user, tc.ttl)
				return err
			})
		}
		if _, err := e.svc.PasswordLinkUser(ctx, link.Token); err != nil {
			t.Fatalf("refused re-issues voided the link: %v", err)
		}

		// A password reset for an operator: the link replaces the old password.
		reset, err := e.svc.NewPasswordLink(ctx, e.op, op.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SetPassword(ctx, reset.Token, otherPassword); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SignIn(ctx, "root@example.com", otherPassword, srcA); err != nil {
			t.Fatalf("SignIn with the reset password: %v", err)
		}
	})
}

func TestPasswordTokenStoredHashed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		c := e.consumer("acme", access.ConsumerChange{})
		_, link := e.consumerUser(c.ID, "bob@acme.example")
		raw, _ := base64.RawURLEncoding.DecodeString(link.Token)
		h := sha256.Sum256(raw)
		hashFound := false
		for col, v := range allValues(t, st, "password_tokens") {
			if bytes.Contains(v, []byte(link.Token)) || bytes.Contains(v, raw) ||
				bytes.Contains(v, []byte(hex.EncodeToString(raw))) {
				t.Fatalf("password_tokens %s holds the token: %q", col, v)
			}
			hashFound = hashFound || bytes.Equal(v, h[:]) || strings.EqualFold(string(v), hex.EncodeToString(h[:])) ||
				strings.EqualFold(strings.TrimPrefix(string(v), `\x`), hex.EncodeToString(h[:]))
		}
		if !hashFound {
			t.Fatal("password_tokens holds no SHA-256 of the token")
		}
		for _, table := range []string{"console_users", "audit_entries"} {
			for col, v := range allValues(t, st, table) {
				if bytes.Contains(v, []byte(link.Token)) || bytes.Contains(v, raw) || bytes.Contains(v, h[:]) {
					t.Fatalf("%s %s holds the token or its hash: %q", table, col, v)
				}
			}
		}
	})
}

func TestUserAndListUsers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		a := e.consumer("alpha", access.ConsumerChange{})
		b := e.consumer("bravo", access.ConsumerChange{})
		op := e.operator("root@example.com", goodPassword)
		a2, _ := e.consumerUser(a.ID, "zed@alpha.example")
		a1, _ := e.consumerUser(a.ID, "ann@alpha.example")
		b1, _ := e.consumerUser(b.ID, "bea@bravo.example")
		userA := access.Actor{Name: "user:ann@alpha.example", ConsumerID: a.ID}

		emails := func(us []access.User) string {
			var out []string
			for _, u := range us {
				out = append(out, u.Email)
			}
			return strings.Join(out, ",")
		}
		for _, tc := range []struct {
			name     string
			actor    access.Actor
			consumer int
			want     string
		}{
			{"operator, all", e.op, 0, "ann@alpha.example,bea@bravo.example,root@example.com,zed@alpha.example"},
			{"operator, alpha", e.op, a.ID, "ann@alpha.example,zed@alpha.example"},
			{"operator, bravo", e.op, b.ID, "bea@bravo.example"},
			{"alpha's user, own", userA, a.ID, "ann@alpha.example,zed@alpha.example"},
			{"alpha's user, 0 means own", userA, 0, "ann@alpha.example,zed@alpha.example"},
		} {
			got, err := e.svc.ListUsers(ctx, tc.actor, tc.consumer)
			if err != nil || emails(got) != tc.want {
				t.Errorf("%s: ListUsers = %s, %v; want %s", tc.name, emails(got), err, tc.want)
			}
		}
		if _, err := e.svc.ListUsers(ctx, userA, b.ID); !errors.Is(err, access.ErrNotFound) {
			t.Errorf("ListUsers of another tenant: %v, want ErrNotFound", err)
		}
		if _, err := e.svc.ListUsers(ctx, e.op, b.ID+100); !errors.Is(err, access.ErrNotFound) {
			t.Errorf("ListUsers of an unknown consumer: %v, want ErrNotFound", err)
		}

		for _, id := range []int{a1.ID, a2.ID} {
			if got, err := e.svc.User(ctx, userA, id); err != nil || got.ConsumerID != a.ID {
				t.Errorf("User(%d) as alpha's user: %+v, %v", id, got, err)
			}
		}
		for _, id := range []int{b1.ID, op.ID, b1.ID + 100} {
			if _, err := e.svc.User(ctx, userA, id); !errors.Is(err, access.ErrNotFound) {
				t.Errorf("User(%d) as alpha's user: %v, want ErrNotFound", id, err)
			}
		}
		if _, err := e.svc.User(ctx, e.op, b1.ID+100); !errors.Is(err, access.ErrNotFound) {
			t.Errorf("User(unknown): %v, want ErrNotFound", err)
		}
	})
}

func TestSignIn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		c := e.consumer("acme", access.ConsumerChange{})
		op := e.operator("root@example.com", goodPassword)
		e.consumerUser(c.ID, "nopass@acme.example") // password never set

		rev := e.revision()
		e.clk.Add(time.Minute)
		u, err := e.svc.SignIn(ctx, "  ROOT@example.com ", goodPassword, srcA)
		if err != nil {
			t.Fatalf("SignIn: %v", err)
		}
		if u.ID != op.ID || u.LastSignInAt == nil || !u.LastSignInAt.Equal(e.clk.Now()) {
			t.Fatalf("SignIn = %+v, want user %d signed in at %v", u, op.ID, e.clk.Now())
		}
		if got, _ := e.svc.User(ctx, e.op, op.ID); got.LastSignInAt == nil || !got.LastSignInAt.Equal(e.clk.Now()) {
			t.Fatalf("stored last sign-in %v, want %v", got.LastSignInAt, e.clk.Now())
		}

		var msgs []string
		for _, tc := range []struct{ name, email, password string }{
			{"unknown email", "nobody@example.com", goodPassword},
			{"wrong password", "root@example.com", otherPassword},
			{"password not set", "nopass@acme.example", goodPassword},
			{"password not set, empty password", "nopass@acme.example", ""},
			{"malformed email", "root at example", goodPassword},
			{"overlong password", "root@example.com", strings.Repeat("x", access.MaxPasswordLen+1)},
		} {
			_, err := e.svc.SignIn(ctx, tc.email, tc.password, srcB)
			if !errors.Is(err, access.ErrBadCredentials) {
				t.Errorf("%s: SignIn = %v, want ErrBadCredentials", tc.name, err)
				continue
			}
			msgs = append(msgs, err.Error())
		}
		for _, m := range msgs {
			if m != msgs[0] {
				t.Errorf("SignIn failures differ: %q vs %q", m, msgs[0])
			}
		}
		if e.revision() != rev {
			t.Error("sign-ins wrote audit entries")
		}
	})
}

func TestSignInThrottle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := t.Context()
		// The default throttle, on the Service's clock.
		e := newSvcEnv(t, st)
		e.operator("root@example.com", goodPassword)
		for i := range access.SignInAccountLimit {
			if _, err := e.svc.SignIn(ctx, "root@example.com", otherPassword, srcA); !errors.Is(err, access.ErrBadCredentials) {
				t.Fatalf("failure %d: %v", i+1, err)
			}
			e.clk.Add(time.Minute)
		}
		// Throttled, even with the right password and from elsewhere; the account's oldest
		// failure leaves the window 15 minutes after it happened.
		var th *access.Throttled
		if _, err := e.svc.SignIn(ctx, "ROOT@example.com", goodPassword, srcB); !errors.As(err, &th) {
			t.Fatalf("6th attempt: %v, want *Throttled", err)
		} else if want := access.SignInWindow - access.SignInAccountLimit*time.Minute; th.RetryAfter != want {
			t.Fatalf("RetryAfter %v, want %v", th.RetryAfter, want)
		}
		e.clk.Add(th.RetryAfter)
		if _, err := e.svc.SignIn(ctx, "root@example.com", goodPassword, srcB); err != nil {
			t.Fatalf("after RetryAfter: %v", err)
		}
		// The success cleared the account: had it not, 4 failures would still be in the window
		// and the second failure below would be throttled.
		for i := range 2 {
			if _, err := e.svc.SignIn(ctx, "root@example.com", otherPassword, srcB); !errors.Is(err, access.ErrBadCredentials) {
				t.Fatalf("failure %d after success: %v", i+1, err)
			}
		}

		// Per source, with small limits: failures on different accounts add up.
		clk := newSvcClock()
		svc := access.NewService(st.Client, access.WithServiceClock(clk.Now),
			access.WithSignInThrottle(access.NewThrottle(access.WithThrottleClock(clk.Now), access.WithThrottleLimits(100, 3, time.Minute))))
		other := netip.MustParseAddr("2001:db8:1:3::7")
		for _, email := range []string{"a@example.com", "b@example.com", "root@example.com"} {
			if _, err := svc.SignIn(ctx, email, otherPassword, srcB); !errors.Is(err, access.ErrBadCredentials) {
				t.Fatalf("%s: %v", email, err)
			}
		}
		sameNet := netip.MustParseAddr("2001:db8:1:2:ffff::1") // same /64 as srcB
		if _, err := svc.SignIn(ctx, "root@example.com", goodPassword, sameNet); !errors.As(err, &th) || th.RetryAfter != time.Minute {
			t.Fatalf("4th failure from the /64: %v, want *Throttled for 1m", err)
		}
		if _, err := svc.SignIn(ctx, "root@example.com", goodPassword, other); err != nil {
			t.Fatalf("another /64: %v", err)
		}
	})
}

func assertUser(t *testing.T, got, want access.User) {
	t.Helper()
	if got.ID <= 0 || got.ID != want.ID || got.Email != want.Email || got.Role != want.Role || got.ConsumerID != want.ConsumerID ||
		got.PasswordSet != want.PasswordSet || !got.CreatedAt.Equal(want.CreatedAt) ||
		(got.LastSignInAt == nil) != (want.LastSignInAt == nil) ||
		(got.LastSignInAt != nil && !got.LastSignInAt.Equal(*want.LastSignInAt)) {
		t.Fatalf("user = %+v, want %+v", got, want)
	}
}
