package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// cli runs partnerd in-process (run) against one database, the way an operator's shell would.
type cli struct {
	t   *testing.T
	url string
	env map[string]string
}

// sqliteCLI is a cli on a fresh SQLite file in the test's temporary directory.
func sqliteCLI(t *testing.T) *cli {
	t.Helper()
	url := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	return &cli{t: t, url: url, env: map[string]string{"PARTNER_DATABASE_URL": url}}
}

// postgresCLI is a cli on a fresh, empty PostgreSQL database (skips without PostgreSQL unless
// PARTNER_TEST_REQUIRE_ALL=1).
func postgresCLI(t *testing.T) *cli {
	t.Helper()
	url, _ := storetest.CreatePostgresDB(t)
	return &cli{t: t, url: url, env: map[string]string{"PARTNER_DATABASE_URL": url}}
}

func (c *cli) getenv(name string) string { return c.env[name] }

// exec runs one command and returns its exit code, stdout and stderr.
func (c *cli) exec(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb, c.getenv)
	return code, out.String(), errb.String()
}

// ok runs a command that must succeed and print exactly one JSON object, and returns that object.
func (c *cli) ok(args ...string) json.RawMessage {
	c.t.Helper()
	code, out, errs := c.exec(args...)
	if code != 0 {
		c.t.Fatalf("partnerd %s: exit %d, want 0\nstderr: %s\nstdout: %s", strings.Join(args, " "), code, errs, out)
	}
	if errs != "" {
		c.t.Errorf("partnerd %s: stderr not empty on success: %s", strings.Join(args, " "), errs)
	}
	return oneObject(c.t, "partnerd "+strings.Join(args, " "), out)
}

// fail runs a command that must fail: exit code != 0, nothing on stdout, a message on stderr.
// It returns stderr.
func (c *cli) fail(args ...string) string {
	c.t.Helper()
	code, out, errs := c.exec(args...)
	cmd := "partnerd " + strings.Join(args, " ")
	if code == 0 {
		c.t.Errorf("%s: exit 0, want failure\nstdout: %s", cmd, out)
	}
	if out != "" {
		c.t.Errorf("%s: stdout not empty on failure: %s", cmd, out)
	}
	if strings.TrimSpace(errs) == "" {
		c.t.Errorf("%s: no message on stderr", cmd)
	}
	return errs
}

// failWith is fail and checks that stderr mentions want.
func (c *cli) failWith(want string, args ...string) {
	c.t.Helper()
	if errs := c.fail(args...); !strings.Contains(errs, want) {
		c.t.Errorf("partnerd %s: stderr %q does not mention %q", strings.Join(args, " "), errs, want)
	}
}

// oneObject checks that out is exactly one JSON object (nothing after it) and returns it.
func oneObject(t *testing.T, what, out string) json.RawMessage {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("%s: stdout is not JSON: %v\n%s", what, err, out)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		t.Fatalf("%s: stdout is JSON but not an object: %s", what, raw)
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		t.Fatalf("%s: stdout holds more than one JSON value (second: %s, err %v)\n%s", what, extra, err, out)
	}
	return raw
}

// as decodes raw into a T, failing the test on error.
func as[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %T: %v\n%s", v, err, raw)
	}
	return v
}

// hasFields checks that the object raw has every one of the fields.
func hasFields(t *testing.T, raw json.RawMessage, fields ...string) {
	t.Helper()
	m := as[map[string]json.RawMessage](t, raw)
	for _, f := range fields {
		if _, ok := m[f]; !ok {
			t.Errorf("output has no field %q: %s", f, raw)
		}
	}
}

func (c *cli) consumer(args ...string) access.Consumer {
	c.t.Helper()
	return as[access.Consumer](c.t, c.ok(append([]string{"consumer"}, args...)...))
}

func (c *cli) createConsumer(name string, flags ...string) access.Consumer {
	c.t.Helper()
	return c.consumer(append([]string{"create", "--name", name}, flags...)...)
}

func (c *cli) createKey(consumerID int, name string) access.IssuedKey {
	c.t.Helper()
	return as[access.IssuedKey](c.t, c.ok("key", "create", "--consumer", strconv.Itoa(consumerID), "--name", name))
}

// openStore opens the cli's database directly (for the audit log and usage rows).
func (c *cli) openStore() *store.Store {
	c.t.Helper()
	st, err := store.Open(context.Background(), c.url)
	if err != nil {
		c.t.Fatalf("open store: %v", err)
	}
	c.t.Cleanup(func() { st.Close() })
	return st
}

// audit returns the consumer's newest audit entries, newest first.
func (c *cli) audit(consumerID int) []access.AuditRecord {
	c.t.Helper()
	st := c.openStore()
	recs, err := access.NewService(st.Client).Audit(context.Background(), access.Operator("test"), consumerID, 50)
	if err != nil {
		c.t.Fatalf("audit: %v", err)
	}
	return recs
}

func id(n int) string { return strconv.Itoa(n) }

