// Command bare is the load test's baseline: a bare net/http handler answering every request with
// the bytes of a file (the body partnerd answered), as application/json.
//
//	go run ./scripts/loadtest/bare -addr 127.0.0.1:9000 -body body.json
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"strconv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	path := flag.String("body", "", "file whose bytes every response carries")
	flag.Parse()
	body, err := os.ReadFile(*path)
	if err != nil {
		log.Fatal(err)
	}
	length := strconv.Itoa(len(body))
	log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{length}
		_, _ = w.Write(body)
	})))
}
