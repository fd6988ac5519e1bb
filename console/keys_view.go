package console

import (
	"net/http"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// keyUsageDays is the window of the calls and errors shown on each key.
const keyUsageDays = 30

// keysView is what the keys page shows: the consumer's keys with their restrictions and 30 days of
// calls and errors each, the consumer's scopes to restrict a new key to, and the API's base URL for
// the first-key example.
type keysView struct {
	Keys     []access.KeyInfo
	Consumer access.Consumer
	Usage    map[int]metering.Totals // by key id, the last keyUsageDays UTC days; absent: no calls
	BaseURL  string                  // the API's base URL, e.g. https://partners.example.com
	Today    string                  // YYYY-MM-DD (UTC): the earliest expiry date the form offers
	Now      time.Time
}

// keysView reads the keys page of the viewer's consumer.
func (c *Console) keysView(r *http.Request, v *viewer) (keysView, error) {
	ctx := r.Context()
	keys, err := c.deps.Access.ListKeys(ctx, v.actor, v.ConsumerID)
	if err != nil {
		return keysView{}, err
	}
	cons, err := c.deps.Access.Consumer(ctx, v.actor, v.ConsumerID)
	if err != nil {
		return keysView{}, err
	}
	now := c.now()
	view := keysView{Keys: keys, Consumer: cons, Usage: map[int]metering.Totals{}, BaseURL: c.publicURL(r),
		Today: now.UTC().Format(time.DateOnly), Now: now}
	if c.deps.Usage != nil && len(keys) > 0 {
		rep, err := c.deps.Usage.Report(ctx, v.ConsumerID, 0, keyUsageDays, now)
		if err != nil {
			return keysView{}, err
		}
		for _, k := range rep.ByKey {
			view.Usage[k.KeyID] = k.Totals
		}
	}
	return view, nil
}

// keyByID finds one of keys.
func keyByID(keys []access.KeyInfo, id *int) (access.KeyInfo, bool) {
	if id == nil {
		return access.KeyInfo{}, false
	}
	for _, k := range keys {
		if k.ID == *id {
			return k, true
		}
	}
	return access.KeyInfo{}, false
}

// inGrace reports whether k was rotated and still works until the end of its grace.
func inGrace(k access.KeyInfo) bool { return k.Status == access.KeyExpiring && k.ReplacedByID != nil }

// keyOptionsOf reads the restriction of the create-key form: scope checkboxes (none: all of the
// consumer's), an allowlist of CIDRs separated by commas, spaces or lines, and an optional expiry
// date, meaning the key works through that day (UTC). problem is a message for people when the
// date is not one.
func keyOptionsOf(r *http.Request, now time.Time) (o access.KeyOptions, problem string) {
	_ = r.ParseForm()
	o.Scopes = r.PostForm["scope"]
	o.Sources = strings.FieldsFunc(r.PostFormValue("sources"), func(c rune) bool {
		return c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t'
	})
	if d := strings.TrimSpace(r.PostFormValue("expires")); d != "" {
		day, err := time.Parse(time.DateOnly, d)
		if err != nil {
			return access.KeyOptions{}, "The expiry must be a date such as " + now.UTC().AddDate(0, 1, 0).Format(time.DateOnly) + "."
		}
		end := day.AddDate(0, 0, 1) // the key works through the chosen day
		o.ExpiresAt = &end
	}
	return o, ""
}

// keyProblem explains a refused key in words for people: every field's problem, or the name's.
func keyProblem(err error) string {
	fe := access.FieldErrors(err)
	if len(fe) == 0 {
		return "A key needs a name of 1 to 200 characters."
	}
	msgs := make([]string, len(fe))
	for i, e := range fe {
		msgs[i] = problemSentence(e)
	}
	return "The key was not created: " + strings.Join(msgs, " ")
}

// problemSentence is one field's problem as a sentence.
func problemSentence(e *access.FieldError) string {
	p := e.Problem
	if e.Field == access.FieldKeyExpiresAt {
		p = "the expiry date has passed: choose today or a later day"
	}
	if p == "" {
		return ""
	}
	return strings.ToUpper(p[:1]) + p[1:] + "."
}

// errorShare is the share of a key's calls that failed, e.g. "2.5% of calls".
func errorShare(t metering.Totals) string {
	if t.Calls == 0 {
		return ""
	}
	return percent(float64(t.Errors)/float64(t.Calls)) + " of calls"
}

// sourcesHelp explains the key allowlist field, naming the plan's own allowlist when there is one.
func sourcesHelp(planAllow []string) string {
	if len(planAllow) == 0 {
		return "CIDR prefixes or addresses, separated by commas. Calls with this key must then come from inside this list. Empty: any source."
	}
	return "CIDR prefixes or addresses, separated by commas. Calls with this key must then come from inside this list and from inside your plan's allowlist (" +
		strings.Join(planAllow, ", ") + "). Empty: your plan's allowlist alone."
}