func sameSet(got, want []string) bool {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

func TestHelpAndUnknownCommands(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	for _, args := range [][]string{nil, {"help"}, {"-h"}, {"--help"}} {
		code, out, errs := c.exec(args...)
		if code != 0 || !strings.Contains(out, "partnerd consumer create") || errs != "" {
			t.Errorf("partnerd %v: exit %d, stdout %q, stderr %q; want usage on stdout", args, code, out, errs)
		}
	}
	c.failWith("unknown command", "frobnicate")
	c.fail("consumer")
	c.failWith("unknown subcommand", "consumer", "frobnicate")
	c.fail("key")
	c.failWith("unknown subcommand", "key", "frobnicate")
	c.fail("consumer", "list", "--no-such-flag")
}

func TestMigrate(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	files, err := filepath.Glob("../../migrations/sqlite/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no SQLite migrations found: %v", err)
	}
	countVersions := func() int {
		t.Helper()
		st, err := store.Open(context.Background(), c.url)
		if err != nil {
			t.Fatalf("open store: %v", err)
		}
		defer st.Close()
		var n int
		if err := st.DB.QueryRow("SELECT COUNT(*) FROM partner_schema_migrations").Scan(&n); err != nil {
			t.Fatalf("count applied migrations: %v", err)
		}
		return n
	}
	for i := range 2 { // the second run finds nothing to do
		got := as[map[string]any](t, c.ok("migrate"))
		if got["ok"] != true || got["dialect"] != "sqlite3" || got["rawCallsMoved"] != float64(0) {
			t.Errorf("migrate run %d = %v, want ok, dialect sqlite3 and no raw calls moved", i+1, got)
		}
		if n := countVersions(); n != len(files) {
			t.Errorf("after migrate run %d: %d versions recorded, want %d", i+1, n, len(files))
		}
	}
	if l := as[map[string][]access.Consumer](t, c.ok("consumer", "list"))["consumers"]; len(l) != 0 {
		t.Errorf("fresh database lists consumers: %v", l)
	}

	// A call an earlier release recorded as a row moves into a page.
	st, err := store.Open(context.Background(), c.url)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Client.UsageRecord.Create().SetConsumerID(1).SetKeyID(1).SetOperation("getTrending").SetStatus(200).
		SetCost(1).SetLatencyUs(250).SetRequestID("req_0123").SetAt(time.Now()).Exec(context.Background())
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := as[map[string]any](t, c.ok("migrate")); got["rawCallsMoved"] != float64(1) {
		t.Errorf("migrate with a raw call = %v, want rawCallsMoved 1", got)
	}

	// The flag overrides the environment.
	other := filepath.Join(t.TempDir(), "sub", "other.db")
	c.ok("migrate", "--database-url", "sqlite:"+other)
	if _, err := os.Stat(other); err != nil {
		t.Errorf("migrate --database-url did not create %s: %v", other, err)
	}
	c.failWith("unexpected argument", "migrate", "extra")
	c.fail("migrate", "--database-url", "mysql://nope")
}

func TestConsumerCreate(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	raw := c.ok("consumer", "create", "--name", "Acme")
	hasFields(t, raw, "id", "name", "accessEnabled", "scopes", "ratePerMinute", "burst", "allow", "disabledOperations", "price")
	got := as[access.Consumer](t, raw)
	want := access.Consumer{ID: got.ID, Name: "Acme", AccessEnabled: false, Scopes: []string{},
		RatePerMinute: access.DefaultRatePerMinute, Burst: access.DefaultBurst, Allow: []string{}, DisabledOperations: []string{}}
	if got.ID <= 0 || got.Name != want.Name || got.AccessEnabled || got.RatePerMinute != want.RatePerMinute ||
		got.Burst != want.Burst || got.Scopes == nil || len(got.Scopes) != 0 || got.Allow == nil || len(got.Allow) != 0 ||
		len(got.DisabledOperations) != 0 || got.Price != "" {
		t.Errorf("consumer create defaults = %+v, want %+v", got, want)
	}
	// Empty lists are [] on the wire, never null.
	m := as[map[string]json.RawMessage](t, raw)
	for _, f := range []string{"scopes", "allow", "disabledOperations"} {
		if string(m[f]) != "[]" {
			t.Errorf("%s = %s, want []", f, m[f])
		}
	}

	full := c.createConsumer("Beta Corp", "--scopes", "market:read,quote:read,market:read", "--rpm", "120", "--burst", "10",
		"--allow", "10.1.2.3/8,2001:db8::1", "--disable-endpoints", "getTrending", "--price", "EUR 500/month", "--enable")
	if !full.AccessEnabled || !slices.Equal(full.Scopes, []string{"market:read", "quote:read"}) || full.RatePerMinute != 120 ||
		full.Burst != 10 || !sameSet(full.Allow, []string{"10.0.0.0/8", "2001:db8::1/128"}) ||
		!slices.Equal(full.DisabledOperations, []string{"getTrending"}) || full.Price != "EUR 500/month" || full.ID == got.ID {
		t.Errorf("consumer create with every flag = %+v", full)
	}
	if shown := c.consumer("show", id(full.ID)); shown.Name != "Beta Corp" || !shown.AccessEnabled {
		t.Errorf("show after create = %+v", shown)
	}

	c.failWith("--name", "consumer", "create")
	c.fail("consumer", "create", "--name", "   ")
	c.failWith("exists", "consumer", "create", "--name", "Acme")
	c.failWith("unknown scope", "consumer", "create", "--name", "X", "--scopes", "market:write")
	c.fail("consumer", "create", "--name", "X", "--rpm", "-1")
	c.fail("consumer", "create", "--name", "X", "--burst", "many")
	c.failWith("--allow", "consumer", "create", "--name", "X", "--allow", "10.0.0.0/33")
	c.failWith("unknown operation", "consumer", "create", "--name", "X", "--disable-endpoints", "getNothing")
	c.failWith("unexpected argument", "consumer", "create", "--name", "Gamma", "Corp") // an unquoted name
	c.fail("consumer", "create", "--name", "X", "--enable=maybe")
	if l := as[map[string][]access.Consumer](t, c.ok("consumer", "list"))["consumers"]; len(l) != 2 {
		t.Errorf("failed creates left consumers behind: %d consumers, want 2", len(l))
	}
}

