package console

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// consumerRow is one line of the operators' consumer list.
type consumerRow struct {
	access.Consumer
	metering.ConsumerActivity
}

func (c *Console) opConsumers(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	srt, problem := consumerSortOf(r.URL.Query())
	list, err := c.deps.Access.ListConsumers(r.Context(), v.actor, q)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	acts, err := c.deps.Usage.ConsumerActivities(r.Context(), c.now())
	if err != nil {
		c.fail(w, r, err)
		return
	}
	rows := make([]consumerRow, len(list))
	for i, cons := range list {
		rows[i] = consumerRow{Consumer: cons, ConsumerActivity: acts[cons.ID]}
	}
	srt.apply(rows)
	p := c.page(r, "Consumers")
	status := http.StatusOK
	if problem != "" {
		p.FlashError = problem
		status = http.StatusBadRequest
	}
	c.render(w, r, status, consumersPage(p, q, srt, rows, c.recording()))
}

// recordingView is this replica's usage recorder as the operators' consumer list shows it.
type recordingView struct {
	metering.Stats
	// Limit is how many raw call rows may be pending before new ones are shed: the recorder's
	// buffer, metering.DefaultBufferSize, which serve uses.
	Limit int64
}

// recording reads the usage recorder; nil when the console was not given it.
func (c *Console) recording() *recordingView {
	if c.deps.UsageStats == nil {
		return nil
	}
	return &recordingView{Stats: c.deps.UsageStats(), Limit: metering.DefaultBufferSize}
}

// warning is what went wrong since the replica started, as one sentence; empty when nothing did.
func (v *recordingView) warning() string {
	var parts []string
	if v.Shed > 0 {
		parts = append(parts, counted(v.Shed, "raw call row was shed (its call is still counted)", "raw call rows were shed (their calls are still counted)"))
	}
	if v.Failures > 0 {
		parts = append(parts, counted(v.Failures, "write to the database failed", "writes to the database failed")+" (retried)")
	}
	if len(parts) == 0 {
		return ""
	}
	return "Since this replica started, " + strings.Join(parts, " and ") + ": the database was failing or far behind. The replica's log has the details."
}

// counted is "1 one" or "1,234 many".
func counted(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return num(n) + " " + many
}

func (c *Console) opNewConsumerForm(w http.ResponseWriter, r *http.Request) {
	in := planInput{RPM: strconv.Itoa(access.DefaultRatePerMinute), Burst: strconv.Itoa(access.DefaultBurst)}
	c.render(w, r, http.StatusOK, newConsumerPage(c.page(r, "New consumer"), in, c.endpointGroups()))
}

func (c *Console) opCreateConsumer(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	in, ch, ok := c.readPlan(w, r)
	if !ok {
		return
	}
	in.Enabled = r.PostForm.Get("enabled") == "on"
	var cons access.Consumer
	var err error
	if len(in.Problems) == 0 {
		ch.AccessEnabled = &in.Enabled
		cons, err = c.deps.Access.CreateConsumer(r.Context(), v.actor, in.Name, ch)
		if err != nil && !in.addProblems(err) {
			c.fail(w, r, err)
			return
		}
	}
	if len(in.Problems) > 0 {
		p := c.page(r, "New consumer")
		p.FlashError = "The consumer was not created: " + in.summary()
		c.render(w, r, http.StatusBadRequest, newConsumerPage(p, in, c.endpointGroups()))
		return
	}
	c.applied(r.Context())
	c.flash(r, "Created consumer “"+cons.Name+"”.")
	c.warnLimits(r, cons)
	http.Redirect(w, r, consumerPath(cons.ID), http.StatusSeeOther)
}

func consumerPath(id int) string { return "/console/operator/consumers/" + strconv.Itoa(id) }

// consumerView is the operators' page of one consumer.
type consumerView struct {
	Consumer access.Consumer
	Plan     planInput // the plan form: the consumer's plan, or what was typed when it was refused
	Summary  metering.Summary
	Keys     []access.KeyInfo
	Users    []access.User
	Groups   []endpointGroup // the endpoints an operator can switch off, by scope
}

// consumerView reads everything the operators' page of a consumer shows.
func (c *Console) consumerView(ctx context.Context, a access.Actor, id int) (consumerView, error) {
	cons, err := c.deps.Access.Consumer(ctx, a, id)
	if err != nil {
		return consumerView{}, err
	}
	view := consumerView{Consumer: cons, Plan: planInputOf(cons), Groups: c.endpointGroups()}
	sums, err := c.deps.Usage.Summaries(ctx, []int{id}, c.now())
	if err != nil {
		return consumerView{}, err
	}
	view.Summary = sums[id]
	if view.Keys, err = c.deps.Access.ListKeys(ctx, a, id); err != nil {
		return consumerView{}, err
	}
	if view.Users, err = c.deps.Access.ListUsers(ctx, a, id); err != nil {
		return consumerView{}, err
	}
	return view, nil
}

