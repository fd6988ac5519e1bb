package console

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
)

const (
	roleOperator = "operator"
	roleConsumer = "consumer"
	userKey      = "userID"
	stampKey     = "credentialStamp" // the user's access.User.CredentialStamp at sign-in
	// The session's own facts for the sessions list, put at sign-in: the store reads them from
	// the session data (sessions.go).
	agentKey = "userAgent"
	ipKey    = "ip"
)

type userCtxKey struct{}

// viewer is the signed-in user of a request.
type viewer struct {
	access.User
	actor access.Actor
}

// lookupActor reads users on the console's behalf before anyone is authorized.
var lookupActor = access.Operator("console")

// loadUser puts the signed-in user, if any, into the request context. A session whose user no
// longer exists, or whose password changed since it signed in, is dropped.
func (c *Console) loadUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := c.sessions.GetInt(r.Context(), userKey)
		if id == 0 {
			next.ServeHTTP(w, r)
			return
		}
		u, err := c.deps.Access.User(r.Context(), lookupActor, id)
		if err != nil && !errors.Is(err, access.ErrNotFound) {
			c.fail(w, r, err)
			return
		}
		if err != nil || c.sessions.GetString(r.Context(), stampKey) != u.CredentialStamp {
			// The user is gone, or set a new password since this session signed in.
			_ = c.sessions.Destroy(r.Context())
			next.ServeHTTP(w, r)
			return
		}
		v := &viewer{User: u, actor: access.Operator("operator:" + u.Email)}
		if u.Role == roleConsumer {
			v.actor = access.Actor{Name: "user:" + u.Email, ConsumerID: u.ConsumerID}
		}
		if u.Role == roleOperator && c.deps.OperatorTwoFactor && !u.TwoFactor && !enrolPath(r) {
			// Operators must sign in with two factors: nothing else until they have enrolled (the
			// enrolment page says why).
			http.Redirect(w, r, "/console/account/2fa", http.StatusSeeOther)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userCtxKey{}, v)))
	})
}

func viewerOf(r *http.Request) *viewer {
	v, _ := r.Context().Value(userCtxKey{}).(*viewer)
	return v
}

// require lets only signed-in users of the role through: others are sent to sign in, and a user of
// the other role gets 403.
func (c *Console) require(role string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			v := viewerOf(r)
			if v == nil {
				// Back to the page after signing in; a form post cannot be replayed by a redirect
				// (it would GET a post-only route: 405), so it goes to the console's home instead.
				next := ""
				if r.Method == http.MethodGet || r.Method == http.MethodHead {
					next = r.URL.RequestURI()
				}
				c.toSignIn(w, r, next)
				return
			}
			if v.Role != role {
				c.render(w, r, http.StatusForbidden, errorPage(c.page(r, "Not allowed"), "Your account cannot open this page."))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func (c *Console) home(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	switch {
	case v == nil:
		c.toSignIn(w, r, "")
	case v.Role == roleOperator:
		http.Redirect(w, r, "/console/operator/consumers", http.StatusSeeOther)
	case access.TeamRank(v.TeamRole) < access.TeamRank(teamDeveloper):
		http.Redirect(w, r, "/console/usage", http.StatusSeeOther)
	default:
		http.Redirect(w, r, "/console/keys", http.StatusSeeOther)
	}
}

// Why the sign-in page is shown, in its query (?why=...).
const (
	whySignedOut = "signed-out" // the user signed out
	whyEnded     = "ended"      // the session expired or was ended
)

// toSignIn sends a visitor without a (live) session to the sign-in page, with the page to return
// to (next, may be empty) and, when the request carried a session that has ended, a word about it.
func (c *Console) toSignIn(w http.ResponseWriter, r *http.Request, next string) {
	q := url.Values{}
	if next != "" {
		q.Set("next", next)
	}
	if c.sessionEnded(r) {
		q.Set("why", whyEnded)
		// Forget the dead token, so that later visits are not told again.
		http.SetCookie(w, &http.Cookie{Name: c.sessions.Cookie.Name, Path: c.sessions.Cookie.Path, MaxAge: -1,
			HttpOnly: true, Secure: c.sessions.Cookie.Secure, SameSite: c.sessions.Cookie.SameSite})
	}
	to := "/console/login"
	if len(q) > 0 {
		to += "?" + q.Encode()
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// sessionEnded reports whether the request carried a session cookie that no longer names a live
// session: it expired, was signed out elsewhere, or its user set a new password (loadUser dropped
// it). Whether an account exists plays no part.
func (c *Console) sessionEnded(r *http.Request) bool {
	_, err := r.Cookie(c.sessions.Cookie.Name)
	return err == nil && c.sessions.Token(r.Context()) == ""
}

func (c *Console) loginForm(w http.ResponseWriter, r *http.Request) {
	if viewerOf(r) != nil {
		c.home(w, r)
		return
	}
	q := r.URL.Query()
	next := safeNext(q.Get("next"))
	p := c.page(r, "Sign in")
	switch q.Get("why") {
	case whySignedOut:
		p.Notice = "You have been signed out."
	case whyEnded:
		p.FlashWarn = "Your session has ended: sessions end after 30 minutes without activity, after 12 hours, " +
			"and when the password is changed. Sign in again to continue."
	default:
		if next != "" {
			p.Notice = "Sign in to continue."
		}
	}
	c.render(w, r, http.StatusOK, loginPage(p, "", next))
}

func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	email, password, next := r.PostFormValue("email"), r.PostFormValue("password"), safeNext(r.PostFormValue("next"))
	u, err := c.deps.Access.SignIn(r.Context(), email, password, clientAddr(r))
	var throttled *access.Throttled
	switch {
	case errors.As(err, &throttled):
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(throttled.RetryAfter.Seconds()))))
		msg := "Too many failed sign-ins. Try again in " + humanDuration(throttled.RetryAfter) + "."
		c.render(w, r, http.StatusTooManyRequests, loginPage(c.page(r, "Sign in"), msg, next))
		return
	case errors.Is(err, access.ErrThrottleUnavailable):
		// Failed sign-ins cannot be counted (Redis is down): no password is checked until they can.
		c.log.Warn("console sign-in refused: the sign-in throttle is unavailable", "err", err)
		w.Header().Set("Retry-After", "5")
		c.render(w, r, http.StatusServiceUnavailable, loginPage(c.page(r, "Sign in"),
			"Signing in is unavailable for a moment. Please try again shortly.", next))
		return
	case errors.Is(err, access.ErrBadCredentials):
		c.render(w, r, http.StatusUnauthorized, loginPage(c.page(r, "Sign in"), "Wrong email or password.", next))
		return
	case err != nil:
		c.fail(w, r, err)
		return
	}
	if u.TwoFactor {
		c.startSecondStep(w, r, u, next)
		return
	}
	c.signedIn(w, r, u, next)
}