func TestConsumerUpdate(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	orig := c.createConsumer("Acme", "--enable")
	cid := id(orig.ID)

	got := c.consumer("update", cid, "--scopes", "market:read,portfolio:read", "--rpm", "600", "--burst", "30")
	if !slices.Equal(got.Scopes, []string{"market:read", "portfolio:read"}) || got.RatePerMinute != 600 || got.Burst != 30 ||
		got.Name != "Acme" || !got.AccessEnabled {
		t.Errorf("update scopes/rpm/burst = %+v", got)
	}
	// Flags before the id work too, and a flag not given leaves its field alone.
	if got = c.consumer("update", "--rpm", "7", cid); got.RatePerMinute != 7 || got.Burst != 30 || len(got.Scopes) != 2 {
		t.Errorf("update --rpm before the id = %+v", got)
	}

	got = c.consumer("update", cid, "--allow", "203.0.113.7, 2001:db8::/32,10.1.2.3/8,::ffff:192.0.2.0/120")
	if want := []string{"203.0.113.7/32", "2001:db8::/32", "10.0.0.0/8", "192.0.2.0/24"}; !sameSet(got.Allow, want) {
		t.Errorf("update --allow: allow = %v, want %v", got.Allow, want)
	}
	if got = c.consumer("update", cid, "--allow", ""); len(got.Allow) != 0 {
		t.Errorf(`update --allow "": allow = %v, want cleared`, got.Allow)
	}

	got = c.consumer("update", cid, "--disable-endpoints", "getTrending,getHoldings", "--price", "USD 1,000")
	if !slices.Equal(got.DisabledOperations, []string{"getHoldings", "getTrending"}) || got.Price != "USD 1,000" {
		t.Errorf("update --disable-endpoints --price = %+v", got)
	}
	c.failWith("unknown operation", "consumer", "update", cid, "--disable-endpoints", "getTrending,launchRocket")
	if got = c.consumer("show", cid); len(got.DisabledOperations) != 2 {
		t.Errorf("a rejected update changed the consumer: %+v", got)
	}
	if got = c.consumer("update", cid, "--disable-endpoints", ""); len(got.DisabledOperations) != 0 {
		t.Errorf(`update --disable-endpoints "": %v, want cleared`, got.DisabledOperations)
	}
	if got = c.consumer("update", cid, "--scopes", ""); len(got.Scopes) != 0 {
		t.Errorf(`update --scopes "": %v, want cleared`, got.Scopes)
	}
	if got = c.consumer("update", cid, "--name", "Acme Ltd", "--price", ""); got.Name != "Acme Ltd" || got.Price != "" {
		t.Errorf("update --name --price '' = %+v", got)
	}

	// --database-url after the id overrides a wrong environment.
	bad := &cli{t: t, url: c.url, env: map[string]string{"PARTNER_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "wrong.db")}}
	if got = as[access.Consumer](t, bad.ok("consumer", "update", cid, "--burst", "5", "--database-url", c.url)); got.Burst != 5 {
		t.Errorf("update with --database-url: %+v", got)
	}

	c.createConsumer("Other")
	c.failWith("exists", "consumer", "update", cid, "--name", "Other")
	c.failWith("unknown scope", "consumer", "update", cid, "--scopes", "admin")
	c.failWith("--allow", "consumer", "update", cid, "--allow", "not-a-cidr")
	c.failWith("--allow", "consumer", "update", cid, "--allow", "fe80::1%eth0")
	c.fail("consumer", "update", cid, "--rpm", "1000001")
	c.fail("consumer", "update", cid, "--burst", "-5")
	c.fail("consumer", "update", cid, "--enable")
	c.failWith("ID", "consumer", "update", "--rpm", "5")
	c.failWith("ID", "consumer", "update", cid, cid, "--rpm", "5")
	c.failWith("ID", "consumer", "update", "acme", "--rpm", "5")
	c.failWith("ID", "consumer", "update", "0", "--rpm", "5")
	c.failWith("not found", "consumer", "update", "999", "--rpm", "5")
	if got = c.consumer("show", cid); got.Name != "Acme Ltd" || got.RatePerMinute != 7 || got.Burst != 5 || len(got.Allow) != 0 {
		t.Errorf("rejected updates changed the consumer: %+v", got)
	}
}

func TestConsumerAccessAudited(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	cons := c.createConsumer("Acme", "--enable")
	if got := c.consumer("disable", id(cons.ID), "--reason", "unpaid invoice"); got.AccessEnabled {
		t.Errorf("disable: accessEnabled still true")
	}
	if got := c.consumer("enable", "--reason", "paid", id(cons.ID)); !got.AccessEnabled {
		t.Errorf("enable: accessEnabled still false")
	}
	recs := c.audit(cons.ID)
	if len(recs) < 3 {
		t.Fatalf("audit log has %d entries, want create, disable, enable: %+v", len(recs), recs)
	}
	for i, want := range []struct{ action, reason string }{{"consumer.enable", "paid"}, {"consumer.disable", "unpaid invoice"}, {"consumer.create", ""}} {
		r := recs[i]
		if r.Action != want.action || r.Reason != want.reason || r.Actor != "cli" || r.ConsumerID != cons.ID {
			t.Errorf("audit entry %d = {%s %s %q consumer %d}, want {%s cli %q consumer %d}",
				i, r.Action, r.Actor, r.Reason, r.ConsumerID, want.action, want.reason, cons.ID)
		}
	}
	if recs[1].Before["accessEnabled"] != true || recs[1].After["accessEnabled"] != false {
		t.Errorf("disable audit before/after = %v / %v", recs[1].Before, recs[1].After)
	}
	c.failWith("ID", "consumer", "disable")
	c.failWith("ID", "consumer", "enable", "1", "2")
	c.failWith("not found", "consumer", "disable", "999", "--reason", "x")
	c.fail("consumer", "disable", id(cons.ID), "--scopes", "market:read")
}

func TestConsumerListShow(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	raw := c.ok("consumer", "list")
	if string(as[map[string]json.RawMessage](t, raw)["consumers"]) != "[]" {
		t.Errorf("empty list = %s, want consumers []", raw)
	}
	a := c.createConsumer("Acme Trading")
	b := c.createConsumer("Beta Wallet", "--scopes", "tx:build", "--enable")
	list := as[map[string][]access.Consumer](t, c.ok("consumer", "list"))["consumers"]
	if len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID || !slices.Equal(list[1].Scopes, []string{"tx:build"}) {
		t.Errorf("list = %+v, want Acme then Beta", list)
	}
	list = as[map[string][]access.Consumer](t, c.ok("consumer", "list", "--search", "WALLET"))["consumers"]
	if len(list) != 1 || list[0].ID != b.ID {
		t.Errorf("list --search WALLET = %+v, want Beta only", list)
	}
	shown := c.consumer("show", id(b.ID))
	if shown.ID != b.ID || shown.Name != b.Name || !shown.AccessEnabled || !slices.Equal(shown.Scopes, b.Scopes) {
		t.Errorf("show = %+v, want %+v", shown, b)
	}
	c.failWith("not found", "consumer", "show", "999")
	c.failWith("ID", "consumer", "show")
	c.failWith("unexpected argument", "consumer", "list", "extra")
}

func TestKeys(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	cons := c.createConsumer("Acme", "--enable")
	cid := id(cons.ID)

	raw := c.ok("key", "create", "--consumer", cid, "--name", "production")
	hasFields(t, raw, "id", "key", "prefix", "consumerId", "name", "status")
	k1 := as[access.IssuedKey](t, raw)
	if !strings.HasPrefix(k1.Key, access.KeyPrefix) || !strings.HasPrefix(k1.Key, k1.Prefix) || len(k1.Prefix) <= len(access.KeyPrefix) ||
		len(k1.Prefix) >= len(k1.Key) {
		t.Errorf("key create: key %q prefix %q; want a pk_live_ key starting with its display prefix", k1.Key[:12], k1.Prefix)
	}
	if _, err := access.ParseKey(k1.Key); err != nil {
		t.Errorf("issued key does not parse: %v", err)
	}
	if k1.ID <= 0 || k1.ConsumerID != cons.ID || k1.Name != "production" || k1.Status != access.KeyActive {
		t.Errorf("key create = %+v", k1.KeyInfo)
	}
	k2 := c.createKey(cons.ID, "staging")
	if k2.Key == k1.Key || k2.ID == k1.ID {
		t.Errorf("two creates gave the same key")
	}

	listKeys := func() []access.KeyInfo {
		t.Helper()
		raw := c.ok("key", "list", "--consumer", cid)
		for _, secret := range []string{k1.Key, k2.Key, k1.Key[len(k1.Prefix):]} {
			if strings.Contains(string(raw), secret) {
				t.Fatalf("key list shows a secret: %s", raw)
			}
		}
		for _, k := range as[map[string][]map[string]json.RawMessage](t, raw)["keys"] {
			if _, ok := k["key"]; ok {
				t.Fatalf("key list has a key field: %s", raw)
			}
		}
		return as[map[string][]access.KeyInfo](t, raw)["keys"]
	}
	if keys := listKeys(); len(keys) != 2 || keys[0].ID != k2.ID || keys[1].ID != k1.ID {
		t.Errorf("key list = %+v, want staging then production", keys)
	}

	type rotated struct {
		access.IssuedKey
		Replaced access.KeyInfo `json:"replaced"`
	}
	rotate := func(keyID int, grace string) rotated {
		t.Helper()
		before := time.Now()
		raw := c.ok("key", "rotate", id(keyID), "--grace", grace)
		hasFields(t, raw, "id", "key", "prefix", "replaced")
		r := as[rotated](t, raw)
		if !strings.HasPrefix(r.Key, access.KeyPrefix) || r.ID == keyID || r.Replaced.ID != keyID ||
			r.RotatedFromID == nil || *r.RotatedFromID != keyID {
			t.Errorf("rotate %d --grace %s = new %d from %v, replaced %d", keyID, grace, r.ID, r.RotatedFromID, r.Replaced.ID)
		}
		if g, err := parseGrace(grace); err == nil && r.Replaced.ExpiresAt != nil {
			if exp := *r.Replaced.ExpiresAt; exp.Before(before.Add(g-time.Second)) || exp.After(time.Now().Add(g+time.Second)) {
				t.Errorf("rotate --grace %s: old key expires at %v, want about %v from now", grace, exp, g)
			}
		} else {
			t.Errorf("rotate --grace %s: old key has no expiry", grace)
		}
		return r
	}
	r := rotate(k1.ID, "1h")
	if r.Replaced.Status != access.KeyExpiring || r.Name != "production" {
		t.Errorf("rotate --grace 1h: replaced status %q, new name %q", r.Replaced.Status, r.Name)
	}
	r7 := rotate(r.ID, "7d")
	if r7.Replaced.Status != access.KeyExpiring {
		t.Errorf("rotate --grace 7d: replaced status %q", r7.Replaced.Status)
	}
	// A key is rotated once: a key in its grace is refused; its successor is the one to rotate.
	c.failWith("already rotated", "key", "rotate", id(k1.ID))
	c.failWith("already rotated", "key", "rotate", id(r.ID), "--grace", "0")

	// end-grace: the rotated key stops working now; a key in no grace is refused.
	before := time.Now()
	raw = c.ok("key", "end-grace", id(k1.ID))
	hasFields(t, raw, "id", "consumerId", "name", "prefix", "status", "expiresAt")
	ended := as[access.KeyInfo](t, raw)
	if ended.ID != k1.ID || ended.Status != access.KeyExpired || ended.ExpiresAt == nil ||
		ended.ExpiresAt.Before(before.Add(-time.Second)) || ended.ExpiresAt.After(time.Now().Add(time.Second)) {
		t.Errorf("key end-grace %d = %+v, want expired now", k1.ID, ended)
	}
	if strings.Contains(string(raw), k1.Key) {
		t.Errorf("key end-grace shows the secret: %s", raw)
	}
	if recs := c.audit(cons.ID); len(recs) == 0 || recs[0].Action != "key.end_grace" || recs[0].Actor != "cli" {
		t.Errorf("newest audit entry after end-grace = %+v, want key.end_grace by cli", recs[:min(len(recs), 1)])
	}
	c.failWith("grace", "key", "end-grace", id(k1.ID)) // expired now
	c.failWith("grace", "key", "end-grace", id(r7.ID)) // active, never rotated
	c.failWith("not found", "key", "end-grace", "999")
	c.failWith("ID", "key", "end-grace")
	c.failWith("ID", "key", "end-grace", "x")
	if r0 := rotate(k2.ID, "0"); r0.Replaced.Status != access.KeyExpired {
		t.Errorf("rotate --grace 0: replaced status %q, want expired", r0.Replaced.Status)
	}
	// Without --grace the old key keeps working 24 hours.
	k3 := c.createKey(cons.ID, "third")
	rd := as[rotated](t, c.ok("key", "rotate", id(k3.ID)))
	if rd.Replaced.ExpiresAt == nil || time.Until(*rd.Replaced.ExpiresAt) < 23*time.Hour || time.Until(*rd.Replaced.ExpiresAt) > 25*time.Hour {
		t.Errorf("rotate without --grace: old key expires at %v, want in 24h", rd.Replaced.ExpiresAt)
	}
	for _, g := range []string{"8d", "169h", "bad", "-1h", "-1d", "", "d", "1.5d", "213504d", "9223372036854775807d"} {
		c.failWith("--grace", "key", "rotate", id(rd.ID), "--grace", g)
	}
	c.failWith("expired", "key", "rotate", id(k2.ID), "--grace", "1h") // expired by --grace 0
	c.failWith("not found", "key", "rotate", "999")
	c.failWith("ID", "key", "rotate")

	rev := as[access.KeyInfo](t, c.ok("key", "revoke", id(rd.ID)))
	if rev.ID != rd.ID || rev.Status != access.KeyRevoked || rev.RevokedAt == nil {
		t.Errorf("revoke = %+v", rev)
	}
	if again := as[access.KeyInfo](t, c.ok("key", "revoke", id(rd.ID))); again.Status != access.KeyRevoked || !again.RevokedAt.Equal(*rev.RevokedAt) {
		t.Errorf("revoking twice = %+v, want unchanged", again)
	}
	c.failWith("revoked", "key", "rotate", id(rd.ID))
	c.failWith("not found", "key", "revoke", "999")
	c.failWith("ID", "key", "revoke")
	c.failWith("ID", "key", "revoke", "x")

	statuses := map[int]string{}
	for _, k := range listKeys() {
		statuses[k.ID] = k.Status
	}
	if statuses[rd.ID] != access.KeyRevoked || statuses[k2.ID] != access.KeyExpired || statuses[k1.ID] != access.KeyExpired ||
		statuses[r.ID] != access.KeyExpiring || len(statuses) != 7 {
		t.Errorf("statuses after rotations and revoke = %v", statuses)
	}

	c.failWith("--consumer", "key", "create", "--name", "x")
	c.failWith("--name", "key", "create", "--consumer", cid)
	c.failWith("not found", "key", "create", "--consumer", "999", "--name", "x")
	c.fail("key", "create", "--consumer", cid, "--name", "   ")
	c.failWith("unexpected argument", "key", "create", "--consumer", cid, "--name", "my", "key")
	c.failWith("--consumer", "key", "list")
	c.failWith("not found", "key", "list", "--consumer", "999")
}

func TestUsage(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	cons := c.createConsumer("Acme", "--enable")
	k := c.createKey(cons.ID, "prod")
	cid := id(cons.ID)

	raw := c.ok("usage", "--consumer", cid)
	hasFields(t, raw, "consumerId", "days", "since", "rows")
	type usageOut struct {
		ConsumerID int                   `json:"consumerId"`
		Days       int                   `json:"days"`
		Since      string                `json:"since"`
		Rows       []metering.DailyUsage `json:"rows"`
	}
	u := as[usageOut](t, raw)
	if u.ConsumerID != cons.ID || u.Days != 30 || u.Since != metering.Day(time.Now().AddDate(0, 0, -29)) || u.Rows == nil || len(u.Rows) != 0 {
		t.Errorf("usage of a new consumer = %s", raw)
	}

	// Calls today, 5 days ago and 40 days ago.
	st := c.openStore()
	now := time.Now()
	call := func(at time.Time, op string, status int) metering.Call {
		return metering.Call{ConsumerID: cons.ID, KeyID: k.ID, Operation: op, Status: status, Cost: 1, At: at, RequestID: "req_" + op}
	}
	calls := []metering.Call{call(now, "getTrending", 200), call(now, "getTrending", 200), call(now, "getTrending", 502),
		call(now.AddDate(0, 0, -5), "getHoldings", 200), call(now.AddDate(0, 0, -40), "getPool", 200)}
	if err := metering.NewUsageStore(st.Client, st.Dialect).WriteCalls(context.Background(), calls); err != nil {
		t.Fatalf("write calls: %v", err)
	}
	st.Close()

	u = as[usageOut](t, c.ok("usage", "--consumer", cid))
	ops := map[string]metering.DailyUsage{}
	for _, r := range u.Rows {
		ops[r.Operation] = r
	}
	if tr := ops["getTrending"]; tr.Calls != 3 || tr.Errors != 1 || tr.KeyID != k.ID || tr.Day != metering.Day(now) {
		t.Errorf("usage getTrending = %+v, want 3 calls, 1 error today", tr)
	}
	if _, ok := ops["getHoldings"]; !ok || len(u.Rows) != 2 {
		t.Errorf("usage --days 30 rows = %+v, want getTrending and getHoldings (not the call 40 days ago)", u.Rows)
	}
	u = as[usageOut](t, c.ok("usage", "--consumer", cid, "--days", "1"))
	if len(u.Rows) != 1 || u.Rows[0].Operation != "getTrending" || u.Days != 1 || u.Since != metering.Day(now) {
		t.Errorf("usage --days 1 = %+v, want today's getTrending only", u)
	}
	c.ok("usage", "--days", "30", "--consumer", cid)

	for _, d := range []string{"0", "31", "-1", "365"} {
		c.failWith("--days", "usage", "--consumer", cid, "--days", d)
	}
	c.fail("usage", "--consumer", cid, "--days", "week")
	c.failWith("--consumer", "usage")
	c.failWith("not found", "usage", "--consumer", "999")
	c.failWith("unexpected argument", "usage", "--consumer", cid, "extra")
}

// TestServeConfigErrors: serve refuses a bad configuration before it opens anything.
func TestServeConfigErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"redis", map[string]string{"PARTNER_REDIS_URL": "redis://x:port"}, nil, "PARTNER_REDIS_URL"},
		{"sync interval", map[string]string{"PARTNER_SYNC_INTERVAL": "1ms"}, nil, "PARTNER_SYNC_INTERVAL"},
		{"sync interval junk", map[string]string{"PARTNER_SYNC_INTERVAL": "soon"}, nil, "PARTNER_SYNC_INTERVAL"},
		{"trusted proxies", map[string]string{"PARTNER_TRUSTED_PROXIES": "10.0.0.0/99"}, nil, "PARTNER_TRUSTED_PROXIES"},
		{"log level", map[string]string{"PARTNER_LOG_LEVEL": "loud"}, nil, "PARTNER_LOG_LEVEL"},
		{"argument", nil, []string{"now"}, "unexpected argument"},
		{"flag", nil, []string{"--port", "80"}, "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sqliteCLI(t)
			for k, v := range tc.env {
				c.env[k] = v
			}
			c.env["PARTNER_ADDR"] = "127.0.0.1:0"
			c.failWith(tc.want, append([]string{"serve"}, tc.args...)...)
		})
	}
}

