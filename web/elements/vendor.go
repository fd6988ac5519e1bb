//go:build ignore

// Command vendor copies the prebuilt Stoplight Elements web component, which renders the API
// reference at /v1/docs, from the npm package pinned in web/elements/package-lock.json into
// web/static/elements, where web embeds it under content-hashed URLs. Run it through `make vendor`
// from the module root (needs npm):
//
//	go run ./web/elements/vendor.go
//
// It fetches that one tarball with `npm pack` (no dependency is installed and no install script
// runs), checks it against the lockfile's integrity (SHA-512), copies the files web needs and their
// licenses, and records the package, version, integrity and each file's SHA-256 in
// web/elements/vendored.json, which web's TestVendoredElements checks the committed copy against.
//
// To move to another version: set it in web/elements/package.json, run
// `npm install --package-lock-only --ignore-scripts --prefix web/elements`, then `make vendor`.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
)

const (
	pkg    = "@stoplight/elements"
	dir    = "web/elements"
	outDir = "web/static/elements"
)

// files are the package's files that are copied: the bundle, its styles and their licenses.
var files = []string{"web-components.min.js", "styles.min.css", "LICENSE", "web-components.min.js.LICENSE.txt"}

// manifest is web/elements/vendored.json.
type manifest struct {
	Package   string            `json:"package"`
	Version   string            `json:"version"`
	Integrity string            `json:"integrity"`
	SHA256    map[string]string `json:"sha256"` // file name in web/static/elements -> hex SHA-256
}

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatalf("vendor %s: %v", pkg, err)
	}
}

func run() error {
	var lock struct {
		Packages map[string]struct {
			Version   string `json:"version"`
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	if err := readJSON(filepath.Join(dir, "package-lock.json"), &lock); err != nil {
		return err
	}
	locked, ok := lock.Packages["node_modules/"+pkg]
	if !ok || locked.Version == "" || locked.Integrity == "" {
		return fmt.Errorf("%s/package-lock.json pins no version of %s", dir, pkg)
	}
	tgz, err := npmPack(pkg + "@" + locked.Version)
	if err != nil {
		return err
	}
	sum := sha512.Sum512(tgz)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != locked.Integrity {
		return fmt.Errorf("the tarball of %s has integrity %s, the lockfile says %s", locked.Version, got, locked.Integrity)
	}
	contents, err := extract(tgz)
	if err != nil {
		return err
	}
	m := manifest{Package: pkg, Version: locked.Version, Integrity: locked.Integrity, SHA256: map[string]string{}}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for _, name := range files {
		b, ok := contents[name]
		if !ok {
			return fmt.Errorf("the package has no %s", name)
		}
		if err := os.WriteFile(filepath.Join(outDir, name), b, 0o644); err != nil {
			return err
		}
		h := sha256.Sum256(b)
		m.SHA256[name] = hex.EncodeToString(h[:])
	}
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "vendored.json"), append(out, '\n'), 0o644); err != nil {
		return err
	}
	log.Printf("vendored %s@%s into %s", pkg, locked.Version, outDir)
	return nil
}

// npmPack downloads the tarball of spec with npm and returns its bytes.
func npmPack(spec string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "vendor-elements-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("npm", "pack", spec, "--pack-destination", tmp, "--json", "--ignore-scripts")
	cmd.Dir = tmp
	cmd.Stderr = os.Stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("npm pack %s: %w", spec, err)
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(stdout, &packed); err != nil || len(packed) != 1 {
		return nil, fmt.Errorf("npm pack %s: unexpected output %q", spec, stdout)
	}
	return os.ReadFile(filepath.Join(tmp, packed[0].Filename))
}

// extract returns the wanted files of an npm tarball (whose entries live under package/).
func extract(tgz []byte) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, f := range files {
		want["package/"+f] = true
	}
	out := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if !want[h.Name] || h.Typeflag != tar.TypeReg {
			continue
		}
		if out[filepath.Base(h.Name)], err = io.ReadAll(tr); err != nil {
			return nil, err
		}
	}
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
