package access_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pquerna/otp/totp"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/policy"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// propagationBound is the bound the change feed must meet (issue 12): a change is in force on
// every replica within it. The periodic sync is set to an hour, so only the feed can meet it.
const propagationBound = time.Second

// feedOps is the operation table of the replicas' policies.
var feedOps = []policy.Operation{{ID: "getTrending", Scope: "market:read"}, {ID: "getPoolChart", Scope: "market:read"}}

// syncBuffer is a log sink safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// replica is one partnerd replica's access side: its own store connection pool, Service, policy
// enforcer, key verifier (default 30 s TTL), Sync polling every hour and change feed.
type replica struct {
	name string
	st   *store.Store
	svc  *access.Service
	enf  *policy.Enforcer
	ver  *access.Verifier
	feed *access.ChangeFeed
	log  *syncBuffer
}

// newReplica opens a replica on the database at url and runs its Sync and ChangeFeed until the
// test ends. It waits until the feed listens (PostgreSQL).
func newReplica(t *testing.T, name, url string, opts ...func(*access.ChangeFeed)) *replica {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatalf("%s: open store: %v", name, err)
	}
	t.Cleanup(func() { st.Close() })
	r := &replica{name: name, st: st, log: &syncBuffer{}}
	r.svc = access.NewService(st.Client, access.WithOperations(testOperations))
	if r.enf, err = policy.New(feedOps); err != nil {
		t.Fatal(err)
	}
	r.ver = access.NewVerifier(r.svc.LookupKey)
	log := slog.New(slog.NewTextHandler(r.log, nil))
	sy := access.NewSync(r.svc, r.enf, r.ver, log)
	if err := sy.Refresh(ctx); err != nil {
		t.Fatalf("%s: refresh: %v", name, err)
	}
	if r.feed, err = access.NewChangeFeed(sy, st.Dialect, url, log); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, o := range opts {
		o(r.feed)
	}
	runCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sy.Run(runCtx, time.Hour) }()
	go func() { defer wg.Done(); r.feed.Run(runCtx) }()
	t.Cleanup(func() { stop(); wg.Wait() }) // before the store closes
	if st.Dialect == "postgres" {
		waitUntil(t, name+" listening", 10*time.Second, func() bool { return r.feed.ListenerPID() != 0 })
	}
	return r
}

// quiet waits until the replica's feed has not reloaded for 300 ms: the reloads of earlier
// changes are over, and the key cache filled next stays filled until a new change.
func (r *replica) quiet(t *testing.T) {
	t.Helper()
	last, since := r.feed.Reloads(), time.Now()
	waitUntil(t, r.name+" quiet", 10*time.Second, func() bool {
		if n := r.feed.Reloads(); n != last {
			last, since = n, time.Now()
		}
		return time.Since(since) >= 300*time.Millisecond
	})
}

