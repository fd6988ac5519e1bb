package console

import (
	"github.com/go-chi/chi/v5"

	"errors"
	"net/http"
	"strconv"
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

// keyRoutes serves the consumer's API keys pages (developers and owners).
func (c *Console) keyRoutes(r chi.Router) {
	r.Get("/keys", c.keys)
	r.Post("/keys", c.createKey)
	r.Get("/keys/issued", c.issued)
	r.Post("/keys/{id}/rename", c.renameKey)
	r.Get("/keys/{id}/rotate", c.rotateForm)
	r.Post("/keys/{id}/rotate", c.rotateKey)
	r.Get("/keys/{id}/revoke", c.revokeForm)
	r.Post("/keys/{id}/revoke", c.revokeKey)
	r.Get("/keys/{id}/end-grace", c.endGraceForm)
	r.Post("/keys/{id}/end-grace", c.endGrace)
}

func (c *Console) keys(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	view, err := c.keysView(r, v)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, keysPage(c.page(r, "API keys"), view))
}

// createKey creates a key from the form, or shows the form again as it was sent, 400, with each
// problem beside its field.
func (c *Console) createKey(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	in, o := keyInputOf(r, c.now())
	if len(in.Problems) == 0 {
		issued, err := c.deps.Access.CreateKeyWith(r.Context(), v.actor, v.ConsumerID, in.Name, o)
		switch {
		case errors.Is(err, access.ErrInvalid):
			in.addProblems(err)
		case err != nil:
			c.fail(w, r, err)
			return
		default:
			c.seal(w, r, issuedView{Key: issued})
			return
		}
	}
	view, err := c.keysView(r, v)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	view.Form = in
	p := c.page(r, "API keys")
	p.FlashError = "The key was not created: " + problemCount(len(in.Problems))
	c.render(w, r, http.StatusBadRequest, keysPage(p, view))
}

// issued shows a key just created or rotated, once (see seal). Any later visit lands on the keys
// list with a note.
func (c *Console) issued(w http.ResponseWriter, r *http.Request) {
	v, ok := c.unseal(w, r)
	if !ok {
		c.flashWarn(r, "A new key is shown only once, on the page right after it is created or rotated, and cannot be shown again. "+
			"If you did not copy it, rotate the key to get a new one.")
		http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
		return
	}
	title := "Key created"
	if v.Old != nil {
		title = "Key rotated"
	}
	c.render(w, r, http.StatusOK, keyIssuedPage(c.page(r, title), v, c.publicURL(r)))
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

// ownKey returns one of the viewer's keys and all of them, or false (then it has answered 404 or
// 500).
func (c *Console) ownKey(w http.ResponseWriter, r *http.Request) (access.KeyInfo, []access.KeyInfo, bool) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return access.KeyInfo{}, nil, false
	}
	keys, err := c.deps.Access.ListKeys(r.Context(), v.actor, v.ConsumerID)
	if err != nil {
		c.fail(w, r, err)
		return access.KeyInfo{}, nil, false
	}
	for _, k := range keys {
		if k.ID == id {
			return k, keys, true
		}
	}
	c.notFound(w, r)
	return access.KeyInfo{}, nil, false
}

// keyPath is the path of an action on one of the viewer's keys.
func keyPath(id int, action string) string { return "/console/keys/" + strconv.Itoa(id) + "/" + action }

// keyCaption names a key in lists, charts and exports: its name and prefix, e.g. "backend (pk_live_AbC…)".
func keyCaption(k access.KeyInfo) string { return k.Name + " (" + k.Prefix + "…)" }

// keyLabel names a key for people: “name” (pk_live_ab…).
func keyLabel(k access.KeyInfo) string { return "“" + k.Name + "” (" + k.Prefix + "…)" }

// alreadyRotated explains why a key in its grace is not rotated again.
func alreadyRotated(k access.KeyInfo, keys []access.KeyInfo) string {
	msg := keyLabel(k) + " was already rotated"
	for _, s := range keys {
		if s.RotatedFromID != nil && *s.RotatedFromID == k.ID {
			msg += ": its successor is " + s.Prefix + "…"
		}
	}
	return msg + ". It keeps working until " + whenPtr(k.ExpiresAt, "the end of its grace") +
		". A key is rotated once: rotate its successor, or end this key's grace now."
}

