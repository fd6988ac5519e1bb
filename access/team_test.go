package access_test

import (
	"errors"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/ent/consolesession"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// member invites a user with a role as actor a and sets their password, or fails the test.
func (e *svcEnv) member(a access.Actor, consumerID int, email, role string, setPassword bool) access.User {
	e.t.Helper()
	u, link, err := e.svc.Invite(e.t.Context(), a, consumerID, email, role, 0)
	if err != nil {
		e.t.Fatalf("Invite(%q, %q): %v", email, role, err)
	}
	if setPassword {
		if u, err = e.svc.SetPassword(e.t.Context(), link.Token, goodPassword); err != nil {
			e.t.Fatalf("SetPassword(%q): %v", email, err)
		}
	}
	return u
}

func TestTeamInviteAndRoles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		acme := e.consumer("acme", access.ConsumerChange{})
		other := e.consumer("other", access.ConsumerChange{})
		// A user from before team roles (no role stored) is an owner.
		legacy, _ := e.consumerUser(acme.ID, "legacy@acme.example")
		if legacy.TeamRole != access.TeamOwner {
			t.Fatalf("CreateConsumerUser's role %q, want owner", legacy.TeamRole)
		}
		if _, err := st.Client.ConsoleUser.UpdateOneID(legacy.ID).ClearTeamRole().Save(ctx); err != nil {
			t.Fatal(err)
		}
		if got, _ := e.svc.User(ctx, e.op, legacy.ID); got.TeamRole != access.TeamOwner {
			t.Fatalf("a user without a stored role reads as %q, want owner", got.TeamRole)
		}

		owner := access.Actor{Name: "user:legacy@acme.example", ConsumerID: acme.ID}
		var dev access.User
		var link access.PasswordLink
		entry := e.oneAudit("team.invite", func() (err error) {
			dev, link, err = e.svc.Invite(ctx, owner, acme.ID, " Dev@Acme.example ", access.TeamDeveloper, 0)
			return err
		})
		if dev.Email != "dev@acme.example" || dev.TeamRole != access.TeamDeveloper || dev.InvitedBy != owner.Name || dev.PasswordSet {
			t.Fatalf("Invite = %+v", dev)
		}
		if entry.Actor != owner.Name || entry.Target != dev.Email || entry.ConsumerID != acme.ID || entry.After["role"] != "developer" {
			t.Fatalf("audit entry %+v", entry)
		}
		assertNoSecret(t, entry, tokenSecrets(t, link.Token)...)
		if !link.ExpiresAt.Equal(e.clk.Now().Add(access.DefaultPasswordLinkTTL)) {
			t.Fatalf("link expires %v", link.ExpiresAt)
		}

		team, err := e.svc.Team(ctx, owner, acme.ID)
		if err != nil || len(team) != 2 {
			t.Fatalf("Team = %+v, %v", team, err)
		}
		if m := team[0]; m.Email != "dev@acme.example" || !m.Pending() || m.InvitationExpiresAt == nil || !m.InvitationExpiresAt.Equal(link.ExpiresAt) {
			t.Fatalf("pending member %+v", m)
		}

		// Resend: a new link, the old one dead.
		var link2 access.PasswordLink
		e.oneAudit("team.invite_resend", func() (err error) {
			_, link2, err = e.svc.ResendInvitation(ctx, owner, acme.ID, dev.ID, 0)
			return err
		})
		if _, err := e.svc.PasswordLinkUser(ctx, link.Token); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("old link after resend: %v, want ErrNotFound", err)
		}
		if _, err := e.svc.SetPassword(ctx, link2.Token, goodPassword); err != nil {
			t.Fatalf("new link: %v", err)
		}
		e.noChange("resend to an active member", access.ErrInvalid, func() error {
			_, _, err := e.svc.ResendInvitation(ctx, owner, acme.ID, dev.ID, 0)
			return err
		})

		// Role changes, audited with before and after.
		entry = e.oneAudit("team.role", func() error {
			u, err := e.svc.SetTeamRole(ctx, owner, acme.ID, dev.ID, access.TeamViewer)
			if err == nil && u.TeamRole != access.TeamViewer {
				t.Errorf("SetTeamRole = %+v", u)
			}
			return err
		})
		if entry.Before["role"] != "developer" || entry.After["role"] != "viewer" || entry.Target != dev.Email {
			t.Fatalf("role audit %+v", entry)
		}

		// Bad input and other tenants.
		otherOwner := access.Actor{Name: "user:boss@other.example", ConsumerID: other.ID}
		for _, tc := range []struct {
			name string
			want error
			fn   func() error
		}{
			{"bad role", access.ErrInvalid, func() error { _, _, err := e.svc.Invite(ctx, owner, acme.ID, "x@acme.example", "admin", 0); return err }},
			{"bad email", access.ErrInvalid, func() error {
				_, _, err := e.svc.Invite(ctx, owner, acme.ID, "not an email", access.TeamViewer, 0)
				return err
			}},
			{"taken email", access.ErrConflict, func() error {
				_, _, err := e.svc.Invite(ctx, owner, acme.ID, "DEV@acme.example", access.TeamViewer, 0)
				return err
			}},
			{"long ttl", access.ErrInvalid, func() error {
				_, _, err := e.svc.Invite(ctx, owner, acme.ID, "y@acme.example", access.TeamViewer, 8*24*time.Hour)
				return err
			}},
			{"invite into another team", access.ErrNotFound, func() error {
				_, _, err := e.svc.Invite(ctx, otherOwner, acme.ID, "z@acme.example", access.TeamViewer, 0)
				return err
			}},
			{"role in another team", access.ErrNotFound, func() error {
				_, err := e.svc.SetTeamRole(ctx, otherOwner, acme.ID, dev.ID, access.TeamOwner)
				return err
			}},
			{"member of another team by own id", access.ErrNotFound, func() error {
				_, err := e.svc.SetTeamRole(ctx, otherOwner, other.ID, dev.ID, access.TeamOwner)
				return err
			}},
			{"remove from another team", access.ErrNotFound, func() error { _, err := e.svc.RemoveMember(ctx, otherOwner, other.ID, dev.ID); return err }},
			{"resend in another team", access.ErrNotFound, func() error { _, _, err := e.svc.ResendInvitation(ctx, otherOwner, other.ID, dev.ID, 0); return err }},
			{"read another team", access.ErrNotFound, func() error { _, err := e.svc.Team(ctx, otherOwner, acme.ID); return err }},
			{"bad role change", access.ErrInvalid, func() error { _, err := e.svc.SetTeamRole(ctx, owner, acme.ID, dev.ID, ""); return err }},
		} {
			e.noChange(tc.name, tc.want, tc.fn)
		}
	})
}