// TestPostgresFlow runs a representative admin flow on PostgreSQL.
func TestPostgresFlow(t *testing.T) {
	t.Parallel()
	c := postgresCLI(t)
	for range 2 {
		if got := as[map[string]any](t, c.ok("migrate")); got["ok"] != true || got["dialect"] != "postgres" {
			t.Errorf("migrate on PostgreSQL = %v", got)
		}
	}
	cons := c.createConsumer("Acme", "--scopes", "market:read,tx:build", "--enable")
	if !cons.AccessEnabled || !slices.Equal(cons.Scopes, []string{"market:read", "tx:build"}) || cons.RatePerMinute != access.DefaultRatePerMinute {
		t.Errorf("create on PostgreSQL = %+v", cons)
	}
	cid := id(cons.ID)
	got := c.consumer("update", cid, "--allow", "198.51.100.0/24,2001:db8::/48", "--disable-endpoints", "getTrending", "--rpm", "300", "--price", "p")
	if !sameSet(got.Allow, []string{"198.51.100.0/24", "2001:db8::/48"}) || !slices.Equal(got.DisabledOperations, []string{"getTrending"}) ||
		got.RatePerMinute != 300 || got.Price != "p" {
		t.Errorf("update on PostgreSQL = %+v", got)
	}
	if got = c.consumer("update", cid, "--allow", ""); len(got.Allow) != 0 {
		t.Errorf(`update --allow "" on PostgreSQL: %v`, got.Allow)
	}
	c.failWith("exists", "consumer", "create", "--name", "Acme")
	if got = c.consumer("disable", cid, "--reason", "fraud review"); got.AccessEnabled {
		t.Errorf("disable on PostgreSQL left access on")
	}
	if recs := c.audit(cons.ID); len(recs) == 0 || recs[0].Action != "consumer.disable" || recs[0].Reason != "fraud review" {
		t.Errorf("audit on PostgreSQL = %+v", recs)
	}
	if l := as[map[string][]access.Consumer](t, c.ok("consumer", "list"))["consumers"]; len(l) != 1 || l[0].ID != cons.ID {
		t.Errorf("list on PostgreSQL = %+v", l)
	}

	k := c.createKey(cons.ID, "prod")
	if !strings.HasPrefix(k.Key, access.KeyPrefix) {
		t.Errorf("key on PostgreSQL = %q...", k.Prefix)
	}
	r := as[struct {
		access.IssuedKey
		Replaced access.KeyInfo `json:"replaced"`
	}](t, c.ok("key", "rotate", id(k.ID), "--grace", "1h"))
	if r.Replaced.ID != k.ID || r.Replaced.Status != access.KeyExpiring {
		t.Errorf("rotate on PostgreSQL = %+v", r)
	}
	c.failWith("--grace", "key", "rotate", id(r.ID), "--grace", "8d")
	if rev := as[access.KeyInfo](t, c.ok("key", "revoke", id(r.ID))); rev.Status != access.KeyRevoked {
		t.Errorf("revoke on PostgreSQL = %+v", rev)
	}
	raw := c.ok("key", "list", "--consumer", cid)
	if strings.Contains(string(raw), k.Key) || strings.Contains(string(raw), r.Key) {
		t.Errorf("key list on PostgreSQL shows a secret")
	}
	if keys := as[map[string][]access.KeyInfo](t, raw)["keys"]; len(keys) != 2 {
		t.Errorf("key list on PostgreSQL = %+v", keys)
	}
	if u := as[map[string]any](t, c.ok("usage", "--consumer", cid, "--days", "7")); u["days"] != float64(7) {
		t.Errorf("usage on PostgreSQL = %v", u)
	}
	c.failWith("--days", "usage", "--consumer", cid, "--days", "31")
}

