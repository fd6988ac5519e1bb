package console

import (
	"errors"
	"net/http"
	"time"

	"github.com/partner-platform/partnerd/access"
)

// graceChoices are the rotation graces a consumer can pick.
var graceChoices = []struct {
	Value string
	Label string
	D     time.Duration
}{
	{"0", "None: the old key stops now", 0},
	{"1h", "1 hour", time.Hour},
	{"24h", "24 hours", 24 * time.Hour},
	{"168h", "7 days", 7 * 24 * time.Hour},
}

func (c *Console) keys(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	keys, err := c.deps.Access.ListKeys(r.Context(), v.actor, v.ConsumerID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, keysPage(c.page(r, "API keys"), keys, c.now()))
}

func (c *Console) createKey(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	issued, err := c.deps.Access.CreateKey(r.Context(), v.actor, v.ConsumerID, r.PostFormValue("name"))
	if errors.Is(err, access.ErrInvalid) {
		c.flashError(r, "A key needs a name of 1 to 200 characters.")
		http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	// The secret is rendered into this one response and kept nowhere else (not in the session).
	c.render(w, r, http.StatusOK, keyCreatedPage(c.page(r, "Key created"), issued))
}

func (c *Console) renameKey(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	k, err := c.deps.Access.RenameKey(r.Context(), v.actor, id, r.PostFormValue("name"))
	switch {
	case errors.Is(err, access.ErrInvalid):
		c.flashError(r, "A key needs a name of 1 to 200 characters.")
	case err != nil:
		c.fail(w, r, err)
		return
	default:
		c.flash(r, "Renamed the key to “"+k.Name+"”.")
	}
	http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
}

// ownKey returns one of the viewer's keys, or false (then it has answered 404 or 500).
func (c *Console) ownKey(w http.ResponseWriter, r *http.Request) (access.KeyInfo, bool) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return access.KeyInfo{}, false
	}
	keys, err := c.deps.Access.ListKeys(r.Context(), v.actor, v.ConsumerID)
	if err != nil {
		c.fail(w, r, err)
		return access.KeyInfo{}, false
	}
	for _, k := range keys {
		if k.ID == id {
			return k, true
		}
	}
	c.notFound(w, r)
	return access.KeyInfo{}, false
}

func (c *Console) rotateForm(w http.ResponseWriter, r *http.Request) {
	if k, ok := c.ownKey(w, r); ok {
		c.render(w, r, http.StatusOK, rotatePage(c.page(r, "Rotate key"), k))
	}
}

func (c *Console) rotateKey(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	grace, ok := parseGrace(r.PostFormValue("grace"))
	if !ok {
		c.flashError(r, "Choose how long the old key keeps working.")
		http.Redirect(w, r, r.URL.Path, http.StatusSeeOther)
		return
	}
	issued, old, err := c.deps.Access.RotateKey(r.Context(), v.actor, id, grace)
	if errors.Is(err, access.ErrInvalid) {
		c.flashError(r, "That key can no longer be rotated: it is revoked or expired.")
		http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.applied(r.Context())
	c.render(w, r, http.StatusOK, keyRotatedPage(c.page(r, "Key rotated"), issued, old))
}

func parseGrace(s string) (time.Duration, bool) {
	for _, g := range graceChoices {
		if g.Value == s {
			return g.D, true
		}
	}
	return 0, false
}

func (c *Console) revokeForm(w http.ResponseWriter, r *http.Request) {
	if k, ok := c.ownKey(w, r); ok {
		c.render(w, r, http.StatusOK, revokePage(c.page(r, "Revoke key"), k))
	}
}

func (c *Console) revokeKey(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	k, err := c.deps.Access.RevokeKey(r.Context(), v.actor, id)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.applied(r.Context())
	c.flash(r, "Revoked “"+k.Name+"” ("+k.Prefix+"…). Calls with it now get 401.")
	http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
}

func (c *Console) plan(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	cons, err := c.deps.Access.Consumer(r.Context(), v.actor, v.ConsumerID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, planPage(c.page(r, "Plan"), cons))
}
