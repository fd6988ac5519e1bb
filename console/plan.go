package console

import (
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"unicode"

	"github.com/a-h/templ"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/policy"
)

// planInput is the operators' plan form as typed. When a field is invalid the form comes back as
// it was, with a message beside each invalid field (Problems, by the form field's name).
type planInput struct {
	Name, RPM, Burst, Allow, Price string
	Scopes, Disabled               []string
	Enabled                        bool // new consumers: access on at once
	Problems                       map[string]string
}

// planFieldOrder is the form's fields in page order: the first invalid one gets the focus.
var planFieldOrder = []string{"name", "scopes", "rpm", "burst", "allow", "price", "disabled"}

// formField maps the access package's field names to the form's.
var formField = map[string]string{
	access.FieldName: "name", access.FieldScopes: "scopes", access.FieldRatePerMinute: "rpm",
	access.FieldBurst: "burst", access.FieldAllow: "allow", access.FieldPrice: "price",
	access.FieldDisabledOperations: "disabled",
}

// planInputOf is the form showing a consumer's plan.
func planInputOf(c access.Consumer) planInput {
	return planInput{Name: c.Name, RPM: strconv.Itoa(c.RatePerMinute), Burst: strconv.Itoa(c.Burst),
		Allow: strings.Join(c.Allow, "\n"), Price: c.Price, Scopes: c.Scopes, Disabled: c.DisabledOperations}
}

// readPlan reads the plan form and checks every field, the service's rules included, so that all
// problems are shown at once. ok is false when the form could not be read (then it has answered).
func (c *Console) readPlan(w http.ResponseWriter, r *http.Request) (planInput, access.ConsumerChange, bool) {
	if err := r.ParseForm(); err != nil {
		c.render(w, r, http.StatusBadRequest, errorPage(c.page(r, "Form not read"), "The form could not be read. Please go back and try again."))
		return planInput{}, access.ConsumerChange{}, false
	}
	f := r.PostForm
	in := planInput{Name: f.Get("name"), RPM: strings.TrimSpace(f.Get("rpm")), Burst: strings.TrimSpace(f.Get("burst")),
		Allow: f.Get("allow"), Price: f.Get("price"), Scopes: f["scopes"], Disabled: f["disabled"], Problems: map[string]string{}}
	var groupProblem string
	if in.Disabled, groupProblem = c.disabledOf(f); groupProblem != "" {
		in.Problems["disabled"] = groupProblem
	}
	ch := access.ConsumerChange{Name: &in.Name, Scopes: &in.Scopes, DisabledOperations: &in.Disabled, Price: &in.Price}
	if n, err := strconv.Atoi(in.RPM); err == nil {
		ch.RatePerMinute = &n
	} else {
		in.Problems["rpm"] = "Rate per minute must be a whole number from 0 to 1000000."
	}
	if n, err := strconv.Atoi(in.Burst); err == nil {
		ch.Burst = &n
	} else {
		in.Problems["burst"] = "Burst must be a whole number from 0 to 1000000."
	}
	allow, problem := parseAllow(in.Allow)
	if problem != "" {
		in.Problems["allow"] = problem
	} else {
		ch.Allow = &allow
	}
	in.addProblems(c.deps.Access.CheckConsumerChange(ch))
	return in, ch, true
}

// addProblems adds the field errors in err to the form (a field keeps its first problem) and
// reports whether err was nothing but field errors; any other error is not the form's.
func (in *planInput) addProblems(err error) bool {
	fes := access.FieldErrors(err)
	for _, fe := range fes {
		field := formField[fe.Field]
		if _, ok := in.Problems[field]; !ok {
			in.Problems[field] = sentence(fe.Problem)
		}
	}
	return len(fes) > 0
}

// summary is the line above the form when fields are invalid.
func (in planInput) summary() string { return problemCount(len(in.Problems)) }

// problemCount is the line above a form with n invalid fields.
func problemCount(n int) string {
	if n == 1 {
		return "one field needs attention; it is marked below."
	}
	return strconv.Itoa(n) + " fields need attention; they are marked below."
}