// TestCLIGlobalFlags: --database-url (every command) and --addr (serve) work before the command as
// well as after it; after it they win; anything else before the command fails clearly.
func TestCLIGlobalFlags(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t) // PARTNER_DATABASE_URL: a database that must stay empty
	other := "sqlite:" + filepath.Join(t.TempDir(), "other.db")
	third := "sqlite:" + filepath.Join(t.TempDir(), "third.db")

	acme := as[access.Consumer](t, c.ok("--database-url", other, "consumer", "create", "--name", "Acme"))
	c.ok("--database-url="+other, "key", "create", "--consumer", id(acme.ID), "--name", "backend")
	keys := func(args ...string) []access.KeyInfo {
		t.Helper()
		return as[map[string][]access.KeyInfo](t, c.ok(args...))["keys"]
	}
	if k := keys("--database-url="+other, "key", "list", "--consumer", id(acme.ID)); len(k) != 1 {
		t.Errorf("key list with --database-url before the command: %d keys, want 1", len(k))
	}
	consumers := func(args ...string) []access.Consumer {
		t.Helper()
		return as[map[string][]access.Consumer](t, c.ok(args...))["consumers"]
	}
	for _, args := range [][]string{
		{"--database-url", other, "consumer", "list"},
		{"-database-url", other, "consumer", "list"},
		{"consumer", "list", "--database-url", other},
		{"--database-url", third, "consumer", "list", "--database-url", other}, // after the command wins
	} {
		if l := consumers(args...); len(l) != 1 || l[0].Name != "Acme" {
			t.Errorf("partnerd %s: %+v, want Acme", strings.Join(args, " "), l)
		}
	}
	if l := consumers("consumer", "list"); len(l) != 0 {
		t.Errorf("PARTNER_DATABASE_URL's database has consumers: %+v", l)
	}
	c.ok("--database-url", third, "migrate")
	if l := consumers("--database-url", third, "consumer", "list"); len(l) != 0 {
		t.Errorf("the third database has consumers: %+v", l)
	}
	if code, out, errs := c.exec("--database-url", other, "--help"); code != 0 || !strings.Contains(out, "Global flags") || errs != "" {
		t.Errorf("partnerd --database-url X --help: exit %d, stdout %q, stderr %q; want usage", code, out, errs)
	}

	c.failWith("flag provided but not defined: -verbose", "--verbose", "consumer", "list")
	c.failWith("flag provided but not defined: -name", "--name", "Acme", "consumer", "create")
	c.failWith("flag needs an argument", "--database-url")
	c.failWith("--database-url: want a value", "--database-url=", "consumer", "list")
	c.failWith("no command", "--database-url", other)
	c.failWith("--addr is a flag of serve", "--addr", "127.0.0.1:0", "consumer", "list")
	c.failWith("PARTNER_PUBLIC_URL", "--addr", "127.0.0.1:9", "user", "create", "--consumer", id(acme.ID), "--email", "a@acme.example")
	c.failWith("unknown command", "--database-url", other, "frobnicate")
	// Flags before serve reach it: its argument check runs after they are parsed.
	c.failWith("serve: unexpected argument", "--addr", "127.0.0.1:0", "--database-url", other, "serve", "now")
}

