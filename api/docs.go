package api

import (
	"bytes"
	"html/template"
	"net/http"
	"sync"

	"github.com/partner-platform/partnerd/web"
)

// docsCSP is the reference page's Content-Security-Policy: scripts from this origin only (no
// inline script, no eval), connections to this origin only (the contract and "try it" calls),
// nothing framed, no form. Styles also need 'unsafe-inline': Elements injects <style> elements at
// run time (Font Awesome's stylesheet, and others whose hashes differ from one operation's page to
// the next, so a list of hashes cannot replace it). TestDocsBrowser opens every operation's page
// under it in Chromium.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

var docsTemplate = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{.Styles}}">
<link rel="stylesheet" href="{{.Page}}">
<script src="{{.Script}}"></script>
</head>
<body>
<noscript>The reference needs JavaScript; the contract itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<elements-api apiDescriptionUrl="/v1/openapi.json" router="hash" layout="sidebar"></elements-api>
</body>
</html>
`))

// docsPage is the reference page: Stoplight Elements, embedded in the binary by package web and
// served from its content-hashed URLs under web.Prefix, renders /v1/openapi.json.
var docsPage = sync.OnceValue(func() []byte {
	a := web.New()
	var b bytes.Buffer
	if err := docsTemplate.Execute(&b, map[string]string{
		"Styles": a.URL("elements/styles.min.css"),
		"Page":   a.URL("docs.css"),
		"Script": a.URL("elements/web-components.min.js"),
	}); err != nil {
		panic(err) // a constant template over strings cannot fail
	}
	return b.Bytes()
})

// serveDocs serves the API reference page at /v1/docs.
func serveDocs(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", docsCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-cache")
	_, _ = w.Write(docsPage())
}