// waitUntil polls cond every 10 ms until it holds, failing the test after limit.
func waitUntil(t *testing.T, what string, limit time.Duration, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			t.Fatalf("%s: not within %v", what, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

// propagates runs change and measures, per replica, how long until check holds on it (polled
// every 10 ms from just before the change is made); each must be under propagationBound.
func propagates(t *testing.T, what string, replicas []*replica, change func() error, check func(r *replica) bool) {
	t.Helper()
	for _, r := range replicas {
		if check(r) {
			t.Fatalf("%s: %s already shows the change before it is made", what, r.name)
		}
	}
	start := time.Now()
	if err := change(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	committed := time.Since(start)
	took := make([]time.Duration, len(replicas))
	pending := len(replicas)
	for pending > 0 {
		for i, r := range replicas {
			if took[i] == 0 && check(r) {
				took[i] = time.Since(start)
				pending--
			}
		}
		if pending > 0 && time.Since(start) > 5*time.Second {
			t.Fatalf("%s: not in force on every replica after 5 s (took %v)", what, took)
		}
		time.Sleep(10 * time.Millisecond)
	}
	var parts []string
	for i, r := range replicas {
		parts = append(parts, r.name+" "+took[i].Round(100*time.Microsecond).String())
		if took[i] >= propagationBound {
			t.Errorf("%s: %s took %v, want < %v", what, r.name, took[i], propagationBound)
		}
	}
	t.Logf("%s: change committed in %v; in force on %s (polled every 10 ms)", what,
		committed.Round(100*time.Microsecond), strings.Join(parts, ", "))
}

// refuses reports whether the replica's verifier refuses key with want.
func refuses(ctx context.Context, r *replica, key string, want error) bool {
	_, err := r.ver.Verify(ctx, key)
	return errors.Is(err, want)
}

// TestChangeFeedPropagates: two replicas on one PostgreSQL database, each verifying a key from
// its cache (30 s TTL) and deciding from its loaded policy, with the periodic sync at one hour.
// A change made through replica A's Service is in force on both within 1 s: only the feed (NOTIFY
// in the change's transaction, LISTEN on each replica) can explain it. Latencies are logged.
func TestChangeFeedPropagates(t *testing.T) {
	url, _ := storetest.CreatePostgresDB(t)
	a := newReplica(t, "replica A", url)
	b := newReplica(t, "replica B", url)
	replicas := []*replica{a, b}
	ctx := t.Context()
	op := access.Operator("operator:alice@example.com")
	src := netip.MustParseAddr("203.0.113.7")

	c, err := a.svc.CreateConsumer(ctx, op, "acme", access.ConsumerChange{AccessEnabled: ptr(true),
		Scopes: ptr([]string{"market:read"}), RatePerMinute: ptr(60), Burst: ptr(10)})
	if err != nil {
		t.Fatal(err)
	}
	other, err := a.svc.CreateConsumer(ctx, op, "globex", access.ConsumerChange{AccessEnabled: ptr(true), Scopes: ptr([]string{"market:read"})})
	if err != nil {
		t.Fatal(err)
	}
	newKey := func(consumerID int) (string, int) {
		k, err := a.svc.CreateKey(ctx, op, consumerID, "k")
		if err != nil {
			t.Fatal(err)
		}
		return k.Key, k.ID
	}
	revoked, revokedID := newKey(c.ID)
	rotated, rotatedID := newKey(c.ID)
	limited, _ := newKey(c.ID)
	switchedOff, _ := newKey(other.ID)
	// The feed brings the new consumers and keys to B as well: wait until both know them, and
	// cache every key on both replicas (Verify succeeds) so a stale cache would say yes.
	for _, r := range replicas {
		waitUntil(t, r.name+" knows the consumers", 5*time.Second, func() bool { return r.enf.Known(other.ID) })
		r.quiet(t)
		for _, k := range []string{revoked, rotated, limited, switchedOff} {
			if _, err := r.ver.Verify(ctx, k); err != nil {
				t.Fatalf("%s: Verify before the changes: %v", r.name, err)
			}
		}
	}

	propagates(t, "key revoked", replicas,
		func() error { _, err := a.svc.RevokeKey(ctx, op, revokedID); return err },
		func(r *replica) bool { return refuses(ctx, r, revoked, access.ErrRevokedKey) })

	var oldID int
	propagates(t, "rotated key's grace ended", replicas,
		func() error {
			_, old, err := a.svc.RotateKey(ctx, op, rotatedID, time.Hour)
			if err != nil {
				return err
			}
			oldID = old.ID
			// The rotation itself leaves the old key working for an hour: end the grace.
			_, err = a.svc.EndGrace(ctx, op, oldID)
			return err
		},
		func(r *replica) bool { return refuses(ctx, r, rotated, access.ErrExpiredKey) })

	propagates(t, "rate limit changed", replicas,
		func() error {
			_, err := a.svc.UpdateConsumer(ctx, op, c.ID, access.ConsumerChange{RatePerMinute: ptr(600), Burst: ptr(50)}, "")
			return err
		},
		func(r *replica) bool {
			p, err := r.ver.Verify(ctx, limited)
			return err == nil && p.Limit.RatePerMinute == 600 && p.Limit.Burst == 50
		})

	propagates(t, "scope removed (policy decision)", replicas,
		func() error {
			_, err := a.svc.UpdateConsumer(ctx, op, c.ID, access.ConsumerChange{Scopes: ptr([]string{"quote:read"})}, "")
			return err
		},
		func(r *replica) bool { return r.enf.Decide(c.ID, "getTrending", src) == policy.ScopeRequired })

	propagates(t, "allowlist set (policy decision)", replicas,
		func() error {
			_, err := a.svc.UpdateConsumer(ctx, op, other.ID, access.ConsumerChange{Allow: ptr([]netip.Prefix{netip.MustParsePrefix("198.51.100.0/24")})}, "")
			return err
		},
		func(r *replica) bool { return r.enf.Decide(other.ID, "getTrending", src) == policy.SourceNotAllowed })

	propagates(t, "endpoint switched off (policy decision)", replicas,
		func() error {
			_, err := a.svc.UpdateConsumer(ctx, op, other.ID, access.ConsumerChange{DisabledOperations: ptr([]string{"getPoolChart"})}, "")
			return err
		},
		func(r *replica) bool {
			return r.enf.Decide(other.ID, "getPoolChart", netip.MustParseAddr("198.51.100.1")) == policy.EndpointUnavailable
		})

	propagates(t, "access switched off", replicas,
		func() error { _, err := a.svc.SetAccess(ctx, op, other.ID, false, "unpaid invoice"); return err },
		func(r *replica) bool { return refuses(ctx, r, switchedOff, access.ErrAccessDisabled) })

	for _, r := range replicas {
		if s := r.log.String(); strings.Contains(s, "WARN") || strings.Contains(s, "ERROR") {
			t.Errorf("%s logged: %s", r.name, s)
		}
	}
}

// TestChangeFeedReconnects: while idle, the listener checks its connection and keeps it. Then
// its connection is killed (pg_terminate_backend). A change
// made while the feed is not listening (it waits 1 s here before reconnecting), which no listener
// hears, is not in force until the feed has reconnected, and is then (it reloads on every
// reconnection),
// and changes after that propagate within 1 s again. The change is made by another process's
// Service (as the admin CLI would), which the replica only hears of through the database.
func TestChangeFeedReconnects(t *testing.T) {
	url, _ := storetest.CreatePostgresDB(t)
	const reconnectAfter = time.Second
	r := newReplica(t, "replica", url, func(f *access.ChangeFeed) {
		f.SetMinBackoffForTest(reconnectAfter)
		f.SetIdleCheckForTest(100 * time.Millisecond)
	})
	cli := newReplica(t, "cli", url) // its Service writes; its own feed is not watched
	ctx := t.Context()
	op := access.Operator("cli")

	c, err := cli.svc.CreateConsumer(ctx, op, "acme", access.ConsumerChange{AccessEnabled: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	k1, err := cli.svc.CreateKey(ctx, op, c.ID, "one")
	if err != nil {
		t.Fatal(err)
	}
	k2, err := cli.svc.CreateKey(ctx, op, c.ID, "two")
	if err != nil {
		t.Fatal(err)
	}
	// Quiet periods longer than the idle check: the listener checks its connection and keeps it.
	pid := r.feed.ListenerPID()
	time.Sleep(500 * time.Millisecond)
	if got := r.feed.ListenerPID(); got != pid {
		t.Fatalf("listener pid %d after idle checks, want %d still", got, pid)
	}
	if s := r.log.String(); s != "" {
		t.Fatalf("idle checks logged: %s", s)
	}

	for round := 1; round <= 2; round++ {
		key := []access.IssuedKey{k1, k2}[round-1]
		r.quiet(t)
		if _, err := r.ver.Verify(ctx, key.Key); err != nil {
			t.Fatalf("Verify before: %v", err)
		}
		old := r.feed.ListenerPID()
		var killed bool
		if err := cli.st.DB.QueryRowContext(ctx, "SELECT pg_terminate_backend($1, 5000)", int(old)).Scan(&killed); err != nil || !killed {
			t.Fatalf("pg_terminate_backend(%d) = %v, %v", old, killed, err)
		}
		waitUntil(t, "listener noticed the kill", 5*time.Second, func() bool { return r.feed.ListenerPID() == 0 })
		if _, err := cli.svc.RevokeKey(ctx, op, key.ID); err != nil {
			t.Fatal(err)
		}
		if r.feed.ListenerPID() != 0 {
			t.Fatal("the feed reconnected before the change: the test proves nothing")
		}
		if _, err := r.ver.Verify(ctx, key.Key); err != nil {
			t.Fatalf("revoked while not listening, yet refused at once (%v): the test proves nothing", err)
		}
		took := waitUntil(t, "revocation made while the listener was down", 5*time.Second,
			func() bool { return refuses(ctx, r, key.Key, access.ErrRevokedKey) })
		pid := r.feed.ListenerPID()
		if pid == 0 || pid == old {
			t.Fatalf("in force while the feed is not listening (pid %d, was %d)", pid, old)
		}
		t.Logf("round %d: listener %d killed; revocation made while not listening in force %v later, once listening again as %d (reconnect after %v + catch-up reload)",
			round, old, took.Round(time.Millisecond), pid, reconnectAfter)
	}
	if !strings.Contains(r.log.String(), "listener connection lost") {
		t.Errorf("the lost connection was not logged: %s", r.log.String())
	}

	// Listening again: a change propagates within the bound.
	c2, err := cli.svc.CreateConsumer(ctx, op, "globex", access.ConsumerChange{AccessEnabled: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	k3, err := cli.svc.CreateKey(ctx, op, c2.ID, "three")
	if err != nil {
		t.Fatal(err)
	}
	r.quiet(t)
	if _, err := r.ver.Verify(ctx, k3.Key); err != nil {
		t.Fatal(err)
	}
	propagates(t, "access switched off after reconnecting", []*replica{r},
		func() error { _, err := cli.svc.SetAccess(ctx, op, c2.ID, false, ""); return err },
		func(r *replica) bool { return refuses(ctx, r, k3.Key, access.ErrAccessDisabled) })
}

// TestChangeFeedSQLite: on SQLite the Service tells its process's feed after the commit.
func TestChangeFeedSQLite(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "partner.db")
	r := newReplica(t, "replica", url)
	ctx := t.Context()
	op := access.Operator("operator")
	c, err := r.svc.CreateConsumer(ctx, op, "acme", access.ConsumerChange{AccessEnabled: ptr(true), Scopes: ptr([]string{"market:read"})})
	if err != nil {
		t.Fatal(err)
	}
	k, err := r.svc.CreateKey(ctx, op, c.ID, "k")
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "consumer known", 5*time.Second, func() bool { return r.enf.Known(c.ID) })
	if _, err := r.ver.Verify(ctx, k.Key); err != nil {
		t.Fatal(err)
	}
	propagates(t, "key revoked (SQLite)", []*replica{r},
		func() error { _, err := r.svc.RevokeKey(ctx, op, k.ID); return err },
		func(r *replica) bool { return refuses(ctx, r, k.Key, access.ErrRevokedKey) })
	propagates(t, "scope removed (SQLite)", []*replica{r},
		func() error {
			_, err := r.svc.UpdateConsumer(ctx, op, c.ID, access.ConsumerChange{Scopes: ptr([]string{})}, "")
			return err
		},
		func(r *replica) bool {
			return r.enf.Decide(c.ID, "getTrending", netip.MustParseAddr("192.0.2.1")) == policy.ScopeRequired
		})
}

// Exported methods of *access.Service by kind. A new method must be added to one of these lists,
// and a new mutation to the cases of TestEveryChangeIsAnnounced.
var (
	serviceReads = []string{"Audit", "CheckConsumerChange", "Consumer", "ListConsumers", "ListKeys", "ListUsers",
		"LookupKey", "PasswordLinkUser", "PolicySnapshot", "Revision", "User",
		"Team", "PendingTOTP", "RecoveryCodesLeft",
		"AuditPageOf", "AuditFacetsOf"}
	serviceChanges = []string{"CreateConsumer", "CreateConsumerUser", "CreateKey", "CreateKeyWith", "CreateOperator", "EndGrace",
		"NewPasswordLink", "RenameKey", "RevokeKey", "RotateKey", "SetAccess", "SetPassword", "UpdateConsumer",
		// Teams and sign-in: every one is audited. SignInCode is audited (so announced) when it
		// uses up a recovery code; with a TOTP code it writes only the last step, as SignIn.
		"Invite", "ResendInvitation", "SetTeamRole", "RemoveMember", "ChangePassword",
		"ConfirmTOTP", "DisableTOTP", "RegenerateRecoveryCodes", "SignInCode"}
	// serviceUnannounced write, but nothing a replica loads: SignIn records last_sign_in_at,
	// StartTOTP an unconfirmed secret.
	serviceUnannounced = []string{"SignIn", "StartTOTP"}
	serviceTestOnly    = []string{"OnChangeForTest"}
)

// TestEveryChangeIsAnnounced calls every mutating method of the Service and checks that each
// announces its change exactly once on commit (SQLite: in process; PostgreSQL: a notification on
// the channel, seen by a LISTEN connection of the test's own), that a change that fails announces
// nothing, and that every exported method is classified.
func TestEveryChangeIsAnnounced(t *testing.T) {
	var all []string
	typ := reflect.TypeFor[*access.Service]()
	for i := range typ.NumMethod() {
		all = append(all, typ.Method(i).Name)
	}
	known := slices.Concat(serviceReads, serviceChanges, serviceUnannounced, serviceTestOnly)
	slices.Sort(known)
	if !slices.Equal(all, known) {
		t.Fatalf("exported methods of *access.Service %v, classified %v: classify the new ones", all, known)
	}

	run := func(t *testing.T, svc *access.Service, announced func(t *testing.T, want int)) {
		ctx := t.Context()
		op := access.Operator("operator")
		called := map[string]bool{}
		step := func(name string, want int, fn func() error) {
			t.Helper()
			called[name] = true
			if err := fn(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			announced(t, want)
		}
		var c access.Consumer
		var k access.IssuedKey
		var u access.User
		var link access.PasswordLink
		step("CreateConsumer", 1, func() (err error) {
			c, err = svc.CreateConsumer(ctx, op, "acme", access.ConsumerChange{AccessEnabled: ptr(true)})
			return err
		})
		step("UpdateConsumer", 1, func() error {
			_, err := svc.UpdateConsumer(ctx, op, c.ID, access.ConsumerChange{Scopes: ptr([]string{"market:read"})}, "")
			return err
		})
		step("SetAccess", 1, func() error { _, err := svc.SetAccess(ctx, op, c.ID, false, "test"); return err })
		step("CreateKey", 1, func() (err error) { k, err = svc.CreateKey(ctx, op, c.ID, "k"); return err })
		step("CreateKeyWith", 1, func() error {
			_, err := svc.CreateKeyWith(ctx, op, c.ID, "restricted", access.KeyOptions{Scopes: []string{"market:read"}})
			return err
		})
		step("RenameKey", 1, func() error { _, err := svc.RenameKey(ctx, op, k.ID, "k2"); return err })
		step("RotateKey", 1, func() error { _, _, err := svc.RotateKey(ctx, op, k.ID, time.Hour); return err })
		step("EndGrace", 1, func() error { _, err := svc.EndGrace(ctx, op, k.ID); return err })
		step("RevokeKey", 1, func() error { _, err := svc.RevokeKey(ctx, op, k.ID); return err })
		step("CreateOperator", 1, func() error {
			_, err := svc.CreateOperator(ctx, op, "ops@example.com", "correct horse battery staple")
			return err
		})
		step("CreateConsumerUser", 1, func() (err error) {
			u, link, err = svc.CreateConsumerUser(ctx, op, c.ID, "bob@partner.example", 0)
			return err
		})
		step("NewPasswordLink", 1, func() (err error) { link, err = svc.NewPasswordLink(ctx, op, u.ID, 0); return err })
		step("SetPassword", 1, func() error { _, err := svc.SetPassword(ctx, link.Token, "correct horse battery staple"); return err })
		step("SignIn", 0, func() error {
			_, err := svc.SignIn(ctx, "bob@partner.example", "correct horse battery staple", netip.MustParseAddr("192.0.2.1"))
			return err
		})
		const newPassword = "another long passphrase"
		step("ChangePassword", 1, func() error {
			_, err := svc.ChangePassword(ctx, u.ID, "correct horse battery staple", newPassword)
			return err
		})
		var m access.User
		step("Invite", 1, func() (err error) {
			m, _, err = svc.Invite(ctx, op, c.ID, "eve@partner.example", access.TeamViewer, 0)
			return err
		})
		step("ResendInvitation", 1, func() error { _, _, err := svc.ResendInvitation(ctx, op, c.ID, m.ID, 0); return err })
		step("SetTeamRole", 1, func() error { _, err := svc.SetTeamRole(ctx, op, c.ID, m.ID, access.TeamDeveloper); return err })
		step("RemoveMember", 1, func() error { _, err := svc.RemoveMember(ctx, op, c.ID, m.ID); return err })
		var en access.TOTPEnrolment
		step("StartTOTP", 0, func() (err error) { en, err = svc.StartTOTP(ctx, u.ID); return err })
		var codes []string
		step("ConfirmTOTP", 1, func() error {
			code, err := totp.GenerateCode(en.Secret, time.Now())
			if err == nil {
				codes, err = svc.ConfirmTOTP(ctx, u.ID, code)
			}
			return err
		})
		step("SignInCode", 1, func() error {
			_, err := svc.SignInCode(ctx, u.ID, codes[0], netip.MustParseAddr("192.0.2.1"))
			return err
		})
		step("RegenerateRecoveryCodes", 1, func() error { _, err := svc.RegenerateRecoveryCodes(ctx, u.ID, newPassword); return err })
		step("DisableTOTP", 1, func() error { return svc.DisableTOTP(ctx, u.ID, newPassword) })
		// A change that fails announces nothing.
		if _, err := svc.CreateConsumer(ctx, op, "acme", access.ConsumerChange{}); !errors.Is(err, access.ErrConflict) {
			t.Fatalf("CreateConsumer with a taken name: %v, want ErrConflict", err)
		}
		announced(t, 0)
		for _, name := range slices.Concat(serviceChanges, serviceUnannounced) {
			if !called[name] {
				t.Errorf("%s is not exercised", name)
			}
		}
	}

	t.Run("sqlite", func(t *testing.T) {
		st := storetest.SQLite(t)
		svc := access.NewService(st.Client, access.WithOperations(testOperations), access.WithSecretBox(newSecretBox(t)))
		var mu sync.Mutex
		n := 0
		defer svc.OnChangeForTest(func() { mu.Lock(); n++; mu.Unlock() })()
		seen := 0
		run(t, svc, func(t *testing.T, want int) {
			t.Helper()
			mu.Lock()
			got := n - seen
			seen = n
			mu.Unlock()
			if got != want {
				t.Fatalf("announced %d times, want %d", got, want)
			}
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url, _ := storetest.CreatePostgresDB(t)
		st, err := store.Open(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		svc := access.NewService(st.Client, access.WithOperations(testOperations), access.WithSecretBox(newSecretBox(t)))
		conn, err := pgx.Connect(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(t.Context(), "LISTEN "+access.Channel); err != nil {
			t.Fatal(err)
		}
		called := 0
		defer svc.OnChangeForTest(func() { called++ })() // never on PostgreSQL: the feed is the database's
		run(t, svc, func(t *testing.T, want int) {
			t.Helper()
			got := 0
			for {
				wait := 2 * time.Second
				if got >= want {
					wait = 100 * time.Millisecond // anything more would arrive with the first
				}
				ctx, cancel := context.WithTimeout(t.Context(), wait)
				n, err := conn.WaitForNotification(ctx)
				cancel()
				if err != nil {
					break
				}
				if n.Channel != access.Channel || n.Payload == "" {
					t.Fatalf("notification %+v", n)
				}
				got++
			}
			if got != want {
				t.Fatalf("notified %d times, want %d", got, want)
			}
		})
		if called != 0 {
			t.Errorf("in-process announcements on PostgreSQL: %d", called)
		}
	})
}