func (c *Console) rotateForm(w http.ResponseWriter, r *http.Request) {
	k, keys, ok := c.ownKey(w, r)
	if !ok {
		return
	}
	if k.ReplacedByID != nil && k.Status == access.KeyExpiring {
		c.flashError(r, alreadyRotated(k, keys))
		http.Redirect(w, r, keyPath(k.ID, "end-grace"), http.StatusSeeOther)
		return
	}
	c.render(w, r, http.StatusOK, rotatePage(c.page(r, "Rotate key"), k))
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
	var rotated *access.AlreadyRotatedError
	switch {
	case errors.As(err, &rotated):
		// A second submission of the rotate form (back and submit again, or two tabs): the key
		// already has a successor. Offer to end its grace instead.
		k, keys, ok := c.ownKey(w, r)
		if !ok {
			return
		}
		c.flashError(r, alreadyRotated(k, keys))
		http.Redirect(w, r, keyPath(id, "end-grace"), http.StatusSeeOther)
		return
	case errors.Is(err, access.ErrInvalid):
		c.flashError(r, "That key can no longer be rotated: it is revoked or expired.")
		http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
		return
	case err != nil:
		c.fail(w, r, err)
		return
	}
	c.applied(r.Context())
	c.seal(w, r, issuedView{Key: issued, Old: &old})
}

func parseGrace(s string) (time.Duration, bool) {
	for _, g := range graceChoices {
		if g.Value == s {
			return g.D, true
		}
	}
	return 0, false
}

// revokeConfirmation is the question before revoking a key, for consumers and operators alike.
func revokeConfirmation(cancel string) confirmation {
	return confirmation{Title: "Revoke key", Verb: "Revoke", Button: "Revoke key", Cancel: cancel,
		Consequence: "Every call with it gets 401 from then on. This cannot be undone."}
}

func (c *Console) revokeForm(w http.ResponseWriter, r *http.Request) {
	if k, _, ok := c.ownKey(w, r); ok {
		c.confirmKey(w, r, k, revokeConfirmation("/console/keys"))
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
	c.flash(r, "Revoked "+keyLabel(k)+". Calls with it now get 401.")
	http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
}

// noGrace is the message for ending the grace of a key that has none.
func noGrace(k access.KeyInfo) string {
	if k.Status == access.KeyExpiring {
		return keyLabel(k) + " was never rotated, so it is in no rotation grace: it stops at its own expiry, " +
			whenPtr(k.ExpiresAt, "") + ". Revoke it to stop it now."
	}
	return keyLabel(k) + " is not in a rotation grace (it is " + k.Status + "): there is nothing to end."
}

func (c *Console) endGraceForm(w http.ResponseWriter, r *http.Request) {
	k, _, ok := c.ownKey(w, r)
	if !ok {
		return
	}
	if k.Status != access.KeyExpiring || k.ReplacedByID == nil {
		c.flashError(r, noGrace(k))
		http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
		return
	}
	c.confirmKey(w, r, k, confirmation{
		Title: "End the grace", Verb: "End the grace of", Button: "End the grace now", Cancel: "/console/keys",
		Consequence: "It was rotated and would keep working until " + whenPtr(k.ExpiresAt, "") +
			". Ending its grace stops it now: every call with it gets 401, and only its successor works. This cannot be undone.",
	})
}

// confirmKey shows the question before an irreversible change to a key.
func (c *Console) confirmKey(w http.ResponseWriter, r *http.Request, k access.KeyInfo, cf confirmation) {
	c.render(w, r, http.StatusOK, confirmKeyPage(c.page(r, cf.Title), k, cf))
}

func (c *Console) endGrace(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	k, err := c.deps.Access.EndGrace(r.Context(), v.actor, id)
	switch {
	case errors.Is(err, access.ErrInvalid):
		k, _, ok := c.ownKey(w, r)
		if !ok {
			return
		}
		c.flashError(r, noGrace(k))
	case err != nil:
		c.fail(w, r, err)
		return
	default:
		c.applied(r.Context())
		c.flash(r, "Ended the grace of "+keyLabel(k)+". Calls with it now get 401; its successor keeps working.")
	}
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
