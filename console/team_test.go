package console

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/ent/consoleuser"
)

// teamUser creates a consumer's user with a password and a team role.
func (h *harness) teamUser(consumerID int, email, role string) access.User {
	h.t.Helper()
	u := h.consumerUser(consumerID, email, "team password 123")
	if err := h.st.Client.ConsoleUser.UpdateOneID(u.ID).SetTeamRole(consoleuser.TeamRole(role)).Exec(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	return u
}

// navLinks are the main navigation's link targets on a page.
func navLinks(body string) string {
	i, j := strings.Index(body, `<nav aria-label="Main">`), strings.Index(body, "</nav>")
	if i < 0 || j < i {
		return ""
	}
	return body[i:j]
}

func TestTeamRolesGateAndNav(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("acme")
	h.teamUser(c.ID, "owner@acme.example", teamOwner)
	h.teamUser(c.ID, "dev@acme.example", teamDeveloper)
	h.teamUser(c.ID, "view@acme.example", teamViewer)
	legacy := h.consumerUser(c.ID, "legacy@acme.example", "team password 123")
	if err := h.st.Client.ConsoleUser.UpdateOneID(legacy.ID).ClearTeamRole().Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		email            string
		keys, team       int
		home             string
		navKeys, navTeam bool
	}{
		{"owner@acme.example", 200, 200, "/console/keys", true, true},
		{"legacy@acme.example", 200, 200, "/console/keys", true, true}, // no stored role: an owner
		{"dev@acme.example", 200, 403, "/console/keys", true, false},
		{"view@acme.example", 403, 403, "/console/usage", false, false},
	} {
		t.Run(tc.email, func(t *testing.T) {
			b := h.signedIn(tc.email, "team password 123")
			wantRedirect(t, b.get("/console/"), tc.home)
			wantStatus(t, b.get("/console/keys"), tc.keys)
			wantStatus(t, b.get("/console/team"), tc.team)
			usage := b.get("/console/usage")
			wantStatus(t, usage, 200)
			nav := navLinks(usage.body)
			if strings.Contains(nav, `href="/console/keys"`) != tc.navKeys || strings.Contains(nav, `href="/console/team"`) != tc.navTeam {
				t.Fatalf("nav shows keys %v team %v, want %v %v: %s", !tc.navKeys, !tc.navTeam, tc.navKeys, tc.navTeam, nav)
			}
			if !strings.Contains(nav, `href="/console/account"`) {
				t.Fatal("nav lacks the account page")
			}
			if tc.keys == 403 {
				before := len(h.keys(c.ID))
				r := b.post("/console/keys", url.Values{"name": {"sneaky"}})
				wantStatus(t, r, 403)
				if len(h.keys(c.ID)) != before {
					t.Fatal("a viewer created a key")
				}
			}
			if tc.team == 403 {
				wantStatus(t, b.post("/console/team/invite", url.Values{"email": {"x@acme.example"}, "role": {"owner"}}), 403)
			}
		})
	}
}

var linkRe = regexp.MustCompile(`/console/set-password/[A-Za-z0-9_-]{43}`)

