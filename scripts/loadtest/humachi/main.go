// Command humachi is the load test's measure of the fixed stack's own cost: the cached price read
// registered with Huma on chi as partnerd registers it (the same input and output types, JSON
// marshalled for every call), with none of the pipeline (no key, policy, admission, usage, request
// id or headers of its own). It answers every request with the price in a file (the body partnerd
// answered), so a call through partnerd can cost no less than a call here.
//
//	go run ./scripts/loadtest/humachi -addr 127.0.0.1:9000 -body body.json
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"os"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/api"
)

type priceInput struct {
	Mint string `path:"mint" maxLength:"100"`
	api.ChainParam
}

type priceOutput struct{ Body api.TokenPrice }

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	path := flag.String("body", "", "file holding the price every response carries")
	flag.Parse()
	raw, err := os.ReadFile(*path)
	if err != nil {
		log.Fatal(err)
	}
	var price api.TokenPrice
	if err := json.Unmarshal(raw, &price); err != nil {
		log.Fatal(err)
	}
	cfg := huma.DefaultConfig("humachi", "1")
	cfg.CreateHooks = nil // as partnerd: no $schema link in bodies
	cfg.OpenAPIPath, cfg.DocsPath, cfg.SchemasPath = "", "", ""
	cfg.Formats = map[string]huma.Format{"application/json": huma.DefaultJSONFormat}
	router := chi.NewRouter()
	huma.Register(humachi.New(router, cfg), huma.Operation{OperationID: "getTokenPrice", Method: http.MethodGet, Path: "/v1/tokens/{mint}/price"},
		func(context.Context, *priceInput) (*priceOutput, error) { return &priceOutput{Body: price}, nil })
	log.Fatal(http.ListenAndServe(*addr, router))
}
