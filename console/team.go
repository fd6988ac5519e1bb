package console

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
)

// Team roles of a consumer's users.
const (
	teamOwner     = access.TeamOwner
	teamDeveloper = access.TeamDeveloper
	teamViewer    = access.TeamViewer
)

// teamRoles are the roles offered in forms, with what each may do.
var teamRoles = []struct{ Value, Label, Can string }{
	{teamOwner, "Owner", "everything, including the team"},
	{teamDeveloper, "Developer", "API keys, usage and the request log"},
	{teamViewer, "Viewer", "usage and the request log only"},
}

// requireTeam lets through consumer users whose team role is at least role; others get 403.
// Operators never reach the consumer pages (require(roleConsumer) comes first).
func (c *Console) requireTeam(role string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			v := viewerOf(r)
			if v == nil || v.Role != roleConsumer || access.TeamRank(v.TeamRole) < access.TeamRank(role) {
				c.render(w, r, http.StatusForbidden, errorPage(c.page(r, "Not allowed"),
					"Your role in your team cannot open this page. Ask an owner of your team to change your role."))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// canKeys and canTeam say what the nav shows a consumer's user.
func (v *viewer) canKeys() bool {
	return v.Role == roleConsumer && access.TeamRank(v.TeamRole) >= access.TeamRank(teamDeveloper)
}

func (v *viewer) canTeam() bool {
	return v.Role == roleConsumer && access.TeamRank(v.TeamRole) >= access.TeamRank(teamOwner)
}

// teamScope is whose team a page manages and where its pages live: the owner's own team under
// /console/team, or any consumer's under the operator's /console/operator/consumers/{id}/team.
type teamScope struct {
	ConsumerID int
	Name       string // the consumer's name, shown to operators
	Base       string
	Operator   bool
}

func (s teamScope) member(id int, action string) string {
	return s.Base + "/" + strconv.Itoa(id) + "/" + action
}

// teamRoutes serves the consumer's team page to its owners.
func (c *Console) teamRoutes(r chi.Router) {
	own := func(h func(http.ResponseWriter, *http.Request, teamScope)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			h(w, r, teamScope{ConsumerID: viewerOf(r).ConsumerID, Base: "/console/team"})
		}
	}
	c.teamHandlers(r, "/team", own)
}

// opTeamRoutes serves a consumer's team to operators.
func (c *Console) opTeamRoutes(r chi.Router) {
	op := func(h func(http.ResponseWriter, *http.Request, teamScope)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			id, ok := c.pathID(w, r, "id")
			if !ok {
				return
			}
			cons, err := c.deps.Access.Consumer(r.Context(), viewerOf(r).actor, id)
			if err != nil {
				c.fail(w, r, err)
				return
			}
			h(w, r, teamScope{ConsumerID: id, Name: cons.Name, Base: consumerPath(id) + "/team", Operator: true})
		}
	}
	c.teamHandlers(r, "/consumers/{id}/team", op)
}

func (c *Console) teamHandlers(r chi.Router, base string, wrap func(func(http.ResponseWriter, *http.Request, teamScope)) http.HandlerFunc) {
	r.Get(base, wrap(c.team))
	r.Post(base+"/invite", wrap(c.teamInvite))
	r.Post(base+"/{userID}/role", wrap(c.teamRole))
	r.Get(base+"/{userID}/remove", wrap(c.teamRemoveForm))
	r.Post(base+"/{userID}/remove", wrap(c.teamRemove))
	r.Post(base+"/{userID}/resend", wrap(c.teamResend))
}

func (c *Console) teamTitle(s teamScope) string {
	if s.Operator {
		return "Team of " + s.Name
	}
	return "Team"
}

func (c *Console) team(w http.ResponseWriter, r *http.Request, s teamScope) {
	v := viewerOf(r)
	members, err := c.deps.Access.Team(r.Context(), v.actor, s.ConsumerID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, teamPage(c.page(r, c.teamTitle(s)), s, members, v.ID, c.now()))
}

// teamProblem answers a refused team change: a flash on the team page for a validation error,
// 404 for another team's member, else 500.
func (c *Console) teamProblem(w http.ResponseWriter, r *http.Request, s teamScope, err error) {
	if errors.Is(err, access.ErrInvalid) || errors.Is(err, access.ErrConflict) {
		c.flashError(r, userMessage(err))
		http.Redirect(w, r, s.Base, http.StatusSeeOther)
		return
	}
	c.fail(w, r, err)
}

