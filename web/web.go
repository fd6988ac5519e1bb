// Package web holds the console's static assets (CSS, the small copy-button script), embedded and
// served under content-hashed URLs so they can be cached forever.
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed static
var files embed.FS

// Prefix is where the assets are served.
const Prefix = "/static/"

// Assets serves the embedded files under hashed names and resolves names to their URLs.
type Assets struct {
	byURL  map[string]string // hashed name -> file name
	byName map[string]string // file name -> URL
}

// New hashes every embedded asset.
func New() *Assets {
	a := &Assets{byURL: map[string]string{}, byName: map[string]string{}}
	_ = fs.WalkDir(files, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		name := strings.TrimPrefix(p, "static/")
		ext := path.Ext(name)
		hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
		a.byURL[hashed] = p
		a.byName[name] = Prefix + hashed
		return nil
	})
	return a
}

// URL returns the cache-busted URL of an asset, e.g. URL("app.css") = "/static/app.1a2b3c4d5e6f.css".
func (a *Assets) URL(name string) string {
	if u, ok := a.byName[name]; ok {
		return u
	}
	return Prefix + name // unknown: a 404 that shows in tests
}

// ServeHTTP serves an asset by its hashed name, cacheable forever.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, ok := a.byURL[strings.TrimPrefix(r.URL.Path, Prefix)]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeFileFS(w, r, files, p)
}