func (c *Console) opConsumer(w http.ResponseWriter, r *http.Request) {
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	view, err := c.consumerView(r.Context(), viewerOf(r).actor, id)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, consumerPage(c.page(r, view.Consumer.Name), view))
}

// opUpdateConsumer saves the plan form. A form with any invalid field saves nothing: the page
// comes back (400) with what was typed and a message beside each invalid field. A rate or burst of
// 0 is saved, with a warning of what it does.
func (c *Console) opUpdateConsumer(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	in, ch, ok := c.readPlan(w, r)
	if !ok {
		return
	}
	var cons access.Consumer
	var err error
	if len(in.Problems) == 0 {
		cons, err = c.deps.Access.UpdateConsumer(r.Context(), v.actor, id, ch, "")
		if err != nil && !in.addProblems(err) {
			c.fail(w, r, err)
			return
		}
	}
	if len(in.Problems) > 0 {
		view, err := c.consumerView(r.Context(), v.actor, id)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		view.Plan = in
		p := c.page(r, view.Consumer.Name)
		p.FlashError = "The plan was not saved: " + in.summary()
		c.render(w, r, http.StatusBadRequest, consumerPage(p, view))
		return
	}
	c.applied(r.Context())
	c.flash(r, "Saved the plan. It applies to the next call.")
	c.warnLimits(r, cons)
	http.Redirect(w, r, consumerPath(id), http.StatusSeeOther)
}

// warnLimits warns, on the next page, about limits that refuse calls.
func (c *Console) warnLimits(r *http.Request, cons access.Consumer) {
	rate, burst := limitWarnings(cons.RatePerMinute, cons.Burst)
	if msg := strings.TrimSpace(burst + " " + rate); msg != "" {
		c.flashWarn(r, msg)
	}
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

// consumerKey returns the consumer id and the key of an operator's key route, or false (then it
// has answered 404 or 500): a key of another consumer is not found.
func (c *Console) consumerKey(w http.ResponseWriter, r *http.Request) (int, access.KeyInfo, bool) {
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return 0, access.KeyInfo{}, false
	}
	keyID, ok := c.pathID(w, r, "keyID")
	if !ok {
		return 0, access.KeyInfo{}, false
	}
	keys, err := c.deps.Access.ListKeys(r.Context(), viewerOf(r).actor, id)
	if err != nil {
		c.fail(w, r, err)
		return 0, access.KeyInfo{}, false
	}
	i := slices.IndexFunc(keys, func(k access.KeyInfo) bool { return k.ID == keyID })
	if i < 0 {
		c.notFound(w, r) // the key is not this consumer's
		return 0, access.KeyInfo{}, false
	}
	return id, keys[i], true
}

// opRevokeForm asks before revoking, as the consumers' side does.
func (c *Console) opRevokeForm(w http.ResponseWriter, r *http.Request) {
	if id, k, ok := c.consumerKey(w, r); ok {
		c.confirmKey(w, r, k, revokeConfirmation(consumerPath(id)))
	}
}

func (c *Console) opRevokeKey(w http.ResponseWriter, r *http.Request) {
	id, k, ok := c.consumerKey(w, r)
	if !ok {
		return
	}
	k, err := c.deps.Access.RevokeKey(r.Context(), viewerOf(r).actor, k.ID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.applied(r.Context())
	c.flash(r, "Revoked "+keyLabel(k)+".")
	http.Redirect(w, r, consumerPath(id), http.StatusSeeOther)
}

func (c *Console) opCreateUser(w http.ResponseWriter, r *http.Request) {
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
	// The consumer page's user form is an invitation to the team (team.go); without a role the
	// user is an owner, as users created before team roles are.
	role := r.PostFormValue("role")
	if role == "" {
		role = access.TeamOwner
	}
	s := teamScope{ConsumerID: id, Name: cons.Name, Base: consumerPath(id) + "/team", Operator: true}
	u, link, err := c.deps.Access.Invite(r.Context(), v.actor, id, r.PostFormValue("email"), role, access.DefaultPasswordLinkTTL)
	if errors.Is(err, access.ErrInvalid) || errors.Is(err, access.ErrConflict) {
		c.flashError(r, userMessage(err))
		http.Redirect(w, r, consumerPath(id), http.StatusSeeOther)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, invitedPage(c.page(r, "User created"), s, u,
		c.publicURL(r)+"/console/set-password/"+link.Token, link.ExpiresAt, false))
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
	return sentence(msg)
}