// TestCLIGlobalFlagsServe: serve's configuration from --addr and --database-url before the command,
// overridden by the same flags after it.
func TestCLIGlobalFlagsServe(t *testing.T) {
	t.Parallel()
	env := map[string]string{"PARTNER_ADDR": "127.0.0.1:1", "PARTNER_DATABASE_URL": "sqlite:env.db"}
	for _, tc := range []struct {
		args      []string
		addr, url string
	}{
		{[]string{"serve"}, "127.0.0.1:1", "sqlite:env.db"},
		{[]string{"--addr", "127.0.0.1:2", "--database-url=sqlite:before.db", "serve"}, "127.0.0.1:2", "sqlite:before.db"},
		{[]string{"--addr", "127.0.0.1:2", "serve", "--addr", "127.0.0.1:3"}, "127.0.0.1:3", "sqlite:env.db"},
		{[]string{"--database-url", "sqlite:before.db", "serve", "--database-url", "sqlite:after.db"}, "127.0.0.1:1", "sqlite:after.db"},
	} {
		rest, getenv, err := globalFlags(tc.args, func(name string) string { return env[name] })
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if rest[0] != "serve" {
			t.Fatalf("%v: command %q, want serve", tc.args, rest[0])
		}
		cfg, err := serveConfig(rest[1:], getenv)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if cfg.Addr != tc.addr || cfg.DatabaseURL != tc.url {
			t.Errorf("partnerd %s: addr %s, database %s; want %s, %s", strings.Join(tc.args, " "), cfg.Addr, cfg.DatabaseURL, tc.addr, tc.url)
		}
	}
}
