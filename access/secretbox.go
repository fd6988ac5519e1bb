package access

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// SecretKeySize is the length in bytes of a SecretBox's key (AES-256).
const SecretKeySize = 32

// Errors of the secrets a SecretBox seals.
var (
	// ErrNoSecretKey: the service was started without a secret key, so it cannot store or read
	// the secrets it seals (TOTP seeds): two-factor sign-in with an authenticator app is off.
	ErrNoSecretKey = errors.New("the service has no secret key (PARTNER_SECRET_KEY)")
	// ErrSecretUnreadable: a sealed secret does not open with the service's key (the key changed,
	// or the value was altered or moved to another row).
	ErrSecretUnreadable = errors.New("a stored secret does not open with the service's secret key")
)

// sealedPrefix marks a sealed value and its format: AES-256-GCM, base64url(nonce || ciphertext).
const sealedPrefix = "v1."

// SecretBox seals the secrets the service stores and must read back in the clear (a TOTP seed
// cannot be hashed: codes are computed from it), so that a copy of the database alone does not
// give them away. Each sealed value is bound to the row and column it is stored in, so it does
// not open anywhere else. Safe for concurrent use.
type SecretBox struct {
	aead cipher.AEAD
}

// NewSecretBox returns a SecretBox that seals with key: SecretKeySize random bytes, kept secret
// and apart from the database.
func NewSecretBox(key []byte) (*SecretBox, error) {
	if len(key) != SecretKeySize {
		return nil, fmt.Errorf("secret key: want %d bytes, got %d", SecretKeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	return &SecretBox{aead: aead}, nil
}

// seal encrypts plain for the place named by bind.
func (b *SecretBox) seal(plain, bind string) string {
	nonce := make([]byte, b.aead.NonceSize())
	rand.Read(nonce)
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(b.aead.Seal(nonce, nonce, []byte(plain), []byte(bind)))
}

// open decrypts a value seal made for bind. Errors: ErrSecretUnreadable.
func (b *SecretBox) open(sealed, bind string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sealed, sealedPrefix))
	if err != nil || !strings.HasPrefix(sealed, sealedPrefix) || len(raw) < b.aead.NonceSize() {
		return "", ErrSecretUnreadable
	}
	n := b.aead.NonceSize()
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], []byte(bind))
	if err != nil {
		return "", ErrSecretUnreadable
	}
	return string(plain), nil
}

// WithSecretBox sets the box that seals TOTP seeds. Without one, two-factor sign-in cannot be set
// up (ErrNoSecretKey), and a user who has it signs in with a recovery code.
func WithSecretBox(b *SecretBox) ServiceOption { return func(s *Service) { s.box = b } }
