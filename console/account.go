package console

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
)

// accountRoutes serves every signed-in user's own account: password, two-factor sign-in, sessions;
// and the sign-in's second step (a code after the password).
func (c *Console) accountRoutes(r chi.Router) {
	r.Get("/login/code", c.loginCodeForm)
	r.Post("/login/code", c.loginCode)
	r.Group(func(r chi.Router) {
		r.Use(c.signedInOnly)
		r.Get("/account", c.account)
		r.Post("/account/password", c.changePassword)
		r.Get("/account/2fa", c.enrolForm)
		r.Post("/account/2fa", c.enrol)
		r.Post("/account/2fa/off", c.twoFactorOff)
		r.Post("/account/2fa/recovery-codes", c.newRecoveryCodes)
		r.Post("/account/sessions/end-others", c.endOtherSessions)
		r.Post("/account/sessions/{handle}/end", c.endSession)
	})
}

// signedInOnly sends visitors without a session to sign in; any role may pass.
func (c *Console) signedInOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if viewerOf(r) == nil {
			n := ""
			if r.Method == http.MethodGet {
				n = r.URL.RequestURI()
			}
			c.toSignIn(w, r, n)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// accountView is what the account page shows.
type accountView struct {
	User          access.User
	CodesLeft     int
	Sessions      []sessionInfo
	RequireTwoFac bool
}

func (c *Console) account(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	av := accountView{User: v.User, RequireTwoFac: v.Role == roleOperator && c.deps.OperatorTwoFactor}
	var err error
	if v.TwoFactor {
		if av.CodesLeft, err = c.deps.Access.RecoveryCodesLeft(r.Context(), v.ID); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	if av.Sessions, err = c.store.forUser(r.Context(), v.ID, storedID(c.sessions.Token(r.Context()))); err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, accountPage(c.page(r, "Account"), av))
}

func (c *Console) changePassword(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	current, password := r.PostFormValue("current"), r.PostFormValue("password")
	if password != r.PostFormValue("confirm") {
		c.flashError(r, "The two new passwords differ. Nothing was changed.")
		http.Redirect(w, r, "/console/account", http.StatusSeeOther)
		return
	}
	u, err := c.deps.Access.ChangePassword(r.Context(), v.ID, current, password)
	switch {
	case errors.Is(err, access.ErrBadCredentials):
		c.flashError(r, "The current password is wrong. Nothing was changed.")
		http.Redirect(w, r, "/console/account", http.StatusSeeOther)
		return
	case errors.Is(err, access.ErrWeakPassword):
		c.flashError(r, userMessage(err)+". Nothing was changed.")
		http.Redirect(w, r, "/console/account", http.StatusSeeOther)
		return
	case err != nil:
		c.fail(w, r, err)
		return
	}
	// This session stays: a new token with the new stamp. Every other session had the old stamp
	// (loadUser drops them) and is deleted now as well.
	if err := c.sessions.RenewToken(r.Context()); err != nil {
		c.fail(w, r, err)
		return
	}
	c.sessions.Put(r.Context(), stampKey, u.CredentialStamp)
	n, err := c.store.endOthers(r.Context(), v.ID, storedID(c.sessions.Token(r.Context())))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	msg := "Your password is changed."
	if n > 0 {
		msg += " Your other sessions have ended (" + strconv.Itoa(n) + ")."
	}
	c.flash(r, msg)
	http.Redirect(w, r, "/console/account", http.StatusSeeOther)
}

// enrolView is the enrolment page: the secret to type and its QR code as a PNG data: URL.
type enrolView struct {
	Secret   string
	QR       string
	Required bool // an operator who must use two-factor sign-in, sent here first
}

func (c *Console) enrolForm(w http.ResponseWriter, r *http.Request) {
	c.renderEnrol(w, r, http.StatusOK, "")
}

func (c *Console) renderEnrol(w http.ResponseWriter, r *http.Request, status int, problem string) {
	v := viewerOf(r)
	if v.TwoFactor {
		c.flash(r, "Two-factor sign-in is on.")
		http.Redirect(w, r, "/console/account", http.StatusSeeOther)
		return
	}
	// The same secret on every visit until it is confirmed: a reload must not invalidate what
	// the user's app has scanned already. One sealed with an earlier secret key cannot be shown
	// again: it is replaced.
	e, err := c.deps.Access.PendingTOTP(r.Context(), v.ID)
	if errors.Is(err, access.ErrNotFound) || errors.Is(err, access.ErrSecretUnreadable) {
		e, err = c.deps.Access.StartTOTP(r.Context(), v.ID)
	}
	if errors.Is(err, access.ErrNoSecretKey) {
		c.log.Error("two-factor sign-in cannot be set up: the service has no secret key; set PARTNER_SECRET_KEY")
		c.render(w, r, http.StatusServiceUnavailable, errorPage(c.page(r, "Two-factor sign-in unavailable"),
			"Two-factor sign-in cannot be set up on this service yet: it was started without a secret key. Please tell your operator."))
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	img, err := e.Key().Image(240, 240)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.fail(w, r, err)
		return
	}
	ev := enrolView{Secret: e.Secret, QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()),
		Required: v.Role == roleOperator && c.deps.OperatorTwoFactor}
	c.render(w, r, status, enrolPage(c.page(r, "Set up two-factor sign-in"), ev, problem))
}

