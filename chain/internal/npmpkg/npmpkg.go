// Package npmpkg finds and installs the npm package directories of this module that tests and local
// mode run programs from (chain/devnet/anvil: anvil; chain/solana/validator: LiteSVM), from their
// committed package-lock.json, on first use.
package npmpkg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// ErrUnavailable wraps the errors that say the packages cannot be had on this machine: npm is not
// on PATH, or npm ci failed (no registry, say).
var ErrUnavailable = errors.New("npm packages unavailable")

// Dir returns the package directory rel (slash-separated from the module root, such as
// "chain/devnet/anvil"): sourceDir when it holds package-lock.json (a caller built from a checkout
// passes the directory runtime.Caller gives), else rel under the module root found by walking up
// from the working directory to go.mod (a test's working directory is its package's).
func Dir(sourceDir, rel string) (string, error) {
	if sourceDir != "" && isFile(filepath.Join(sourceDir, "package-lock.json")) {
		return filepath.Clean(sourceDir), nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("locate %s: %w", rel, err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if isFile(filepath.Join(d, "go.mod")) {
			dir := filepath.Join(d, filepath.FromSlash(rel))
			if !isFile(filepath.Join(dir, "package-lock.json")) {
				return "", fmt.Errorf("locate %s: no package-lock.json in %s", rel, dir)
			}
			return dir, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("locate %s: no go.mod above %s", rel, wd)
		}
	}
}

// Install makes sure marker, a file that npm ci puts under dir/node_modules, exists: when it does
// not, it runs npm ci in a fresh directory beside node_modules and renames the result into place,
// so that a process installing at the same time never sees a half-written tree (the first to
// rename wins; a node_modules without the marker, partial or stale, is moved aside).
func Install(dir, marker string) error {
	if isFile(marker) {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("%w: %s is not installed and npm is not on PATH to install it (make test installs it): %v", ErrUnavailable, marker, err)
	}
	tmp, err := os.MkdirTemp(dir, ".npm-ci-")
	if err != nil {
		return fmt.Errorf("install %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range []string{"package.json", "package-lock.json"} {
		raw, err := os.ReadFile(filepath.Join(dir, f))
		if err == nil {
			err = os.WriteFile(filepath.Join(tmp, f), raw, 0o644)
		}
		if err != nil {
			return fmt.Errorf("install %s: %w", dir, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--prefix", tmp, "--no-audit", "--no-fund")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		if len(out) > 4000 {
			out = out[len(out)-4000:]
		}
		return fmt.Errorf("%w: npm ci for %s failed (%v):\n%s", ErrUnavailable, dir, err, out)
	}
	dst := filepath.Join(dir, "node_modules")
	if err := os.Rename(filepath.Join(tmp, "node_modules"), dst); err != nil {
		if isFile(marker) {
			return nil // another process installed it meanwhile
		}
		if err = os.Rename(dst, filepath.Join(tmp, "stale")); err == nil || errors.Is(err, os.ErrNotExist) {
			err = os.Rename(filepath.Join(tmp, "node_modules"), dst)
		}
		if err != nil && !isFile(marker) {
			return fmt.Errorf("install %s into %s: %w", dir, dst, err)
		}
	}
	if !isFile(marker) {
		return fmt.Errorf("npm ci in %s did not install %s", dir, marker)
	}
	return nil
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
