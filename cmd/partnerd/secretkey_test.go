package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestServeConfigSecretKey: PARTNER_SECRET_KEY is 32 bytes in base64; anything else is refused
// with how to make one, never echoing the value.
func TestServeConfigSecretKey(t *testing.T) {
	good := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	for _, tc := range []struct {
		value string
		ok    bool
	}{
		{"", true},
		{good, true},
		{" " + good + "\n", true},
		{base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 16)), false},
		{base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 33)), false},
		{"not base64 at all, hunter2", false},
	} {
		cfg, err := serveConfig(nil, func(name string) string {
			if name == "PARTNER_SECRET_KEY" {
				return tc.value
			}
			return ""
		})
		switch {
		case tc.ok && err != nil:
			t.Errorf("%q: %v", tc.value, err)
		case tc.ok && tc.value != "" && !bytes.Equal(cfg.SecretKey, bytes.Repeat([]byte{7}, 32)):
			t.Errorf("%q: key %x", tc.value, cfg.SecretKey)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), "openssl rand -base64 32") || strings.Contains(err.Error(), tc.value)):
			t.Errorf("%q: error %v, want how to make a key and never the value", tc.value, err)
		}
	}
}

// TestSecretBoxSource: the key comes from PARTNER_SECRET_KEY; else on SQLite from a key file
// beside the database, made on the first start (owner-only) and the same on every start after; a
// damaged key file stops the start; on PostgreSQL without a key there is none.
func TestSecretBoxSource(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	path := filepath.Join(dir, "p.db.key")

	box, source, err := secretBox(Config{}, st)
	if err != nil || box == nil || source != path {
		t.Fatalf("first start: box %v from %q, %v; want one from %s", box, source, err, path)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v; want mode 0600", info, err)
	}
	first, _ := os.ReadFile(path)
	again, _, err := secretBox(Config{}, st)
	if err != nil || again == nil {
		t.Fatalf("second start: %v", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, first) {
		t.Fatal("the key file changed on the second start")
	}
	key, err := parseSecretKey(string(first))
	if err != nil || len(key) != 32 {
		t.Fatalf("the key file holds %q: %v", first, err)
	}

	// PARTNER_SECRET_KEY wins over the file.
	if _, source, err := secretBox(Config{SecretKey: bytes.Repeat([]byte{1}, 32)}, st); err != nil || source != "PARTNER_SECRET_KEY" {
		t.Errorf("with PARTNER_SECRET_KEY: from %q, %v", source, err)
	}
	// A damaged file stops the start rather than being replaced (that would lock out every
	// two-factor user).
	if err := os.WriteFile(path, []byte("damaged\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := secretBox(Config{}, st); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("damaged key file: %v, want an error naming it", err)
	}
	if now, _ := os.ReadFile(path); string(now) != "damaged\n" {
		t.Error("the damaged key file was overwritten")
	}

	pg := storetest.Postgres(t)
	if box, _, err := secretBox(Config{}, pg); box != nil || err != nil {
		t.Errorf("PostgreSQL without a key: box %v, %v; want none", box, err)
	}
	if box, _, err := secretBox(Config{SecretKey: bytes.Repeat([]byte{1}, 32)}, pg); box == nil || err != nil {
		t.Errorf("PostgreSQL with a key: box %v, %v", box, err)
	}
}

// TestServeConfigOperatorTwoFactorNeedsKey: operators' two-factor sign-in required on PostgreSQL
// without PARTNER_SECRET_KEY is refused before anything is opened; on SQLite (its key file) or
// with a key it is fine.
func TestServeConfigOperatorTwoFactorNeedsKey(t *testing.T) {
	key := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	for _, tc := range []struct {
		url, key string
		ok       bool
	}{
		{"postgres://partnerd@db.example:5432/partnerd", "", false},
		{"postgres://partnerd@db.example:5432/partnerd", key, true},
		{"sqlite:./data/partner.db", "", true},
	} {
		env := map[string]string{"PARTNER_CONSOLE_OPERATOR_2FA": "required", "PARTNER_DATABASE_URL": tc.url, "PARTNER_SECRET_KEY": tc.key}
		_, err := serveConfig(nil, func(name string) string { return env[name] })
		if tc.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "PARTNER_SECRET_KEY") {
			t.Errorf("%s, key %v: %v", tc.url, tc.key != "", err)
		}
	}
}