func (c *Console) enrol(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	codes, err := c.deps.Access.ConfirmTOTP(r.Context(), v.ID, r.PostFormValue("code"))
	switch {
	case errors.Is(err, access.ErrBadCode):
		c.renderEnrol(w, r, http.StatusBadRequest, "That code is not the current one. Check your device's clock and enter the code your app shows now.")
		return
	case errors.Is(err, access.ErrSecretUnreadable), errors.Is(err, access.ErrNoSecretKey):
		// Started before the service's secret key changed: the setup starts again (or says why it cannot).
		c.renderEnrol(w, r, http.StatusBadRequest, "The setup had to start again. Scan the new code below and enter the code your app shows now.")
		return
	case errors.Is(err, access.ErrInvalid):
		c.flashError(r, userMessage(err))
		http.Redirect(w, r, "/console/account", http.StatusSeeOther)
		return
	case err != nil:
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, recoveryCodesPage(c.page(r, "Recovery codes"), codes, true))
}

func (c *Console) twoFactorOff(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	if v.Role == roleOperator && c.deps.OperatorTwoFactor {
		c.flashError(r, "Operators must use two-factor sign-in here: it cannot be switched off.")
		http.Redirect(w, r, "/console/account", http.StatusSeeOther)
		return
	}
	err := c.deps.Access.DisableTOTP(r.Context(), v.ID, r.PostFormValue("proof"))
	if c.proofProblem(w, r, err) {
		return
	}
	c.flash(r, "Two-factor sign-in is off; your recovery codes no longer work.")
	http.Redirect(w, r, "/console/account", http.StatusSeeOther)
}

func (c *Console) newRecoveryCodes(w http.ResponseWriter, r *http.Request) {
	codes, err := c.deps.Access.RegenerateRecoveryCodes(r.Context(), viewerOf(r).ID, r.PostFormValue("proof"))
	if c.proofProblem(w, r, err) {
		return
	}
	c.render(w, r, http.StatusOK, recoveryCodesPage(c.page(r, "Recovery codes"), codes, false))
}

// proofProblem answers a refused proof (a code or the password) with a flash on the account page;
// false when err is nil.
func (c *Console) proofProblem(w http.ResponseWriter, r *http.Request, err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, access.ErrBadCode):
		c.flashError(r, "Wrong or already used code, or wrong password. Nothing was changed.")
	case errors.Is(err, access.ErrSecretUnreadable), errors.Is(err, access.ErrNoSecretKey):
		c.log.Error("a TOTP code cannot be checked: the service's secret key is missing or changed", "user", viewerOf(r).ID, "err", err)
		c.flashError(r, "Codes from your app cannot be checked right now. Confirm with your password instead. Nothing was changed.")
	case errors.Is(err, access.ErrInvalid):
		c.flashError(r, userMessage(err))
	default:
		c.fail(w, r, err)
		return true
	}
	http.Redirect(w, r, "/console/account", http.StatusSeeOther)
	return true
}

func (c *Console) endOtherSessions(w http.ResponseWriter, r *http.Request) {
	n, err := c.store.endOthers(r.Context(), viewerOf(r).ID, storedID(c.sessions.Token(r.Context())))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Signed out everywhere else: "+strconv.Itoa(n)+" other session(s) ended. This one stays signed in.")
	http.Redirect(w, r, "/console/account#sessions", http.StatusSeeOther)
}

func (c *Console) endSession(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	h := chi.URLParam(r, "handle")
	if h == handle(storedID(c.sessions.Token(r.Context()))) {
		c.logout(w, r)
		return
	}
	ok, err := c.store.endOne(r.Context(), v.ID, h)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if !ok {
		c.notFound(w, r)
		return
	}
	c.flash(r, "That session has ended.")
	http.Redirect(w, r, "/console/account#sessions", http.StatusSeeOther)
}

// agentName is a short name of a browser from its user agent, for the sessions list.
func agentName(ua string) string {
	for _, b := range []struct{ in, name string }{
		{"Edg/", "Edge"}, {"Firefox/", "Firefox"}, {"HeadlessChrome/", "Headless Chrome"}, {"Chrome/", "Chrome"},
		{"Safari/", "Safari"}, {"curl/", "curl"},
	} {
		if strings.Contains(ua, b.in) {
			return b.name
		}
	}
	if ua == "" {
		return "Unknown browser"
	}
	return "Other browser"
}

// orDash is s, or a dash when it is empty.
func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// spaced groups a secret in fours for reading and typing.
func spaced(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// whenKnown is when(t), or "unknown" for the zero time (a session from before the sessions list).
func whenKnown(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return when(t)
}
