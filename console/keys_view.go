package console

import (
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"

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
	Form     keyInput // the create-key form: empty, or as sent when it was refused
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

// keyInput is the create-key form as it was sent, with what is wrong with it by form field (name,
// scope, sources, expires): a refused form is shown again as it was, its problems beside their
// fields. The zero value is an empty form.
type keyInput struct {
	Name, Sources, Expires string
	Scopes                 []string
	Problems               map[string]string
}

// restricted reports whether the form's restriction part has a value or a problem (so it is shown
// open).
func (in keyInput) restricted() bool {
	return len(in.Scopes) > 0 || in.Sources != "" || in.Expires != "" ||
		in.Problems["scope"] != "" || in.Problems["sources"] != "" || in.Problems["expires"] != ""
}

// keyFieldOrder is the form's fields in page order: the first invalid one gets the focus.
var keyFieldOrder = []string{"name", "scope", "sources", "expires"}

// attrs are the attributes of a field's control (see fieldAttrs); help is the id of its help, if any.
func (in keyInput) attrs(field, help string) templ.Attributes {
	return fieldAttrs(in.Problems, field, help)
}

// focus reports whether field is the first invalid one, which takes the focus when the form comes back.
func (in keyInput) focus(field string) bool { return firstProblem(in.Problems, keyFieldOrder, field) }

// keyInputOf reads the create-key form and its restriction: scope checkboxes (none: all of the
// consumer's), an allowlist of CIDRs separated by commas, spaces or lines, and an optional expiry
// date, meaning the key works through that day (UTC). An expiry that is not a date is a problem of
// the form; the service checks the rest.
func keyInputOf(r *http.Request, now time.Time) (keyInput, access.KeyOptions) {
	_ = r.ParseForm()
	f := r.PostForm
	in := keyInput{Name: f.Get("name"), Scopes: f["scope"], Sources: strings.TrimSpace(f.Get("sources")),
		Expires: strings.TrimSpace(f.Get("expires")), Problems: map[string]string{}}
	o := access.KeyOptions{Scopes: in.Scopes, Sources: strings.FieldsFunc(in.Sources, func(c rune) bool {
		return c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t'
	})}
	if in.Expires != "" {
		day, err := time.Parse(time.DateOnly, in.Expires)
		if err != nil {
			in.Problems["expires"] = "The expiry must be a date such as " + now.UTC().AddDate(0, 1, 0).Format(time.DateOnly) + "."
		} else {
			end := access.ExpiryThrough(day)
			o.ExpiresAt = &end
		}
	}
	return in, o
}

// keyFormField maps the access package's key fields to the form's.
var keyFormField = map[string]string{
	access.FieldKeyScopes: "scope", access.FieldKeySources: "sources", access.FieldKeyExpiresAt: "expires",
}

// addProblems puts a refused key's problems beside their fields; a refusal naming no field is the
// name's (the only other rule).
func (in *keyInput) addProblems(err error) {
	fes := access.FieldErrors(err)
	if len(fes) == 0 {
		in.Problems["name"] = "A key needs a name of 1 to 200 characters."
	}
	for _, fe := range fes {
		field := keyFormField[fe.Field]
		if _, ok := in.Problems[field]; ok {
			continue
		}
		if field == "expires" {
			in.Problems[field] = "The expiry date has passed: choose today or a later day."
		} else {
			in.Problems[field] = sentence(fe.Problem)
		}
	}
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
