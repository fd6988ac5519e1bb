package main

import (
	"slices"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
)

func TestKeyCreateRestricted(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	cons := c.createConsumer("Acme", "--enable", "--scopes", "market:read,quote:read")
	cid := id(cons.ID)
	day := time.Now().UTC().AddDate(0, 1, 0).Format(time.DateOnly)
	k := as[access.IssuedKey](t, c.ok("key", "create", "--consumer", cid, "--name", "ci",
		"--scopes", "quote:read", "--source", "10.1.2.3/8, 192.0.2.1", "--expires", day))
	end, _ := time.Parse(time.DateOnly, day)
	end = end.AddDate(0, 0, 1)
	if !slices.Equal(k.Scopes, []string{"quote:read"}) || !slices.Equal(k.SourceCIDRs, []string{"10.0.0.0/8", "192.0.2.1/32"}) ||
		k.ExpiresAt == nil || !k.ExpiresAt.Equal(end) {
		t.Fatalf("key create with a restriction = %+v", k.KeyInfo)
	}
	full := as[access.IssuedKey](t, c.ok("key", "create", "--consumer", cid, "--name", "full"))
	if full.Scopes != nil || full.SourceCIDRs != nil || full.ExpiresAt != nil {
		t.Fatalf("key create without flags = %+v, want unrestricted", full.KeyInfo)
	}
	c.failWith(`lacks "tx:build"`, "key", "create", "--consumer", cid, "--name", "x", "--scopes", "tx:build")
	c.failWith(`"10.0.0.300/8" is not one`, "key", "create", "--consumer", cid, "--name", "x", "--source", "10.0.0.300/8")
	c.failWith("not in the future", "key", "create", "--consumer", cid, "--name", "x", "--expires", "2001-01-01")
	c.failWith("want an RFC 3339 time", "key", "create", "--consumer", cid, "--name", "x", "--expires", "soon")
}