func TestTeamPageInviteRoleResendRemove(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("acme")
	h.teamUser(c.ID, "owner@acme.example", teamOwner)
	b := h.signedIn("owner@acme.example", "team password 123")

	page := b.get("/console/team")
	wantStatus(t, page, 200)
	wantContains(t, page.body, "owner@acme.example", "Invite someone", "(you)")

	// Bad inputs: a flash, nothing created.
	for _, tc := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"email": {"nope"}, "role": {"viewer"}}, "is not an email address"},
		{url.Values{"email": {"a@acme.example"}, "role": {"admin"}}, "ole must be owner, developer or viewer"},
		{url.Values{"email": {"a@acme.example"}}, "ole must be"},
		{url.Values{"email": {"OWNER@acme.example"}, "role": {"viewer"}}, "exists"},
	} {
		r := b.post("/console/team/invite", tc.form)
		wantRedirect(t, r, "/console/team")
		if got := flashError(b.follow(r).body); !strings.Contains(got, tc.want) {
			t.Fatalf("invite %v: flash %q, want %q", tc.form, got, tc.want)
		}
	}

	r := b.post("/console/team/invite", url.Values{"email": {"new@acme.example"}, "role": {"viewer"}})
	wantStatus(t, r, 200)
	link := linkRe.FindString(r.body)
	if link == "" {
		t.Fatalf("no link on the invitation page: %s", snippet(r.body))
	}
	wantContains(t, r.body, "new@acme.example", "a viewer", "It will not be shown again")
	users, _ := h.acc.ListUsers(context.Background(), operatorActor, c.ID)
	var invited access.User
	for _, u := range users {
		if u.Email == "new@acme.example" {
			invited = u
		}
	}
	if invited.TeamRole != teamViewer || invited.InvitedBy != "user:owner@acme.example" {
		t.Fatalf("invited %+v", invited)
	}
	page = b.get("/console/team")
	wantContains(t, page.body, "new@acme.example", "pending", "invited, link valid until")
	if strings.Contains(page.body, link) {
		t.Fatal("the team page shows the invitation link again")
	}

	// Resend: a new link, the old one is dead.
	id := strconv.Itoa(invited.ID)
	r = b.post("/console/team/"+id+"/resend", nil)
	wantStatus(t, r, 200)
	link2 := linkRe.FindString(r.body)
	if link2 == "" || link2 == link {
		t.Fatalf("resend gave %q (old %q)", link2, link)
	}
	wantStatus(t, h.browser().get(link), 404)
	wantStatus(t, h.browser().get(link2), 200)

	// Role change, and bad ones.
	r = b.post("/console/team/"+id+"/role", url.Values{"role": {"developer"}})
	wantRedirect(t, r, "/console/team")
	wantContains(t, b.follow(r).body, "new@acme.example is now a developer.")
	r = b.post("/console/team/"+id+"/role", url.Values{"role": {"god"}})
	if got := flashError(b.follow(r).body); !strings.Contains(got, "ole must be") {
		t.Fatalf("bad role: %q", got)
	}
	// The last owner cannot demote or remove themself.
	me := h.userID("owner@acme.example")
	r = b.post("/console/team/"+strconv.Itoa(me)+"/role", url.Values{"role": {"viewer"}})
	if got := flashError(b.follow(r).body); !strings.Contains(got, "at least one owner") {
		t.Fatalf("demoting the last owner: %q", got)
	}
	r = b.post("/console/team/"+strconv.Itoa(me)+"/remove", nil)
	if got := flashError(b.follow(r).body); !strings.Contains(got, "at least one owner") {
		t.Fatalf("removing the last owner: %q", got)
	}
	// Unknown or malformed ids: 404.
	for _, p := range []string{"/console/team/999999/role", "/console/team/abc/role", "/console/team/999999/remove", "/console/team/999999/resend"} {
		wantStatus(t, b.post(p, url.Values{"role": {"viewer"}}), 404)
	}
	wantStatus(t, b.get("/console/team/999999/remove"), 404)

	// Remove, after a confirmation page; the removed user's session ends at once.
	h.setPassword(link2, "viewer password 1")
	other := h.signedIn("new@acme.example", "viewer password 1")
	wantStatus(t, other.get("/console/usage"), 200)
	confirm := b.get("/console/team/" + id + "/remove")
	wantStatus(t, confirm, 200)
	wantContains(t, confirm.body, "Remove new@acme.example", "every session of theirs ends at once")
	r = b.post("/console/team/"+id+"/remove", nil)
	wantRedirect(t, r, "/console/team")
	wantContains(t, b.follow(r).body, "Removed new@acme.example")
	if got := other.get("/console/usage"); got.StatusCode != http.StatusSeeOther || !strings.HasPrefix(got.location(), "/console/login") {
		t.Fatalf("the removed user's session: %d %s", got.StatusCode, got.location())
	}

	// Every change is in the audit log, naming who did what to whom.
	audit, _ := h.acc.Audit(context.Background(), operatorActor, c.ID, 50)
	var got []string
	for _, e := range audit {
		if strings.HasPrefix(e.Action, "team.") {
			got = append(got, e.Actor+" "+e.Action+" "+e.Target)
		}
	}
	want := []string{
		"user:owner@acme.example team.remove new@acme.example",
		"user:owner@acme.example team.role new@acme.example",
		"user:owner@acme.example team.invite_resend new@acme.example",
		"user:owner@acme.example team.invite new@acme.example",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("audit:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTeamIsolation(t *testing.T) {
	h := newHarness(t)
	acme, other := h.consumer("acme"), h.consumer("other")
	h.teamUser(acme.ID, "owner@acme.example", teamOwner)
	victim := h.teamUser(other.ID, "dev@other.example", teamDeveloper)
	b := h.signedIn("owner@acme.example", "team password 123")
	id := strconv.Itoa(victim.ID)
	for _, tc := range []struct{ method, path string }{
		{"GET", "/console/team/" + id + "/remove"},
		{"POST", "/console/team/" + id + "/remove"},
		{"POST", "/console/team/" + id + "/role"},
		{"POST", "/console/team/" + id + "/resend"},
	} {
		wantStatus(t, b.request(tc.method, tc.path, url.Values{"role": {"viewer"}}), 404)
	}
	if u, err := h.acc.User(context.Background(), operatorActor, victim.ID); err != nil || u.TeamRole != teamDeveloper {
		t.Fatalf("the other consumer's user changed: %+v %v", u, err)
	}
	wantNotContains(t, b.get("/console/team").body, "dev@other.example")
	// A consumer's user cannot reach the operators' team pages.
	wantStatus(t, b.get("/console/operator/consumers/"+strconv.Itoa(other.ID)+"/team"), 403)
}

func TestOperatorTeam(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("acme")
	h.operatorUser("root@example.com", "operator password")
	b := h.signedIn("root@example.com", "operator password")
	base := "/console/operator/consumers/" + strconv.Itoa(c.ID) + "/team"
	page := b.get(base)
	wantStatus(t, page, 200)
	wantContains(t, page.body, "Team of acme", "Nobody yet")
	r := b.post(base+"/invite", url.Values{"email": {"first@acme.example"}, "role": {"owner"}})
	wantStatus(t, r, 200)
	if linkRe.FindString(r.body) == "" {
		t.Fatal("no link")
	}
	wantContains(t, b.get(base).body, "first@acme.example")
	// The consumer page's user form invites too: an owner without a role field.
	r = b.post("/console/operator/consumers/"+strconv.Itoa(c.ID)+"/users", url.Values{"email": {"second@acme.example"}})
	wantStatus(t, r, 200)
	if u, _ := h.acc.User(context.Background(), operatorActor, h.userID("second@acme.example")); u.TeamRole != teamOwner {
		t.Fatalf("consumer page user form: role %q", u.TeamRole)
	}
	wantStatus(t, b.get("/console/operator/consumers/999999/team"), 404)
	wantStatus(t, b.post("/console/operator/consumers/999999/team/invite", url.Values{"email": {"x@y.example"}, "role": {"owner"}}), 404)
	audit, _ := h.acc.Audit(context.Background(), operatorActor, c.ID, 10)
	if len(audit) == 0 || audit[0].Actor != "operator:root@example.com" || audit[0].Action != "team.invite" || audit[0].Target != "second@acme.example" {
		t.Fatalf("audit %+v", audit)
	}
}

// userID is the id of the user with the email.
func (h *harness) userID(email string) int {
	h.t.Helper()
	u, err := h.st.Client.ConsoleUser.Query().Where(consoleuser.Email(email)).Only(context.Background())
	if err != nil {
		h.t.Fatalf("user %s: %v", email, err)
	}
	return u.ID
}

// setPassword uses a set-password link (a path) with a password.
func (h *harness) setPassword(link, password string) {
	h.t.Helper()
	r := h.browser().post(link, url.Values{"password": {password}, "confirm": {password}})
	wantRedirect(h.t, r, "/console/login")
}