func TestTeamLastOwner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		acme := e.consumer("acme", access.ConsumerChange{})
		a := e.member(e.op, acme.ID, "a@acme.example", access.TeamOwner, true)
		b := e.member(e.op, acme.ID, "b@acme.example", access.TeamOwner, false) // pending: cannot sign in
		v := e.member(e.op, acme.ID, "v@acme.example", access.TeamViewer, true)

		// a is the last owner who can sign in: neither demoted nor removed, by anyone.
		e.noChange("demote the last owner", access.ErrLastOwner, func() error {
			_, err := e.svc.SetTeamRole(ctx, e.op, acme.ID, a.ID, access.TeamDeveloper)
			return err
		})
		e.noChange("remove the last owner", access.ErrLastOwner, func() error {
			_, err := e.svc.RemoveMember(ctx, access.Actor{Name: "user:a@acme.example", ConsumerID: acme.ID}, acme.ID, a.ID)
			return err
		})
		if !errors.Is(access.ErrLastOwner, access.ErrInvalid) {
			t.Fatal("ErrLastOwner is not an ErrInvalid")
		}
		// The pending owner can go; with a second active owner, a can be demoted.
		e.oneAudit("team.remove", func() error { _, err := e.svc.RemoveMember(ctx, e.op, acme.ID, b.ID); return err })
		e.oneAudit("team.role", func() error { _, err := e.svc.SetTeamRole(ctx, e.op, acme.ID, v.ID, access.TeamOwner); return err })
		e.oneAudit("team.role", func() error { _, err := e.svc.SetTeamRole(ctx, e.op, acme.ID, a.ID, access.TeamViewer); return err })
		e.noChange("demote the new last owner", access.ErrLastOwner, func() error {
			_, err := e.svc.SetTeamRole(ctx, e.op, acme.ID, v.ID, access.TeamViewer)
			return err
		})
	})
}

func TestTeamRemoveEndsSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		acme := e.consumer("acme", access.ConsumerChange{})
		e.member(e.op, acme.ID, "a@acme.example", access.TeamOwner, true)
		d := e.member(e.op, acme.ID, "d@acme.example", access.TeamDeveloper, true)
		for _, tok := range []string{"s1", "s2"} {
			if err := st.Client.ConsoleSession.Create().SetID(tok).SetData([]byte("x")).SetExpiry(e.clk.Now().Add(time.Hour)).
				SetUserID(d.ID).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		entry := e.oneAudit("team.remove", func() error { _, err := e.svc.RemoveMember(ctx, e.op, acme.ID, d.ID); return err })
		if entry.Target != "d@acme.example" || entry.Before["role"] != "developer" || entry.Actor != e.op.Name {
			t.Fatalf("remove audit %+v", entry)
		}
		if n, err := st.Client.ConsoleSession.Query().Where(consolesession.UserID(d.ID)).Count(ctx); err != nil || n != 0 {
			t.Fatalf("%d sessions left after removal (%v)", n, err)
		}
		if _, err := e.svc.User(ctx, e.op, d.ID); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("removed user: %v", err)
		}
		if _, err := e.svc.SignIn(ctx, "d@acme.example", goodPassword, srcA); !errors.Is(err, access.ErrBadCredentials) {
			t.Fatalf("removed user signs in: %v", err)
		}
	})
}