// attrs are the attributes of a form field's control: an invalid one is marked as such and
// points to its message; a valid one points to its warning, if any.
func (in planInput) attrs(field string) templ.Attributes {
	note := ""
	if in.hint(field) != "" {
		note = field + "-hint"
	}
	return fieldAttrs(in.Problems, field, note)
}

// focus reports whether field is the first invalid one, which takes the focus when the form comes
// back (for a group of checkboxes, its first box).
func (in planInput) focus(field string) bool { return firstProblem(in.Problems, planFieldOrder, field) }

// fieldAttrs are the attributes of a form control whose field may have a problem in problems: an
// invalid one is marked as such and points to its message (field-problem); a valid one points to
// its note (an element id: help or a warning), if any.
func fieldAttrs(problems map[string]string, field, note string) templ.Attributes {
	switch {
	case problems[field] != "":
		return templ.Attributes{"aria-invalid": "true", "aria-describedby": field + "-problem"}
	case note != "":
		return templ.Attributes{"aria-describedby": note}
	}
	return templ.Attributes{}
}

// firstProblem reports whether field is the first of order with a problem.
func firstProblem(problems map[string]string, order []string, field string) bool {
	for _, f := range order {
		if problems[f] != "" {
			return f == field
		}
	}
	return false
}

// hint is a warning beside a valid field: a rate or burst of 0 refuses calls.
func (in planInput) hint(field string) string {
	rpm, errR := strconv.Atoi(in.RPM)
	burst, errB := strconv.Atoi(in.Burst)
	if errR != nil || errB != nil {
		return ""
	}
	rate, b := limitWarnings(rpm, burst)
	switch field {
	case "rpm":
		return rate
	case "burst":
		return b
	}
	return ""
}

// limitWarnings say what a rate per minute or a burst of 0 does to calls ("" when nothing).
// A burst of 0 refuses every call whatever the rate, so the rate is then not warned about.
func limitWarnings(ratePerMinute, burst int) (rate, burstWarning string) {
	if burst == 0 {
		return "", "Burst is 0: no call ever fits, so every call of this consumer gets 429 rate_limited."
	}
	if ratePerMinute == 0 {
		return fmt.Sprintf("Rate per minute is 0: the allowance never refills, so once its burst of %s calls is used, "+
			"every call gets 429 rate_limited.", num(int64(burst))), ""
	}
	return "", ""
}

// parseAllow reads the allowlist field: CIDR ranges or single addresses, IPv4 or IPv6, separated
// by new lines, spaces or commas. problem names every entry that is neither, and why.
func parseAllow(s string) ([]netip.Prefix, string) {
	var out []netip.Prefix
	var problems []string
	for _, entry := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		ps, err := policy.ParseCIDRs(entry)
		if err != nil {
			problems = append(problems, cidrProblem(entry))
			continue
		}
		out = append(out, ps...)
	}
	return out, strings.Join(problems, " ")
}

// cidrProblem says why an allowlist entry policy.ParseCIDRs refused is not a CIDR range.
func cidrProblem(entry string) string {
	addr, bits, hasBits := strings.Cut(entry, "/")
	if strings.Contains(addr, "%") {
		return entry + " names a network interface (after the %): write the address without it."
	}
	a, err := netip.ParseAddr(addr)
	if err == nil && hasBits {
		family := "IPv4"
		if a.Is6() {
			family = "IPv6"
		}
		if n, err := strconv.Atoi(bits); err != nil || n < 0 || n > a.BitLen() {
			return fmt.Sprintf("%s is not a CIDR range: the prefix length after the / must be 0 to %d for %s.", entry, a.BitLen(), family)
		}
	}
	return entry + " is not an IP address or CIDR range (like 192.0.2.0/24 or 2001:db8::/48)."
}

// sentence makes a lower-case problem from the domain a sentence: "Burst must be 0 to 1000000."
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