// signedIn starts the signed-in session of u and sends them on to next.
func (c *Console) signedIn(w http.ResponseWriter, r *http.Request, u access.User, next string) {
	// A fresh session token at sign-in: a token planted before it is worth nothing after.
	if err := c.sessions.RenewToken(r.Context()); err != nil {
		c.fail(w, r, err)
		return
	}
	ctx := r.Context()
	for _, k := range []string{pendingUserKey, pendingStampKey, pendingNextKey, pendingAtKey} {
		c.sessions.Remove(ctx, k)
	}
	c.sessions.Put(ctx, userKey, u.ID)
	c.sessions.Put(ctx, stampKey, u.CredentialStamp)
	c.sessions.Put(ctx, agentKey, truncate(r.UserAgent(), 300))
	c.sessions.Put(ctx, ipKey, clientAddr(r).String())
	if next == "" {
		next = "/console/"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (c *Console) logout(w http.ResponseWriter, r *http.Request) {
	if err := c.sessions.Destroy(r.Context()); err != nil {
		c.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/console/login?why="+whySignedOut, http.StatusSeeOther)
}

func (c *Console) setPasswordForm(w http.ResponseWriter, r *http.Request) {
	u, err := c.deps.Access.PasswordLinkUser(r.Context(), chi.URLParam(r, "token"))
	if errors.Is(err, access.ErrNotFound) {
		c.render(w, r, http.StatusNotFound, errorPage(c.page(r, "Link expired"), "This link is no longer valid. Ask your operator for a new one."))
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, setPasswordPage(c.page(r, "Set your password"), u.Email, ""))
}

func (c *Console) setPassword(w http.ResponseWriter, r *http.Request) {
	token := chi.URLParam(r, "token")
	password := r.PostFormValue("password")
	// again shows the form with a problem; a dead link gets the same answer as on GET.
	again := func(problem string) {
		u, err := c.deps.Access.PasswordLinkUser(r.Context(), token)
		switch {
		case errors.Is(err, access.ErrNotFound):
			c.render(w, r, http.StatusNotFound, errorPage(c.page(r, "Link expired"), "This link is no longer valid. Ask your operator for a new one."))
		case err != nil:
			c.fail(w, r, err)
		default:
			c.render(w, r, http.StatusBadRequest, setPasswordPage(c.page(r, "Set your password"), u.Email, problem))
		}
	}
	if password != r.PostFormValue("confirm") {
		again("The two passwords differ.")
		return
	}
	_, err := c.deps.Access.SetPassword(r.Context(), token, password)
	switch {
	case errors.Is(err, access.ErrWeakPassword):
		// SetPassword returns no user on error, and its error text is not for people.
		again(userMessage(err))
		return
	case errors.Is(err, access.ErrNotFound):
		c.render(w, r, http.StatusNotFound, errorPage(c.page(r, "Link expired"), "This link is no longer valid. Ask your operator for a new one."))
		return
	case err != nil:
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Your password is set. Sign in with it.")
	http.Redirect(w, r, "/console/login", http.StatusSeeOther)
}

// safeNext keeps only local console paths as a post-sign-in destination (no open redirect).
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/console/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return ""
	}
	return next
}

// clientAddr is the request's TCP peer.
func clientAddr(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// The sign-in's second step: after the password of a user with two-factor sign-in, the session
// holds who is signing in (not yet signed in) until a code completes it within secondStepTTL.
const (
	pendingUserKey  = "pendingUserID"
	pendingStampKey = "pendingStamp"
	pendingNextKey  = "pendingNext"
	pendingAtKey    = "pendingAt" // unix seconds of the password step
	secondStepTTL   = 5 * time.Minute
)

// startSecondStep remembers u's accepted password in the session and asks for a code.
func (c *Console) startSecondStep(w http.ResponseWriter, r *http.Request, u access.User, next string) {
	if err := c.sessions.RenewToken(r.Context()); err != nil {
		c.fail(w, r, err)
		return
	}
	ctx := r.Context()
	c.sessions.Put(ctx, pendingUserKey, u.ID)
	c.sessions.Put(ctx, pendingStampKey, u.CredentialStamp)
	c.sessions.Put(ctx, pendingNextKey, next)
	c.sessions.Put(ctx, pendingAtKey, c.now().Unix())
	http.Redirect(w, r, "/console/login/code", http.StatusSeeOther)
}

// pendingUser is the user id of a live second step, 0 when there is none.
func (c *Console) pendingUser(r *http.Request) int {
	ctx := r.Context()
	id := c.sessions.GetInt(ctx, pendingUserKey)
	at := c.sessions.GetInt64(ctx, pendingAtKey)
	if id == 0 || c.now().Sub(time.Unix(at, 0)) > secondStepTTL {
		return 0
	}
	return id
}

func (c *Console) loginCodeForm(w http.ResponseWriter, r *http.Request) {
	if viewerOf(r) != nil {
		c.home(w, r)
		return
	}
	if c.pendingUser(r) == 0 {
		c.flashWarn(r, "Sign in with your password first; the code step lasts 5 minutes.")
		http.Redirect(w, r, "/console/login", http.StatusSeeOther)
		return
	}
	c.render(w, r, http.StatusOK, loginCodePage(c.page(r, "Two-factor sign-in"), ""))
}

func (c *Console) loginCode(w http.ResponseWriter, r *http.Request) {
	if viewerOf(r) != nil {
		c.home(w, r)
		return
	}
	id := c.pendingUser(r)
	if id == 0 {
		c.flashWarn(r, "Sign in with your password first; the code step lasts 5 minutes.")
		http.Redirect(w, r, "/console/login", http.StatusSeeOther)
		return
	}
	title := "Two-factor sign-in"
	u, err := c.deps.Access.SignInCode(r.Context(), id, r.PostFormValue("code"), clientAddr(r))
	var throttled *access.Throttled
	switch {
	case errors.As(err, &throttled):
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(throttled.RetryAfter.Seconds()))))
		c.render(w, r, http.StatusTooManyRequests, loginCodePage(c.page(r, title),
			"Too many failed sign-ins. Try again in "+humanDuration(throttled.RetryAfter)+"."))
		return
	case errors.Is(err, access.ErrThrottleUnavailable):
		c.log.Warn("console sign-in refused: the sign-in throttle is unavailable", "err", err)
		w.Header().Set("Retry-After", "5")
		c.render(w, r, http.StatusServiceUnavailable, loginCodePage(c.page(r, title),
			"Signing in is unavailable for a moment. Please try again shortly."))
		return
	case errors.Is(err, access.ErrBadCode):
		c.render(w, r, http.StatusUnauthorized, loginCodePage(c.page(r, title),
			"Wrong or already used code. Enter the current code from your app, or an unused recovery code."))
		return
	case errors.Is(err, access.ErrSecretUnreadable), errors.Is(err, access.ErrNoSecretKey):
		c.log.Error("a TOTP code cannot be checked: the service's secret key is missing or changed", "user", id, "err", err)
		c.render(w, r, http.StatusServiceUnavailable, loginCodePage(c.page(r, title),
			"Codes from your app cannot be checked right now. Sign in with one of your recovery codes instead, and please tell your operator."))
		return
	case errors.Is(err, access.ErrNotFound):
		c.toSignIn(w, r, "")
		return
	case err != nil:
		c.fail(w, r, err)
		return
	}
	if u.CredentialStamp != c.sessions.GetString(r.Context(), pendingStampKey) {
		// The password changed between the two steps: start again.
		c.flashWarn(r, "Your password changed meanwhile. Sign in again.")
		http.Redirect(w, r, "/console/login", http.StatusSeeOther)
		return
	}
	c.signedIn(w, r, u, safeNext(c.sessions.GetString(r.Context(), pendingNextKey)))
}

// enrolPath reports whether r may be served to an operator who must enrol in two-factor sign-in
// first: the enrolment itself and signing out.
func enrolPath(r *http.Request) bool {
	switch r.URL.Path {
	case "/console/account/2fa", "/console/logout":
		return true
	}
	return false
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
