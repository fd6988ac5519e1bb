package access_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// auditWalk reads every page of the audit log matching f with pages of size, and returns the
// entries in the order shown.
func auditWalk(t *testing.T, e *svcEnv, a access.Actor, f access.AuditFilter, size int) []access.AuditRecord {
	t.Helper()
	var out []access.AuditRecord
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("audit paging does not end")
		}
		p, err := e.svc.AuditPageOf(t.Context(), a, f, cursor, size)
		if err != nil {
			t.Fatalf("AuditPageOf(%+v, %q): %v", f, cursor, err)
		}
		if len(p.Entries) > size {
			t.Fatalf("page of %d entries, asked for %d", len(p.Entries), size)
		}
		out = append(out, p.Entries...)
		if p.Next == "" {
			return out
		}
		cursor = p.Next
	}
}

// TestAuditPage pages through the audit log by cursor on both backends: every entry exactly once,
// newest first (entries written in the same instant by id), filters by consumer, actor and action,
// names of consumers and keys, a consumer's actor limited to its own entries, and a bad cursor refused.
func TestAuditPage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		bob := access.Operator("operator:bob@example.com")
		on := true
		var consumers []access.Consumer
		for i := range 3 {
			c, err := e.svc.CreateConsumer(ctx, e.op, fmt.Sprintf("Consumer %d", i), access.ConsumerChange{AccessEnabled: &on})
			if err != nil {
				t.Fatal(err)
			}
			consumers = append(consumers, c)
			if i%2 == 0 {
				e.clk.Add(time.Second) // some entries share a time, some do not
			}
		}
		var keys []access.IssuedKey
		for i := range 7 {
			actor := e.op
			if i%3 == 0 {
				actor = bob
			}
			k, err := e.svc.CreateKey(ctx, actor, consumers[i%3].ID, fmt.Sprintf("key-%d", i))
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, k)
			if i%2 == 1 {
				e.clk.Add(time.Millisecond)
			}
		}
		if _, err := e.svc.RenameKey(ctx, e.op, keys[0].ID, "renamed"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SetAccess(ctx, bob, consumers[1].ID, false, "unpaid"); err != nil {
			t.Fatal(err)
		}
		all, err := e.svc.Audit(ctx, e.op, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}

		for _, size := range []int{1, 3, 50} {
			got := auditWalk(t, e, e.op, access.AuditFilter{}, size)
			if ids(got) == nil || !slices.Equal(ids(got), ids(all)) {
				t.Errorf("pages of %d: ids %v, want every entry once, newest first: %v", size, ids(got), ids(all))
			}
		}
		for i := 1; i < len(all); i++ {
			if all[i].At.After(all[i-1].At) {
				t.Fatalf("entry %d at %v after entry %d at %v", all[i].ID, all[i].At, all[i-1].ID, all[i-1].At)
			}
		}

		want := func(keep func(access.AuditRecord) bool) []int {
			var out []int
			for _, r := range all {
				if keep(r) {
					out = append(out, r.ID)
				}
			}
			return out
		}
		cons := consumers[1].ID
		for name, c := range map[string]struct {
			f    access.AuditFilter
			keep func(access.AuditRecord) bool
		}{
			"consumer": {access.AuditFilter{ConsumerID: cons}, func(r access.AuditRecord) bool { return r.ConsumerID == cons }},
			"actor":    {access.AuditFilter{Actor: bob.Name}, func(r access.AuditRecord) bool { return r.Actor == bob.Name }},
			"action":   {access.AuditFilter{Action: "key.create"}, func(r access.AuditRecord) bool { return r.Action == "key.create" }},
			"all three": {access.AuditFilter{ConsumerID: cons, Actor: bob.Name, Action: "consumer.disable"}, func(r access.AuditRecord) bool {
				return r.ConsumerID == cons && r.Actor == bob.Name && r.Action == "consumer.disable"
			}},
			"nothing": {access.AuditFilter{Actor: "nobody"}, func(access.AuditRecord) bool { return false }},
		} {
			w := want(c.keep)
			if name != "nothing" && len(w) == 0 {
				t.Fatalf("%s: the fixture has no matching entry", name)
			}
			if got := ids(auditWalk(t, e, e.op, c.f, 2)); !slices.Equal(got, w) {
				t.Errorf("filter %s: ids %v, want %v", name, got, w)
			}
		}

		// Names: every consumer and key the page refers to, by their current names.
		p, err := e.svc.AuditPageOf(ctx, e.op, access.AuditFilter{}, "", 200)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range consumers {
			if p.Consumers[c.ID] != c.Name {
				t.Errorf("consumer %d named %q, want %q", c.ID, p.Consumers[c.ID], c.Name)
			}
		}
		if k := p.Keys[keys[0].ID]; k.Name != "renamed" || k.Prefix == "" || k.ConsumerID != consumers[0].ID {
			t.Errorf("key %d named %+v, want its new name, prefix and consumer", keys[0].ID, k)
		}
		if len(p.Keys) != len(keys) {
			t.Errorf("%d keys named, want %d", len(p.Keys), len(keys))
		}

		// A consumer's actor sees its own entries and names only.
		mine := access.Actor{Name: "user:x@example.com", ConsumerID: consumers[2].ID}
		got := auditWalk(t, e, mine, access.AuditFilter{ConsumerID: consumers[0].ID}, 2)
		if len(got) == 0 {
			t.Fatal("a consumer's actor sees no entries")
		}
		for _, r := range got {
			if r.ConsumerID != consumers[2].ID {
				t.Errorf("consumer %d's actor sees entry %d of consumer %d", consumers[2].ID, r.ID, r.ConsumerID)
			}
		}

		// Facets: what the filters offer.
		f, err := e.svc.AuditFacetsOf(ctx, e.op)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(f.Actors, []string{e.op.Name, bob.Name}) && !slices.Equal(f.Actors, []string{bob.Name, e.op.Name}) {
			t.Errorf("actors %q", f.Actors)
		}
		if !slices.IsSorted(f.Actions) || !slices.Contains(f.Actions, "key.create") || !slices.Contains(f.Actions, "consumer.disable") {
			t.Errorf("actions %q", f.Actions)
		}

		for _, bad := range []string{"x", "1-", "-1", "12-0", "abc-3"} {
			if _, err := e.svc.AuditPageOf(ctx, e.op, access.AuditFilter{}, bad, 10); !errors.Is(err, access.ErrInvalid) {
				t.Errorf("cursor %q: %v, want ErrInvalid", bad, err)
			}
		}
	})
}

func ids(rs []access.AuditRecord) []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}
