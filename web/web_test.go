package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestVendoredElements checks that the embedded Stoplight Elements files are the pinned package's:
// the version in elements/package.json is the lockfile's, elements/vendored.json (written by
// `make vendor` from the tarball it checked against the lockfile's integrity) records that version
// and integrity, and every embedded file has the SHA-256 recorded there. A lockfile moved to
// another version without `make vendor`, or a hand-edited copy, fails here.
func TestVendoredElements(t *testing.T) {
	const pkg = "@stoplight/elements"
	var manifest struct {
		Package, Version, Integrity string
		SHA256                      map[string]string
	}
	var lock struct {
		Packages map[string]struct{ Version, Integrity string }
	}
	var pj struct{ Dependencies map[string]string }
	readJSON(t, "elements/vendored.json", &manifest)
	readJSON(t, "elements/package-lock.json", &lock)
	readJSON(t, "elements/package.json", &pj)

	locked := lock.Packages["node_modules/"+pkg]
	if pj.Dependencies[pkg] != locked.Version || locked.Version == "" {
		t.Errorf("package.json pins %s %q, package-lock.json has %q: run npm install --package-lock-only --ignore-scripts --prefix web/elements",
			pkg, pj.Dependencies[pkg], locked.Version)
	}
	if manifest.Package != pkg || manifest.Version != locked.Version || manifest.Integrity != locked.Integrity {
		t.Errorf("vendored.json has %s@%s (%s), the lockfile %s (%s): run make vendor",
			manifest.Package, manifest.Version, manifest.Integrity, locked.Version, locked.Integrity)
	}
	for _, name := range []string{"web-components.min.js", "styles.min.css", "LICENSE"} {
		if _, ok := manifest.SHA256[name]; !ok {
			t.Errorf("vendored.json records no %s", name)
		}
	}
	entries, err := files.ReadDir("static/elements")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(manifest.SHA256) {
		t.Errorf("static/elements holds %d files, vendored.json records %d", len(entries), len(manifest.SHA256))
	}
	for name, want := range manifest.SHA256 {
		b, err := files.ReadFile("static/elements/" + name)
		if err != nil {
			t.Errorf("%s is not embedded: %v", name, err)
			continue
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want {
			t.Errorf("static/elements/%s has SHA-256 %x, the package's is %s: run make vendor", name, sum, want)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestAssets: hashed URLs, immutable caching, types, and the gzip encoding for clients that ask.
func TestAssets(t *testing.T) {
	a := New()
	if New() != a {
		t.Error("New hashes the assets again")
	}
	srv := httptest.NewServer(a)
	defer srv.Close()
	js := a.URL("elements/web-components.min.js")
	if !regexp.MustCompile(`^/static/elements/web-components\.min\.[0-9a-f]{12}\.js$`).MatchString(js) {
		t.Fatalf("URL(elements/web-components.min.js) = %q", js)
	}
	want, err := files.ReadFile("static/elements/web-components.min.js")
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, acceptEncoding string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", acceptEncoding) // set by hand: the transport then leaves the body encoded
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}

	for _, ae := range []string{"gzip, deflate, br", "identity", "gzip;q=0, *"} {
		resp, body := get(js, ae)
		h := resp.Header
		if resp.StatusCode != 200 || h.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
			!strings.HasPrefix(h.Get("Content-Type"), "text/javascript") || h.Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: %d %v", ae, resp.StatusCode, h)
		}
		if ae == "gzip, deflate, br" {
			if h.Get("Content-Encoding") != "gzip" || len(body) > len(want)/2 {
				t.Errorf("Accept-Encoding %q: Content-Encoding %q, %d of %d bytes", ae, h.Get("Content-Encoding"), len(body), len(want))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		} else if h.Get("Content-Encoding") != "" {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", ae, h.Get("Content-Encoding"))
		}
		if !bytes.Equal(body, want) {
			t.Errorf("Accept-Encoding %q: the body is not the file", ae)
		}
	}
	if resp, _ := get("/static/elements/web-components.min.js", "gzip"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the unhashed name: %d, want 404", resp.StatusCode)
	}
	if resp, _ := get(a.URL("docs.css"), "gzip"); resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") {
		t.Errorf("docs.css: %d %v", resp.StatusCode, resp.Header)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"": false, "identity": false, "gzip": true, "GZIP": true, "deflate, gzip;q=0.5": true, "br, *": true,
		"gzip;q=0": false, "gzip;q=0, *": false, "*;q=0": false, "gzip;q=0.001": true, "gzipx": false,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}
