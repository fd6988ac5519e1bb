// Package web holds the static assets, embedded and served under content-hashed URLs so they can be
// cached forever: the console's CSS and copy-button script, and the API reference's renderer
// (Stoplight Elements' web component, vendored from its npm package into static/elements by
// `make vendor`; see elements/vendor.go) with the reference page's docs.css.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed static
var files embed.FS

// Prefix is where the assets are served.
const Prefix = "/static/"

// Assets serves the embedded files under hashed names and resolves names to their URLs.
type Assets struct {
	byURL  map[string]*asset // hashed name -> file
	byName map[string]string // file name -> URL
}

// asset is one embedded file.
type asset struct {
	path        string                // in files
	contentType string                // by the extension, else sniffed
	gzip        func() ([]byte, bool) // its gzip encoding, made on first use; false when not worth serving
}

// New returns the assets; they are hashed once per process.
func New() *Assets { return shared() }

var shared = sync.OnceValue(func() *Assets {
	a := &Assets{byURL: map[string]*asset{}, byName: map[string]string{}}
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
		ctype := mime.TypeByExtension(ext)
		if ctype == "" {
			ctype = http.DetectContentType(b)
		}
		a.byURL[hashed] = &asset{path: p, contentType: ctype, gzip: sync.OnceValues(func() ([]byte, bool) { return gzipped(b) })}
		a.byName[name] = Prefix + hashed
		return nil
	})
	return a
})

// URL returns the cache-busted URL of an asset, e.g. URL("app.css") = "/static/app.1a2b3c4d5e6f.css".
func (a *Assets) URL(name string) string {
	if u, ok := a.byName[name]; ok {
		return u
	}
	return Prefix + name // unknown: a 404 that shows in tests
}

// ServeHTTP serves an asset by its hashed name, cacheable forever, gzip-encoded for clients that
// accept it when that makes it smaller (the docs renderer's script shrinks from 2 MB to about 0.6 MB).
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f, ok := a.byURL[strings.TrimPrefix(r.URL.Path, Prefix)]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", f.contentType)
	if gz, ok := f.gzip(); ok {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(gz))
			return
		}
	}
	http.ServeFileFS(w, r, files, f.path)
}

// gzipped is b gzip-encoded, if that saves at least a tenth.
func gzipped(b []byte) ([]byte, bool) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	if err := zw.Close(); err != nil || buf.Len() > len(b)*9/10 {
		return nil, false
	}
	return buf.Bytes(), true
}

// acceptsGzip reports whether an Accept-Encoding header admits gzip: named, or through "*", with a
// q-value above 0.
func acceptsGzip(header string) bool {
	gzipQ, anyQ := -1.0, -1.0
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if q, _ = strconv.ParseFloat(v, 64); q < 0 {
				q = 0
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip":
			gzipQ = q
		case "*":
			anyQ = q
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return anyQ > 0
}
