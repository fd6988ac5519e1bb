package console

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/policy"
)

// consumerRow is one line of the operators' consumer list.
type consumerRow struct {
	access.Consumer
	metering.Summary
}

func (c *Console) opConsumers(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	list, err := c.deps.Access.ListConsumers(r.Context(), v.actor, q)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	ids := make([]int, len(list))
	for i, cons := range list {
		ids[i] = cons.ID
	}
	sums, err := c.deps.Usage.Summaries(r.Context(), ids, c.now())
	if err != nil {
		c.fail(w, r, err)
		return
	}
	rows := make([]consumerRow, len(list))
	for i, cons := range list {
		rows[i] = consumerRow{Consumer: cons, Summary: sums[cons.ID]}
	}
	c.render(w, r, http.StatusOK, consumersPage(c.page(r, "Consumers"), q, rows))
}

func (c *Console) opNewConsumerForm(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, http.StatusOK, newConsumerPage(c.page(r, "New consumer"), c.deps.Operations))
}

// planForm reads the plan fields of a consumer form; problems come back as one message.
func (c *Console) planForm(r *http.Request) (access.ConsumerChange, string) {
	if err := r.ParseForm(); err != nil {
		return access.ConsumerChange{}, "The form could not be read."
	}
	var ch access.ConsumerChange
	name := r.PostForm.Get("name")
	ch.Name = &name
	scopes := r.PostForm["scopes"]
	ch.Scopes = &scopes
	disabled := r.PostForm["disabled"]
	ch.DisabledOperations = &disabled
	price := r.PostForm.Get("price")
	ch.Price = &price
	rpm, err := strconv.Atoi(r.PostForm.Get("rpm"))
	if err != nil {
		return ch, "Rate per minute must be a whole number."
	}
	burst, err := strconv.Atoi(r.PostForm.Get("burst"))
	if err != nil {
		return ch, "Burst must be a whole number."
	}
	ch.RatePerMinute, ch.Burst = &rpm, &burst
	allow, err := policy.ParseCIDRs(strings.Join(strings.Fields(strings.ReplaceAll(r.PostForm.Get("allow"), ",", " ")), ","))
	if err != nil {
		return ch, "Allowlist: " + err.Error()
	}
	ch.Allow = &allow
	return ch, ""
}

