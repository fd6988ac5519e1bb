package api

import "net/http"

// serveDocs renders the contract with Stoplight Elements (loaded by the reader's browser).
func serveDocs(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(docsPage))
}

const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner API reference</title>
<script src="https://unpkg.com/@stoplight/elements@8/web-components.min.js"></script>
<link rel="stylesheet" href="https://unpkg.com/@stoplight/elements@8/styles.min.css">
</head>
<body style="height:100vh">
<noscript>The reference needs JavaScript; the contract itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<elements-api apiDescriptionUrl="/v1/openapi.json" router="hash" layout="sidebar" hideSchemas="false"></elements-api>
</body>
</html>`
