package console

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/partner-platform/partnerd/access"
)

// A new key's secret is shown once, on the page a POST that created or rotated the key redirects
// to (post/redirect/get): reloading that page, or going back to it, never issues another key, and
// the secret is shown only on the first GET.
//
// Between the POST and the GET the secret is kept sealed, split in two so that neither part alone
// reveals it: the session (a database row) holds it encrypted with AES-256-GCM under a fresh random
// key, and that key travels in a short-lived HttpOnly cookie sent only to revealPath. The GET takes
// both and deletes both; after revealTTL neither is accepted. The secret is never in a URL, a log
// or the database in the clear.
const (
	revealPath       = "/console/keys/issued"
	revealCookie     = "partner_console_reveal"
	revealTTL        = 5 * time.Minute
	revealBoxKey     = "revealBox"   // session: nonce and ciphertext
	revealExpiresKey = "revealUntil" // session: Unix seconds after which the box is refused
)

// issuedView is what the page after creating or rotating a key shows.
type issuedView struct {
	Key access.IssuedKey `json:"key"`
	// Old is the key the new one replaced; nil for a created key.
	Old *access.KeyInfo `json:"old,omitempty"`
}

// seal keeps v for one reveal and redirects to the page that shows it.
func (c *Console) seal(w http.ResponseWriter, r *http.Request, v issuedView) {
	plain, err := json.Marshal(v)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	key := make([]byte, 32)
	rand.Read(key)
	aead, err := revealAEAD(key)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	box := aead.Seal(nonce, nonce, plain, revealAAD(r))
	c.sessions.Put(r.Context(), revealBoxKey, box)
	c.sessions.Put(r.Context(), revealExpiresKey, c.now().Add(revealTTL).Unix())
	http.SetCookie(w, c.revealCookie(base64.RawURLEncoding.EncodeToString(key), int(revealTTL/time.Second)))
	http.Redirect(w, r, revealPath, http.StatusSeeOther)
}

// unseal takes the sealed view out of the session and the cookie, once; false when there is none
// (already shown, expired, or never sealed).
func (c *Console) unseal(w http.ResponseWriter, r *http.Request) (issuedView, bool) {
	ctx := r.Context()
	box, _ := c.sessions.Pop(ctx, revealBoxKey).([]byte)
	until, _ := c.sessions.Pop(ctx, revealExpiresKey).(int64)
	ck, cookieErr := r.Cookie(revealCookie)
	if cookieErr == nil {
		http.SetCookie(w, c.revealCookie("", -1))
	}
	if box == nil || cookieErr != nil || c.now().Unix() > until {
		return issuedView{}, false
	}
	key, err := base64.RawURLEncoding.DecodeString(ck.Value)
	if err != nil || len(key) != 32 {
		return issuedView{}, false
	}
	aead, err := revealAEAD(key)
	if err != nil || len(box) < aead.NonceSize() {
		return issuedView{}, false
	}
	plain, err := aead.Open(nil, box[:aead.NonceSize()], box[aead.NonceSize():], revealAAD(r))
	if err != nil {
		return issuedView{}, false
	}
	var v issuedView
	if json.Unmarshal(plain, &v) != nil {
		return issuedView{}, false
	}
	return v, true
}

// revealCookie is the cookie holding a sealed view's key (maxAge -1 deletes it).
func (c *Console) revealCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: revealCookie, Value: value, Path: revealPath, MaxAge: maxAge,
		HttpOnly: true, Secure: c.sessions.Cookie.Secure, SameSite: http.SameSiteStrictMode}
}

func revealAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// revealAAD binds a sealed view to the signed-in user who sealed it.
func revealAAD(r *http.Request) []byte {
	return []byte("partner console key for user " + strconv.Itoa(viewerOf(r).ID))
}
