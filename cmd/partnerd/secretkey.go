package main

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/store"
)

// secretKeyHint says how to make a secret key.
const secretKeyHint = "want 32 random bytes in base64, such as the output of: openssl rand -base64 32"

// parseSecretKey reads a secret key written in base64 (PARTNER_SECRET_KEY, or a key file).
func parseSecretKey(s string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(key) != access.SecretKeySize {
		return nil, errors.New(secretKeyHint)
	}
	return key, nil
}

// secretBox is the box that seals the secrets the service must read back (TOTP seeds): with
// PARTNER_SECRET_KEY; else, on SQLite, with the key file beside the database (<database>.key,
// created on the first start, readable by its owner only), so that make run needs no setting; else
// (PostgreSQL without PARTNER_SECRET_KEY) none, and two-factor sign-in cannot be set up (serveConfig
// refuses PARTNER_CONSOLE_OPERATOR_2FA=required then). Replicas must share one key.
func secretBox(cfg Config, st *store.Store) (box *access.SecretBox, source string, err error) {
	key, source, err := secretKey(cfg, st)
	if key == nil || err != nil {
		return nil, "", err
	}
	box, err = access.NewSecretBox(key)
	return box, source, err
}

// secretKey is the service's secret key, as secretBox finds it: PARTNER_SECRET_KEY, else on SQLite
// the key file beside the database, else none (nil).
func secretKey(cfg Config, st *store.Store) (key []byte, source string, err error) {
	key, source = cfg.SecretKey, "PARTNER_SECRET_KEY"
	if key == nil && st.SQLiteFile() != "" {
		source = st.SQLiteFile() + ".key"
		if key, err = keyFile(source); err != nil {
			return nil, "", err
		}
	}
	if key == nil {
		return nil, "", nil
	}
	return key, source, nil
}

// keyFile reads the secret key at path, creating it with a random key when there is none.
func keyFile(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key := make([]byte, access.SecretKeySize)
		rand.Read(key)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return keyFile(path) // another process made it first
		}
		if err != nil {
			return nil, fmt.Errorf("secret key file: %w", err)
		}
		_, err = f.WriteString(base64.StdEncoding.EncodeToString(key) + "\n")
		if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
			return nil, fmt.Errorf("secret key file %s: %w", path, err)
		}
		return key, nil
	}
	if err != nil {
		return nil, fmt.Errorf("secret key file: %w", err)
	}
	key, err := parseSecretKey(string(raw))
	if err != nil {
		return nil, fmt.Errorf("secret key file %s: %w", path, err)
	}
	return key, nil
}