func (c *Console) opCreateConsumer(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	ch, problem := c.planForm(r)
	if problem != "" {
		c.flashError(r, problem)
		http.Redirect(w, r, "/console/operator/consumers/new", http.StatusSeeOther)
		return
	}
	enabled := r.PostForm.Get("enabled") == "on"
	ch.AccessEnabled = &enabled
	cons, err := c.deps.Access.CreateConsumer(r.Context(), v.actor, *ch.Name, ch)
	if errors.Is(err, access.ErrInvalid) || errors.Is(err, access.ErrConflict) {
		c.flashError(r, userMessage(err))
		http.Redirect(w, r, "/console/operator/consumers/new", http.StatusSeeOther)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.applied(r.Context())
	c.flash(r, "Created consumer “"+cons.Name+"”.")
	http.Redirect(w, r, consumerPath(cons.ID), http.StatusSeeOther)
}

func consumerPath(id int) string { return "/console/operator/consumers/" + strconv.Itoa(id) }

// consumerView is the operators' page of one consumer.
type consumerView struct {
	Consumer   access.Consumer
	Summary    metering.Summary
	Keys       []access.KeyInfo
	Users      []access.User
	Operations []string
}

func (c *Console) opConsumer(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	ctx := r.Context()
	cons, err := c.deps.Access.Consumer(ctx, v.actor, id)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	view := consumerView{Consumer: cons, Operations: c.deps.Operations}
	sums, err := c.deps.Usage.Summaries(ctx, []int{id}, c.now())
	if err == nil {
		view.Summary = sums[id]
		view.Keys, err = c.deps.Access.ListKeys(ctx, v.actor, id)
	}
	if err == nil {
		view.Users, err = c.deps.Access.ListUsers(ctx, v.actor, id)
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, consumerPage(c.page(r, cons.Name), view))
}

func (c *Console) opUpdateConsumer(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	ch, problem := c.planForm(r)
	if problem == "" {
		_, err := c.deps.Access.UpdateConsumer(r.Context(), v.actor, id, ch, "")
		switch {
		case errors.Is(err, access.ErrInvalid) || errors.Is(err, access.ErrConflict):
			problem = userMessage(err)
		case err != nil:
			c.fail(w, r, err)
			return
		}
	}
	if problem != "" {
		c.flashError(r, problem)
	} else {
		c.applied(r.Context())
		c.flash(r, "Saved the plan. It applies to the next call.")
	}
	http.Redirect(w, r, consumerPath(id), http.StatusSeeOther)
}

func (c *Console) opSetAccess(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	reason := strings.TrimSpace(r.PostFormValue("reason"))
	on := r.PostFormValue("access") == "on"
	if reason == "" {
		c.flashError(r, "Give a reason for switching access; it goes into the audit log.")
		http.Redirect(w, r, consumerPath(id), http.StatusSeeOther)
		return
	}
	if _, err := c.deps.Access.SetAccess(r.Context(), v.actor, id, on, reason); err != nil {
		c.fail(w, r, err)
		return
	}
	c.applied(r.Context())
	if on {
		c.flash(r, "Access is on.")
	} else {
		c.flash(r, "Access is off: calls with this consumer's keys now get 401 access_disabled.")
	}
	http.Redirect(w, r, consumerPath(id), http.StatusSeeOther)
}

func (c *Console) opRevokeKey(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	keyID, ok := c.pathID(w, r, "keyID")
	if !ok {
		return
	}
	keys, err := c.deps.Access.ListKeys(r.Context(), v.actor, id)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if !slices.ContainsFunc(keys, func(k access.KeyInfo) bool { return k.ID == keyID }) {
		c.notFound(w, r) // the key is not this consumer's
		return
	}
	k, err := c.deps.Access.RevokeKey(r.Context(), v.actor, keyID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.applied(r.Context())
	c.flash(r, "Revoked “"+k.Name+"” ("+k.Prefix+"…).")
	http.Redirect(w, r, consumerPath(id), http.StatusSeeOther)
}

func (c *Console) opCreateUser(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	u, link, err := c.deps.Access.CreateConsumerUser(r.Context(), v.actor, id, r.PostFormValue("email"), access.DefaultPasswordLinkTTL)
	if errors.Is(err, access.ErrInvalid) || errors.Is(err, access.ErrConflict) {
		c.flashError(r, userMessage(err))
		http.Redirect(w, r, consumerPath(id), http.StatusSeeOther)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	url := c.publicURL(r) + "/console/set-password/" + link.Token
	c.render(w, r, http.StatusOK, userCreatedPage(c.page(r, "User created"), id, u, url, link.ExpiresAt))
}

// publicURL is the console's own base URL, for links handed to people.
func (c *Console) publicURL(r *http.Request) string {
	if c.deps.PublicURL != "" {
		return strings.TrimSuffix(c.deps.PublicURL, "/")
	}
	scheme := "https"
	if r.TLS == nil {
		scheme = "http"
	}
	return scheme + "://" + r.Host
}

func (c *Console) opUsage(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	cons, err := c.deps.Access.Consumer(r.Context(), v.actor, id)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if u, ok := c.usageFor(w, r, v.actor, id, consumerPath(id)+"/usage"); ok {
		c.render(w, r, http.StatusOK, operatorUsagePage(c.page(r, "Usage of "+cons.Name), cons, u))
	}
}

func (c *Console) opAudit(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	consumerID, _ := strconv.Atoi(r.URL.Query().Get("consumer"))
	entries, err := c.deps.Access.Audit(r.Context(), v.actor, consumerID, 200)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, auditPage(c.page(r, "Audit log"), entries))
}

// userMessage is the part of a validation error meant for people.
func userMessage(err error) string {
	msg := err.Error()
	for _, sentinel := range []error{access.ErrInvalid, access.ErrConflict} {
		if i := strings.Index(msg, sentinel.Error()+": "); i >= 0 {
			msg = msg[i+len(sentinel.Error())+2:]
		}
	}
	if msg == "" {
		return "The change was not valid."
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}