func (c *Console) teamInvite(w http.ResponseWriter, r *http.Request, s teamScope) {
	v := viewerOf(r)
	u, link, err := c.deps.Access.Invite(r.Context(), v.actor, s.ConsumerID, r.PostFormValue("email"),
		r.PostFormValue("role"), access.DefaultPasswordLinkTTL)
	if err != nil {
		c.teamProblem(w, r, s, err)
		return
	}
	c.render(w, r, http.StatusOK, invitedPage(c.page(r, "Invitation created"), s, u,
		c.publicURL(r)+"/console/set-password/"+link.Token, link.ExpiresAt, false))
}

func (c *Console) teamResend(w http.ResponseWriter, r *http.Request, s teamScope) {
	id, ok := c.pathID(w, r, "userID")
	if !ok {
		return
	}
	u, link, err := c.deps.Access.ResendInvitation(r.Context(), viewerOf(r).actor, s.ConsumerID, id, access.DefaultPasswordLinkTTL)
	if err != nil {
		c.teamProblem(w, r, s, err)
		return
	}
	c.render(w, r, http.StatusOK, invitedPage(c.page(r, "Invitation sent again"), s, u,
		c.publicURL(r)+"/console/set-password/"+link.Token, link.ExpiresAt, true))
}

func (c *Console) teamRole(w http.ResponseWriter, r *http.Request, s teamScope) {
	id, ok := c.pathID(w, r, "userID")
	if !ok {
		return
	}
	u, err := c.deps.Access.SetTeamRole(r.Context(), viewerOf(r).actor, s.ConsumerID, id, r.PostFormValue("role"))
	if err != nil {
		c.teamProblem(w, r, s, err)
		return
	}
	c.flash(r, u.Email+" is now "+article(u.TeamRole)+" "+u.TeamRole+".")
	http.Redirect(w, r, s.Base, http.StatusSeeOther)
}

// teamMember loads a member of the scope's team for the confirmation page; another team's is 404.
func (c *Console) teamMember(w http.ResponseWriter, r *http.Request, s teamScope) (access.Member, bool) {
	id, ok := c.pathID(w, r, "userID")
	if !ok {
		return access.Member{}, false
	}
	members, err := c.deps.Access.Team(r.Context(), viewerOf(r).actor, s.ConsumerID)
	if err != nil {
		c.fail(w, r, err)
		return access.Member{}, false
	}
	for _, m := range members {
		if m.ID == id {
			return m, true
		}
	}
	c.notFound(w, r)
	return access.Member{}, false
}

func (c *Console) teamRemoveForm(w http.ResponseWriter, r *http.Request, s teamScope) {
	m, ok := c.teamMember(w, r, s)
	if !ok {
		return
	}
	c.render(w, r, http.StatusOK, removeMemberPage(c.page(r, "Remove "+m.Email), s, m, m.ID == viewerOf(r).ID))
}

func (c *Console) teamRemove(w http.ResponseWriter, r *http.Request, s teamScope) {
	id, ok := c.pathID(w, r, "userID")
	if !ok {
		return
	}
	u, err := c.deps.Access.RemoveMember(r.Context(), viewerOf(r).actor, s.ConsumerID, id)
	if err != nil {
		c.teamProblem(w, r, s, err)
		return
	}
	if u.ID == viewerOf(r).ID {
		// Removed themself: their session ends with them.
		if err := c.sessions.Destroy(r.Context()); err != nil {
			c.fail(w, r, err)
			return
		}
		http.Redirect(w, r, "/console/login?why="+whySignedOut, http.StatusSeeOther)
		return
	}
	c.flash(r, "Removed "+u.Email+" from the team; their sessions have ended.")
	http.Redirect(w, r, s.Base, http.StatusSeeOther)
}

// article is "an" before owner, else "a".
func article(role string) string {
	if role == teamOwner {
		return "an"
	}
	return "a"
}

// invitationState describes a member's invitation for the team list.
func invitationState(m access.Member, now time.Time) string {
	switch {
	case !m.Pending():
		return ""
	case m.InvitationExpiresAt == nil || !m.InvitationExpiresAt.After(now):
		return "invitation expired"
	default:
		return "invited, link valid until " + when(*m.InvitationExpiresAt)
	}
}
